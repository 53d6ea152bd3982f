// SPDX-License-Identifier: GPL-2.0
/* collector_tick() over cells the test writes the way bpf/hardirq.bpf.c does (fake_bpf.h):
 * cells grouped into series by (kind, irqaction, IRQ), per-tick deltas, max taken and reset,
 * 32-bit bucket counters that wrap, windows over the sparse store of ticks, one snapshot's
 * figures agreeing with each other. The reference is the list of runs the test made,
 * histogrammed here. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/collect/collect.h"
#include "../fake_bpf.h"
#include "daemon/config/config.h"
#include "../../helpers/hist_sample.h"
#include "daemon/base/log.h"

#define ACTION_A 0xffff888001000000ull
#define ACTION_B 0xffff888002000000ull
#define NTICKS 75	/* more than the longest window (60 ticks) */

struct fixture {
	struct fake_bpf bpf;
	struct collector c;
	uint32_t a0, a1, b0;	/* cells: handler A on CPUs 0 and 1, handler B (same line) on CPU 0 */
	struct hist want_a[NTICKS], want_b[NTICKS];
	uint64_t want_a_cpu1[NTICKS];
	struct hist want_a_on[2][NTICKS];	/* A's runs on CPU 0 and on CPU 1 alone */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	log_setup(LOG_TARGET_STDERR, LOG_WARNING);
	fake_bpf_init(&f->bpf, 16);
	assert_int_equal(collector_init(&f->c, &f->bpf.l), 0);
	fake_clock_ns = f->c.start_ns = 1000000000ull;
	f->c.clock = fake_clock;
	*state = f;
	return 0;
}

/* A on CPUs 0 and 1, B (same line) on CPU 0 */
static void make_cells(struct fixture *f)
{
	f->a0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_A, "virtio1-req.0");
	f->a1 = fake_bpf_new_cell(&f->bpf, 25, 1, ACTION_A, "virtio1-req.0");
	f->b0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_B, "shared-on-25");
}

/* a tick one second after the one before */
static void tick(struct fixture *f)
{
	fake_clock_ns += 1000000000ull;
	collector_tick(&f->c);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	collector_free(&f->c);
	fake_bpf_free(&f->bpf);
	free(f);
	return 0;
}

static const struct series *find(const struct collector *c, uint32_t irq, const char *name)
{
	for (unsigned i = 0; i < c->nseries; i++)
		if (c->series[i].sub == irq && !strcmp(c->series[i].name, name))
			return &c->series[i];
	fail_msg("no series %u %s", irq, name);
	return NULL;
}

static unsigned idx(const struct collector *c, const struct series *s)
{
	return (unsigned)(s - c->series);
}

/* the window's per-CPU counts of series s, through the iterator the answers use */
static void cpu_window(const struct collector *c, const struct series *s, enum window w, uint64_t *out)
{
	struct window_iter it;
	struct hist h;

	collector_window_begin(c, w, &it);
	collector_window_next(&it, idx(c, s), &h, out);
}

