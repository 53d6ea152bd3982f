/* SPDX-License-Identifier: GPL-2.0 */
/* What a /metrics page is made of, whatever its format (docs/metrics.md): metrics.c walks the
 * collector and hands each family, each number and each histogram to a page writer, which
 * writes them in its format: the text format 0.0.4 (metrics_text.c) or the protobuf stream of
 * MetricFamily messages with native histograms (metrics_pb.c). One walk, so both formats hold
 * the same series with the same values. */
#ifndef IRQLAT_METRICS_PAGE_H
#define IRQLAT_METRICS_PAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "daemon/collect/hist.h"

enum metric_type { METRIC_COUNTER, METRIC_GAUGE, METRIC_HISTOGRAM };

/* A label; its value is UTF-8 already (metrics.c has text_escape()d a driver's name), each
 * writer quotes it as its format wants. */
struct metric_label {
	const char *name, *value;
};

#define METRIC_LABELS_MAX 3	/* a series' sub and name, and cpu (metrics-cpu-label); cpu, wait, cause */

/* The classic histogram's le bounds: the schema-3 bounds 2^(i/8) s whose index i is a multiple
 * of metrics-le-factor, from 2^-23 s (119 ns, i = -184) to 4 s (i = 16, irqlatd's top bound),
 * then +Inf. Each is a bound of irqlatd's buckets: each cumulative count is exact. */
#define LE_MIN_INDEX (-184)
#define LE_MAX_INDEX 16
#define LE_BOUNDS_MAX (LE_MAX_INDEX - LE_MIN_INDEX + 1)

/* The schema-3 indexes of the le bounds for factor (1 or more), ascending; how many. */
unsigned metrics_le_bounds(unsigned factor, int index[LE_BOUNDS_MAX]);
/* The bound 2^(i/8) s as a double (exact for i a multiple of 8) */
double metrics_le_seconds(int index);
/* cum[j]: the runs of h at most bound index[j] (the zero bucket included), for j < n */
void metrics_le_counts(const struct hist *h, const int *index, unsigned n, uint64_t *cum);

/* A page writer: family() opens a family, number() and histogram() add a series to it (the
 * labels without le), end() closes the page (0, or -ENOMEM). A writer that must know a
 * family's length before its first byte (the protobuf stream: each family is a delimited
 * message) has measure(): the page is sent as it is written, not held whole, so each family is
 * handed to it twice, first between measure(w, true) and measure(w, false), when it writes
 * nothing and counts its bytes, then for real (metrics_stream.c). NULL: one pass. */
struct page_writer {
	void (*family)(struct page_writer *w, const char *name, enum metric_type type, const char *help);
	void (*number)(struct page_writer *w, const struct metric_label *l, unsigned nl, uint64_t v, bool ns_as_seconds);
	void (*histogram)(struct page_writer *w, const struct metric_label *l, unsigned nl, const struct hist *h);
	int (*end)(struct page_writer *w);
	void (*free)(struct page_writer *w);
	void (*measure)(struct page_writer *w, bool on);
};

static inline void page_writer_freep(struct page_writer **w)
{
	if (*w)
		(*w)->free(*w);
}

#endif
