// SPDX-License-Identifier: GPL-2.0
/* The sparse store of a tick (src/daemon/collect/ticks.c): records written and read back equal what
 * went in (every field of every CPU part, values up to 2^64 - 1, the first and last bucket),
 * records of series not asked for are skipped, series without a record read as nothing, a
 * pick takes exactly the parts of the CPUs it names, and the store costs a few bytes per
 * bucket that moved. The reference is the test's own arrays. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/collect/ticks.h"

#define NSERIES 50
#define NCPU 3

struct part {
	uint64_t sum, max, aux;
	uint64_t bucket[HIST_BUCKETS];
};

struct rec {
	struct part cpu[NCPU];	/* CPU 1 idle but in series 7: not stored */
};

static void fill(struct rec *r, unsigned s)
{
	memset(r, 0, sizeof(*r));
	for (unsigned c = 0; c < NCPU; c++) {
		struct part *p = &r->cpu[c];

		if (c == 1 && s != 7)
			continue;
		p->sum = s == 7 && c == 2 ? UINT64_MAX : 1000003ull * s + c;
		p->max = s == 7 && c == 0 ? UINT64_MAX : 977ull * s + 1 + c;
		p->aux = (s + c) % 3;
		for (unsigned k = (s + c) % 5; k < HIST_BUCKETS; k += 1 + s + c)
			p->bucket[k] = s == 7 && k == 2 ? UINT64_MAX / 4 : k * 13u + s + c;
		p->bucket[HIST_OVERFLOW] += s == 9 && c == 2;
	}
}

static uint64_t part_count(const struct part *p)
{
	uint64_t n = 0;

	for (unsigned k = 0; k < HIST_BUCKETS; k++)
		n += p->bucket[k];
	return n;
}

static void append(struct tick_buf *b, unsigned s, const struct rec *r)
{
	assert_int_equal(tick_buf_begin(b, s), 0);
	for (unsigned c = 0; c < NCPU; c++) {
		struct tick_cpu_delta d = { .slot = c, .sum_ns = r->cpu[c].sum, .max_ns = r->cpu[c].max,
					    .aux = r->cpu[c].aux, .bucket = r->cpu[c].bucket };

		assert_int_equal(tick_buf_add_cpu(b, &d), 0);
	}
	tick_buf_end(b);
}

static bool only_slot(const void *arg, unsigned slot)
{
	return slot == *(const unsigned *)arg;
}

/* h against the parts of r that want takes */
static void expect(const struct hist *h, const struct rec *r, bool (*want)(unsigned c), unsigned s)
{
	uint64_t n = 0, sum = 0, max = 0, aux = 0;

	for (unsigned k = 0; k < HIST_BUCKETS; k++) {
		uint64_t b = 0;

		for (unsigned c = 0; c < NCPU; c++)
			b += want(c) ? r->cpu[c].bucket[k] : 0;
		if (h->bucket[k] != b)
			fail_msg("series %u bucket %u: %llu, not %llu", s, k, (unsigned long long)h->bucket[k],
				 (unsigned long long)b);
		n += b;
	}
	for (unsigned c = 0; c < NCPU; c++) {
		if (!want(c))
			continue;
		sum += r->cpu[c].sum;
		aux += r->cpu[c].aux;
		if (r->cpu[c].max > max)
			max = r->cpu[c].max;
	}
	assert_true(h->count == n);
	assert_true(h->sum_ns == sum);
	assert_true(h->max_ns == max);
	assert_true(h->aux == aux);
}

static bool every(unsigned c)
{
	(void)c;
	return true;
}

static bool cpu2(unsigned c)
{
	return c == 2;
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
		if (s % 3 == 0 || s == 7)
			append(&b, s, &r[s]);
	}
	/* read back, asking for every series in order: the others read as nothing */
	tick_cursor_init(&cur, &b);
	for (unsigned s = 0; s < NSERIES; s++) {
		struct hist h = { 0 };
		uint64_t cpu[NCPU] = { 0 }, cpu_ns[NCPU] = { 0 };
		bool has = s % 3 == 0 || s == 7;

		assert_int_equal(tick_cursor_take_cpus(&cur, s, NULL, &h, cpu, cpu_ns, NCPU), has);
		if (!has) {
			assert_int_equal(h.count, 0);
			continue;
		}
		expect(&h, &r[s], every, s);
		for (unsigned c = 0; c < NCPU; c++)
			assert_true(cpu[c] == part_count(&r[s].cpu[c]) && cpu_ns[c] == r[s].cpu[c].sum);
	}
	/* read back asking for a few only: the rest is skipped */
	tick_cursor_init(&cur, &b);
	struct hist h = { 0 };
	assert_int_equal(tick_cursor_take(&cur, 9, &h), 1);
	expect(&h, &r[9], every, 9);
	memset(&h, 0, sizeof(h));
	assert_int_equal(tick_cursor_take(&cur, 45, &h), 1);
	assert_true(h.max_ns == r[45].cpu[2].max);
	assert_int_equal(tick_cursor_take(&cur, 46, &h), 0);	/* past the last */
	assert_int_equal(tick_cursor_take(&cur, 48, &h), 1);
	assert_int_equal(tick_cursor_take(&cur, 49, &h), 0);
	/* max is a max, the rest sums: series 3 read twice into one histogram */
	tick_cursor_init(&cur, &b);
	memset(&h, 0, sizeof(h));
	tick_cursor_take(&cur, 3, &h);
	tick_cursor_init(&cur, &b);
	tick_cursor_take(&cur, 3, &h);
	assert_int_equal(h.sum_ns, 2 * (r[3].cpu[0].sum + r[3].cpu[2].sum));
	assert_int_equal(h.max_ns, r[3].cpu[2].max);
	tick_buf_free(&b);
}

