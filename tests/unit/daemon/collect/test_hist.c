// SPDX-License-Identifier: GPL-2.0
/* The schema-3 histogram: the bucket bounds user space reports against hist_bucket() (the
 * function the BPF program runs), and hist_quantile() against exact sample quantiles.
 * The reference for percentiles is the sorted sample itself (nearest rank), never the
 * histogram code. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/collect/hist.h"

#define SEED 0x1e57c0ffee2026ull
#define NSAMPLES 200000

/* splitmix64: a fixed, portable sequence, so a failure reproduces on any libc */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double rng_unit(void)	/* (0, 1) */
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(void)	/* Box-Muller */
{
	return sqrt(-2 * log(rng_unit())) * cos(2 * M_PI * rng_unit());
}

static uint64_t clamp_ns(double v)
{
	return v < 1 ? 1 : v > 1.8e19 ? UINT64_MAX : (uint64_t)v;
}

/* ---------- buckets ----------
 * hist_bucket() itself is checked against the exact schema-3 bounds in
 * tests/unit/bpf/test_hist_bucket.c; here, the bounds user space reports agree with it. */

#define MAX_REL 0.0905078	/* 2^(1/8) - 1, rounded up */

static void test_bucket_contains_value(void **state)
{
	(void)state;
	/* every value up to 2^20 exhaustively */
	for (uint64_t v = 0; v < (1u << 20); v++) {
		unsigned b = hist_bucket(v);

		if (b >= HIST_BUCKETS || v < hist_lower_ns(b) || v >= hist_upper_ns(b))
			fail_msg("value %" PRIu64 " -> bucket %u [%" PRIu64 ", %" PRIu64 ")", v, b,
				 hist_lower_ns(b), hist_upper_ns(b));
	}
	/* both sides of every bound of a bucket that holds integers */
	for (unsigned b = 1; b < HIST_BUCKETS; b++) {
		uint64_t lo = hist_lower_ns(b);

		if (lo == hist_upper_ns(b))
			continue;	/* below 100 ns some buckets hold no integer */
		assert_int_equal(hist_bucket(lo), b);
		assert_true(hist_bucket(lo - 1) < b);
		assert_int_equal(hist_bucket(hist_upper_ns(b) - 1), b);
	}
	/* random 64-bit values, spread over all magnitudes */
	rng_state = SEED;
	for (int i = 0; i < 1000000; i++) {
		uint64_t v = rng_next() >> (rng_next() % 64);
		unsigned b = hist_bucket(v);

		if (b >= HIST_BUCKETS || v < hist_lower_ns(b) || v >= hist_upper_ns(b))
			fail_msg("value %" PRIu64 " -> bucket %u", v, b);
	}
}

static void test_bucket_monotonic(void **state)
{
	unsigned prev = 0;

	(void)state;
	for (uint64_t v = 0; v < (1u << 22); v++) {
		unsigned b = hist_bucket(v);

		if (b < prev)
			fail_msg("bucket of %" PRIu64 " is %u after %u", v, b, prev);
		/* the buckets skipped hold no integer */
		for (unsigned k = prev + 1; k < b; k++)
			if (hist_lower_ns(k) != hist_upper_ns(k))
				fail_msg("bucket %u [%" PRIu64 ", %" PRIu64 ") was skipped at %" PRIu64, k,
					 hist_lower_ns(k), hist_upper_ns(k), v);
		prev = b;
	}
	for (unsigned b = 0; b + 1 < HIST_BUCKETS; b++) {
		assert_true(hist_lower_ns(b) <= hist_upper_ns(b));
		assert_int_equal(hist_upper_ns(b), hist_lower_ns(b + 1));
	}
}

static void test_bucket_width(void **state)
{
	unsigned empty = 0;

	(void)state;
	/* any two values in one bucket are within 2^(1/8) - 1 = 9.05% of the lower one: what
	 * bounds a percentile's error */
	for (unsigned b = 1; b < HIST_OVERFLOW; b++) {
		uint64_t lo = hist_lower_ns(b), hi = hist_upper_ns(b);

		if (lo == hi) {
			assert_true(lo < 100);
			empty++;
			continue;
		}
		if (lo < 15)
			assert_int_equal(hi - lo, 1);	/* exact below 15 ns */
		else if ((double)(hi - 1 - lo) >= MAX_REL * (double)lo)
			fail_msg("bucket %u [%" PRIu64 ", %" PRIu64 ") spans more than 9.05%%", b, lo, hi);
	}
	printf("# %u buckets hold no integer, all below 100 ns\n", empty);
	assert_true(empty > 0 && empty < 40);
}

