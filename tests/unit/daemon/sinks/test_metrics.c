// SPDX-License-Identifier: GPL-2.0
/* The --metrics address parser, and the page over a hand-made collector: exact cumulative
 * buckets at every 8th schema-3 bound (2^m s, upper bounds inclusive), +Inf = _count =
 * runs_total, handlers with the same IRQ and name summed into one series, label values
 * escaped and always UTF-8; the late waits' families from the kernel's counts; what a request gets (metrics_route), and in which format
 * (metrics_negotiate: the Accept header). And the request deadline of
 * metrics_http.c on a real connection: never before http-timeout-s, even on a clock reading
 * older than the connection. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "daemon/config/config.h"
#include "daemon/collect/why.h"
#include "daemon/collect/why_counts.h"
#include "daemon/sinks/metrics_http.h"
#include "daemon/sinks/metrics_stream.h"
#include "../fake_bpf.h"

/* What Prometheus 2.42 with --enable-feature=native-histograms sends (recorded from one) */
#define PROM_242_ACCEPT \
	"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited," \
	"application/openmetrics-text;version=1.0.0;q=0.8,application/openmetrics-text;version=0.0.1;q=0.75," \
	"text/plain;version=0.0.4;q=0.5,*/*;q=0.1"

static void test_addr_parse(void **state)
{
	static const char *const bad[] = {
		"", "9669", ":9669", "127.0.0.1", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:65536",
		"127.0.0.1:96x", "::1:9669", "[::1]", "[::1]9669", "[::1:9669", "[127.0.0.1]:9669",
		"localhost:9669", "256.0.0.1:80", "127.0.0.1:-1",
	};
	struct sockaddr_storage sa;
	unsigned len;
	(void)state;

	assert_int_equal(metrics_addr_parse("127.0.0.1:9669", &sa, &len), 0);
	assert_int_equal(sa.ss_family, AF_INET);
	assert_int_equal(len, sizeof(struct sockaddr_in));
	assert_int_equal(ntohs(((struct sockaddr_in *)&sa)->sin_port), 9669);
	assert_int_equal(ntohl(((struct sockaddr_in *)&sa)->sin_addr.s_addr), 0x7f000001);
	assert_int_equal(metrics_addr_parse("[::1]:1", &sa, &len), 0);
	assert_int_equal(sa.ss_family, AF_INET6);
	assert_int_equal(ntohs(((struct sockaddr_in6 *)&sa)->sin6_port), 1);
	assert_true(IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)&sa)->sin6_addr));
	assert_int_equal(metrics_addr_parse("0.0.0.0:65535", &sa, &len), 0);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (metrics_addr_parse(bad[i], &sa, &len) == 0)
			fail_msg("'%s' accepted", bad[i]);
}

/* n runs of ns into a cell, as the exit program counts them */
static void add(struct fake_bpf *b, uint32_t cell, uint64_t ns, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		fake_bpf_run(b, cell, ns, 0);
}

static uint64_t value(const char *page, const char *series)
{
	const char *p = strstr(page, series);
	char *end;

	if (!p)
		fail_msg("no line %s", series);
	p += strlen(series);
	assert_true(*p == ' ');
	uint64_t v = strtoull(p + 1, &end, 10);
	assert_true(*end == '\n');
	return v;
}

static double seconds(const char *page, const char *series)
{
	const char *p = strstr(page, series);

	if (!p)
		fail_msg("no line %s", series);
	return strtod(p + strlen(series), NULL);
}

