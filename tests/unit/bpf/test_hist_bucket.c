// SPDX-License-Identifier: GPL-2.0
/* bpf/hist_bucket.h, the bucketing the BPF programs run: its thresholds and hist_bucket()
 * against Prometheus schema 3 computed independently and exactly. Bucket i holds
 * (1e9 * 2^((i-1)/8), 1e9 * 2^(i/8)] ns, so v is in bucket i exactly when
 *   v^8 > 10^72 * 2^(i-1)   and   v^8 <= 10^72 * 2^i,
 * comparisons of integers done here with a small big-integer type: no floating point, no
 * code shared with the header. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "hist_bucket.h"

/* ---------- unsigned big integers, 32-bit limbs, little-endian ---------- */

#define LIMBS 48	/* 1536 bits: v^8 (512) shifted by up to 2^247, or 10^72 (240) by 2^17 */

struct big {
	uint32_t l[LIMBS];
};

static void big_set(struct big *a, uint64_t v)
{
	memset(a, 0, sizeof(*a));
	a->l[0] = (uint32_t)v;
	a->l[1] = (uint32_t)(v >> 32);
}

static void big_mul(struct big *r, const struct big *a, const struct big *b)
{
	struct big t;

	memset(&t, 0, sizeof(t));
	for (int i = 0; i < LIMBS; i++) {
		uint64_t carry = 0;

		if (!a->l[i])
			continue;
		for (int j = 0; i + j < LIMBS; j++) {
			uint64_t cur = t.l[i + j] + (uint64_t)a->l[i] * b->l[j] + carry;

			t.l[i + j] = (uint32_t)cur;
			carry = cur >> 32;
		}
		assert_int_equal(carry, 0);	/* never overflows LIMBS in these tests */
	}
	*r = t;
}

static void big_shl(struct big *a, unsigned s)
{
	struct big t;

	memset(&t, 0, sizeof(t));
	for (int i = LIMBS - 1; i >= 0; i--) {
		int src = i - (int)(s / 32);

		if (src < 0)
			continue;
		uint64_t v = (uint64_t)a->l[src] << (s % 32);

		t.l[i] |= (uint32_t)v;
		if (i + 1 < LIMBS)
			t.l[i + 1] |= (uint32_t)(v >> 32);
		else
			assert_int_equal(v >> 32, 0);
	}
	*a = t;
}

static int big_cmp(const struct big *a, const struct big *b)
{
	for (int i = LIMBS - 1; i >= 0; i--)
		if (a->l[i] != b->l[i])
			return a->l[i] < b->l[i] ? -1 : 1;
	return 0;
}

static void big_pow8(struct big *r, uint64_t v)
{
	big_set(r, v);
	big_mul(r, r, r);
	big_mul(r, r, r);
	big_mul(r, r, r);
}

/* the sign of v^8 - 10^72 * 2^i: where v ns lies against the bound B_i = 1e9 * 2^(i/8) */
static int cmp_bound(uint64_t v, int i)
{
	struct big a, b;

	big_pow8(&a, v);
	big_pow8(&b, 1000000000);	/* 10^72 */
	if (i >= 0)
		big_shl(&b, (unsigned)i);
	else
		big_shl(&a, (unsigned)-i);
	return big_cmp(&a, &b);
}

/* schema-3 index of v ns > 0 from its definition: the i with B_(i-1) < v <= B_i */
static int exact_index(uint64_t v)
{
	int i = (int)ceil(8 * log2((double)v / 1e9));	/* a guess, corrected exactly below */

	while (cmp_bound(v, i) > 0)
		i++;
	while (cmp_bound(v, i - 1) <= 0)
		i--;
	return i;
}

/* floor(B_i): the largest integer ns in bucket i or below */
static uint64_t floor_bound(int i)
{
	uint64_t v = (uint64_t)(1e9 * exp2(i / 8.0));	/* a guess, corrected exactly below */

	while (v > 0 && cmp_bound(v, i) > 0)
		v--;
	while (cmp_bound(v + 1, i) <= 0)
		v++;
	return v;
}

static unsigned expected_k(uint64_t v)
{
	if (v == 0)
		return HIST_ZERO;
	if (v > HIST_TOP_NS)
		return HIST_OVERFLOW;
	return (unsigned)(exact_index(v) + HIST_INDEX_OFFSET);
}

/* ---------- the tests ---------- */

