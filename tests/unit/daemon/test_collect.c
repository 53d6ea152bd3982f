// SPDX-License-Identifier: GPL-2.0
/* collector_tick() over cells the test writes the way bpf/hardirq.bpf.c does (fake_bpf.h):
 * cells grouped into handlers by (IRQ, irqaction), per-tick deltas, max taken and reset,
 * 32-bit bucket counters that wrap, windows over the ring of ticks. The reference is the
 * list of runs the test made, histogrammed here. */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/collect.h"
#include "fake_bpf.h"
#include "../helpers/hist_sample.h"
#include "daemon/log.h"

#define ACTION_A 0xffff888001000000ull
#define ACTION_B 0xffff888002000000ull
#define NTICKS 75	/* more than the longest window (60 ticks) */

struct fixture {
	struct fake_bpf bpf;
	struct collector c;
	uint32_t a0, a1, b0;	/* cells: handler A on CPUs 0 and 1, handler B (same line) on CPU 0 */
	struct hist want_a[NTICKS], want_b[NTICKS];
	uint64_t want_a_cpu1[NTICKS];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	log_setup(LOG_TARGET_STDERR, LOG_WARNING);
	fake_bpf_init(&f->bpf, 16);
	assert_int_equal(collector_init(&f->c, &f->bpf.l), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	collector_free(&f->c);
	fake_bpf_free(&f->bpf);
	free(f);
	return 0;
}

static const struct handler *find(const struct collector *c, uint32_t irq, const char *name)
{
	for (unsigned i = 0; i < c->nhandlers; i++)
		if (c->handlers[i].irq == irq && !strcmp(c->handlers[i].name, name))
			return &c->handlers[i];
	fail_msg("no handler %u %s", irq, name);
	return NULL;
}

static void assert_hist_equal(const struct hist *got, const struct hist *want, const char *what)
{
	if (got->count != want->count || got->sum_ns != want->sum_ns || got->max_ns != want->max_ns ||
	    got->spurious != want->spurious)
		fail_msg("%s: count %" PRIu64 "/%" PRIu64 " sum %" PRIu64 "/%" PRIu64 " max %" PRIu64 "/%" PRIu64
			 " spurious %" PRIu64 "/%" PRIu64 " (got/want)", what, got->count, want->count, got->sum_ns,
			 want->sum_ns, got->max_ns, want->max_ns, got->spurious, want->spurious);
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		if (got->bucket[b] != want->bucket[b])
			fail_msg("%s: bucket %u has %" PRIu64 ", not %" PRIu64, what, b, got->bucket[b], want->bucket[b]);
}

/* Runs in tick t: A on CPU 0 every tick, A on CPU 1 in even ticks, B only in ticks 3 and
 * 70 (quiet in between, so its windows must forget it). One spurious run of B each time. */
static void make_runs(struct fixture *f, unsigned t)
{
	for (unsigned i = 0; i < 20 + t; i++) {
		uint64_t d = 1000 + (i * 2654435761u + t * 40503u) % 30000;

		fake_bpf_run(&f->bpf, f->a0, d, 0);
		add_sample(&f->want_a[t], d);
	}
	if (t % 2 == 0) {
		for (unsigned i = 0; i < 5; i++) {
			uint64_t d = 200000 + t * 1000 + i;	/* CPU 1 holds the max */

			fake_bpf_run(&f->bpf, f->a1, d, 0);
			add_sample(&f->want_a[t], d);
			f->want_a_cpu1[t]++;
		}
	}
	if (t == 3 || t == 70) {
		fake_bpf_run(&f->bpf, f->b0, 777, 1);
		fake_bpf_run(&f->bpf, f->b0, 5000000000ull, 0);	/* overflow bucket */
		add_sample(&f->want_b[t], 777);
		add_sample(&f->want_b[t], 5000000000ull);
		f->want_b[t].spurious = 1;
	}
}

static void want_window(const struct hist *per_tick, unsigned last, unsigned n, struct hist *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned t = last + 1 - n; t <= last; t++)
		hist_add(out, &per_tick[t]);
}