static void test_bucket_range(void **state)
{
	(void)state;
	assert_int_equal(HIST_BUCKETS, 258);
	assert_int_equal(hist_bucket(0), HIST_ZERO);
	assert_int_equal(hist_lower_ns(HIST_ZERO), 0);
	assert_int_equal(hist_upper_ns(HIST_ZERO), 1);
	assert_int_equal(hist_bucket(1), 1);
	assert_int_equal(hist_lower_ns(1), 1);
	/* the schema's whole-second bounds, 1e9 * 2^m ns, are integers: upper bounds, inclusive */
	assert_int_equal(hist_upper_ns(HIST_INDEX_OFFSET) - 1, 1000000000ull);		/* i = 0: 1 s */
	assert_int_equal(hist_upper_ns(HIST_INDEX_OFFSET - 8) - 1, 500000000ull);	/* i = -8 */
	assert_int_equal(hist_upper_ns(HIST_INDEX_OFFSET - 72) - 1, 1953125ull);	/* i = -72: 2^-9 s */
	assert_int_equal(hist_schema_index(HIST_INDEX_OFFSET), 0);
	assert_int_equal(hist_schema_index(1), -239);
	/* 4 s, the last bounded bucket's top, then the overflow */
	assert_int_equal(hist_bucket(4000000000ull), HIST_OVERFLOW - 1);
	assert_int_equal(hist_upper_ns(HIST_OVERFLOW - 1), 4000000001ull);
	assert_int_equal(hist_bucket(4000000001ull), HIST_OVERFLOW);
	assert_int_equal(hist_lower_ns(HIST_OVERFLOW), 4000000001ull);
	assert_int_equal(hist_upper_ns(HIST_OVERFLOW), UINT64_MAX);
	assert_int_equal(hist_bucket(UINT64_MAX), HIST_OVERFLOW);
}

/* ---------- percentiles ---------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void hist_fill(struct hist *h, const uint64_t *v, size_t n)
{
	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < n; i++) {
		h->bucket[hist_bucket(v[i])]++;
		h->count++;
		h->sum_ns += v[i];
		if (v[i] > h->max_ns)
			h->max_ns = v[i];
	}
}

/* nearest rank: the smallest sample with at least q of the samples at or below it;
 * q given in 1/10000 so the rank is computed exactly */
static uint64_t exact_quantile(const uint64_t *sorted, size_t n, unsigned q_bp)
{
	size_t rank = (q_bp * n + 9999) / 10000;

	return sorted[(rank ? rank : 1) - 1];
}

static const unsigned quantiles_bp[] = { 5000, 9000, 9900, 9990 };

/* The documented bound: the estimate lies in the bucket holding the exact value, so it is
 * within that bucket's width of it and within 9.05% (2^(1/8) - 1) of it, exact below 15 ns
 * (the overflow bucket's width runs to the histogram's max). */
static void check_quantiles(const char *dist, uint64_t *v, size_t n)
{
	struct hist h;

	hist_fill(&h, v, n);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (unsigned i = 0; i < sizeof(quantiles_bp) / sizeof(quantiles_bp[0]); i++) {
		uint64_t exact = exact_quantile(v, n, quantiles_bp[i]);
		uint64_t est = hist_quantile(&h, quantiles_bp[i] / 10000.0);
		unsigned b = hist_bucket(exact);
		uint64_t width = b == HIST_OVERFLOW ? h.max_ns - hist_lower_ns(b) : hist_upper_ns(b) - 1 - hist_lower_ns(b);
		uint64_t err = est > exact ? est - exact : exact - est;

		printf("# %-9s p%-5g exact %10" PRIu64 " est %10" PRIu64 " err %7" PRIu64 " bound %7" PRIu64 "\n",
		       dist, quantiles_bp[i] / 100.0, exact, est, err, width);
		if (err > width)
			fail_msg("%s p%g: estimate %" PRIu64 " is %" PRIu64 " ns from the exact %" PRIu64
				 ", more than its bucket's width %" PRIu64, dist, quantiles_bp[i] / 100.0, est, err,
				 exact, width);
		if (b != HIST_OVERFLOW && (double)err > MAX_REL * (double)exact)
			fail_msg("%s p%g: estimate %" PRIu64 " is %.2f%% from the exact %" PRIu64 ", more than 9.05%%",
				 dist, quantiles_bp[i] / 100.0, est, 100.0 * (double)err / (double)exact, exact);
		if (exact < 15)
			assert_int_equal(est, exact);
		assert_true(est <= h.max_ns);
	}
}

