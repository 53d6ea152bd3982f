// SPDX-License-Identifier: GPL-2.0
/* The page in the protobuf format over a hand-made collector, read back with the code protoc-c
 * generated (pb_stream.h), as Prometheus reads it: whole length-delimited MetricFamily
 * messages; the same families, types and series as the text page; each histogram a native
 * histogram of schema 3 whose buckets are irqlatd's one to one (bucket k is native index
 * k - 240), the zero bucket as zero_count, the overflow in sample_count only; its classic
 * buckets those of the text page. And metrics-le-factor: the text page's le bounds are every
 * Nth schema-3 bound, each cumulative count exact. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/config/config.h"
#include "daemon/sinks/metrics_stream.h"
#include "../fake_bpf.h"
#include "../pb_stream.h"

/* The runs test_metrics.c's page has, and a run of 0 ns and a softirq vector */
static const struct run {
	unsigned cell;
	uint64_t ns, n;
} runs[] = {
	{ 0, 119, 3 }, { 1, 120, 5 }, { 2, 238, 2 }, { 2, 1953125, 6 }, { 0, 1953126, 1 },
	{ 2, 5000000000ull, 1 },	/* beyond 4 s: the overflow bucket */
	{ 1, 0, 2 },			/* the zero bucket */
	{ 0, 100000, 40 }, { 1, 100001, 1 }, { 0, 100050, 3 },	/* neighbours and a gap */
	{ 3, 1000, 4 }, { 4, 2500, 7 },
};

struct fixture {
	struct fake_bpf b;
	struct collector c;
	struct daemon_config cfg;
	struct metrics_sources src;
	uint64_t bucket[HIST_BUCKETS];	/* of the series irq 25, virtio1-req.0 */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	uint32_t cell[5];

	fake_bpf_init(&f->b, 16);
	assert_int_equal(collector_init(&f->c, &f->b.l), 0);
	cell[0] = fake_bpf_new_cell(&f->b, 25, 0, 0x1000, "virtio1-req.0");
	cell[1] = fake_bpf_new_cell(&f->b, 25, 1, 0x1000, "virtio1-req.0");
	cell[2] = fake_bpf_new_cell(&f->b, 25, 0, 0x2000, "virtio1-req.0");	/* the same series */
	cell[3] = fake_bpf_new_cell(&f->b, 1, 0, 0x3000, "odd\"name\\");
	cell[4] = fake_bpf_new_kind_cell(&f->b, KIND_SOFTIRQ, 3, 0);	/* NET_RX */
	for (unsigned i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		for (uint64_t j = 0; j < runs[i].n; j++)
			fake_bpf_run(&f->b, cell[runs[i].cell], runs[i].ns, 0);
		if (runs[i].cell <= 2)
			f->bucket[hist_bucket(runs[i].ns)] += runs[i].n;
	}
	collector_tick(&f->c);
	daemon_config_defaults(&f->cfg);
	f->src = (struct metrics_sources){ .col = &f->c, .cfg = &f->cfg };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	collector_free(&f->c);
	fake_bpf_free(&f->b);
	free(f);
	return 0;
}

static void read_page(struct fixture *f, struct pb_stream *s)
{
	size_t len = 0;
	char *page = metrics_render_as(&f->src, METRICS_PROTOBUF, &len);

	assert_non_null(page);
	assert_true(len > 0);
	assert_int_equal(pb_stream_read(s, (const uint8_t *)page, len), 0);
	free(page);
}

/* Families in the order of the text page, with its types and as many series each; those
 * without series are left out */
