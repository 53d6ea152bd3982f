/* SPDX-License-Identifier: GPL-2.0 */
/* Log-linear latency histograms in user space: bucket bounds, merging, percentiles. */
#ifndef IRQLAT_HIST_H
#define IRQLAT_HIST_H

#include <stdint.h>
#include "irqlat_abi.h"

struct hist {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns;
	uint64_t spurious;
	uint64_t bucket[HIST_BUCKETS];
};

/* One interval's share of a handler's histogram, as the daemon keeps 60 of them per handler:
 * half the size of struct hist, since an interval (at most 60 s) holds far fewer than 2^32
 * runs of one handler. */
struct hist_tick {
	uint32_t count;
	uint32_t spurious;
	uint64_t sum_ns;
	uint64_t max_ns;
	uint32_t bucket[HIST_BUCKETS];
};

struct hist_summary {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t spurious;
	uint64_t avg_ns;
	uint64_t p50_ns, p90_ns, p99_ns, p999_ns;
	uint64_t max_ns;
};

/* [lower, upper) of bucket b in ns; the last bucket's upper bound is UINT64_MAX. */
uint64_t hist_lower_ns(unsigned b);
uint64_t hist_upper_ns(unsigned b);

void hist_add(struct hist *into, const struct hist *h);
void hist_add_tick(struct hist *into, const struct hist_tick *t);
/* The value at quantile q (0..1): interpolated inside its bucket and never above max_ns, so
 * it is within one bucket (12.5%) of the exact sample quantile. 0 for an empty histogram. */
uint64_t hist_quantile(const struct hist *h, double q);
void hist_summarize(const struct hist *h, struct hist_summary *s);

#endif