static void test_quantiles_uniform(void **state)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));

	(void)state;
	assert_non_null(v);
	rng_state = SEED + 1;
	for (size_t i = 0; i < NSAMPLES; i++)
		v[i] = 1 + rng_next() % 200000;	/* 1 ns .. 200 us */
	check_quantiles("uniform", v, NSAMPLES);
	free(v);
}

static void test_quantiles_lognormal(void **state)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));

	(void)state;
	assert_non_null(v);
	rng_state = SEED + 2;
	for (size_t i = 0; i < NSAMPLES; i++)	/* median 5 us, long right tail */
		v[i] = clamp_ns(exp(log(5000) + 1.2 * rng_normal()));
	check_quantiles("lognormal", v, NSAMPLES);
	free(v);
}

static void test_quantiles_bimodal(void **state)
{
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));

	(void)state;
	assert_non_null(v);
	rng_state = SEED + 3;
	for (size_t i = 0; i < NSAMPLES; i++)	/* 95% fast path near 2 us, 5% slow near 80 us */
		v[i] = rng_unit() < 0.95 ? clamp_ns(2000 + 200 * rng_normal()) : clamp_ns(80000 + 5000 * rng_normal());
	check_quantiles("bimodal", v, NSAMPLES);
	free(v);
}

static void test_quantiles_small_and_tiny(void **state)
{
	uint64_t v[1000];

	(void)state;
	/* small samples, values across the exact (< 15 ns) and the 9.05% ranges */
	rng_state = SEED + 4;
	for (size_t n = 1; n <= 1000; n = n * 3 + 1) {
		for (size_t i = 0; i < n; i++)
			v[i] = 1 + rng_next() % (rng_next() % 2 ? 20 : 5000000);
		check_quantiles("small", v, n);
	}
}

/* One sample per bucket: the nearest rank decides the bucket alone, for every sample size
 * and for quantiles whose q x n is not exact in floating point (0.07 x 100 = 7.000000000000001). */
static void test_quantile_rank_exact(void **state)
{
	static const unsigned q_bp[] = { 700, 2900, 5000, 5700, 9000, 9900, 9990 };
	uint64_t v[HIST_BUCKETS], lows[HIST_BUCKETS];
	size_t nlows = 0;

	(void)state;
	for (unsigned b = 1; b < HIST_OVERFLOW; b++)	/* the buckets that hold integers */
		if (hist_lower_ns(b) < hist_upper_ns(b))
			lows[nlows++] = hist_lower_ns(b);
	for (size_t n = 1; n <= nlows; n++) {
		struct hist h;

		for (size_t i = 0; i < n; i++)
			v[i] = lows[i];
		hist_fill(&h, v, n);
		for (unsigned k = 0; k < sizeof(q_bp) / sizeof(q_bp[0]); k++) {
			uint64_t exact = exact_quantile(v, n, q_bp[k]);
			uint64_t est = hist_quantile(&h, q_bp[k] / 10000.0);

			if (hist_bucket(est) != hist_bucket(exact))
				fail_msg("n=%zu q=%g: estimate %" PRIu64 " is not in the bucket of the exact %" PRIu64,
					 n, q_bp[k] / 10000.0, est, exact);
		}
	}
}