/* A pick takes one CPU's part alone: each CPU's figures are its own, and the parts add up to
 * the series' */
static void test_pick(void **state)
{
	struct tick_buf b = { 0 };
	struct tick_cursor cur;
	struct rec r[NSERIES];
	unsigned slot = 2;
	struct tick_pick pick = { only_slot, &slot };

	(void)state;
	for (unsigned s = 0; s < NSERIES; s++) {
		fill(&r[s], s);
		append(&b, s, &r[s]);
	}
	tick_cursor_init(&cur, &b);
	for (unsigned s = 0; s < NSERIES; s++) {
		struct hist h = { 0 };
		uint64_t cpu[NCPU] = { 0 };

		assert_int_equal(tick_cursor_take_cpus(&cur, s, &pick, &h, cpu, NULL, NCPU), 1);
		expect(&h, &r[s], cpu2, s);
		assert_true(cpu[0] == 0 && cpu[1] == 0 && cpu[2] == part_count(&r[s].cpu[2]));
	}
	/* a pick of a CPU without a part in the record: nothing, but the record is passed */
	slot = 1;
	tick_cursor_init(&cur, &b);
	struct hist h = { 0 };
	assert_int_equal(tick_cursor_take_cpus(&cur, 3, &pick, &h, NULL, NULL, 0), 1);
	assert_true(h.count == 0 && h.sum_ns == 0 && h.max_ns == 0);
	assert_int_equal(tick_cursor_take(&cur, 4, &h), 1);
	expect(&h, &r[4], every, 4);
	tick_buf_free(&b);
}

static void test_empty_and_size(void **state)
{
	struct tick_buf b = { 0 };
	struct tick_cursor cur;
	struct hist h = { 0 };
	uint64_t bucket[HIST_BUCKETS] = { 0 };

	(void)state;
	/* nothing appended, or reset: no records */
	tick_cursor_init(&cur, &b);
	assert_int_equal(tick_cursor_take(&cur, 0, &h), 0);
	/* a handler at 900 runs a tick in 12 buckets costs a few bytes per bucket */
	for (unsigned k = 70; k < 82; k++)
		bucket[k] = 75;
	struct tick_cpu_delta d = { .sum_ns = 900 * 700, .max_ns = 9000, .bucket = bucket };
	assert_int_equal(tick_buf_append(&b, 4000, &d), 0);
	printf("# one record of 12 buckets: %zu bytes (a dense tick histogram: %zu)\n", b.len,
	       sizeof(uint32_t) * HIST_BUCKETS);
	assert_true(b.len <= 40);
	/* a part with nothing in it is not written, and a record without parts is empty */
	memset(bucket, 0, sizeof(bucket));
	size_t before = b.len;
	assert_int_equal(tick_buf_append(&b, 4001, &d), 0);	/* sum only: a part */
	d.sum_ns = 0;
	size_t with_sum = b.len;
	assert_int_equal(tick_buf_append(&b, 4002, &d), 0);
	assert_true(with_sum > before && b.len - with_sum <= 4);
	tick_buf_reset(&b);
	assert_int_equal(b.len, 0);
	tick_cursor_init(&cur, &b);
	assert_int_equal(tick_cursor_take(&cur, 4000, &h), 0);
	tick_buf_free(&b);
}

/* Counts of a few runs a bucket (written two to a byte) and larger ones, in spans with gaps
 * of every length, odd and even, read back as written */
static void test_small_counts(void **state)
{
	uint64_t x = 0x71c45ull;
	struct tick_buf b = { 0 };
	(void)state;

	for (unsigned round = 0; round < 200; round++) {
		uint64_t bucket[HIST_BUCKETS] = { 0 }, n = 0;
		struct tick_cursor cur;
		struct hist h = { 0 };

		for (unsigned k = 0; k < HIST_BUCKETS; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			unsigned r = (unsigned)(x >> 33);

			if (r % 4 == 0)	/* a quarter of the buckets: runs of gaps between */
				continue;
			bucket[k] = round % 3 == 2 && r % 29 == 0 ? 16 + r % 1000 : r % 16;
			n += bucket[k];
		}
		struct tick_cpu_delta d = { .slot = round % 3, .sum_ns = 5 * n, .max_ns = round, .bucket = bucket };

		tick_buf_reset(&b);
		assert_int_equal(tick_buf_append(&b, round, &d), 0);
		tick_cursor_init(&cur, &b);
		assert_int_equal(tick_cursor_take(&cur, round, &h), 1);
		assert_memory_equal(h.bucket, bucket, sizeof(bucket));
		assert_true(h.count == n && h.sum_ns == 5 * n && h.max_ns == round);
	}
	tick_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_small_counts),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_empty_and_size),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
