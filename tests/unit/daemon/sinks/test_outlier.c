// SPDX-License-Identifier: GPL-2.0
/* outlier.c: which outliers reach the journal. Wake-ups of tasks log-wakeups leaves out are not
 * logged; each source at most outlier-rate a second; every source together at most outlier-cap
 * entries a minute, storms included (the outliers keeping room for them); an outlier that
 * delayed no task (idle CPUs) is counted only, unless log-idle; what was held back is said once
 * the minute is over, and
 * every outlier is either logged, held back or not logged (the counts add up). The policies
 * are set by hand here: the kernel's answer (task_sched_read()) is for the host tests. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "daemon/base/log.h"
#include "daemon/collect/collect.h"
#include "daemon/sinks/outlier.h"

#define S 1000000000ull

static struct outlier_rules rules(unsigned per_second, unsigned cap, enum log_wakeups w)
{
	struct daemon_config c;
	struct outlier_rules r;

	daemon_config_defaults(&c);
	c.outlier_rate = per_second;
	c.outlier_cap = cap;
	c.log_wakeups = w;
	outlier_rules_from_config(&r, &c);
	return r;
}

static struct outlier irq(uint32_t n, uint64_t ts)
{
	struct outlier o = { .kind = KIND_HARDIRQ, .sub = n, .ts_ns = ts, .value_ns = 200000 };

	snprintf(o.name, sizeof(o.name), "dev%u", n);
	return o;
}

static struct outlier wakeup(uint32_t pid, const char *comm, enum task_policy p, uint64_t ts)
{
	struct outlier o = { .kind = KIND_WAKEUP, .sub = pid, .ts_ns = ts, .value_ns = 3000000, .aux = pid,
			     .woken_pid = pid, .woken = { p, p == TASK_POLICY_FIFO ? 50 : 0 } };

	snprintf(o.name, sizeof(o.name), "%s", comm);
	return o;
}

static void test_defaults(void **state)
{
	struct daemon_config c;
	(void)state;

	daemon_config_defaults(&c);
	assert_int_equal(c.outlier_cap, 3);
	assert_int_equal(c.log_wakeups, LOG_WAKEUPS_RT);
	assert_int_equal(c.nlog_tasks, 0);
	assert_int_equal(c.exited_task_grace_s, 60);
}

static void test_task_filter(void **state)
{
	struct outlier_rules r = rules(10, 0, LOG_WAKEUPS_RT);
	struct outlier fifo = wakeup(100, "cyclictest", TASK_POLICY_FIFO, S), rr = wakeup(101, "rt", TASK_POLICY_RR, S),
		       dl = wakeup(102, "dl", TASK_POLICY_DEADLINE, S), other = wakeup(103, "fio", TASK_POLICY_OTHER, S),
		       gone = wakeup(104, "exited", TASK_POLICY_UNKNOWN, S), hw = irq(36, S);
	struct outlier timer = { .kind = KIND_TIMER, .sub = 0, .aux = 103, .woken_pid = 103, .woken = { TASK_POLICY_OTHER, 0 } };
	(void)state;

	assert_true(outlier_wanted(&r, &fifo));
	assert_true(outlier_wanted(&r, &rr));
	assert_true(outlier_wanted(&r, &dl));
	assert_false(outlier_wanted(&r, &other));
	assert_false(outlier_wanted(&r, &gone));	/* exited before it was asked: unknown */
	assert_true(outlier_wanted(&r, &hw));		/* about no task */
	assert_false(outlier_wanted(&r, &timer));	/* hrtimer_wakeup's lateness is its task's */
	timer.aux = timer.woken_pid = 0;		/* a timer that woke nobody */
	assert_true(outlier_wanted(&r, &timer));

	/* log-tasks: by pid, by comm pattern; named: only those; all: every task */
	struct daemon_config c;
	struct config_error e;
	struct config_origin at = { 0 };

	daemon_config_defaults(&c);
	assert_int_equal(config_set(&c, "log-tasks", "fi*, 104", &at, &e), 0);
	assert_int_equal(c.nlog_tasks, 2);
	outlier_rules_from_config(&r, &c);
	assert_true(outlier_wanted(&r, &other));	/* fio matches fi* */
	assert_true(outlier_wanted(&r, &gone));		/* pid 104 */
	assert_true(outlier_wanted(&r, &fifo));
	r.log_wakeups = LOG_WAKEUPS_NAMED;
	assert_false(outlier_wanted(&r, &fifo));
	assert_true(outlier_wanted(&r, &other));
	r.log_wakeups = LOG_WAKEUPS_ALL;
	r.ntasks = 0;
	assert_true(outlier_wanted(&r, &other));
	assert_true(outlier_wanted(&r, &gone));

	assert_int_equal(config_set(&c, "log-wakeups", "some", &at, &e), -EINVAL);
	assert_string_equal(e.text, "--log-wakeups takes rt, named or all, not 'some'");
	assert_int_equal(config_set(&c, "log-tasks", "0", &at, &e), -EINVAL);
}