static void assert_hist_equal(const struct hist *got, const struct hist *want, const char *what)
{
	if (got->count != want->count || got->sum_ns != want->sum_ns || got->max_ns != want->max_ns ||
	    got->aux != want->aux)
		fail_msg("%s: count %" PRIu64 "/%" PRIu64 " sum %" PRIu64 "/%" PRIu64 " max %" PRIu64 "/%" PRIu64
			 " aux %" PRIu64 "/%" PRIu64 " (got/want)", what, got->count, want->count, got->sum_ns,
			 want->sum_ns, got->max_ns, want->max_ns, got->aux, want->aux);
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
		add_sample(&f->want_a_on[0][t], d);
	}
	if (t % 2 == 0) {
		for (unsigned i = 0; i < 5; i++) {
			uint64_t d = 200000 + t * 1000 + i;	/* CPU 1 holds the max */

			fake_bpf_run(&f->bpf, f->a1, d, 0);
			add_sample(&f->want_a[t], d);
			add_sample(&f->want_a_on[1][t], d);
			f->want_a_cpu1[t]++;
		}
	}
	if (t == 3 || t == 70) {
		fake_bpf_run(&f->bpf, f->b0, 777, 1);
		fake_bpf_run(&f->bpf, f->b0, 5000000000ull, 0);	/* overflow bucket */
		add_sample(&f->want_b[t], 777);
		add_sample(&f->want_b[t], 5000000000ull);
		f->want_b[t].aux = 1;
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
	tick(f);
	assert_int_equal(f->c.nseries, 0);

	f->a0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_A, "virtio1-req.0");
	f->b0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_B, "shared-on-25");
	f->a1 = fake_bpf_new_cell(&f->bpf, 25, 1, ACTION_A, "virtio1-req.0");
	/* a cell being allocated right now: counted in next, metadata not ready yet */
	f->bpf.pool.next++;
	f->bpf.meta[3] = (struct lat_cell_meta){ .id = 0x1234, .sub = 1, .cpu = 1, .name = "i8042" };
	tick(f);

	assert_int_equal(f->c.nseries, 2);
	const struct series *a = find(&f->c, 25, "virtio1-req.0"), *b = find(&f->c, 25, "shared-on-25");
	assert_int_equal(a->id, ACTION_A);
	assert_int_equal(a->kind, KIND_HARDIRQ);
	assert_int_equal(a->ncpus, 2);
	assert_int_equal(a->cpus[0].cpu, 0);
	assert_int_equal(a->cpus[1].cpu, 1);
	assert_int_equal(a->cpus[1].cell, f->a1);
	assert_int_equal(b->id, ACTION_B);
	assert_int_equal(b->ncpus, 1);
	assert_int_equal(f->c.cells[3].series, -1);	/* waits for its metadata */
	assert_int_equal(f->c.pending, 3);

	/* its metadata is ready: a third series, taken at the next tick */
	f->bpf.meta[3].ready = 1;
	tick(f);
	assert_int_equal(f->c.nseries, 3);
	assert_int_equal(find(&f->c, 1, "i8042")->cpus[0].cpu, 1);
	assert_int_equal(f->c.pending, 4);

	/* an outlier's cell is taken at once, before any tick has seen it */
	uint32_t cpu = 99, id = fake_bpf_new_cell(&f->bpf, 7, 1, 0x777, "ahci");
	const struct series *s = collector_cell_series(&f->c, id, &cpu);
	assert_non_null(s);
	assert_string_equal(s->name, "ahci");
	assert_int_equal(cpu, 1);
	assert_int_equal(f->c.nseries, 4);
	assert_null(collector_cell_series(&f->c, id + 1, &cpu));	/* not handed out */

	/* the BPF side may count past its pool when CPUs race for the last cell: capped */
	f->bpf.pool.next = 16 + 3;
	tick(f);
	assert_int_equal(f->c.nseries, 4);
}