static void test_render(void **state)
{
	struct fake_bpf b;
	struct collector c;
	struct metrics_sources src = { .col = &c };
	size_t len;
	(void)state;

	fake_bpf_init(&b, 16);
	assert_int_equal(collector_init(&c, &b.l), 0);
	uint32_t c0 = fake_bpf_new_cell(&b, 25, 0, 0x1000, "virtio1-req.0");
	uint32_t c1 = fake_bpf_new_cell(&b, 25, 1, 0x1000, "virtio1-req.0");	/* its other CPU */
	/* registered twice on the line: two handlers, one series of metrics */
	uint32_t c2 = fake_bpf_new_cell(&b, 25, 0, 0x2000, "virtio1-req.0");
	uint32_t c3 = fake_bpf_new_cell(&b, 1, 0, 0x3000, "odd\"name\\");
	/* 2^-23 s = 119.209... ns, 2^-22 s = 238.418... ns, 2^-9 s = 1953125 ns exactly */
	add(&b, c0, 119, 3);	/* at most 2^-23 s: in le 2^-23 */
	add(&b, c1, 120, 5);	/* above it: the next bound */
	add(&b, c2, 238, 2);	/* still in le 2^-22 */
	add(&b, c2, 1953125, 6);	/* on the bound 2^-9 s: in it (upper bounds are inclusive) */
	add(&b, c0, 1953126, 1);	/* one ns more: the next */
	add(&b, c2, 5000000000ull, 1);	/* beyond 4 s: only +Inf */
	add(&b, c3, 1000, 4);
	collector_tick(&c);
	c.drops[DROP_NO_CELL] = 7;

	char *page = metrics_render(&src, &len);
	assert_non_null(page);
	assert_int_equal(strlen(page), len);
#define S "{irq=\"25\",handler=\"virtio1-req.0\""
#define B "irqlat_handler_duration_seconds_bucket" S
	assert_int_equal(value(page, "irqlat_handler_runs_total" S "}"), 18);
	assert_int_equal(value(page, B ",le=\"1.1920928955078125e-07\"}"), 3);
	assert_int_equal(value(page, B ",le=\"2.384185791015625e-07\"}"), 10);
	assert_int_equal(value(page, B ",le=\"0.0009765625\"}"), 10);
	assert_int_equal(value(page, B ",le=\"0.001953125\"}"), 16);
	assert_int_equal(value(page, B ",le=\"0.00390625\"}"), 17);
	assert_int_equal(value(page, B ",le=\"4\"}"), 17);
	assert_null(strstr(page, B ",le=\"8\"}"));	/* 4 s is the last bound */
	assert_int_equal(value(page, B ",le=\"+Inf\"}"), 18);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_count" S "}"), 18);
	assert_non_null(strstr(page, "irqlat_handler_duration_seconds_sum" S "} 5.013673309\n"));
	assert_non_null(strstr(page, "irqlat_handler_seconds_total" S "} 5.013673309\n"));
	/* one series set for the two handlers */
	assert_null(strstr(strstr(page, "irqlat_handler_runs_total" S) + 1, "irqlat_handler_runs_total" S));
	assert_int_equal(value(page, "irqlat_handler_runs_total{irq=\"1\",handler=\"odd\\\"name\\\\\"}"), 4);
	assert_int_equal(value(page, "irqlat_ringbuf_drops_total{kind=\"no_cell\"}"), 7);	/* deprecated */
	assert_int_equal(value(page, "\nirqlat_unmeasured_runs_total"), 7);	/* the pool, not the ring buffer */
	assert_non_null(strstr(page, "# TYPE irqlat_unmeasured_runs_total counter\n"));
	assert_int_equal(value(page, "\nirqlat_handlers"), 3);	/* handlers, not metric series */
	assert_non_null(strstr(page, "# TYPE irqlat_handler_duration_seconds histogram\n"));
	assert_non_null(strstr(page, "# TYPE irqlat_handler_spurious_total counter\n"));
	assert_null(strstr(page, "irqlat_tracepoint"));	/* no tracepoint set: no family */
	/* HELP says what docs/metrics.md says: a threaded IRQ's counters are its wake-to-run
	 * latency, not "Runs of" or "Time spent in" it */
	assert_non_null(strstr(page, "# HELP irqlat_threaded_wakeup_runs_total Wakes of a threaded IRQ's thread measured"));
	assert_non_null(strstr(page, "# HELP irqlat_threaded_wakeup_seconds_total Sum of the wake-to-run latencies"));
	assert_non_null(strstr(page, "# HELP irqlat_threaded_wakeup_max_seconds Longest wake-to-run latency"));
	assert_null(strstr(page, "Time spent in a threaded IRQ"));
	assert_non_null(strstr(page, "# HELP irqlat_handler_runs_total Runs of a hard-IRQ handler"));
	free(page);
	collector_free(&c);
	fake_bpf_free(&b);
}

/* The late waits' family from the kernel's counts (why_counts, of the map the test fills):
 * the seconds of each cause, of the CPUs and classes that had a late wait, whatever records
 * the daemon received */
