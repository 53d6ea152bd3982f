// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "hist.h"

uint64_t hist_lower_ns(unsigned b)
{
	unsigned e;

	if (b < HIST_SUB)
		return b;
	if (b >= HIST_BUCKETS - 1)
		return 1ull << HIST_MAX_LOG2;
	e = b / HIST_SUB + HIST_SUB_BITS - 1;
	return (1ull << e) + (uint64_t)(b % HIST_SUB) * (1ull << (e - HIST_SUB_BITS));
}

uint64_t hist_upper_ns(unsigned b)
{
	return b >= HIST_BUCKETS - 1 ? UINT64_MAX : hist_lower_ns(b + 1);
}

void hist_add(struct hist *into, const struct hist *h)
{
	into->count += h->count;
	into->sum_ns += h->sum_ns;
	into->spurious += h->spurious;
	if (h->max_ns > into->max_ns)
		into->max_ns = h->max_ns;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		into->bucket[b] += h->bucket[b];
}

void hist_add_tick(struct hist *into, const struct hist_tick *t)
{
	into->count += t->count;
	into->sum_ns += t->sum_ns;
	into->spurious += t->spurious;
	if (t->max_ns > into->max_ns)
		into->max_ns = t->max_ns;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		into->bucket[b] += t->bucket[b];
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t total = 0, seen = 0;
	unsigned b;

	for (b = 0; b < HIST_BUCKETS; b++)
		total += h->bucket[b];
	if (!total)
		return 0;
	/* beyond 0..1 (or NaN) the rank would point past the last sample, into a bucket with
	 * nothing to interpolate */
	if (!(q >= 0))
		q = 0;
	else if (q > 1)
		q = 1;
	/* rank of the sample wanted, 1-based, as in the nearest-rank definition (ceil(q x n)).
	 * q x n is rounded first when it is an integer but for floating-point error:
	 * 0.07 x 100 = 7.000000000000001 is rank 7, not 8. */
	double rank = q * (double)total;
	double whole = (double)(uint64_t)(rank + 0.5);
	if (rank - whole < 1e-9 * whole && whole - rank < 1e-9 * whole)
		rank = whole;
	if (rank < 1)
		rank = 1;
	for (b = 0; b < HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		if ((double)(seen + h->bucket[b]) >= rank)
			break;
		seen += h->bucket[b];
	}
	if (b == HIST_BUCKETS)
		b = HIST_BUCKETS - 1;
	uint64_t lo = hist_lower_ns(b);
	uint64_t hi = b == HIST_BUCKETS - 1 ? (h->max_ns > lo ? h->max_ns : lo) : hist_upper_ns(b);
	/* the k-th of n samples in a bucket sits at the middle of the k-th of n equal parts */
	double frac = (rank - (double)seen - 0.5) / (double)h->bucket[b];
	if (frac < 0)
		frac = 0;
	uint64_t v = lo + (uint64_t)(frac * (double)(hi - lo));
	if (h->max_ns && v > h->max_ns)
		v = h->max_ns;
	return v;
}

void hist_summarize(const struct hist *h, struct hist_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->count = h->count;
	s->sum_ns = h->sum_ns;
	s->spurious = h->spurious;
	s->max_ns = h->max_ns;
	if (!h->count)
		return;
	s->avg_ns = h->sum_ns / h->count;
	s->p50_ns = hist_quantile(h, 0.50);
	s->p90_ns = hist_quantile(h, 0.90);
	s->p99_ns = hist_quantile(h, 0.99);
	s->p999_ns = hist_quantile(h, 0.999);
}