static void test_thresholds_exact(void **state)
{
	static const uint64_t t[8] = { HIST_T0, HIST_T1, HIST_T2, HIST_T3, HIST_T4, HIST_T5, HIST_T6, HIST_T7 };
	struct big n, lo, hi, base;

	(void)state;
	/* T_j = floor(2^63 c_j) = floor(1e9 * 2^33 * 2^((j+1)/8)): T_j^8 <= N_j < (T_j + 1)^8
	 * with N_j = (1e9 * 2^33)^8 * 2^(j+1) */
	big_pow8(&base, 1000000000);
	big_shl(&base, 33 * 8);
	for (int j = 0; j < 8; j++) {
		n = base;
		big_shl(&n, (unsigned)(j + 1));
		big_pow8(&lo, t[j]);
		big_pow8(&hi, t[j] + 1);
		if (!(big_cmp(&lo, &n) <= 0 && big_cmp(&n, &hi) < 0))
			fail_msg("HIST_T%d = %#" PRIx64 " is not floor(2^63 * c_%d)", j, t[j], j);
		assert_true(t[j] > (1ull << 63));
		if (j)
			assert_true(t[j] > t[j - 1]);
	}
	/* c_7 = 1e9 / 2^29 is rational: T_7 is exact, as the integer bounds need */
	big_pow8(&lo, HIST_T7);
	n = base;
	big_shl(&n, 8);
	assert_int_equal(big_cmp(&lo, &n), 0);
	assert_true(HIST_T7 == 1000000000ull << 34);
}

static void test_bucket_every_bound(void **state)
{
	(void)state;
	/* both sides of every bound: floor(B_i) is in bucket i or below, floor(B_i) + 1 above */
	for (int i = -239; i <= 16; i++) {
		uint64_t b = floor_bound(i);
		unsigned k = (unsigned)(i + HIST_INDEX_OFFSET);

		if (b > 0 && hist_bucket(b) > k)
			fail_msg("floor(B_%d) = %" PRIu64 " ns -> k %u, above %u", i, b, hist_bucket(b), k);
		if (hist_bucket(b + 1) != (i == 16 ? HIST_OVERFLOW : expected_k(b + 1)))
			fail_msg("floor(B_%d) + 1 = %" PRIu64 " ns -> k %u, expected %u", i, b + 1,
				 hist_bucket(b + 1), expected_k(b + 1));
		if (b > 0 && hist_bucket(b) != expected_k(b))
			fail_msg("floor(B_%d) = %" PRIu64 " ns -> k %u, expected %u", i, b, hist_bucket(b), expected_k(b));
	}
}

static void test_bucket_integer_bounds(void **state)
{
	(void)state;
	/* B_8m = 1e9 * 2^m ns is an integer for m >= -9: it belongs to bucket 8m (inclusive upper
	 * bound), the next ns to bucket 8m + 1 */
	for (int m = -9; m <= 2; m++) {
		uint64_t b = m >= 0 ? 1000000000ull << m : 1000000000ull >> -m;

		assert_int_equal(cmp_bound(b, 8 * m), 0);	/* the reference agrees it is exact */
		assert_int_equal(hist_bucket(b), 8 * m + HIST_INDEX_OFFSET);
		if (m < 2)
			assert_int_equal(hist_bucket(b + 1), 8 * m + 1 + HIST_INDEX_OFFSET);
	}
	assert_int_equal(hist_bucket(1000000000ull), HIST_INDEX_OFFSET);	/* 1 s: bucket 0 */
	assert_int_equal(hist_bucket(HIST_TOP_NS), HIST_OVERFLOW - 1);
	assert_int_equal(hist_bucket(HIST_TOP_NS + 1), HIST_OVERFLOW);
}

static void test_bucket_small_and_random(void **state)
{
	uint64_t s = 0x5eed2026ull;

	(void)state;
	assert_int_equal(hist_bucket(0), HIST_ZERO);
	assert_int_equal(hist_bucket(UINT64_MAX), HIST_OVERFLOW);
	assert_int_equal(hist_bucket(1), 1);	/* (0.931, 1.016] ns */
	/* every value up to 2^14, then every 97th to 2^22 */
	for (uint64_t v = 1; v < (1u << 22); v += v < (1u << 14) ? 1 : 97)
		if (hist_bucket(v) != expected_k(v))
			fail_msg("%" PRIu64 " ns -> k %u, expected %u", v, hist_bucket(v), expected_k(v));
	/* each integer up to 14 ns has a bucket of its own: 15 and 16 are the first to share */
	for (uint64_t v = 2; v <= 15; v++)
		assert_true(expected_k(v) > expected_k(v - 1) && hist_bucket(v) > hist_bucket(v - 1));
	assert_int_equal(expected_k(16), expected_k(15));
	assert_int_equal(hist_bucket(16), hist_bucket(15));
	/* random values of every magnitude (splitmix64) */
	for (int n = 0; n < 20000; n++) {
		uint64_t z = (s += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		z >>= z % 64;
		if (hist_bucket(z) != expected_k(z))
			fail_msg("%" PRIu64 " ns -> k %u, expected %u", z, hist_bucket(z), expected_k(z));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thresholds_exact),
		cmocka_unit_test(test_bucket_every_bound),
		cmocka_unit_test(test_bucket_integer_bounds),
		cmocka_unit_test(test_bucket_small_and_random),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