static void test_ticks_and_windows(void **state)
{
	struct fixture *f = *state;
	struct hist total_a = { 0 }, total_b = { 0 }, got, want;
	double secs[WINDOW_COUNT];

	make_cells(f);
	for (unsigned t = 0; t < NTICKS; t++) {
		make_runs(f, t);
		tick(f);
		hist_add(&total_a, &f->want_a[t]);
		hist_add(&total_b, &f->want_b[t]);

		const struct series *a = find(&f->c, 25, "virtio1-req.0"), *b = find(&f->c, 25, "shared-on-25");
		unsigned ia = idx(&f->c, a), ib = idx(&f->c, b);
		uint64_t cw[2];
		char what[64];

		/* the max is the tick's own: taken from the cell, which is left at 0 */
		assert_int_equal(f->bpf.cells[f->a0].max_ns, 0);
		assert_int_equal(f->bpf.cells[f->a1].max_ns, 0);
		snprintf(what, sizeof(what), "tick %u, A, 1s", t);
		collector_window(&f->c, ia, WINDOW_1S, &got, &secs[WINDOW_1S]);
		assert_hist_equal(&got, &f->want_a[t], what);
		snprintf(what, sizeof(what), "tick %u, B, 1s", t);
		collector_window(&f->c, ib, WINDOW_1S, &got, &secs[WINDOW_1S]);
		assert_hist_equal(&got, &f->want_b[t], what);

		/* 10 s and 60 s: the last 10 and 60 ticks, or all of them while there are fewer */
		snprintf(what, sizeof(what), "tick %u, A, 10s", t);
		want_window(f->want_a, t, t + 1 < 10 ? t + 1 : 10, &want);
		collector_window(&f->c, ia, WINDOW_10S, &got, &secs[WINDOW_10S]);
		assert_hist_equal(&got, &want, what);
		snprintf(what, sizeof(what), "tick %u, B, 60s", t);
		want_window(f->want_b, t, t + 1 < 60 ? t + 1 : 60, &want);
		collector_window(&f->c, ib, WINDOW_60S, &got, &secs[WINDOW_60S]);
		assert_hist_equal(&got, &want, what);
		snprintf(what, sizeof(what), "tick %u, A, total", t);
		collector_window(&f->c, ia, WINDOW_TOTAL, &got, &secs[WINDOW_TOTAL]);
		assert_hist_equal(&got, &total_a, what);
		collector_series_total(&f->c, ia, &got);
		assert_hist_equal(&got, &total_a, what);
		assert_int_equal(a->count, total_a.count);
		assert_int_equal(a->sum_ns, total_a.sum_ns);

		/* per CPU */
		uint64_t c1 = 0, c1_10 = 0;
		for (unsigned k = 0; k <= t; k++) {
			c1 += f->want_a_cpu1[k];
			if (k + 10 > t)
				c1_10 += f->want_a_cpu1[k];
		}
		assert_int_equal(a->cpus[1].count, c1);
		cpu_window(&f->c, a, WINDOW_10S, cw);
		assert_int_equal(cw[1], c1_10);
		cpu_window(&f->c, a, WINDOW_TOTAL, cw);
		assert_int_equal(cw[1], c1);
		assert_int_equal(a->cpus[0].count + a->cpus[1].count, total_a.count);

		/* each window is as long as the ticks it holds, one second each (the test's clock) */
		assert_float_equal(secs[WINDOW_1S], 1, 1e-9);
		assert_float_equal(secs[WINDOW_10S], t + 1 < 10 ? t + 1 : 10, 1e-9);
		assert_float_equal(secs[WINDOW_60S], t + 1 < 60 ? t + 1 : 60, 1e-9);
		assert_float_equal(secs[WINDOW_TOTAL], t + 1, 1e-9);
	}
	/* B was quiet from tick 4 to 69: its 60 s window at tick 74 holds only tick 70 */
	collector_window(&f->c, idx(&f->c, find(&f->c, 25, "shared-on-25")), WINDOW_60S, &got, &secs[0]);
	assert_int_equal(got.count, 2);
	assert_int_equal(got.aux, 1);
	assert_int_equal(got.bucket[HIST_OVERFLOW], 1);
	assert_int_equal(find(&f->c, 25, "shared-on-25")->count, 4);
	assert_int_equal(find(&f->c, 25, "shared-on-25")->aux, 2);
}

/* A pick of one CPU: every window and the totals are that CPU's runs alone (its cell's), and
 * the series on no CPU of the pick is said to be so */