static void test_render_why(void **state)
{
	struct fake_bpf b;
	struct collector c;
	struct why_store s;
	struct why_counts k;
	struct metrics_sources src = { .col = &c, .why = &s };
	uint64_t part[WHY_PARTS] = { 0 };
	size_t len;
	(void)state;

	fake_bpf_init(&b, 4);
	assert_int_equal(collector_init(&c, &b.l), 0);
	assert_int_equal(why_store_init(&s, b.l.ncpus), 0);
	assert_int_equal(why_counts_init(&k, b.l.why_counts, b.l.ncpus), 0);
	s.kernel = &k;
	part[WHY_BLOCKING] = 1500000;
	part[WHY_IRQ] = 500000;
	fake_bpf_why_add(&b, 1, WHY_CLASS_WAKEUP, 2000000, part);
	fake_bpf_why_add(&b, 1, WHY_CLASS_WAKEUP, 2000000, part);
	char *page = metrics_render(&src, &len);
	assert_non_null(page);
#define W "{cpu=\"1\",wait=\"wakeup\""
	assert_non_null(strstr(page, "irqlat_late_wait_seconds_total" W ",cause=\"blocking\"} 0.003000000\n"));
	assert_non_null(strstr(page, "irqlat_late_wait_seconds_total" W ",cause=\"irq\"} 0.001000000\n"));
	assert_null(strstr(page, "cpu=\"0\",wait="));	/* no late wait there: no series */
	assert_null(strstr(page, "wait=\"timer\""));
#undef W
	free(page);
	why_counts_free(&k);
	why_store_free(&s);
	collector_free(&c);
	fake_bpf_free(&b);
}

/* metrics-cpu-label: each series once per CPU it ran on, with that CPU's own runs, time,
 * buckets and max (the runs made here on each CPU), and no series without the label; the CPU
 * timers, whose sub is the CPU, keep theirs alone */
static void test_render_cpu_label(void **state)
{
	struct fake_bpf b;
	struct collector c;
	struct daemon_config cfg;
	struct metrics_sources src = { .col = &c, .cfg = &cfg };
	size_t len;
	(void)state;

	daemon_config_defaults(&cfg);
	cfg.metrics_cpu_label = 1;
	fake_bpf_init(&b, 16);
	assert_int_equal(collector_init(&c, &b.l), 0);
	uint32_t c0 = fake_bpf_new_cell(&b, 25, 0, 0x1000, "virtio1-req.0");
	uint32_t c1 = fake_bpf_new_cell(&b, 25, 1, 0x1000, "virtio1-req.0");
	uint32_t c2 = fake_bpf_new_cell(&b, 25, 0, 0x2000, "virtio1-req.0");	/* the same series set, CPU 0 */
	add(&b, c0, 119, 3);
	add(&b, c1, 120, 5);
	add(&b, c2, 238, 2);
	add(&b, c2, 5000000000ull, 1);
	collector_tick(&c);

	char *page = metrics_render(&src, &len);
	assert_non_null(page);
#define L "{irq=\"25\",handler=\"virtio1-req.0\",cpu=\""
	assert_int_equal(value(page, "irqlat_handler_runs_total" L "0\"}"), 6);
	assert_int_equal(value(page, "irqlat_handler_runs_total" L "1\"}"), 5);
	assert_float_equal(seconds(page, "irqlat_handler_seconds_total" L "1\"}"), 600e-9, 1e-12);
	assert_float_equal(seconds(page, "irqlat_handler_max_seconds" L "0\"}"), 5, 1e-12);
	assert_float_equal(seconds(page, "irqlat_handler_max_seconds" L "1\"}"), 120e-9, 1e-12);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_bucket" L "0\",le=\"1.1920928955078125e-07\"}"), 3);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_bucket" L "1\",le=\"1.1920928955078125e-07\"}"), 0);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_bucket" L "1\",le=\"2.384185791015625e-07\"}"), 5);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_count" L "0\"}"), 6);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_count" L "1\"}"), 5);
	assert_null(strstr(page, "irqlat_handler_runs_total{irq=\"25\",handler=\"virtio1-req.0\"}"));
	assert_null(strstr(page, "cpu=\"2\""));	/* no series on a CPU it never ran on */
#undef L
	free(page);
	collector_free(&c);
	fake_bpf_free(&b);
}

