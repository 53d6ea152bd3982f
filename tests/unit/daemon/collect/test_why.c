// SPDX-License-Identifier: GPL-2.0
/* collect/why.c: a record named from the cells a test lays out as the BPF programs would (the
 * waiter's wake-up cell, the IRQ handler's), the journal's line of it, an outlier paired with
 * its explanation across another CPU's records, one that lost its explanation going on after
 * WHY_PARK_NS, the bounded recent waits of a CPU and the totals per CPU, class and part. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "../fake_bpf.h"
#include "daemon/collect/collect.h"
#include "daemon/collect/why.h"

struct fixture {
	struct fake_bpf bpf;
	struct collector col;
	uint32_t wake, irq, timer;
};

static int setup(void **state)
{
	static struct fixture f;

	fake_bpf_init(&f.bpf, 64);
	f.wake = fake_bpf_new_id_cell(&f.bpf, KIND_WAKEUP, 1234, 1234, 1, "cyclictest");
	f.irq = fake_bpf_new_cell(&f.bpf, 36, 1, 0xffff000012340000ull, "virtio1-req.0");
	f.timer = fake_bpf_new_id_cell(&f.bpf, KIND_TIMER, 0, 1, 1, "tick_nohz_handler");
	if (collector_init(&f.col, &f.bpf.l) < 0)
		return -1;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	collector_free(&f->col);
	fake_bpf_free(&f->bpf);
	return 0;
}

/* The record bpf/why.bpf.h sends for the wait of test_summary in tests/unit/common/test_why.c */
static struct why_event record(const struct fixture *f, uint64_t ts)
{
	struct why_event e = { .type = RB_WHY, .cell = f->wake, .ts_ns = ts, .total_ns = 1700000, .pid = 1234,
			       .cpu = 1, .wake_cpu = 1, .waiter_prio = 4, .blocker_pid = 99, .blocker_prio = 0,
			       .blocker_policy = 1, .blocker_comm = "stress-ng" };

	e.part_ns[WHY_BLOCKING] = 1207000;
	e.part_ns[WHY_IRQ] = 340000;
	e.part_ns[WHY_SOFTIRQ] = 51000;
	e.part_ns[WHY_NMI] = 51000;
	e.part_ns[WHY_REMAINDER] = 51000;
	e.top[RECENT_IRQ].cell = f->irq + 1;
	e.top[RECENT_IRQ].ns = 330000;
	return e;
}

static void test_named(void **state)
{
	struct fixture *f = *state;
	struct why_event e = record(f, 1000);
	struct why_named w;
	char buf[512];

	why_name(&w, &e, &f->col);
	assert_int_equal(w.cls, WHY_CLASS_WAKEUP);
	assert_string_equal(w.comm, "cyclictest");
	assert_string_equal(w.top[RECENT_IRQ], "IRQ 36 virtio1-req.0");
	assert_string_equal(w.top[RECENT_SOFTIRQ], "");
	why_summary(buf, sizeof(buf), &w);
	assert_string_equal(buf, "cyclictest[1234] woke 1.7 ms late on CPU 1: 71% blocking task stress-ng[99] (FIFO 99), "
				 "20% IRQ 36 virtio1-req.0, 9% other");

	/* a late timer is named by its function, as its series is (kallsyms names it: the
	 * test's address is no function, so by its number) */
	uint32_t cpu;
	const struct series *ts = collector_cell_series(&f->col, f->timer, &cpu);
	char want[256];

	assert_non_null(ts);
	struct why_event t = { .type = RB_WHY, .cell = f->timer, .total_ns = 800000, .cpu = 1, .wake_cpu = 1,
			       .flags = WHY_F_IDLE_AT_EXPIRY };

	t.part_ns[WHY_LATE_IDLE] = 800000;
	why_name(&w, &t, &f->col);
	assert_int_equal(w.cls, WHY_CLASS_TIMER);
	assert_string_equal(w.what, ts->name);
	why_summary(buf, sizeof(buf), &w);
	snprintf(want, sizeof(want), "timer %s fired 800 us late on CPU 1: 100%% exit from idle", ts->name);
	assert_string_equal(buf, want);
}

/* the waits kept per CPU: 64 on a small machine, fewer on a large one (WHY_RECENT_TOTAL in
 * all), 4 at least */
static void test_kept_per_cpu(void **state)
{
	static const unsigned cpus[] = { 1, 2, 16, 32, 64, 256, 1024 }, want[] = { 64, 64, 64, 32, 16, 4, 4 };
	struct why_store s;
	(void)state;

	for (unsigned i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		assert_int_equal(why_store_init(&s, cpus[i]), 0);
		assert_int_equal(s.per_cpu, want[i]);
		why_store_free(&s);
	}
}