static void test_cells_to_handlers(void **state)
{
	struct fixture *f = *state;

	/* before any cell exists */
	collector_tick(&f->c);
	assert_int_equal(f->c.nhandlers, 0);

	f->a0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_A, "virtio1-req.0");
	f->b0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_B, "shared-on-25");
	f->a1 = fake_bpf_new_cell(&f->bpf, 25, 1, ACTION_A, "virtio1-req.0");
	/* a cell being allocated right now: counted in next_cell, metadata not written yet */
	f->bpf.bss.next_cell++;
	collector_tick(&f->c);

	assert_int_equal(f->c.nhandlers, 2);
	const struct handler *a = find(&f->c, 25, "virtio1-req.0"), *b = find(&f->c, 25, "shared-on-25");
	assert_int_equal(a->action_id, ACTION_A);
	assert_int_equal(a->ncpus, 2);
	assert_int_equal(a->cpus[0].cpu, 0);
	assert_int_equal(a->cpus[1].cpu, 1);
	assert_int_equal(b->action_id, ACTION_B);
	assert_int_equal(b->ncpus, 1);
	assert_int_equal(f->c.cells[3].handler, -1);	/* waits for its metadata */

	/* its metadata arrives: a third handler, taken at the next tick */
	f->bpf.meta[3] = (struct irq_cell_meta){ .action_id = 0x1234, .irq = 1, .cpu = 1, .name = "i8042" };
	collector_tick(&f->c);
	assert_int_equal(f->c.nhandlers, 3);
	assert_int_equal(find(&f->c, 1, "i8042")->cpus[0].cpu, 1);

	/* the BPF side may count past its pool when CPUs race for the last cell: capped */
	f->bpf.bss.next_cell = 16 + 3;
	collector_tick(&f->c);
	assert_int_equal(f->c.nhandlers, 3);
}

static void test_ticks_and_windows(void **state)
{
	struct fixture *f = *state;
	struct hist total_a = { 0 }, total_b = { 0 }, got, want;
	double secs[WINDOW_COUNT];

	f->a0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_A, "virtio1-req.0");
	f->a1 = fake_bpf_new_cell(&f->bpf, 25, 1, ACTION_A, "virtio1-req.0");
	f->b0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_B, "shared-on-25");
	for (unsigned t = 0; t < NTICKS; t++) {
		make_runs(f, t);
		collector_tick(&f->c);
		hist_add(&total_a, &f->want_a[t]);
		hist_add(&total_b, &f->want_b[t]);

		const struct handler *a = find(&f->c, 25, "virtio1-req.0"), *b = find(&f->c, 25, "shared-on-25");
		char what[64];

		/* the max is the tick's own: taken from the cell, which is left at 0 */
		assert_int_equal(f->bpf.cells[f->a0].max_ns, 0);
		assert_int_equal(f->bpf.cells[f->a1].max_ns, 0);
		snprintf(what, sizeof(what), "tick %u, A, 1s", t);
		collector_window(&f->c, a, WINDOW_1S, &got, &secs[WINDOW_1S]);
		assert_hist_equal(&got, &f->want_a[t], what);
		snprintf(what, sizeof(what), "tick %u, B, 1s", t);
		collector_window(&f->c, b, WINDOW_1S, &got, &secs[WINDOW_1S]);
		assert_hist_equal(&got, &f->want_b[t], what);

		/* 10 s and 60 s: the last 10 and 60 ticks, or all of them while there are fewer */
		snprintf(what, sizeof(what), "tick %u, A, 10s", t);
		want_window(f->want_a, t, t + 1 < 10 ? t + 1 : 10, &want);
		collector_window(&f->c, a, WINDOW_10S, &got, &secs[WINDOW_10S]);
		assert_hist_equal(&got, &want, what);
		snprintf(what, sizeof(what), "tick %u, B, 60s", t);
		want_window(f->want_b, t, t + 1 < 60 ? t + 1 : 60, &want);
		collector_window(&f->c, b, WINDOW_60S, &got, &secs[WINDOW_60S]);
		assert_hist_equal(&got, &want, what);
		snprintf(what, sizeof(what), "tick %u, A, total", t);
		collector_window(&f->c, a, WINDOW_TOTAL, &got, &secs[WINDOW_TOTAL]);
		assert_hist_equal(&got, &total_a, what);

		/* per CPU */
		uint64_t c1 = 0, c1_10 = 0;
		for (unsigned k = 0; k <= t; k++) {
			c1 += f->want_a_cpu1[k];
			if (k + 10 > t)
				c1_10 += f->want_a_cpu1[k];
		}
		assert_int_equal(a->cpus[1].count, c1);
		assert_int_equal(collector_cpu_window_count(&f->c, &a->cpus[1], WINDOW_10S), c1_10);
		assert_int_equal(collector_cpu_window_count(&f->c, &a->cpus[1], WINDOW_TOTAL), c1);
		assert_int_equal(a->cpus[0].count + a->cpus[1].count, total_a.count);

		/* each window is as long as the ticks it holds: never empty, never longer than a
		 * longer window (tick times come from the clock; only their order is asserted) */
		if (secs[WINDOW_1S] <= 0 || secs[WINDOW_1S] > secs[WINDOW_10S] ||
		    secs[WINDOW_10S] > secs[WINDOW_60S] || secs[WINDOW_60S] > secs[WINDOW_TOTAL])
			fail_msg("tick %u: window lengths 1s %.9f, 10s %.9f, 60s %.9f, total %.9f", t,
				 secs[WINDOW_1S], secs[WINDOW_10S], secs[WINDOW_60S], secs[WINDOW_TOTAL]);
		if (t >= 60 && !(secs[WINDOW_60S] < secs[WINDOW_TOTAL]))
			fail_msg("tick %u: the 60 s window (%.9f s) is not shorter than the total (%.9f s)", t,
				 secs[WINDOW_60S], secs[WINDOW_TOTAL]);
	}
	/* B was quiet from tick 4 to 69: its 60 s window at tick 74 holds only tick 70 */
	collector_window(&f->c, find(&f->c, 25, "shared-on-25"), WINDOW_60S, &got, &secs[0]);
	assert_int_equal(got.count, 2);
	assert_int_equal(got.spurious, 1);
	assert_int_equal(got.bucket[HIST_BUCKETS - 1], 1);
	assert_int_equal(find(&f->c, 25, "shared-on-25")->total.count, 4);
}