/* Label values are UTF-8 whatever the driver named its handler (Prometheus refuses the whole
 * page otherwise): a byte that is not UTF-8, a character the 32-byte name cut in two, a
 * control character, as \xNN; names that read the same once escaped are one series. */
static void test_render_names(void **state)
{
	static const char *const names[] = {
		"eth\xff-rx",
		/* 29 bytes, then the first two of a 3-byte character: the kernel's name cut at 31 */
		"abcdefghijklmnopqrstuvwxyz012\xe2\x82",
		"tab\tbell\a",
		"eth\\xff-rx",	/* the text \xff: reads as the first does */
	};
	struct fake_bpf b;
	struct collector c;
	struct metrics_sources src = { .col = &c };
	size_t len;
	(void)state;

	fake_bpf_init(&b, 16);
	assert_int_equal(collector_init(&c, &b.l), 0);
	for (unsigned i = 0; i < 4; i++)
		add(&b, fake_bpf_new_cell(&b, 30, 0, 0x1000 + i, names[i]), 1000, i + 1);
	collector_tick(&c);

	char *page = metrics_render(&src, &len);
	assert_non_null(page);
	assert_int_equal(value(page, "irqlat_handler_runs_total{irq=\"30\",handler=\"eth\\\\xff-rx\"}"), 1 + 4);
	assert_int_equal(value(page, "irqlat_handler_runs_total{irq=\"30\",handler=\"abcdefghijklmnopqrstuvwxyz012\\\\xe2\\\\x82\"}"), 2);
	assert_int_equal(value(page, "irqlat_handler_runs_total{irq=\"30\",handler=\"tab\tbell\\\\x07\"}"), 3);
	for (const unsigned char *p = (const unsigned char *)page; *p; p++)
		if (*p >= 0x80)
			fail_msg("a byte 0x%02x in the page", *p);
	free(page);
	collector_free(&c);
	fake_bpf_free(&b);
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* A connection made after the time the deadline check reads (it fired late, and accepting
 * came first in its loop iteration) is not overdue: the check once measured now - since,
 * which wrapped, and shut such fresh connections at once. */
static void test_deadline(void **state)
{
	struct fake_bpf b;
	struct collector c;
	struct metrics_sources src = { .col = &c };
	struct metrics_limits lim = { .max_connections = 4, .timeout_s = 2 };
	struct sockaddr_in lo = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct metrics *m = NULL;
	sd_event *ev = NULL;
	int lfd, sv[2];
	(void)state;

	fake_bpf_init(&b, 4);
	assert_int_equal(collector_init(&c, &b.l), 0);
	assert_int_equal(sd_event_new(&ev), 0);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	assert_true(lfd >= 0);
	assert_int_equal(bind(lfd, (struct sockaddr *)&lo, sizeof(lo)), 0);
	assert_int_equal(listen(lfd, 4), 0);
	assert_int_equal(metrics_serve(&m, ev, lfd, "test", &src, &lim, NULL), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv), 0);
	uint64_t before = mono_us();
	assert_int_equal(metrics_http_add(m, sv[0], (struct sockaddr *)&lo, sizeof(lo)), 0);
	uint64_t after = mono_us();
	assert_int_equal(metrics_stats(m).open, 1);

	assert_int_equal(metrics_http_expire(m, before - 1000), 0);	/* older than the connection */
	assert_int_equal(metrics_http_expire(m, after + 1000000), 0);	/* 1 s of its 2 */
	assert_int_equal(metrics_stats(m).open, 1);
	assert_int_equal(metrics_http_expire(m, after + 2000000), 1);	/* its 2 s are up */
	struct metrics_stats st = metrics_stats(m);
	assert_int_equal(st.open, 0);
	assert_int_equal(st.timed_out, 1);

	close(sv[1]);
	metrics_close(m);
	sd_event_unref(ev);
	collector_free(&c);
	fake_bpf_free(&b);
}

/* What a request gets: the page for GET and HEAD of /metrics, 404 for another path, 405 with
 * Allow for another method, whatever the Accept header says. */