static void test_same_families(void **state)
{
	struct fixture *f = *state;
	struct pb_stream s;
	size_t len;
	char *text = metrics_render(&f->src, &len);
	unsigned n = 0, skipped = 0;

	read_page(f, &s);
	for (const char *p = strstr(text, "# TYPE "); p; p = strstr(p + 1, "# TYPE ")) {
		char name[96], type[16];
		static const char *const types[] = { [IO__PROMETHEUS__CLIENT__METRIC_TYPE__COUNTER] = "counter",
						     [IO__PROMETHEUS__CLIENT__METRIC_TYPE__GAUGE] = "gauge",
						     [IO__PROMETHEUS__CLIENT__METRIC_TYPE__HISTOGRAM] = "histogram" };
		unsigned series = 0;

		assert_int_equal(sscanf(p, "# TYPE %95s %15s", name, type), 2);
		/* series lines of the family: "name{" or "name " at a line's start (histograms: _count) */
		size_t nl = strlen(name);
		const char *end = strstr(p + 1, "# HELP ");
		for (const char *q = strchr(p, '\n') + 1; q && *q && (!end || q < end); q = strchr(q, '\n') + 1) {
			const char *rest = q + nl;

			if (!strcmp(type, "histogram") ? !strncmp(q, name, nl) && !strncmp(rest, "_count", 6)
						     : !strncmp(q, name, nl) && (*rest == '{' || *rest == ' '))
				series++;
			if (!strchr(q, '\n'))
				break;
		}
		if (!series) {
			assert_true(n == s.n || strcmp(s.fam[n]->name, name));
			skipped++;
			continue;
		}
		assert_true(n < s.n);
		assert_string_equal(s.fam[n]->name, name);
		assert_true(s.fam[n]->has_type);
		assert_string_equal(types[s.fam[n]->type], type);
		assert_int_equal(s.fam[n]->n_metric, series);
		n++;
	}
	assert_int_equal(n, s.n);
	assert_true(n > 10);
	assert_true(skipped > 0);	/* the vector kind's families: no such series here */
	pb_stream_free(&s);
	free(text);
}

static void test_counters(void **state)
{
	struct fixture *f = *state;
	struct pb_stream s;
	const PbMetric *m;

	read_page(f, &s);
	m = pb_metric(pb_family(&s, "irqlat_handler_runs_total"), "handler", "virtio1-req.0");
	assert_non_null(m);
	assert_non_null(m->counter);
	assert_null(m->gauge);
	assert_true(m->counter->value == 18 + 2 + 44);
	assert_int_equal(m->n_label, 2);
	assert_string_equal(m->label[0]->name, "irq");
	assert_string_equal(m->label[0]->value, "25");
	/* label values as they are, no text-format escaping */
	assert_non_null(pb_metric(pb_family(&s, "irqlat_handler_runs_total"), "handler", "odd\"name\\"));
	m = pb_metric(pb_family(&s, "irqlat_handler_seconds_total"), "handler", "virtio1-req.0");
	assert_true(fabs(m->counter->value - (5.013673309 + 4000000 * 1e-9 + 100001e-9 + 300150e-9)) < 1e-9);
	m = pb_metric(pb_family(&s, "irqlat_handler_max_seconds"), "handler", "virtio1-req.0");
	assert_non_null(m->gauge);
	assert_true(m->gauge->value == 5.0);
	m = pb_metric(pb_family(&s, "irqlat_softirq_runs_total"), "vector", "NET_RX");
	assert_non_null(m);
	assert_true(m->counter->value == 7);
	assert_non_null(pb_family(&s, "irqlat_build_info"));
	assert_true(pb_family(&s, "irqlat_handlers")->metric[0]->gauge->value == 3);
	pb_stream_free(&s);
}

static void test_native(void **state)
{
	struct fixture *f = *state;
	struct pb_stream s;
	const PbMetric *m;
	const PbHistogram *h;
	uint64_t count[HIST_BUCKETS];
	int lo = 0, n;

	read_page(f, &s);
	m = pb_metric(pb_family(&s, "irqlat_handler_duration_seconds"), "handler", "virtio1-req.0");
	assert_non_null(m);
	h = m->histogram;
	assert_non_null(h);
	assert_true(h->has_schema);
	assert_int_equal(h->schema, 3);
	/* above 0, so that Prometheus 2.42 takes even an empty one as native; below 1 ns */
	assert_true(h->zero_threshold > 0 && h->zero_threshold < 1e-9);
	assert_int_equal(h->zero_count, 2);
	assert_int_equal(h->sample_count, 64);	/* the run beyond 4 s included */
	assert_true(fabs(h->sample_sum - (5.013673309 + 4100001e-9 + 300150e-9)) < 1e-9);
	n = pb_native_counts(h, &lo, count, HIST_BUCKETS);
	assert_true(n > 0);
	/* bucket k of irqlatd is native bucket k - 240, the counts copied */
	uint64_t in_buckets = 0;
	for (unsigned k = 1; k < HIST_OVERFLOW; k++) {
		int i = (int)k - 240;
		uint64_t got = i >= lo && i < lo + n ? count[i - lo] : 0;

		if (got != f->bucket[k])
			fail_msg("native bucket %d (irqlatd's %u): %llu, want %llu", i, k, (unsigned long long)got,
				 (unsigned long long)f->bucket[k]);
		in_buckets += got;
	}
	assert_int_equal(in_buckets + h->zero_count + f->bucket[HIST_OVERFLOW], h->sample_count);
	/* 119 ns: the first bucket, (2^-23 s / 2^(1/8), 2^-23 s] = native index -184 */
	assert_int_equal(lo, -184);
	/* the classic buckets: every 8th bound, as the text page */
	assert_int_equal(h->n_bucket, 26);
	assert_true(h->bucket[0]->upper_bound == ldexp(1, -23));
	assert_int_equal(h->bucket[0]->cumulative_count, 3 + 2);	/* the zero bucket is below every bound */
	assert_true(h->bucket[25]->upper_bound == 4);
	assert_int_equal(h->bucket[25]->cumulative_count, 63);
	pb_stream_free(&s);
}

