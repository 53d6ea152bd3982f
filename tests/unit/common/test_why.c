// SPDX-License-Identifier: GPL-2.0
/* common/why.c: the shares of the parts (whole percent adding up to 100, each within one point
 * of its exact share, checked against the exact fractions), the summary line against lines
 * written out by hand, and a wait through JSON and back; a timeline's window out of a copy of
 * the flight recorder (records set by hand, the window counted by hand), its lines, and it
 * through JSON and back. */
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

/* names every cell "IRQ <cell> test" */
static void name_stub(void *ctx, unsigned type, uint32_t cell, char *buf, size_t len)
{
	(void)ctx;
	(void)type;
	snprintf(buf, len, "IRQ %u test", cell);
}

/* A copy at head 200: the newest record is slot 199 of block 3, so rec[] holds slots 128-191
 * (block 2) and 192-255 (block 3), of which 192-199 are this lap's (rec[64..71]) and the rest
 * the lap before, older than all and left out. Record i of this lap at 1000 + 100 i ns. */
static struct timeline_event *copy_at_200(uint64_t start_ns)
{
	struct timeline_event *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->type = RB_TIMELINE;
	t->head = 200;
	t->start_ns = start_ns;
	for (unsigned i = 0; i < TIMELINE_RECS; i++) {
		t->rec[i].ts_ns = i < 72 ? 1000 + 100 * i : 5 + i;	/* 72 on: the lap before */
		t->rec[i].type = i % 2 ? FL_IRQ : FL_SWITCH;
		t->rec[i].a = i;
		t->rec[i].b = i + 1;
	}
	return t;
}

static void test_timeline_window(void **state)
{
	struct why_named *w = calloc(1, sizeof(*w));
	struct timeline_event *t = copy_at_200(7000);	/* record 60's time */

	(void)state;
	assert_non_null(w);
	why_timeline_pick(w, t, name_stub, NULL);
	/* 60-71 in the window, 56-59 before it */
	assert_int_equal(w->ntl, 12 + WHY_TIMELINE_BEFORE);
	assert_false(w->tl_partial);
	assert_int_equal(w->start_ns, 7000);
	assert_int_equal(w->tl[0].t_ns, -400);
	assert_int_equal(w->tl[0].a, 56);
	assert_int_equal(w->tl[0].type, FL_SWITCH);
	assert_string_equal(w->tl[0].name, "");		/* a switch names no cell */
	assert_int_equal(w->tl[WHY_TIMELINE_BEFORE].t_ns, 0);
	assert_int_equal(w->tl[w->ntl - 1].t_ns, 1100);
	assert_int_equal(w->tl[w->ntl - 1].a, 71);
	assert_string_equal(w->tl[w->ntl - 1].name, "IRQ 72 test");
	free(t);

	/* a window longer than WHY_TIMELINE_MAX: the newest, said partial */
	t = copy_at_200(500);
	why_timeline_pick(w, t, NULL, NULL);
	assert_int_equal(w->ntl, WHY_TIMELINE_MAX);
	assert_true(w->tl_partial);
	assert_int_equal(w->tl[WHY_TIMELINE_MAX - 1].a, 71);
	assert_int_equal(w->tl[0].a, 72 - WHY_TIMELINE_MAX);

	/* a ring not yet round once: block 3 of slots never written, 5 records in block 0; a
	 * start before them all is not partial (nothing older was ever written) */
	memset(t->rec, 0, sizeof(t->rec));
	t->head = 5;
	for (unsigned i = 0; i < 5; i++)
		t->rec[TIMELINE_BLOCK + i] = (struct flight_rec){ .ts_ns = 600 + i, .type = FL_TIMER, .a = 3, .b = 0 };
	why_timeline_pick(w, t, name_stub, NULL);
	assert_int_equal(w->ntl, 5);
	assert_false(w->tl_partial);
	assert_int_equal(w->tl[0].t_ns, 100);
	assert_string_equal(w->tl[0].name, "");		/* cell 0: none */

	/* written out of time order (an interrupt's record before that of the program it
	 * interrupted, which read its time first): the timeline is in time order */
	t->head = 3;
	t->rec[TIMELINE_BLOCK + 0] = (struct flight_rec){ .ts_ns = 610, .type = FL_VECTOR, .a = 1, .b = 0 };
	t->rec[TIMELINE_BLOCK + 1] = (struct flight_rec){ .ts_ns = 605, .type = FL_SOFTIRQ, .a = 2, .b = 0 };
	t->rec[TIMELINE_BLOCK + 2] = (struct flight_rec){ .ts_ns = 620, .type = FL_SWITCH, .a = 3, .b = 4 };
	why_timeline_pick(w, t, name_stub, NULL);
	assert_int_equal(w->ntl, 3);
	assert_int_equal(w->tl[0].type, FL_SOFTIRQ);
	assert_int_equal(w->tl[0].t_ns, 105);
	assert_int_equal(w->tl[1].type, FL_VECTOR);
	assert_int_equal(w->tl[2].type, FL_SWITCH);

	/* nothing recorded */
	t->head = 0;
	why_timeline_pick(w, t, name_stub, NULL);
	assert_int_equal(w->ntl, 0);
	free(t);
	free(w);
}

