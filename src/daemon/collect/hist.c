// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "daemon/collect/hist.h"

/* floor(B) of the upper bound of regular bucket k (1..256): for k = 8e + 1 + n the bound is
 * 2^e * c_n (bpf/hist_bucket.h), and floor(2^e c_n) = floor(HIST_Tn / 2^(63 - e)) because
 * HIST_Tn = floor(2^63 c_n): exact, with the same constants the BPF side compares against. */
static uint64_t upper_floor_ns(unsigned k)
{
	static const uint64_t t[8] = { HIST_T0, HIST_T1, HIST_T2, HIST_T3, HIST_T4, HIST_T5, HIST_T6, HIST_T7 };
	unsigned e = (k - 1) / 8, n = (k - 1) % 8;

	return t[n] >> (63 - e);
}

uint64_t hist_upper_ns(unsigned k)
{
	if (k == HIST_ZERO)
		return 1;
	if (k >= HIST_OVERFLOW)
		return UINT64_MAX;
	return upper_floor_ns(k) + 1;
}

uint64_t hist_lower_ns(unsigned k)
{
	if (k == HIST_ZERO)
		return 0;
	if (k > HIST_OVERFLOW)
		return UINT64_MAX;
	return hist_upper_ns(k - 1);
}

void hist_add(struct hist *into, const struct hist *h)
{
	into->count += h->count;
	into->sum_ns += h->sum_ns;
	into->aux += h->aux;
	if (h->max_ns > into->max_ns)
		into->max_ns = h->max_ns;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		into->bucket[b] += h->bucket[b];
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
		b = HIST_OVERFLOW;
	uint64_t lo = hist_lower_ns(b);
	/* the whole-ns values of the bucket are lo .. hi - 1; the overflow's top is the max */
	uint64_t hi = b == HIST_OVERFLOW ? (h->max_ns > lo ? h->max_ns + 1 : lo + 1) : hist_upper_ns(b);
	/* the k-th of n samples in a bucket sits at the middle of the k-th of n equal parts */
	double frac = (rank - (double)seen - 0.5) / (double)h->bucket[b];
	if (frac < 0)
		frac = 0;
	uint64_t v = lo + (uint64_t)(frac * (double)(hi - lo));
	if (v >= hi)
		v = hi - 1;
	if (h->max_ns && v > h->max_ns)
		v = h->max_ns;
	return v;
}

void hist_summarize(const struct hist *h, struct hist_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->count = h->count;
	s->sum_ns = h->sum_ns;
	s->aux = h->aux;
	s->max_ns = h->max_ns;
	if (!h->count)
		return;
	s->avg_ns = h->sum_ns / h->count;
	s->p50_ns = hist_quantile(h, 0.50);
	s->p90_ns = hist_quantile(h, 0.90);
	s->p99_ns = hist_quantile(h, 0.99);
	s->p999_ns = hist_quantile(h, 0.999);
}