static void test_windows_of_one_cpu(void **state)
{
	struct fixture *f = *state;
	struct hist total[2] = { { 0 } };
	struct cpu_pick pick[2];
	unsigned missing = 0;

	make_cells(f);
	assert_int_equal(cpu_pick_init(&pick[0], "0", 2, &missing), 0);
	assert_int_equal(cpu_pick_init(&pick[1], "1", 2, &missing), 0);
	struct cpu_pick bad;
	assert_int_equal(cpu_pick_init(&bad, "0,7", 2, &missing), -ERANGE);
	assert_int_equal(missing, 7);
	assert_int_equal(cpu_pick_init(&bad, "1-x", 2, &missing), -EINVAL);
	for (unsigned t = 0; t < NTICKS; t++) {
		make_runs(f, t);
		tick(f);
		const struct series *a = find(&f->c, 25, "virtio1-req.0"), *b = find(&f->c, 25, "shared-on-25");

		for (unsigned cpu = 0; cpu < 2; cpu++) {
			static const unsigned len[WINDOW_COUNT] = { 1, 10, 60, 0 };
			struct hist got, want;
			char what[64];

			hist_add(&total[cpu], &f->want_a_on[cpu][t]);
			for (enum window w = 0; w < WINDOW_COUNT; w++) {
				struct window_iter it;
				uint64_t cw[2];

				if (w == WINDOW_TOTAL)
					want = total[cpu];
				else
					want_window(f->want_a_on[cpu], t, t + 1 < len[w] ? t + 1 : len[w], &want);
				collector_window_begin_pick(&f->c, w, &pick[cpu], &it);
				collector_window_next(&it, idx(&f->c, a), &got, cw);
				snprintf(what, sizeof(what), "tick %u, A on CPU %u, %s", t, cpu, window_name(w));
				if (w == WINDOW_TOTAL)
					want.max_ns = got.max_ns == 0 && !want.count ? 0 : want.max_ns;
				assert_hist_equal(&got, &want, what);
				assert_int_equal(cw[cpu], want.count);
				assert_int_equal(cw[!cpu], 0);
			}
			collector_series_total_pick(&f->c, idx(&f->c, a), &pick[cpu], &got);
			assert_hist_equal(&got, &total[cpu], "A since start, one CPU");
		}
		assert_true(collector_series_on(a, &pick[1]));
		assert_false(collector_series_on(b, &pick[1]));
		assert_true(collector_series_on(b, NULL));
	}
	cpu_pick_free(&pick[0]);
	cpu_pick_free(&pick[1]);
}

/* One snapshot, one truth: in every tick, each series' count is the sum of its CPUs' counts and
 * of its buckets, in every window, and a series that did not fire takes no room in the tick. */
static void test_snapshot_consistent(void **state)
{
	struct fixture *f = *state;

	make_cells(f);
	for (unsigned t = 0; t < NTICKS; t++) {
		make_runs(f, t);
		tick(f);
		for (enum window w = 0; w < WINDOW_COUNT; w++) {
			struct window_iter it;

			collector_window_begin(&f->c, w, &it);
			for (unsigned i = 0; i < f->c.nseries; i++) {
				const struct series *s = &f->c.series[i];
				uint64_t cw[2] = { 0 }, buckets = 0;
				struct hist h;

				collector_window_next(&it, i, &h, cw);
				for (unsigned k = 0; k < HIST_BUCKETS; k++)
					buckets += h.bucket[k];
				if (h.count != buckets || h.count != cw[0] + (s->ncpus > 1 ? cw[1] : 0))
					fail_msg("tick %u, window %s, %s: count %" PRIu64 ", buckets %" PRIu64 ", CPUs %" PRIu64,
						 t, window_name(w), s->name, h.count, buckets, cw[0] + cw[1]);
			}
		}
	}
	/* B fired only in ticks 3 and 70 of 75: the quiet ticks hold A alone, and A's record of
	 * one tick is a few bytes per bucket it touched, not a histogram */
	size_t one = f->c.ticks[(NTICKS - 2) % WINDOW_TICKS_MAX].len;
	unsigned nb = 0;
	for (unsigned k = 0; k < HIST_BUCKETS; k++)
		nb += f->want_a[NTICKS - 2].bucket[k] != 0;
	printf("# tick %u: A touched %u buckets, the tick's store holds %zu bytes\n", NTICKS - 2, nb, one);
	assert_true(one <= 16 + 8 * (size_t)nb);
	assert_true(f->c.ticks[(NTICKS - 2) % WINDOW_TICKS_MAX].len <
		    f->c.ticks[70 % WINDOW_TICKS_MAX].len);
}