static void test_timeline_lines(void **state)
{
	struct why_tl sw = { .t_ns = -1500, .type = FL_SWITCH, .a = 99, .b = 1234, .c = 0u << 16 | 120 };
	struct why_tl irq = { .t_ns = 12340, .type = FL_SOFTIRQ, .a = 40100, .name = "softirq NET_RX" };
	struct why_tl tm = { .t_ns = 0, .type = FL_TIMER, .a = 2500, .c = 1, .name = "hrtimer_wakeup" };
	struct why_tl wk = { .t_ns = 900000, .type = FL_WAKE, .a = 42 };
	struct why_tl nmi = { .t_ns = 5, .type = FL_NMI, .a = 1000 };
	char line[160];

	(void)state;
	why_tl_line(line, sizeof(line), &sw, 100000);
	assert_string_equal(line, "<       -1.50 us  switch 99 (prio 0) -> 1234 (prio 120)");
	why_tl_line(line, sizeof(line), &irq, 100000);
	assert_string_equal(line, "|      +12.34 us  softirq NET_RX ends, 40.10 us");
	why_tl_line(line, sizeof(line), &tm, 100000);
	assert_string_equal(line, "|       +0.00 us  timer hrtimer_wakeup starts, 2.50 us late (softirq)");
	why_tl_line(line, sizeof(line), &wk, 100000);
	assert_string_equal(line, ">     +900.00 us  wakes 42");
	why_tl_line(line, sizeof(line), &nmi, 100000);
	assert_string_equal(line, "|       +0.01 us  nmi ends, 1.00 us");
	assert_string_equal(why_tl_type_name(FL_VECTOR), "vector");
	assert_null(why_tl_type_name(FL_TYPES));
	assert_int_equal(why_tl_type_by_name("wake"), FL_WAKE);
	assert_int_equal(why_tl_type_by_name("bogus"), -1);
}

static void test_timeline_json(void **state)
{
	struct why_named *w = calloc(1, sizeof(*w)), *back = calloc(1, sizeof(*back));
	json_object *o;

	(void)state;
	assert_non_null(w);
	assert_non_null(back);
	*w = cyclictest();
	w->start_ns = 4999000000ull;
	w->tl_partial = true;
	w->tl[w->ntl++] = (struct why_tl){ .t_ns = -300, .type = FL_IRQ, .a = 2000, .name = "IRQ 36 virtio1-req.0" };
	w->tl[w->ntl++] = (struct why_tl){ .t_ns = 0, .type = FL_TIMER, .a = 700, .c = 0, .name = "hrtimer_wakeup" };
	w->tl[w->ntl++] = (struct why_tl){ .t_ns = 100, .type = FL_WAKE, .a = 1234, .c = 1 };
	w->tl[w->ntl++] = (struct why_tl){ .t_ns = 1700000, .type = FL_SWITCH, .a = 99, .b = 1234, .c = 0u << 16 | 4 };
	/* not in the summary every event carries: only where asked for */
	o = why_json(w);
	assert_false(json_object_object_get_ex(o, "timeline", NULL));
	why_json_detail(o, w, WHY_DETAIL_STACKS);
	assert_false(json_object_object_get_ex(o, "timeline", NULL));
	why_json_detail(o, w, WHY_DETAIL_TIMELINE);
	assert_int_equal(why_from_json(o, back), 0);
	assert_false(back->tl_gone);
	assert_int_equal(back->ntl, 4);
	assert_int_equal(back->start_ns, w->start_ns);
	assert_true(back->tl_partial);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(back->tl[i].t_ns, w->tl[i].t_ns);
		assert_int_equal(back->tl[i].type, w->tl[i].type);
		assert_int_equal(back->tl[i].a, w->tl[i].a);
		assert_int_equal(back->tl[i].c, w->tl[i].c);
		assert_string_equal(back->tl[i].name, w->tl[i].name);
	}
	assert_int_equal(back->tl[3].b, 1234);
	json_object_put(o);
	/* one no longer kept when the detail was asked for: said so */
	o = why_json(w);
	json_object_object_add(o, "timeline_gone", json_object_new_boolean(true));
	assert_int_equal(why_from_json(o, back), 0);
	assert_true(back->tl_gone);
	assert_int_equal(back->ntl, 0);
	json_object_put(o);
	free(w);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_policy_text),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_timeline_window),
		cmocka_unit_test(test_timeline_lines),
		cmocka_unit_test(test_timeline_json),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