static void test_max_of_quiet_tick(void **state)
{
	struct fixture *f = *state;
	struct hist got;
	double secs;

	f->a0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_A, "virtio1-req.0");
	fake_bpf_run(&f->bpf, f->a0, 90000, 0);
	collector_tick(&f->c);
	collector_tick(&f->c);	/* nothing ran */
	collector_window(&f->c, &f->c.handlers[0], WINDOW_1S, &got, &secs);
	assert_int_equal(got.count, 0);
	assert_int_equal(got.max_ns, 0);
	collector_window(&f->c, &f->c.handlers[0], WINDOW_10S, &got, &secs);
	assert_int_equal(got.max_ns, 90000);
}

static void test_counter_wrap(void **state)
{
	struct fixture *f = *state;
	unsigned b = hist_bucket(5000);
	struct hist got;
	double secs;

	/* the cell's 32-bit bucket counters wrap on a long-running machine; deltas do not */
	f->a0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_A, "virtio1-req.0");
	f->bpf.cells[f->a0].hist[b] = 0xfffffff0u;
	f->bpf.cells[f->a0].count = 0xfffffff0u;
	collector_tick(&f->c);
	for (int i = 0; i < 0x20; i++)
		fake_bpf_run(&f->bpf, f->a0, 5000, 0);
	assert_int_equal(f->bpf.cells[f->a0].hist[b], 0x10);	/* wrapped */
	collector_tick(&f->c);
	collector_window(&f->c, &f->c.handlers[0], WINDOW_1S, &got, &secs);
	assert_int_equal(got.bucket[b], 0x20);
	assert_int_equal(got.count, 0x20);
	assert_int_equal(f->c.handlers[0].total.bucket[b], 0xfffffff0ull + 0x20);
}

static void test_map_memory(void **state)
{
	(void)state;
	/* issue 2: 2 CPUs and up to 256 handlers (IRQ numbers up to 256, the default pool of
	 * 1024 cells, 256 KiB of ring buffer) under 8 MiB */
	uint64_t small = loader_map_bytes(2, 257, 1024, 256 * 1024);
	printf("# map memory, 2 CPUs, 257 slots, 1024 cells, 256 KiB ring: %" PRIu64 " bytes\n", small);
	assert_true(small < 8ull << 20);
	/* the terms of the documented formula */
	uint64_t one_cell = loader_map_bytes(1, 0, 1, 0) - loader_map_bytes(1, 0, 0, 0);
	uint64_t one_slot = loader_map_bytes(1, 1, 0, 0) - loader_map_bytes(1, 0, 0, 0);
	assert_int_equal(one_slot, sizeof(struct irq_slot));
	assert_true(one_cell >= sizeof(struct irq_cell) + sizeof(struct irq_cell_meta));
	printf("# per slot %" PRIu64 " B, per cell %" PRIu64 " B; 256 CPUs, 4097 slots, 8192 cells: %" PRIu64 " bytes\n",
	       one_slot, one_cell, loader_map_bytes(256, 4097, 8192, 256 * 1024));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cells_to_handlers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ticks_and_windows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_of_quiet_tick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counter_wrap, setup, teardown),
		cmocka_unit_test(test_map_memory),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
