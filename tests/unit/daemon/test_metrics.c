// SPDX-License-Identifier: GPL-2.0
/* The --metrics address parser, and the page over a hand-made collector: exact cumulative
 * buckets at the powers of two, +Inf = _count = runs_total, handlers with the same IRQ and
 * name summed into one series, label values escaped and always UTF-8; what a request gets
 * (metrics_route). */
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
#include <cmocka.h>
#include "daemon/config.h"
#include "daemon/metrics.h"

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

static void add(struct hist *h, uint64_t ns, uint64_t n)
{
	h->bucket[hist_bucket(ns)] += n;
	h->count += n;
	h->sum_ns += ns * n;
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

static void test_render(void **state)
{
	struct collector c = { 0 };
	struct handler *h = calloc(3, sizeof(*h));
	struct metrics_sources src = { .col = &c };
	size_t len;
	(void)state;

	assert_non_null(h);
	c.handlers = h;
	c.nhandlers = 3;
	c.drops[DROP_NO_CELL] = 7;
	h[0].irq = h[1].irq = 25;
	strcpy(h[0].name, "virtio1-req.0");
	strcpy(h[1].name, "virtio1-req.0");	/* registered twice on the line: one series */
	h[2].irq = 1;
	strcpy(h[2].name, "odd\"name\\");
	add(&h[0].total, 127, 3);	/* below 2^7: in le 128 ns */
	add(&h[0].total, 128, 5);	/* exactly 2^7: the next bound (buckets are [lower, upper)) */
	add(&h[1].total, 255, 2);	/* below 2^8 */
	add(&h[1].total, 5000000000ull, 1);	/* beyond 2^32 ns: only +Inf */
	add(&h[2].total, 1000, 4);

	char *page = metrics_render(&src, &len);
	assert_non_null(page);
	assert_int_equal(strlen(page), len);
#define S "{irq=\"25\",handler=\"virtio1-req.0\""
	assert_int_equal(value(page, "irqlat_handler_runs_total" S "}"), 11);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_bucket" S ",le=\"1.28e-07\"}"), 3);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_bucket" S ",le=\"2.56e-07\"}"), 10);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_bucket" S ",le=\"4.294967296\"}"), 10);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_bucket" S ",le=\"+Inf\"}"), 11);
	assert_int_equal(value(page, "irqlat_handler_duration_seconds_count" S "}"), 11);
	assert_non_null(strstr(page, "irqlat_handler_duration_seconds_sum" S "} 5.000001531\n"));
	assert_non_null(strstr(page, "irqlat_handler_seconds_total" S "} 5.000001531\n"));
	/* one series set for the two handlers */
	assert_null(strstr(strstr(page, "irqlat_handler_runs_total" S) + 1, "irqlat_handler_runs_total" S));
	assert_int_equal(value(page, "irqlat_handler_runs_total{irq=\"1\",handler=\"odd\\\"name\\\\\"}"), 4);
	assert_int_equal(value(page, "irqlat_ringbuf_drops_total{kind=\"no_cell\"}"), 7);
	assert_int_equal(value(page, "\nirqlat_handlers"), 3);
	assert_non_null(strstr(page, "# TYPE irqlat_handler_duration_seconds histogram\n"));
	assert_null(strstr(page, "irqlat_tracepoint"));	/* no tracepoint set: no family */
	free(page);
	free(h);
}

/* Label values are UTF-8 whatever the driver named its handler (Prometheus refuses the whole
 * page otherwise): a byte that is not UTF-8, a character the 32-byte name cut in two, a
 * control character, as \xNN; names that read the same once escaped are one series. */
static void test_render_names(void **state)
{
	struct collector c = { 0 };
	struct handler h[4] = { 0 };
	struct metrics_sources src = { .col = &c };
	size_t len;
	(void)state;

	c.handlers = h;
	c.nhandlers = 4;
	h[0].irq = h[1].irq = h[2].irq = h[3].irq = 30;
	strcpy(h[0].name, "eth\xff-rx");
	/* 29 bytes, then the first two of a 3-byte character: the kernel's name cut at 31 */
	strcpy(h[1].name, "abcdefghijklmnopqrstuvwxyz012\xe2\x82");
	strcpy(h[2].name, "tab\tbell\a");
	strcpy(h[3].name, "eth\\xff-rx");	/* the text \xff: reads as h[0] does */
	for (unsigned i = 0; i < 4; i++)
		add(&h[i].total, 1000, i + 1);

	char *page = metrics_render(&src, &len);
	assert_non_null(page);
	assert_int_equal(value(page, "irqlat_handler_runs_total{irq=\"30\",handler=\"eth\\\\xff-rx\"}"), 1 + 4);
	assert_int_equal(value(page, "irqlat_handler_runs_total{irq=\"30\",handler=\"abcdefghijklmnopqrstuvwxyz012\\\\xe2\\\\x82\"}"), 2);
	assert_int_equal(value(page, "irqlat_handler_runs_total{irq=\"30\",handler=\"tab\tbell\\\\x07\"}"), 3);
	for (const unsigned char *p = (const unsigned char *)page; *p; p++)
		if (*p >= 0x80)
			fail_msg("a byte 0x%02x in the page", *p);
	free(page);
}

/* What a request gets, whatever its Accept header says: the page for GET and HEAD of
 * /metrics, 404 for another path, 405 with Allow for another method. */
static void test_route(void **state)
{
	struct metrics_answer a;
	(void)state;

	a = metrics_route("GET", "/metrics");
	assert_int_equal(a.status, 200);
	assert_null(a.body);
	assert_string_equal(a.content_type, "text/plain; version=0.0.4; charset=utf-8");
	assert_int_equal(metrics_route("HEAD", "/metrics").status, 200);
	a = metrics_route("GET", "/");
	assert_int_equal(a.status, 404);
	assert_non_null(a.body);
	assert_int_equal(metrics_route("GET", "/metrics/").status, 404);
	assert_int_equal(metrics_route("get", "/metrics").status, 405);
	a = metrics_route("POST", "/metrics");
	assert_int_equal(a.status, 405);
	assert_string_equal(a.allow, "GET, HEAD");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr_parse),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_render_names),
		cmocka_unit_test(test_route),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