/* Every bound, every 3rd, every 16th: le at 2^(i/8) s for i a multiple of N in [-184, 16], the
 * count at each one exact; the HELP says which */
static void test_le_factor(void **state)
{
	struct fixture *f = *state;
	static const unsigned factors[] = { 1, 3, 8, 16, 64 };

	for (unsigned fi = 0; fi < sizeof(factors) / sizeof(factors[0]); fi++) {
		unsigned factor = factors[fi], nle = 0;
		size_t len;
		char *page;
		const char *p;
		uint64_t prev = 0;

		f->cfg.metrics_le_factor = factor;
		page = metrics_render(&f->src, &len);
		assert_non_null(page);
		for (int i = -184; i <= 16; i++) {
			char series[160];
			uint64_t want = f->bucket[HIST_ZERO], got;

			if (i % (int)factor)
				continue;
			for (unsigned k = 1; k < HIST_OVERFLOW && (int)k - 240 <= i; k++)
				want += f->bucket[k];
			snprintf(series, sizeof(series),
				 "irqlat_handler_duration_seconds_bucket{irq=\"25\",handler=\"virtio1-req.0\",le=\"%.17g\"} ",
				 exp2(i / 8.0));
			p = strstr(page, series);
			if (!p)
				fail_msg("factor %u: no %s", factor, series);
			got = strtoull(p + strlen(series), NULL, 10);
			if (got != want)
				fail_msg("factor %u, le 2^(%d/8): %llu, want %llu", factor, i, (unsigned long long)got,
					 (unsigned long long)want);
			assert_true(got >= prev);
			prev = got;
			nle++;
		}
		/* no other bound */
		unsigned lines = 0;
		for (p = page; (p = strstr(p, "irqlat_handler_duration_seconds_bucket{irq=\"25\"")); p++)
			lines++;
		assert_int_equal(lines, nle + 1);	/* and +Inf */
		if (factor == 8)
			assert_non_null(strstr(page, "le bounds are every 8th bound"));
		if (factor == 1)
			assert_non_null(strstr(page, "le bounds are the bounds of irqlatd's histogram"));
		free(page);

		/* the protobuf page's classic buckets are the same */
		struct pb_stream s;
		read_page(f, &s);
		const PbMetric *m = pb_metric(pb_family(&s, "irqlat_handler_duration_seconds"), "handler", "virtio1-req.0");
		assert_int_equal(m->histogram->n_bucket, nle);
		pb_stream_free(&s);
	}
	f->cfg.metrics_le_factor = METRICS_LE_FACTOR_DEFAULT;
}

/* A collector with nothing: a page all the same, each histogram family with no series */
static void test_empty(void **state)
{
	struct fake_bpf b;
	struct collector c;
	struct metrics_sources src = { .col = &c };
	struct pb_stream s;
	size_t len;
	char *page;
	(void)state;

	fake_bpf_init(&b, 4);
	assert_int_equal(collector_init(&c, &b.l), 0);
	collector_tick(&c);
	page = metrics_render_as(&src, METRICS_PROTOBUF, &len);
	assert_non_null(page);
	assert_int_equal(pb_stream_read(&s, (const uint8_t *)page, len), 0);
	assert_non_null(pb_family(&s, "irqlat_build_info"));
	assert_null(pb_family(&s, "irqlat_handler_duration_seconds"));	/* no series: no family */
	pb_stream_free(&s);
	free(page);
	collector_free(&c);
	fake_bpf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_families, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_native, setup, teardown),
		cmocka_unit_test_setup_teardown(test_le_factor, setup, teardown),
		cmocka_unit_test(test_empty),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("metrics_pb", tests, NULL, NULL);
}