static void test_route(void **state)
{
	struct metrics_answer a;
	(void)state;

	a = metrics_route("GET", "/metrics", NULL);
	assert_int_equal(a.status, 200);
	assert_null(a.body);
	assert_string_equal(a.content_type, "text/plain; version=0.0.4; charset=utf-8");
	assert_int_equal(a.format, METRICS_TEXT);
	assert_int_equal(metrics_route("HEAD", "/metrics", NULL).status, 200);
	a = metrics_route("GET", "/", PROM_242_ACCEPT);
	assert_int_equal(a.status, 404);
	assert_non_null(a.body);
	assert_int_equal(metrics_route("GET", "/metrics/", NULL).status, 404);
	assert_int_equal(metrics_route("get", "/metrics", NULL).status, 405);
	a = metrics_route("POST", "/metrics", PROM_242_ACCEPT);
	assert_int_equal(a.status, 405);
	assert_string_equal(a.allow, "GET, HEAD");
	a = metrics_route("HEAD", "/metrics", PROM_242_ACCEPT);
	assert_int_equal(a.status, 200);
	assert_int_equal(a.format, METRICS_PROTOBUF);
	assert_string_equal(a.content_type,
			    "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited");
}

/* Content negotiation: the protobuf stream only for a range that names it exactly and is
 * preferred; anything else, garbage included, gets the text format. */
static void test_negotiate(void **state)
{
	static const char *const text[] = {
		"", "*/*", "text/plain", "garbage", ";;;,,,", "application/vnd.google.protobuf",
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily",	/* no encoding */
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text",
		"application/vnd.google.protobuf;proto=io.prometheus.client.Metric;encoding=delimited",
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0",
		/* text preferred, or equal and first */
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.2,text/plain;q=0.3",
		"text/plain;version=0.0.4;q=0.5,application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.5",
		/* what Prometheus 2.42 sends without native histograms */
		"application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=x\x01\xff",
	};
	static const char *const pb[] = {
		PROM_242_ACCEPT,
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,"
		"text/plain;version=0.0.4;q=0.3,*/*;q=0.2",
		" Application/Vnd.Google.Protobuf ; proto=io.prometheus.client.MetricFamily ; encoding=delimited ; q=0.9 , text/plain;q=0.8",
		"text/plain;version=0.0.3,application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.01",
		"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.5,text/plain;q=0.5",
	};
	(void)state;

	assert_int_equal(metrics_negotiate(NULL), METRICS_TEXT);
	for (unsigned i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		if (metrics_negotiate(text[i]) != METRICS_TEXT)
			fail_msg("'%s' got the protobuf stream", text[i]);
	for (unsigned i = 0; i < sizeof(pb) / sizeof(pb[0]); i++)
		if (metrics_negotiate(pb[i]) != METRICS_PROTOBUF)
			fail_msg("'%s' got the text format", pb[i]);
}

/* The first bytes of a connection: a request line's method and its space go to libmicrohttpd;
 * anything that cannot start one is no HTTP (a 400 at once), a method so far waits for more */
static void test_request_start(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		int want;
	} cases[] = {
		{ "GET /metrics HTTP/1.1\r\n", 0, 1 }, { "GET ", 0, 1 }, { "M-SEARCH * HTTP/1.1", 0, 1 },
		{ "", 0, 0 }, { "G", 0, 0 }, { "GET", 0, 0 }, { "GARBAGE", 0, 0 },
		{ "GET\r\n", 0, -1 }, { "GARBAGE\r\n\r\n", 0, -1 }, { " GET /", 0, -1 }, { "GET\t/", 0, -1 },
		{ "\x16\x03\x01\x02\x00", 5, -1 }, { "GE\0T ", 5, -1 }, { "G\xc3\xa9T ", 0, -1 }, { "{\"cmd\":1}", 0, -1 },
		/* a method longer than any: no HTTP either */
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFG", 0, -1 }, { "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEF", 0, 0 },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEF /", 0, 1 }, { "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFG /", 0, -1 },
	};
	(void)state;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].in);
		int r = http_request_start(cases[i].in, len);

		if (r != cases[i].want)
			fail_msg("'%s': %d, expected %d", cases[i].in, r, cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr_parse),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_render_names),
		cmocka_unit_test(test_render_cpu_label),
		cmocka_unit_test(test_render_why),
		cmocka_unit_test(test_route),
		cmocka_unit_test(test_negotiate),
		cmocka_unit_test(test_request_start),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
