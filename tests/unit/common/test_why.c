// SPDX-License-Identifier: GPL-2.0
/* common/why.c: the shares of the parts (whole percent adding up to 100, each within one point
 * of its exact share, checked against the exact fractions), the summary line against lines
 * written out by hand, and a wait through JSON and back. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "common/why.h"

/* cyclictest[1234] on CPU 1, 1.7 ms: 71% stress-ng[99] at FIFO 99, 20% IRQ 36, 3% each of
 * softirqs, NMIs and the remainder */
static struct why_named cyclictest(void)
{
	struct why_named w = {
		.cls = WHY_CLASS_WAKEUP, .ts_ns = 5000000000ull, .total_ns = 1700000, .cpu = 1, .wake_cpu = 1,
		.pid = 1234, .comm = "cyclictest", .waiter_prio = 4, .blocker_pid = 99, .blocker_prio = 0,
		.blocker_policy = 1, .blocker_comm = "stress-ng", .others = 0,
	};

	w.part_ns[WHY_BLOCKING] = 1207000;
	w.part_ns[WHY_IRQ] = 340000;
	w.part_ns[WHY_SOFTIRQ] = 51000;
	w.part_ns[WHY_NMI] = 51000;
	w.part_ns[WHY_REMAINDER] = 51000;
	snprintf(w.top[RECENT_IRQ], sizeof(w.top[RECENT_IRQ]), "IRQ 36 virtio1-req.0");
	w.top_ns[RECENT_IRQ] = 330000;
	return w;
}

static void test_summary(void **state)
{
	struct why_named w = cyclictest();
	char buf[512];
	(void)state;

	why_summary(buf, sizeof(buf), &w);
	assert_string_equal(buf, "cyclictest[1234] woke 1.7 ms late on CPU 1: 71% blocking task stress-ng[99] (FIFO 99), "
				 "20% IRQ 36 virtio1-req.0, 9% other");
	assert_int_equal(why_top_part(&w), WHY_BLOCKING);

	/* a late tick on an idle CPU: all of it exit from idle, nothing left for "other" */
	struct why_named t = { .cls = WHY_CLASS_TIMER, .total_ns = 800000, .cpu = 0, .wake_cpu = 0,
			       .flags = WHY_F_IDLE_AT_EXPIRY, .what = "tick_nohz_handler" };

	t.part_ns[WHY_LATE_IDLE] = 800000;
	why_summary(buf, sizeof(buf), &t);
	assert_string_equal(buf, "timer tick_nohz_handler fired 800 us late on CPU 0: 100% exit from idle");

	/* a wait that moved is not split; a blocking task of lower priority goes to the remainder,
	 * named; a gone task is named by its pid */
	struct why_named m = { .cls = WHY_CLASS_WAKEUP, .total_ns = 2000000, .cpu = 1, .wake_cpu = 0, .pid = 77,
			       .flags = WHY_F_MOVED };

	m.part_ns[WHY_UNSPLIT] = 2000000;
	why_summary(buf, sizeof(buf), &m);
	assert_string_equal(buf, "task 77 woke 2.0 ms late on CPU 1: 100% not split: woken on CPU 0");

	struct why_named l = { .cls = WHY_CLASS_THREADED, .total_ns = 1000000, .cpu = 1, .wake_cpu = 1, .pid = 300,
			       .comm = "irq/36-virtio1", .flags = WHY_F_BLOCKER_LOWER, .blocker_pid = 500,
			       .blocker_prio = 120, .blocker_comm = "make", .others = 2 };

	l.part_ns[WHY_REMAINDER] = 600000;
	l.part_ns[WHY_OTHERS] = 400000;
	why_summary(buf, sizeof(buf), &l);
	assert_string_equal(buf, "irq/36-virtio1[300] waited 1.0 ms to run on CPU 1: 60% preemption off in make[500] (nice 0), "
				 "40% 2 other tasks");
}

static void test_policy_text(void **state)
{
	char b[32];
	(void)state;

	why_policy_text(b, sizeof(b), 1, 0);
	assert_string_equal(b, "FIFO 99");
	why_policy_text(b, sizeof(b), 2, 94);
	assert_string_equal(b, "RR 5");
	why_policy_text(b, sizeof(b), 0, 139);
	assert_string_equal(b, "nice 19");
	why_policy_text(b, sizeof(b), 6, -1);
	assert_string_equal(b, "deadline");
}

static void test_shares(void **state)
{
	uint64_t part[WHY_PARTS];
	unsigned pct[WHY_PARTS];
	(void)state;

	srand(29);
	for (int round = 0; round < 10000; round++) {
		uint64_t total = 0;
		unsigned sum = 0;

		for (int i = 0; i < WHY_PARTS; i++) {
			part[i] = rand() % 4 ? 0 : (uint64_t)rand() % (round % 2 ? 1000 : 5000000);
			total += part[i];
		}
		why_shares(part, total, pct);
		for (int i = 0; i < WHY_PARTS; i++) {
			/* the exact share, by long double, against the whole percent */
			long double exact = total ? 100.0L * part[i] / total : 0;

			sum += pct[i];
			if (pct[i] + 1 <= exact || pct[i] >= exact + 1)
				fail_msg("part %d: %llu of %llu is %.3Lf%%, given %u%%", i, (unsigned long long)part[i],
					 (unsigned long long)total, exact, pct[i]);
			if (!part[i] && pct[i])
				fail_msg("an empty part was given %u%%", pct[i]);
		}
		assert_int_equal(sum, total ? 100 : 0);
	}
}

static void test_json_round_trip(void **state)
{
	struct why_named w = cyclictest(), back;
	json_object *o;
	(void)state;

	w.flags = WHY_F_IDLE_AT_EXPIRY | WHY_F_RECENT_PARTIAL;
	w.others = 3;
	o = why_json(&w);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "cause")), "blocking");
	assert_int_equal(why_from_json(o, &back), 0);
	assert_memory_equal(back.part_ns, w.part_ns, sizeof(w.part_ns));
	assert_int_equal(back.total_ns, w.total_ns);
	assert_int_equal(back.flags, w.flags);
	assert_int_equal(back.others, 3);
	assert_int_equal(back.blocker_prio, 0);
	assert_string_equal(back.blocker_comm, "stress-ng");
	assert_string_equal(back.top[RECENT_IRQ], "IRQ 36 virtio1-req.0");
	assert_int_equal(back.top_ns[RECENT_IRQ], 330000);
	json_object_put(o);
	assert_int_equal(why_from_json(NULL, &back), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_policy_text),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_json_round_trip),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