/* Each cell carries the outlier threshold; a cell the collector takes gets the one in effect,
 * and a new threshold reaches every cell there is. */
static void test_cell_threshold(void **state)
{
	struct fixture *f = *state;

	f->a0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_A, "virtio1-req.0");
	f->bpf.cells[f->a0].threshold_ns = 123;	/* allocated under an older threshold */
	f->bpf.l.cell_threshold_ns[KIND_HARDIRQ] = 100000;
	tick(f);
	assert_int_equal(f->bpf.cells[f->a0].threshold_ns, 100000);
	f->a1 = fake_bpf_new_cell(&f->bpf, 25, 1, ACTION_A, "virtio1-req.0");
	loader_set_threshold(&f->bpf.l, KIND_HARDIRQ, 250000);
	assert_int_equal(f->bpf.cells[f->a0].threshold_ns, 250000);
	assert_int_equal(f->bpf.cells[f->a1].threshold_ns, 250000);
	loader_set_threshold(&f->bpf.l, KIND_HARDIRQ, 0);	/* off: no value reaches it */
	assert_true(f->bpf.cells[f->a0].threshold_ns == UINT64_MAX);
	assert_int_equal(f->bpf.cells[2].threshold_ns, 0);	/* not handed out: untouched */
}

static void test_max_of_quiet_tick(void **state)
{
	struct fixture *f = *state;
	struct hist got;
	double secs;

	f->a0 = fake_bpf_new_cell(&f->bpf, 25, 0, ACTION_A, "virtio1-req.0");
	fake_bpf_run(&f->bpf, f->a0, 90000, 0);
	tick(f);
	tick(f);	/* nothing ran */
	collector_window(&f->c, 0, WINDOW_1S, &got, &secs);
	assert_int_equal(got.count, 0);
	assert_int_equal(got.max_ns, 0);
	collector_window(&f->c, 0, WINDOW_10S, &got, &secs);
	assert_int_equal(got.max_ns, 90000);
	/* a run of 0 ns moves no sum, only bucket 0: it fired all the same */
	fake_bpf_run(&f->bpf, f->a0, 0, 0);
	tick(f);
	collector_window(&f->c, 0, WINDOW_1S, &got, &secs);
	assert_int_equal(got.count, 1);
	assert_int_equal(got.bucket[HIST_ZERO], 1);
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
	f->bpf.cells[f->a0].sum_ns = 5000ull * 0xfffffff0u;
	f->bpf.cells[f->a0].aux = 0xfffffff8u;
	tick(f);
	for (int i = 0; i < 0x20; i++)
		fake_bpf_run(&f->bpf, f->a0, 5000, 1);
	assert_int_equal(f->bpf.cells[f->a0].hist[b], 0x10);	/* wrapped */
	assert_int_equal(f->bpf.cells[f->a0].aux, 0x18);
	tick(f);
	collector_window(&f->c, 0, WINDOW_1S, &got, &secs);
	assert_int_equal(got.bucket[b], 0x20);
	assert_int_equal(got.count, 0x20);
	assert_int_equal(got.aux, 0x20);
	collector_series_total(&f->c, 0, &got);
	assert_int_equal(got.bucket[b], 0xfffffff0ull + 0x20);	/* the wrap is counted */
	assert_int_equal(got.count, 0xfffffff0ull + 0x20);
	assert_int_equal(f->c.series[0].count, 0xfffffff0ull + 0x20);
	/* and again: twice past 2^32 */
	f->bpf.cells[f->a0].hist[b] = 0xfffffff0u;
	f->bpf.cells[f->a0].sum_ns += 5000ull * (0xfffffff0u - 0x10);
	tick(f);
	for (int i = 0; i < 0x20; i++)
		fake_bpf_run(&f->bpf, f->a0, 5000, 0);
	tick(f);
	collector_series_total(&f->c, 0, &got);
	assert_int_equal(got.bucket[b], 0xfffffff0ull + 0x20 + (0xfffffff0ull - 0x10) + 0x20);
}