static void test_cap(void **state)
{
	struct outlier_rules r = rules(10, 3, LOG_WAKEUPS_RT);
	struct outlier_limiter l;
	unsigned logged = 0;
	(void)state;

	outlier_init(&l, &r);
	/* 100 outliers of 5 sources over 50 s: 1 entry, two of the cap kept for a storm's start
	 * and end, the rest held back */
	for (unsigned i = 0; i < 100; i++) {
		struct outlier o = irq(30 + i % 5, 10 * S + i * S / 2);

		logged += outlier_handle(&l, &o) == OUTLIER_LOGGED;
	}
	assert_int_equal(logged, 1);
	assert_int_equal(l.held, 99);
	assert_int_equal(l.nsources, 5);
	/* a storm starts: its entry is one of those kept */
	assert_true(outlier_storm_entry(&l, 60 * S, true, "rate storm on IRQ 36 (virtio1-req.0)"));
	outlier_flush(&l, 69 * S);	/* the minute began at 10 s: not over */
	assert_int_equal(l.summaries, 0);
	outlier_flush(&l, 70 * S);
	assert_int_equal(l.summaries, 1);
	outlier_flush(&l, 200 * S);	/* said once */
	assert_int_equal(l.summaries, 1);
	assert_int_equal(l.nsources, 0);

	/* while it goes on, an outlier has an entry only when none was written in 60 s */
	struct outlier a = irq(40, 130 * S), b = irq(41, 131 * S);
	assert_int_equal(outlier_handle(&l, &a), OUTLIER_LOGGED);
	assert_int_equal(outlier_handle(&l, &b), OUTLIER_HELD);
	assert_true(outlier_storm_entry(&l, 132 * S, true, "unhandled storm on IRQ 9 (acpi)"));
	assert_true(outlier_storm_entry(&l, 133 * S, true, "rate storm on IRQ 37 (virtio2)"));
	/* a fourth entry in 60 s: the storm is held back, named in the held-back entry */
	assert_false(outlier_storm_entry(&l, 134 * S, true, "rate storm on IRQ 38 (virtio3)"));
	assert_int_equal(l.window_storms, 1);
	assert_string_equal(l.window_storm[0], "rate storm on IRQ 38 (virtio3) started");
	assert_false(outlier_storm_entry(&l, 134 * S + S / 2, false, "rate storm on IRQ 38 (virtio3)"));
	/* a real-time task's outlier is held back like any other, and said by name */
	struct outlier rt = wakeup(4242, "cyclictest", TASK_POLICY_FIFO, 135 * S);
	assert_int_equal(outlier_handle(&l, &rt), OUTLIER_HELD);
	/* an outlier of the next minute ends this one first; 133 s's entry is not a minute old */
	struct outlier c = irq(42, 191 * S);
	assert_int_equal(outlier_handle(&l, &c), OUTLIER_HELD);
	assert_int_equal(l.summaries, 2);
	assert_int_equal(l.storms_held, 2);
	assert_true(outlier_storm_entry(&l, 192 * S, false, "rate storm on IRQ 36 (virtio1-req.0)"));
	assert_true(outlier_storm_entry(&l, 193 * S, false, "unhandled storm on IRQ 9 (acpi)"));
	struct outlier d = irq(43, 253 * S);	/* a minute after those ends; one storm goes on */
	assert_int_equal(outlier_handle(&l, &d), OUTLIER_LOGGED);
	outlier_flush_all(&l);
	assert_int_equal(l.summaries, 3);
	assert_int_equal(l.logged + l.held + l.not_logged, 100 + 5);
	outlier_destroy(&l);
}

/* The cap holds over any 60 s, not only over the minutes the held-back entries count: 2000
 * outliers of 40 sources at random times over 20 minutes, sparse then dense */
static void test_cap_sliding(void **state)
{
	struct outlier_rules r = rules(10, 3, LOG_WAKEUPS_RT);
	struct outlier_limiter l;
	uint64_t x = 27, t = 5 * S, logged[2000];
	unsigned n = 0;
	(void)state;

	outlier_init(&l, &r);
	for (unsigned i = 0; i < 2000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		t += i < 100 ? (x >> 33) % (20 * S) : (x >> 33) % (S / 2);
		struct outlier o = irq(20 + (unsigned)(x >> 60), t);

		outlier_flush(&l, t);	/* the ticks in between */
		if (outlier_handle(&l, &o) == OUTLIER_LOGGED)
			logged[n++] = t;
	}
	/* 1: two entries of the minute are kept for a storm's start and end */
	for (unsigned i = 1; i < n; i++)
		if (logged[i] - logged[i - 1] < 60 * S)
			fail_msg("2 outlier entries within %.1f s", (double)(logged[i] - logged[i - 1]) / S);
	assert_true(n >= 10);
	assert_int_equal(l.logged + l.held, 2000);
	outlier_destroy(&l);
}

