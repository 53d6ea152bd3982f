// SPDX-License-Identifier: GPL-2.0
/* The /metrics page as it is sent, a piece at a time from a snapshot (metrics_stream.c):
 * - byte for byte the page the whole-page renderer wrote before streaming (6 pages of one
 *   state in metrics-golden/: both formats, metrics-le-factor 8, 3 and 1, with and without
 *   metrics-cpu-label; metrics-golden/README says how they were made);
 * - the same bytes whatever the pieces' sizes (1 byte to METRICS_STREAM_BLOCK), the late
 *   waits' family included;
 * - one tick's page: ticks while it is being read do not change what is left of it;
 * - much smaller held than the page: the snapshot and one series' text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "common/util.h"
#include "metrics_state.h"
#include "daemon/sinks/metrics_stream.h"

#define GOLDEN_VERSION "0.1.0"	/* build_info's version in the golden pages */

static const struct variant {
	const char *golden;
	unsigned le_factor;
	bool cpu_label;
	enum metrics_format format;
} variants[] = {
	{ "text-le8", 8, false, METRICS_TEXT }, { "pb-le8", 8, false, METRICS_PROTOBUF },
	{ "text-le1-cpu", 1, true, METRICS_TEXT }, { "pb-le1-cpu", 1, true, METRICS_PROTOBUF },
	{ "text-le3-cpu", 3, true, METRICS_TEXT }, { "pb-le3", 3, false, METRICS_PROTOBUF },
};