static void test_map_memory(void **state)
{
	(void)state;
	/* issue 2: 2 CPUs and up to 256 handlers (the default pool of 1024 cells, 256 KiB of
	 * ring buffer) under 8 MiB */
	uint64_t small = loader_map_bytes(2, default_max_cells(2, MAX_WAKEUP_CELLS_DEFAULT), 256 * 1024);
	printf("# map memory, 2 CPUs, %u cells, 256 KiB ring: %" PRIu64 " bytes\n", default_max_cells(2, MAX_WAKEUP_CELLS_DEFAULT), small);
	assert_true(small < 8ull << 20);
	/* issue 9: 256 CPUs and 4096 handlers (the default pool, 32 cells per CPU: each handler
	 * may fire on two CPUs) under 64 MiB */
	uint64_t big = loader_map_bytes(256, default_max_cells(256, MAX_WAKEUP_CELLS_DEFAULT), 256 * 1024);
	printf("# map memory, 256 CPUs, %u cells, 256 KiB ring: %" PRIu64 " bytes\n", default_max_cells(256, MAX_WAKEUP_CELLS_DEFAULT), big);
	assert_true(big <= 64ull << 20);
	/* the terms of the documented formula: per cell the cell, its metadata and a hash entry;
	 * per CPU the hard-IRQ state with its cell cache, the softirq, vector, timer and threaded
	 * IRQ states and the drop counters */
	uint64_t one_cell = loader_map_bytes(1, 1, 0) - loader_map_bytes(1, 0, 0);
	uint64_t one_cpu = loader_map_bytes(2, 0, 0) - loader_map_bytes(1, 0, 0);
	assert_int_equal(sizeof(struct lat_cell), 1088);	/* 17 cache lines */
	assert_int_equal(sizeof(struct lat_cell) % 64, 0);
	assert_int_equal(one_cell, sizeof(struct lat_cell) + sizeof(struct lat_cell_meta) + sizeof(struct cell_key) + 8 + 48);
	assert_int_equal(sizeof(struct why_scan), 96);
	/* 3 lines, the ring of recent events, the flight recorder, the scans' rooms (480 bytes in 8 lines) */
	assert_int_equal(sizeof(struct cpu_clock), 704 + FLIGHT_EVENTS * 24 + 512);
	assert_int_equal(sizeof(struct softirq_cpu), 320);	/* 5 cache lines, 2 vectors each */
	assert_int_equal(sizeof(struct vector_cpu), 64);
	assert_int_equal(sizeof(struct timer_cpu), 64);	/* the expiry's cell cache */
	assert_int_equal(sizeof(struct why_count), 128);
	assert_int_equal(sizeof(struct threaded_cpu), 512);	/* 2 x 64 cell slots */
	assert_int_equal(sizeof(struct nmi_cpu), 128);	/* 8 handlers and their cells */
	assert_int_equal(one_cpu, sizeof(struct cpu_clock) + sizeof(struct hardirq_cpu) + sizeof(struct softirq_cpu) +
				  sizeof(struct vector_cpu) + sizeof(struct timer_cpu) + sizeof(struct threaded_cpu) +
				  sizeof(struct nmi_cpu) + WHY_CLASSES * sizeof(struct why_count) + DROP_KINDS * 8);
	/* and once: the wake-up stamps, the IRQ threads' table (a hash entry each) and the pid filter */
	assert_int_equal(sizeof(struct wait_slot), 64);
	assert_int_equal(loader_map_bytes(0, 0, 4096),
			 4096 + WAIT_SLOTS * sizeof(struct wait_slot) + THREADED_TASKS * (4 + sizeof(struct threaded_task) + 48) +
				 THREADED_PID_WORDS * 8);
	printf("# per cell %" PRIu64 " B, per CPU %" PRIu64 " B\n", one_cell, one_cpu);
}