static void test_rate_and_accounting(void **state)
{
	struct outlier_rules r = rules(2, 0, LOG_WAKEUPS_RT);	/* no cap: outlier-rate alone */
	struct outlier_limiter l;
	unsigned logged = 0, not_logged = 0;
	(void)state;

	outlier_init(&l, &r);
	for (unsigned i = 0; i < 30; i++) {	/* 10 a second for 3 s, one source */
		struct outlier o = irq(36, 5 * S + i * S / 10);

		logged += outlier_handle(&l, &o) == OUTLIER_LOGGED;
	}
	assert_int_equal(logged, 6);
	for (unsigned i = 0; i < 20; i++) {	/* a normal task: not logged, whatever the limits */
		struct outlier o = wakeup(700 + i, "hackbench", TASK_POLICY_OTHER, 9 * S);

		not_logged += outlier_handle(&l, &o) == OUTLIER_NOT_LOGGED;
	}
	assert_int_equal(not_logged, 20);
	assert_int_equal(l.held, 24);
	/* a real-time task that exited before its last outlier was handled: still its task */
	struct outlier rt = wakeup(4242, "cyclictest", TASK_POLICY_FIFO, 9 * S), gone = rt;

	gone.woken.policy = TASK_POLICY_UNKNOWN;
	assert_int_not_equal(outlier_handle(&l, &rt), OUTLIER_NOT_LOGGED);
	assert_int_not_equal(outlier_handle(&l, &gone), OUTLIER_NOT_LOGGED);
	gone.sub = gone.woken_pid = gone.aux = 4243;	/* another task, never seen: unknown, not logged */
	assert_int_equal(outlier_handle(&l, &gone), OUTLIER_NOT_LOGGED);
	outlier_flush_all(&l);
	assert_int_equal(l.summaries, 1);
	assert_int_equal(l.logged + l.held + l.not_logged, 53);

	/* a flood of sources: the table stops at OUTLIER_SOURCES_MAX, the rest are counted */
	r = rules(10, 1, LOG_WAKEUPS_ALL);
	outlier_configure(&l, &r);
	for (unsigned i = 0; i < OUTLIER_SOURCES_MAX + 100; i++) {
		struct outlier o = wakeup(1000 + i, "short", TASK_POLICY_OTHER, 500 * S);

		outlier_handle(&l, &o);
	}
	assert_int_equal(l.nsources, OUTLIER_SOURCES_MAX);
	assert_int_equal(l.overflow_held, 100);
	outlier_flush_all(&l);
	assert_int_equal(l.summaries, 2);
	assert_null(l.sources);	/* its table given back */
	outlier_destroy(&l);
}

/* An outlier that delayed no task, from its record: a timer late on an idle CPU that woke none,
 * a vector that interrupted the idle task; counted, not logged, unless log-idle */
static void test_idle(void **state)
{
	struct outlier_rules r = rules(10, 0, LOG_WAKEUPS_RT);
	struct outlier_limiter l;
	struct series timer = { .kind = KIND_TIMER, .name = "tick_nohz_handler" };
	struct series vec = { .kind = KIND_VECTOR, .name = "LOC" };
	struct outlier_event e = { .ts_ns = 5 * S, .value_ns = 800000 };
	struct outlier o;
	(void)state;

	e.aux = TIMER_AUX_IDLE;		/* late out of idle, woke nobody */
	outlier_from_event(&o, &e, &timer, 1);
	assert_true(o.idle);
	e.aux = TIMER_AUX_IDLE | 4242;	/* woke a task: its wake-up is late too */
	outlier_from_event(&o, &e, &timer, 1);
	assert_false(o.idle);
	assert_int_equal(o.woken_pid, 4242);
	e.aux = 0;			/* late on a busy CPU */
	outlier_from_event(&o, &e, &timer, 1);
	assert_false(o.idle);
	e.pid = 0;			/* a vector that interrupted the idle task */
	outlier_from_event(&o, &e, &vec, 1);
	assert_true(o.idle);
	e.pid = 77;
	outlier_from_event(&o, &e, &vec, 1);
	assert_false(o.idle);

	outlier_init(&l, &r);
	e.aux = TIMER_AUX_IDLE;
	outlier_from_event(&o, &e, &timer, 1);
	assert_int_equal(outlier_handle(&l, &o), OUTLIER_NOT_LOGGED);
	assert_int_equal(l.idle, 1);
	assert_int_equal(l.not_logged, 1);
	/* those the timer program counted and did not send (log-idle off): in the same counts
	 * and the minute's figures, the longest kept */
	outlier_idle_counted(&l, 3, 900000, 6 * S);
	outlier_idle_counted(&l, 0, 0, 7 * S);
	assert_int_equal(l.idle, 4);
	assert_int_equal(l.not_logged, 4);
	assert_int_equal(l.window_idle, 4);
	assert_int_equal(l.window_idle_worst_ns, 900000);
	r.log_idle = true;
	outlier_configure(&l, &r);
	assert_int_equal(outlier_handle(&l, &o), OUTLIER_LOGGED);
	assert_int_equal(l.idle, 4);
	outlier_destroy(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_task_filter),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_cap_sliding),
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_rate_and_accounting),
	};

	log_setup(LOG_TARGET_STDERR, LOG_DEBUG);
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