/* A file of metrics-golden/, next to this source */
static char *golden(const char *name, size_t *len)
{
	char path[4096];
	const char *slash = strrchr(__FILE__, '/');
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%.*smetrics-golden/%s", slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__, name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot read it (the tests run from the top of the tree)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The first byte where a and b differ, for the message */
static size_t differ_at(const char *a, size_t na, const char *b, size_t nb)
{
	size_t i = 0;

	while (i < na && i < nb && a[i] == b[i])
		i++;
	return i;
}

static void test_golden(void **state)
{
	(void)state;

	if (strcmp(IRQLAT_VERSION, GOLDEN_VERSION)) {
		print_message("# the golden pages say version %s, this is %s: make them again (metrics-golden/README)\n",
			      GOLDEN_VERSION, IRQLAT_VERSION);
		skip();
	}
	for (unsigned i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		const struct variant *v = &variants[i];
		struct metrics_state m;
		size_t len, glen;
		char *page, *want;

		assert_int_equal(metrics_state_init(&m, v->le_factor, v->cpu_label), 0);
		m.src.why = NULL;	/* not in the golden pages: its family is being extended */
		page = metrics_render_as(&m.src, v->format, &len);
		assert_non_null(page);
		want = golden(v->golden, &glen);
		if (len != glen || memcmp(page, want, len))
			fail_msg("%s: the page differs from the golden one at byte %zu (%zu bytes, golden %zu)", v->golden,
				 differ_at(page, len, want, glen), len, glen);
		free(want);
		free(page);
		metrics_state_free(&m);
	}
}

/* The page read in pieces of piece bytes */
static char *read_in_pieces(struct metrics_stream *s, size_t piece, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *page = malloc(cap);
	ssize_t r;

	assert_non_null(page);
	for (;;) {
		if (cap - n < piece) {
			cap = 2 * cap + piece;
			page = realloc(page, cap);
			assert_non_null(page);
		}
		r = metrics_stream_read(s, page + n, piece);
		assert_true(r >= 0 && (size_t)r <= piece);
		if (!r)
			break;
		/* a piece short of what was asked only at the end */
		n += (size_t)r;
		if ((size_t)r < piece) {
			assert_int_equal(metrics_stream_read(s, page + n, piece), 0);
			break;
		}
	}
	*len = n;
	return page;
}

static void test_pieces(void **state)
{
	static const size_t pieces[] = { 1, 7, 100, 4093, METRICS_STREAM_BLOCK };
	(void)state;

	for (unsigned i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		const struct variant *v = &variants[i];
		struct metrics_state m;
		size_t len;
		char *whole;

		assert_int_equal(metrics_state_init(&m, v->le_factor, v->cpu_label), 0);
		whole = metrics_render_as(&m.src, v->format, &len);
		assert_non_null(whole);
		assert_non_null(memmem(whole, len, "irqlat_late_wait_seconds_total", 30));
		for (unsigned p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++) {
			struct metrics_stream *s;
			size_t n;
			char *page;

			assert_int_equal(metrics_stream_new(&m.src, v->format, &s), 0);
			page = read_in_pieces(s, pieces[p], &n);
			if (n != len || memcmp(page, whole, len))
				fail_msg("%s in pieces of %zu: differs at byte %zu (%zu bytes, whole %zu)", v->golden, pieces[p],
					 differ_at(page, n, whole, len), n, len);
			free(page);
			metrics_stream_free(s);
		}
		free(whole);
		metrics_state_free(&m);
	}
}

/* A stream's page is the state of its start: what ticks meanwhile bring is the next page's */
static void test_one_tick(void **state)
{
	(void)state;

	for (unsigned i = 0; i < 2; i++) {
		struct metrics_state m;
		struct metrics_stream *s;
		size_t len, n, later_len;
		char *before, *page, *later, first[100];

		assert_int_equal(metrics_state_init(&m, 8, i), 0);
		before = metrics_render(&m.src, &len);
		assert_non_null(before);
		assert_int_equal(metrics_stream_new(&m.src, METRICS_TEXT, &s), 0);
		assert_int_equal(metrics_stream_read(s, first, sizeof(first)), sizeof(first));
		/* two ticks with runs on every cell, a new series, drops */
		for (uint32_t c = 0; c < m.b.pool.next; c++)
			metrics_state_runs(&m, c, 3000, 50);
		fake_bpf_run(&m.b, fake_bpf_new_cell(&m.b, 77, 1, 0x7000, "new-handler"), 1000, 0);
		collector_tick(&m.c);
		collector_tick(&m.c);
		m.c.drops[DROP_OUTLIER] += 100;
		page = read_in_pieces(s, 333, &n);
		assert_int_equal(sizeof(first) + n, len);
		assert_memory_equal(before, first, sizeof(first));
		assert_memory_equal(before + sizeof(first), page, n);
		later = metrics_render(&m.src, &later_len);
		assert_non_null(strstr(later, "new-handler"));	/* the next page has them */
		assert_null(strstr(before, "new-handler"));
		free(later);
		free(page);
		free(before);
		metrics_stream_free(s);
		metrics_state_free(&m);
	}
}

/* 512 handlers on 2 CPUs: a stream holds less than a tenth of the page while it is read */
static void test_held(void **state)
{
	struct fake_bpf b;
	struct collector c;
	struct metrics_sources src = { .col = &c };
	struct metrics_stream *s;
	char piece[METRICS_STREAM_BLOCK];
	size_t len = 0, held = 0;
	ssize_t r;
	(void)state;

	fake_bpf_init(&b, 1024);
	assert_int_equal(collector_init(&c, &b.l), 0);
	for (unsigned h = 0; h < 512; h++) {
		char name[IRQ_NAME_LEN];

		snprintf(name, sizeof(name), "dev%u-q%u", h / 8, h % 8);
		for (uint32_t cpu = 0; cpu < 2; cpu++) {
			uint32_t cell = fake_bpf_new_cell(&b, 32 + h, cpu, 0x100000 + 64ull * h, name);

			for (unsigned k = 0; k < 64; k++)
				fake_bpf_run(&b, cell, 1000 + 97ull * k * (h % 7 + 1), 0);
		}
	}
	collector_tick(&c);
	assert_int_equal(metrics_stream_new(&src, METRICS_TEXT, &s), 0);
	while ((r = metrics_stream_read(s, piece, sizeof(piece))) > 0) {
		len += (size_t)r;
		if (metrics_stream_held(s) > held)
			held = metrics_stream_held(s);
	}
	assert_int_equal(r, 0);
	print_message("# a page of %zu bytes sent holding at most %zu\n", len, held);
	assert_true(held < len / 10);
	metrics_stream_free(s);
	collector_free(&c);
	fake_bpf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_pieces),
		cmocka_unit_test(test_one_tick),
		cmocka_unit_test(test_held),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