/* A wake-up series whose task exited (src/daemon/collect/wakeup_reclaim.c): its cells given back
 * (ready cleared, then cleared and handed out by the programs to a task that may have the same
 * pid), the series ends: out of the ticks, not found again for the same identity; the cells'
 * new owner is a series of its own counting only its own values; and the ended series' slot is
 * used again once no window holds its ticks. */
static void test_end_series(void **state)
{
	struct fixture *f = *state;
	uint32_t c0 = fake_bpf_new_id_cell(&f->bpf, KIND_WAKEUP, 100, 100, 0, "sleeper");
	uint32_t c1 = fake_bpf_new_id_cell(&f->bpf, KIND_WAKEUP, 100, 100, 1, "sleeper");
	const struct series *s;
	unsigned old;

	fake_bpf_run(&f->bpf, c0, 20000, 0);
	fake_bpf_run(&f->bpf, c1, 30000, 0);
	tick(f);
	s = find(&f->c, 100, "sleeper");
	old = idx(&f->c, s);
	assert_int_equal(s->count, 2);
	assert_int_equal(s->ncpus, 2);
	/* given back: what take_back() does, then a value the old task recorded just before */
	f->bpf.meta[c0].ready = f->bpf.meta[c1].ready = 0;
	f->bpf.cells[c0].id = f->bpf.cells[c1].id = CELL_FREE_ID;
	collector_end_series(&f->c, old);
	assert_true(f->c.series[old].gone);
	tick(f);
	assert_int_equal(f->c.series[old].count, 2);	/* not read again */
	/* give_back() clears c1; a new task with the same pid takes it on CPU 0 */
	memset(&f->bpf.cells[c1], 0, sizeof(f->bpf.cells[c1]));
	f->bpf.cells[c1].id = f->bpf.cells[c1].sub = 100;
	f->bpf.meta[c1].cpu = 0;
	snprintf(f->bpf.meta[c1].name, IRQ_NAME_LEN, "%s", "reborn");
	f->bpf.meta[c1].ready = 1;
	fake_bpf_run(&f->bpf, c1, 5000, 0);
	tick(f);
	s = find(&f->c, 100, "reborn");
	assert_int_not_equal(idx(&f->c, s), old);
	assert_false(s->gone);
	assert_int_equal(s->count, 1);	/* its own value, none of the old task's */
	assert_int_equal(s->ncpus, 1);
	assert_int_equal(s->cpus[0].cell, c1);
	assert_int_equal(f->c.nretake, 1);	/* c0 is still out */
	/* within the longest window the old slot stays; past it a new series takes it */
	for (unsigned t = 0; t < WINDOW_TICKS_MAX; t++)
		tick(f);
	unsigned before = f->c.nseries;

	fake_bpf_new_id_cell(&f->bpf, KIND_WAKEUP, 200, 200, 0, "later");
	tick(f);
	s = find(&f->c, 200, "later");
	assert_int_equal(idx(&f->c, s), old);
	assert_int_equal(f->c.nseries, before);
	assert_false(s->gone);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cells_to_handlers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ticks_and_windows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_windows_of_one_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_snapshot_consistent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cell_threshold, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_of_quiet_tick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counter_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_end_series, setup, teardown),
		cmocka_unit_test(test_map_memory),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