static void test_pairing(void **state)
{
	struct why_store s;
	struct outlier_event a = { .type = RB_OUTLIER, .cell = 3, .ts_ns = 100 }, b = { .type = RB_OUTLIER, .cell = 5, .ts_ns = 200 },
			     out;
	(void)state;

	assert_int_equal(why_store_init(&s, 2), 0);
	assert_false(why_park(&s, &a, 1000, &out));
	assert_false(why_park(&s, &b, 1001, &out));
	/* b's explanation first (another CPU's records came between a and its own) */
	assert_true(why_unpark(&s, 5, 200, &out));
	assert_int_equal(out.cell, 5);
	assert_false(why_unpark(&s, 5, 200, &out));
	assert_false(why_unpark(&s, 3, 200, &out));	/* same cell, another wait */
	/* a's never came: not before its time is up, then once */
	assert_false(why_expired(&s, 1000, &out));
	assert_true(why_expired(&s, 1000 + WHY_PARK_NS, &out));
	assert_int_equal(out.cell, 3);
	assert_false(why_expired(&s, UINT64_MAX, &out));
	assert_int_equal(s.unpaired, 1);
	/* a full park lets the oldest go on */
	for (unsigned i = 0; i < WHY_PARK; i++) {
		struct outlier_event e = { .type = RB_OUTLIER, .cell = i, .ts_ns = i };

		assert_false(why_park(&s, &e, i, &out));
	}
	assert_true(why_park(&s, &a, 5000, &out));
	assert_int_equal(out.cell, 0);
	assert_int_equal(s.unpaired, 2);
	why_store_free(&s);
}

struct seen {
	uint64_t ts[WHY_RECENT_PER_CPU * 4];
	unsigned n;
};

static void seen_wait(const struct why_named *w, void *userdata)
{
	struct seen *s = userdata;

	s->ts[s->n++] = w->ts_ns;
}

static void test_recent_and_totals(void **state)
{
	struct fixture *f = *state;
	struct why_store s;
	struct seen seen = { 0 };
	struct why_named w;
	uint64_t sum;

	assert_int_equal(why_store_init(&s, 2), 0);
	/* CPU 1: more than it keeps; CPU 0: three, between them in time */
	for (unsigned i = 0; i < WHY_RECENT_PER_CPU + 6; i++) {
		struct why_event e = record(f, 1000 + 10 * i);

		why_name(&w, &e, &f->col);
		why_add(&s, &w, true);
	}
	for (unsigned i = 0; i < 3; i++) {
		struct why_event e = record(f, 1000 + 10 * (WHY_RECENT_PER_CPU + 3) + 5 + i);

		e.cpu = e.wake_cpu = 0;
		why_name(&w, &e, &f->col);
		why_add(&s, &w, false);
	}
	why_walk(&s, seen_wait, &seen);
	assert_int_equal(seen.n, WHY_RECENT_PER_CPU + 3);
	assert_int_equal(seen.ts[0], 1000 + 10 * 6);	/* CPU 1's first 6 are gone */
	for (unsigned i = 1; i < seen.n; i++)
		if (seen.ts[i] < seen.ts[i - 1])
			fail_msg("wait %u at %llu after one at %llu", i, (unsigned long long)seen.ts[i],
				 (unsigned long long)seen.ts[i - 1]);
	/* totals: every wait counted, gone from the ring or not; the parts add up to the total */
	const struct why_total *t1 = &s.totals[1 * WHY_CLASSES + WHY_CLASS_WAKEUP], *t0 = &s.totals[WHY_CLASS_WAKEUP];

	assert_int_equal(t1->waits, WHY_RECENT_PER_CPU + 6);
	assert_int_equal(t0->waits, 3);
	assert_int_equal(t1->total_ns, (WHY_RECENT_PER_CPU + 6) * 1700000ull);
	assert_int_equal(t1->part_ns[WHY_BLOCKING], (WHY_RECENT_PER_CPU + 6) * 1207000ull);
	sum = 0;
	for (int i = 0; i < WHY_PARTS; i++)
		sum += t1->part_ns[i];
	assert_int_equal(sum, t1->total_ns);
	assert_int_equal(s.explained, WHY_RECENT_PER_CPU + 9);
	assert_int_equal(s.lone, 3);
	why_store_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_kept_per_cpu),
		cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_recent_and_totals),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, setup, teardown);
}
