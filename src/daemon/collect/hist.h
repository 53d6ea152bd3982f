/* SPDX-License-Identifier: GPL-2.0 */
/* Latency histograms in user space: the buckets of bpf/hist_bucket.h (Prometheus schema 3),
 * their bounds in whole ns, merging, percentiles. */
#ifndef IRQLAT_HIST_H
#define IRQLAT_HIST_H

#include <stdint.h>
#include "irqlat_abi.h"

struct hist {
	uint64_t count;		/* the buckets' sum */
	uint64_t sum_ns;
	uint64_t max_ns;
	uint64_t aux;		/* the kind's own count (hardirq: runs that returned IRQ_NONE) */
	uint64_t bucket[HIST_BUCKETS];
};

struct hist_summary {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t aux;
	uint64_t avg_ns;
	uint64_t p50_ns, p90_ns, p99_ns, p999_ns;
	uint64_t max_ns;
};

/* The whole-ns values of bucket k are [hist_lower_ns(k), hist_upper_ns(k)): the bucket's
 * schema-3 bounds (B_(i-1), B_i] taken over integers, floor(B_(i-1)) + 1 to floor(B_i).
 * Below 100 ns some buckets hold no integer: there lower == upper. The zero bucket is [0, 1);
 * the overflow bucket's upper bound is UINT64_MAX. Every user of bounds (percentiles, the
 * hist answer, the screen through it, /metrics) takes them from here. */
uint64_t hist_lower_ns(unsigned k);
uint64_t hist_upper_ns(unsigned k);
/* Prometheus schema-3 index i of bucket k (1 <= k <= 256): k - HIST_INDEX_OFFSET */
static inline int hist_schema_index(unsigned k)
{
	return (int)k - HIST_INDEX_OFFSET;
}

void hist_add(struct hist *into, const struct hist *h);
/* The value at quantile q (0..1): interpolated inside its bucket and never above max_ns, so
 * it lies in the same bucket as the exact sample quantile: within 2^(1/8) - 1 = 9.05% of it,
 * exact below 15 ns. 0 for an empty histogram. */
uint64_t hist_quantile(const struct hist *h, double q);
void hist_summarize(const struct hist *h, struct hist_summary *s);

#endif
