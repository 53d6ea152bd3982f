// SPDX-License-Identifier: GPL-2.0
/* collect/why_counts.c: the kernel's counts of the late waits read from a why_counts map the
 * test fills as bpf/why.bpf.h does (fake_bpf.h): each element whole as of the reading; an
 * element whose seq says a wait is being added (odd), however often it is read, keeps its last
 * whole reading and counts a stale reading; what status and /metrics show without a map (the
 * daemon's own totals). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "../fake_bpf.h"
#include "daemon/collect/why.h"
#include "daemon/collect/why_counts.h"

static void parts_of(uint64_t part[WHY_PARTS], uint64_t blocking, uint64_t irq)
{
	memset(part, 0, WHY_PARTS * sizeof(part[0]));
	part[WHY_BLOCKING] = blocking;
	part[WHY_IRQ] = irq;
}

static void test_read(void **state)
{
	struct fake_bpf b;
	struct why_counts k;
	struct why_store s;
	uint64_t part[WHY_PARTS];
	const struct why_total *t;
	(void)state;

	fake_bpf_init(&b, 4);
	assert_int_equal(why_store_init(&s, b.l.ncpus), 0);
	assert_int_equal(why_counts_init(&k, b.l.why_counts, b.l.ncpus), 0);
	s.kernel = &k;
	parts_of(part, 700, 300);
	fake_bpf_why_add(&b, 1, WHY_CLASS_WAKEUP, 1000, part);
	fake_bpf_why_add(&b, 1, WHY_CLASS_WAKEUP, 1000, part);
	parts_of(part, 0, 50);
	fake_bpf_why_add(&b, 0, WHY_CLASS_TIMER, 50, part);
	why_counts_sync(&k);
	t = why_counts_shown(&s, 1, WHY_CLASS_WAKEUP);
	assert_int_equal(t->waits, 2);
	assert_int_equal(t->total_ns, 2000);
	assert_int_equal(t->part_ns[WHY_BLOCKING], 1400);
	assert_int_equal(t->part_ns[WHY_IRQ], 600);
	assert_int_equal(why_counts_shown(&s, 0, WHY_CLASS_TIMER)->waits, 1);
	assert_int_equal(why_counts_shown(&s, 0, WHY_CLASS_WAKEUP)->waits, 0);
	assert_int_equal(k.stale, 0);

	/* a wait being added on CPU 1 (seq odd), half written: the last whole reading stands,
	 * each time it is read, until the program is done */
	b.why[1 * WHY_CLASSES + WHY_CLASS_WAKEUP].seq++;
	b.why[1 * WHY_CLASSES + WHY_CLASS_WAKEUP].waits++;
	b.why[1 * WHY_CLASSES + WHY_CLASS_WAKEUP].total_ns += 5000;
	why_counts_sync(&k);
	why_counts_sync(&k);
	t = why_counts_shown(&s, 1, WHY_CLASS_WAKEUP);
	assert_int_equal(t->waits, 2);
	assert_int_equal(t->total_ns, 2000);
	assert_int_equal(k.stale, 2);
	b.why[1 * WHY_CLASSES + WHY_CLASS_WAKEUP].part_ns[WHY_OTHERS] += 5000;
	b.why[1 * WHY_CLASSES + WHY_CLASS_WAKEUP].seq++;
	why_counts_sync(&k);
	t = why_counts_shown(&s, 1, WHY_CLASS_WAKEUP);
	assert_int_equal(t->waits, 3);
	assert_int_equal(t->total_ns, 7000);
	assert_int_equal(t->part_ns[WHY_OTHERS], 5000);
	assert_int_equal(k.stale, 2);

	/* no map: the daemon's own totals */
	s.kernel = NULL;
	s.totals[1 * WHY_CLASSES + WHY_CLASS_WAKEUP].waits = 1;
	assert_int_equal(why_counts_shown(&s, 1, WHY_CLASS_WAKEUP)->waits, 1);
	why_counts_free(&k);
	why_store_free(&s);
	fake_bpf_free(&b);
}

/* The late timers counted and not sent: how many since the last taking, the longest of them,
 * each CPU's longest given back as 0 */
static void test_unsent(void **state)
{
	struct fake_bpf b;
	struct why_counts k;
	uint64_t part[WHY_PARTS], worst = 1;
	(void)state;

	fake_bpf_init(&b, 4);	/* 2 CPUs */
	assert_int_equal(why_counts_init(&k, b.l.why_counts, b.l.ncpus), 0);
	assert_int_equal(why_counts_take_unsent(&k, &worst), 0);
	assert_int_equal(worst, 0);
	parts_of(part, 0, 0);
	part[WHY_LATE_IDLE] = 800000;
	fake_bpf_why_unsent(&b, 0, 800000, part);
	part[WHY_LATE_IDLE] = 600000;
	fake_bpf_why_unsent(&b, 0, 600000, part);
	part[WHY_LATE_IDLE] = 950000;
	fake_bpf_why_unsent(&b, 1, 950000, part);
	fake_bpf_why_add(&b, 1, WHY_CLASS_TIMER, 990000, part);	/* sent: not among them */
	assert_int_equal(why_counts_take_unsent(&k, &worst), 3);
	assert_int_equal(worst, 950000);
	assert_int_equal(b.why[0 * WHY_CLASSES + WHY_CLASS_TIMER].unsent_max_ns, 0);
	assert_int_equal(b.why[1 * WHY_CLASSES + WHY_CLASS_TIMER].unsent_max_ns, 0);
	why_counts_sync(&k);
	assert_int_equal(k.last[0 * WHY_CLASSES + WHY_CLASS_TIMER].unsent, 2);
	assert_int_equal(k.last[0 * WHY_CLASSES + WHY_CLASS_TIMER].waits, 2);
	/* the next taking: only what came since */
	part[WHY_LATE_IDLE] = 300000;
	fake_bpf_why_unsent(&b, 1, 300000, part);
	assert_int_equal(why_counts_take_unsent(&k, &worst), 1);
	assert_int_equal(worst, 300000);
	assert_int_equal(why_counts_take_unsent(&k, &worst), 0);
	assert_int_equal(worst, 0);
	why_counts_free(&k);
	fake_bpf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_unsent),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