static void test_quantile_edges(void **state)
{
	struct hist h;
	uint64_t v[1000];

	(void)state;
	/* empty */
	memset(&h, 0, sizeof(h));
	assert_int_equal(hist_quantile(&h, 0.5), 0);
	assert_int_equal(hist_quantile(&h, 0.999), 0);

	/* one sample: every quantile is in its bucket, never above it */
	v[0] = 12345;
	hist_fill(&h, v, 1);
	for (double q = 0.0; q <= 1.0; q += 0.125) {
		uint64_t est = hist_quantile(&h, q);

		assert_int_equal(hist_bucket(est), hist_bucket(12345));
		assert_true(est <= 12345);
	}

	/* q outside 0..1 is taken as the nearest end, not divided by an empty bucket; also
	 * when the maximum is unknown (0), so nothing clamps a wild value */
	v[1] = 20;
	hist_fill(&h, v, 2);
	h.max_ns = 0;
	assert_int_equal(hist_quantile(&h, 1.5), hist_quantile(&h, 1.0));
	assert_int_equal(hist_bucket(hist_quantile(&h, 1.5)), hist_bucket(12345));
	assert_int_equal(hist_quantile(&h, -0.5), hist_quantile(&h, 0.0));
	assert_int_equal(hist_bucket(hist_quantile(&h, -0.5)), hist_bucket(20));
	assert_int_equal(hist_quantile(&h, NAN), hist_quantile(&h, 0.0));

	/* exact small values come back exactly */
	v[0] = 3;
	hist_fill(&h, v, 1);
	assert_int_equal(hist_quantile(&h, 0.5), 3);

	/* all in one bucket */
	for (int i = 0; i < 1000; i++)
		v[i] = 40000 + i % 7;
	hist_fill(&h, v, 1000);
	for (unsigned k = 0; k < 4; k++) {
		uint64_t est = hist_quantile(&h, quantiles_bp[k] / 10000.0);

		assert_int_equal(hist_bucket(est), hist_bucket(40000));
		assert_true(est <= 40006);
	}

	/* the overflow bucket: bounded by max, never reported above it */
	for (int i = 0; i < 100; i++)
		v[i] = i < 90 ? 1000 : 5000000000ull + (uint64_t)i * 100000000ull;
	hist_fill(&h, v, 100);
	assert_int_equal(h.bucket[HIST_OVERFLOW], 10);
	uint64_t p99 = hist_quantile(&h, 0.99);
	assert_true(p99 >= hist_lower_ns(HIST_OVERFLOW));
	assert_true(p99 <= h.max_ns);
	assert_true(hist_quantile(&h, 1.0) <= h.max_ns);
	assert_true(hist_quantile(&h, 0.5) < hist_upper_ns(hist_bucket(1000)));

	/* max clamping: a bucket's interpolation never goes past the max seen */
	v[0] = 1000;
	v[1] = 1001;
	hist_fill(&h, v, 2);
	assert_true(hist_quantile(&h, 1.0) <= 1001);
	assert_true(hist_quantile(&h, 0.999) <= 1001);
	assert_int_equal(hist_bucket(hist_quantile(&h, 1.0)), hist_bucket(1001));
}

static void test_add_and_summarize(void **state)
{
	struct hist a, b, sum;
	struct hist_summary s;
	uint64_t va[] = { 100, 200, 300 }, vb[] = { 5000, 7 };

	(void)state;
	hist_fill(&a, va, 3);
	a.aux = 1;
	hist_fill(&b, vb, 2);
	b.aux = 2;
	memset(&sum, 0, sizeof(sum));
	hist_add(&sum, &a);
	hist_add(&sum, &b);
	assert_int_equal(sum.count, 5);
	assert_int_equal(sum.sum_ns, 100 + 200 + 300 + 5000 + 7);
	assert_int_equal(sum.max_ns, 5000);
	assert_int_equal(sum.aux, 3);
	assert_int_equal(sum.bucket[hist_bucket(7)], 1);
	assert_int_equal(sum.bucket[hist_bucket(5000)], 1);

	hist_summarize(&sum, &s);
	assert_int_equal(s.count, 5);
	assert_int_equal(s.avg_ns, (100 + 200 + 300 + 5000 + 7) / 5);
	assert_int_equal(s.max_ns, 5000);
	assert_int_equal(s.aux, 3);
	assert_int_equal(hist_bucket(s.p50_ns), hist_bucket(200));	/* 3rd of 5 */
	assert_int_equal(hist_bucket(s.p99_ns), hist_bucket(5000));

	memset(&sum, 0, sizeof(sum));
	hist_summarize(&sum, &s);
	assert_int_equal(s.count, 0);
	assert_int_equal(s.avg_ns, 0);
	assert_int_equal(s.p99_ns, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_contains_value),
		cmocka_unit_test(test_bucket_monotonic),
		cmocka_unit_test(test_bucket_width),
		cmocka_unit_test(test_bucket_range),
		cmocka_unit_test(test_quantiles_uniform),
		cmocka_unit_test(test_quantiles_lognormal),
		cmocka_unit_test(test_quantiles_bimodal),
		cmocka_unit_test(test_quantiles_small_and_tiny),
		cmocka_unit_test(test_quantile_rank_exact),
		cmocka_unit_test(test_quantile_edges),
		cmocka_unit_test(test_add_and_summarize),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	printf("# random samples: splitmix64, seed 0x%llx (+1 uniform, +2 lognormal, +3 bimodal, +4 small)\n",
	       (unsigned long long)SEED);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
