/* SPDX-License-Identifier: GPL-2.0 */
/* The sparse store of one tick: for each series that fired in it, one compact record of what
 * it added on each of its CPUs that fired (time, max, aux and only the buckets that moved),
 * in increasing series order. The collector keeps the last WINDOW_TICKS_MAX of them; the
 * 1 s, 10 s and 60 s windows are exact sums of them, of every CPU or of the CPUs asked for
 * (a cell is one series on one CPU, so a CPU's part of a window is its cell's own). A series
 * that did not fire costs nothing in a tick, and a record costs a few bytes per bucket it
 * touched on each CPU (LEB128 numbers, buckets as gaps from the previous one), instead of a
 * dense histogram per series per tick. */
#ifndef IRQLAT_TICKS_H
#define IRQLAT_TICKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "daemon/collect/hist.h"

struct tick_buf {
	uint8_t *data;
	size_t len, cap;
	uint32_t last_series;	/* of the last record appended (records go in increasing order) */
	size_t rec_start;	/* where the record being written begins (tick_buf_begin) */
	bool failed;		/* out of memory while writing it: tick_buf_end() drops it */
};

/* What one series added on one of its CPUs in one tick (or, for journal.c, holds since
 * start): slot is the CPU's index in the series (struct series.cpus), bucket[] its dense
 * histogram; its count is the buckets' sum. */
struct tick_cpu_delta {
	unsigned slot;
	uint64_t sum_ns, max_ns, aux;
	const uint64_t *bucket;	/* HIST_BUCKETS entries */
};

void tick_buf_reset(struct tick_buf *b);
void tick_buf_free(struct tick_buf *b);
/* A record of series (above the last one appended): tick_buf_begin(), then
 * tick_buf_add_cpu() for each CPU part (a part of no value is left out), then tick_buf_end().
 * 0 or -ENOMEM; after a failure the record is dropped at tick_buf_end(). */
int tick_buf_begin(struct tick_buf *b, uint32_t series);
int tick_buf_add_cpu(struct tick_buf *b, const struct tick_cpu_delta *d);
void tick_buf_end(struct tick_buf *b);
/* A record of one part: begin, add, end. */
int tick_buf_append(struct tick_buf *b, uint32_t series, const struct tick_cpu_delta *d);

/* Which CPU parts of a record a reader takes: slot k when want(arg, k). NULL: every one. */
struct tick_pick {
	bool (*want)(const void *arg, unsigned slot);
	const void *arg;
};

/* Reads a tick's records back in order. */
struct tick_cursor {
	const uint8_t *p, *end;
	uint32_t series;	/* of the record at p; UINT32_MAX at the end */
};

void tick_cursor_init(struct tick_cursor *c, const struct tick_buf *b);
/* If the record at the cursor is series', adds the parts pick takes to h (count, sum, aux,
 * buckets; max as a max), each part's count and time to cpu_count[slot] and cpu_sum_ns[slot]
 * (NULL: not wanted; slots from ncpus on are ignored), and moves on; records of lower series
 * are skipped. 1 when series had a record, 0 otherwise. */
int tick_cursor_take_cpus(struct tick_cursor *c, uint32_t series, const struct tick_pick *pick, struct hist *h,
			  uint64_t *cpu_count, uint64_t *cpu_sum_ns, unsigned ncpus);
/* The same, with each part's max kept per CPU too, in cpu_max[slot] (NULL: not wanted). */
int tick_cursor_take_cpu_max(struct tick_cursor *c, uint32_t series, const struct tick_pick *pick, struct hist *h,
			     uint64_t *cpu_count, uint64_t *cpu_sum_ns, uint64_t *cpu_max, unsigned ncpus);
/* Every part, without the per-CPU figures. */
int tick_cursor_take(struct tick_cursor *c, uint32_t series, struct hist *h);

#endif
