// SPDX-License-Identifier: GPL-2.0
/* The sparse store of a tick (src/daemon/ticks.c): records written and read back equal what
 * went in (every field, values up to 2^64 - 1, the first and last bucket), records of series
 * not asked for are skipped, series without a record read as nothing, and the store costs a
 * few bytes per bucket that moved. The reference is the test's own arrays. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/ticks.h"

#define NSERIES 50

struct rec {
	uint64_t sum, max, aux, cpu[3];
	uint64_t bucket[HIST_BUCKETS];
};

static void fill(struct rec *r, unsigned s)
{
	memset(r, 0, sizeof(*r));
	r->sum = s == 7 ? UINT64_MAX : 1000003ull * s;
	r->max = s == 7 ? UINT64_MAX : 977ull * s + 1;
	r->aux = s % 3;
	r->cpu[0] = s;
	r->cpu[2] = s == 7 ? UINT64_MAX : 2ull * s;	/* CPU 1 idle: not stored */
	for (unsigned k = s % 5; k < HIST_BUCKETS; k += 1 + s)
		r->bucket[k] = s == 7 && k == 2 ? UINT64_MAX : k * 13u + s;
	r->bucket[HIST_OVERFLOW] += s == 9;
}

static void test_roundtrip(void **state)
{
	struct tick_buf b = { 0 };
	struct tick_cursor cur;
	struct rec r[NSERIES];

	(void)state;
	/* every third series has a record */
	for (unsigned s = 0; s < NSERIES; s++) {
		fill(&r[s], s);
		if (s % 3)
			continue;
		struct tick_delta d = { .sum_ns = r[s].sum, .max_ns = r[s].max, .aux = r[s].aux,
					.cpu_count = r[s].cpu, .ncpus = 3, .bucket = r[s].bucket };
		assert_int_equal(tick_buf_append(&b, s, &d), 0);
	}
	/* read back, asking for every series in order: the others read as nothing */
	tick_cursor_init(&cur, &b);
	for (unsigned s = 0; s < NSERIES; s++) {
		struct hist h = { 0 };
		uint64_t cpu[3] = { 0 }, n = 0;

		assert_int_equal(tick_cursor_take(&cur, s, &h, cpu, 3), s % 3 == 0);
		if (s % 3) {
			assert_int_equal(h.count, 0);
			continue;
		}
		assert_true(h.sum_ns == r[s].sum);
		assert_true(h.max_ns == r[s].max);
		assert_int_equal(h.aux, r[s].aux);
		for (unsigned i = 0; i < 3; i++)
			assert_true(cpu[i] == r[s].cpu[i]);
		for (unsigned k = 0; k < HIST_BUCKETS; k++) {
			if (h.bucket[k] != r[s].bucket[k])
				fail_msg("series %u bucket %u: %llu, not %llu", s, k, (unsigned long long)h.bucket[k],
					 (unsigned long long)r[s].bucket[k]);
			n += r[s].bucket[k];
		}
		assert_int_equal(h.count, n);
	}
	/* read back asking for a few only: the rest is skipped */
	tick_cursor_init(&cur, &b);
	struct hist h = { 0 };
	assert_int_equal(tick_cursor_take(&cur, 9, &h, NULL, 0), 1);
	assert_true(h.sum_ns == r[9].sum);
	assert_int_equal(h.bucket[HIST_OVERFLOW], r[9].bucket[HIST_OVERFLOW]);
	memset(&h, 0, sizeof(h));
	assert_int_equal(tick_cursor_take(&cur, 45, &h, NULL, 0), 1);
	assert_true(h.max_ns == r[45].max);
	assert_int_equal(tick_cursor_take(&cur, 46, &h, NULL, 0), 0);	/* past the last */
	assert_int_equal(tick_cursor_take(&cur, 48, &h, NULL, 0), 1);
	assert_int_equal(tick_cursor_take(&cur, 49, &h, NULL, 0), 0);
	/* max is a max, the rest sums: series 0 read twice into one histogram */
	tick_cursor_init(&cur, &b);
	memset(&h, 0, sizeof(h));
	tick_cursor_take(&cur, 3, &h, NULL, 0);
	tick_cursor_init(&cur, &b);
	tick_cursor_take(&cur, 3, &h, NULL, 0);
	assert_int_equal(h.sum_ns, 2 * r[3].sum);
	assert_int_equal(h.max_ns, r[3].max);
	tick_buf_free(&b);
}

static void test_empty_and_size(void **state)
{
	struct tick_buf b = { 0 };
	struct tick_cursor cur;
	struct hist h = { 0 };
	uint64_t bucket[HIST_BUCKETS] = { 0 };
	uint64_t cpu = 900;

	(void)state;
	/* nothing appended, or reset: no records */
	tick_cursor_init(&cur, &b);
	assert_int_equal(tick_cursor_take(&cur, 0, &h, NULL, 0), 0);
	/* a handler at 900 runs a tick in 12 buckets costs a few bytes per bucket */
	for (unsigned k = 70; k < 82; k++)
		bucket[k] = 75;
	struct tick_delta d = { .sum_ns = 900 * 700, .max_ns = 9000, .cpu_count = &cpu, .ncpus = 1, .bucket = bucket };
	assert_int_equal(tick_buf_append(&b, 4000, &d), 0);
	printf("# one record of 12 buckets: %zu bytes (a dense tick histogram: %zu)\n", b.len,
	       sizeof(uint32_t) * HIST_BUCKETS);
	assert_true(b.len <= 40);
	tick_buf_reset(&b);
	assert_int_equal(b.len, 0);
	tick_cursor_init(&cur, &b);
	assert_int_equal(tick_cursor_take(&cur, 4000, &h, NULL, 0), 0);
	tick_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_empty_and_size),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
