/* SPDX-License-Identifier: GPL-2.0 */
/* The sparse store of one tick: for each series that fired in it, one compact record of what
 * it added (sum, max, aux, the count on each of its CPUs, and only the buckets that moved),
 * in increasing series order. The collector keeps the last WINDOW_TICKS_MAX of them; the
 * 1 s, 10 s and 60 s windows are exact sums of them. A series that did not fire costs nothing
 * in a tick, and a record costs a few bytes per bucket it touched (LEB128 numbers, buckets as
 * gaps from the previous one), instead of a dense histogram per series per tick. */
#ifndef IRQLAT_TICKS_H
#define IRQLAT_TICKS_H

#include <stddef.h>
#include <stdint.h>
#include "hist.h"

struct tick_buf {
	uint8_t *data;
	size_t len, cap;
	uint32_t last_series;	/* of the last record appended (records go in increasing order) */
};

/* What one series added in one tick (or, for journal.c, holds since start). cpu_count[i] is
 * the count on the series' i-th CPU (struct series.cpus), bucket[] its dense histogram;
 * count = the buckets' sum. */
struct tick_delta {
	uint64_t sum_ns, max_ns, aux;
	const uint64_t *cpu_count;
	unsigned ncpus;
	const uint64_t *bucket;	/* HIST_BUCKETS entries */
};

void tick_buf_reset(struct tick_buf *b);
void tick_buf_free(struct tick_buf *b);
/* Appends series' record (series above the last one appended); 0 or -ENOMEM. */
int tick_buf_append(struct tick_buf *b, uint32_t series, const struct tick_delta *d);

/* Reads a tick's records back in order. */
struct tick_cursor {
	const uint8_t *p, *end;
	uint32_t series;	/* of the record at p; UINT32_MAX at the end */
};

void tick_cursor_init(struct tick_cursor *c, const struct tick_buf *b);
/* If the record at the cursor is series', adds it to h (count, sum, aux, buckets; max as a
 * max) and its CPU counts to cpu_count[0..ncpus) (NULL: not wanted), and moves on; records of
 * lower series are skipped. 1 when series had a record, 0 otherwise. */
int tick_cursor_take(struct tick_cursor *c, uint32_t series, struct hist *h, uint64_t *cpu_count,
		     unsigned ncpus);

#endif
