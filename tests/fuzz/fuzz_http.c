// SPDX-License-Identifier: GPL-2.0
/* The HTTP endpoint's answers: the input is a request's method (line 1), path (line 2) and
 * Accept header (line 3), which metrics_route() answers as metrics_http.c's handler does, then
 * handlers (one a line: a byte for the IRQ number, the rest the name, cut to the kernel's
 * IRQ_NAME_LEN as the BPF program cuts it) whose page metrics_render_as() writes when the
 * answer is the page. Checked: 200, 404 or 405 with Allow, a text for the errors; the format
 * follows the Accept header (text unless it names the protobuf stream); a text page is the
 * text format as prom_check.h reads it (UTF-8 labels, no series twice) and counts every run
 * once; a protobuf page decodes (pb_stream.h), with every run once in runs_total and in each
 * native histogram's count. The method line is also what http_request_start() judges as a
 * connection's first bytes: taken only as a token and a space, waited on only while a token. */
#include <inttypes.h>
#include "fuzz.h"
#include "prom_check.h"
#include "../unit/daemon/fake_bpf.h"
#include "../unit/daemon/pb_stream.h"
#include "daemon/tracepoints/tp_json.h"
#include "daemon/sinks/metrics_stream.h"
#include "daemon/sinks/metrics_http.h"

#define MAX_LINES 19	/* method, path, Accept, 16 handlers */
#define FIRST_HANDLER 3

static struct tracepoint tp[2];
static struct tp_set tps = { .tps = tp, .n = 2 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(tp[0].cfg.name, TP_NAME_MAX, "silly:me_silly");
	tp[0].state = TP_ATTACHED;
	tp[0].events = 42;
	snprintf(tp[1].cfg.name, TP_NAME_MAX, "sched:sched_process_exec");
	return 0;
}

/* The protobuf page: whole messages, runs_total and the histograms' counts each sum to runs */
static void check_pb(const char *page, size_t plen, uint64_t runs)
{
	struct pb_stream s;
	const PbFamily *f;
	double total = 0;
	uint64_t count = 0;

	fuzz_check(pb_stream_read(&s, (const uint8_t *)page, plen) == 0, "the protobuf page does not decode");
	f = pb_family(&s, "irqlat_handler_runs_total");
	for (size_t i = 0; f && i < f->n_metric; i++)
		total += f->metric[i]->counter->value;
	fuzz_check(total == (double)runs, "runs_total sums to %.0f, the handlers ran %" PRIu64, total, runs);
	f = pb_family(&s, "irqlat_handler_duration_seconds");
	for (size_t i = 0; f && i < f->n_metric; i++) {
		const PbHistogram *h = f->metric[i]->histogram;
		uint64_t c[HIST_BUCKETS], in = h->zero_count;
		int lo, n = pb_native_counts(h, &lo, c, HIST_BUCKETS);

		fuzz_check(h->schema == 3 && n >= 0, "schema %d, spans and deltas %s", h->schema, n < 0 ? "disagree" : "agree");
		for (int j = 0; j < n; j++)
			in += c[j];
		fuzz_check(in == h->sample_count, "native buckets hold %" PRIu64 " of %" PRIu64 " runs", in, h->sample_count);
		count += h->sample_count;
	}
	fuzz_check(count == runs, "the histograms count %" PRIu64 " runs of %" PRIu64, count, runs);
	pb_stream_free(&s);
}

static void page(char **line, const size_t *len, unsigned n, enum metrics_format format)
{
	struct fake_bpf b;
	struct collector c;
	struct metrics_sources src = { .col = &c, .tps = &tps, .tp_count = tracepoints_count, .tp_info = tracepoints_info };
	struct prom_page seen;
	unsigned handlers = 0;
	uint64_t runs = 0;
	size_t plen = 0;
	char *text;

	fake_bpf_init(&b, MAX_LINES);
	fuzz_check(collector_init(&c, &b.l) == 0, "collector_init");
	for (unsigned i = FIRST_HANDLER; i < n; i++) {
		/* a few IRQ numbers: shared lines; the name up to a NUL, as the BPF program reads it */
		uint32_t irq = len[i] ? (unsigned char)line[i][0] % 4 : 0;
		uint32_t cell = fake_bpf_new_cell(&b, irq, 0, 0x1000 + i, len[i] ? line[i] + 1 : "");

		for (unsigned k = 0; k < i; k++)
			fake_bpf_run(&b, cell, 1000 * i, 0);
		runs += i;
		handlers++;
	}
	collector_tick(&c);
	text = metrics_render_as(&src, format, &plen);
	if (format == METRICS_PROTOBUF) {
		fuzz_check(text != NULL, "no page");
		check_pb(text, plen, runs);
	} else {
		fuzz_check(text && strlen(text) == plen, "no page, or its length is wrong");
		prom_check(text, plen, &seen);
		fuzz_check(seen.runs_total == (double)runs, "runs_total sums to %.0f, the handlers ran %" PRIu64, seen.runs_total, runs);
		fuzz_check(seen.runs_series <= handlers, "%u runs_total series for %u handlers", seen.runs_series, handlers);
	}
	free(text);
	collector_free(&c);
	fake_bpf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line[MAX_LINES];
	size_t len[MAX_LINES];
	unsigned n;
	char *copy = fuzz_split(data, size, '\n', line, len, MAX_LINES, &n);
	struct metrics_answer a;
	const char *accept;

	if (!copy)
		return 0;
	accept = n > 2 ? line[2] : NULL;
	/* the first bytes of a connection, as metrics_http.c looks at them before MHD: a request
	 * line's start only when a method of token characters ends in a space */
	{
		size_t k = len[0] < HTTP_METHOD_MAX + 2 ? len[0] : HTTP_METHOD_MAX + 2;
		int st = http_request_start(line[0], k);
		size_t sp = strcspn(line[0], " ");

		fuzz_check(st >= -1 && st <= 1, "http_request_start %d", st);
		fuzz_check(st != 1 || (sp > 0 && sp <= HTTP_METHOD_MAX && sp < k), "'%.*s' taken for a request line", (int)k, line[0]);
		fuzz_check(st != 0 || (k <= HTTP_METHOD_MAX && !memchr(line[0], ' ', k)), "'%.*s' waits for more", (int)k, line[0]);
	}
	/* MHD hands over the method and the path as NUL-terminated strings */
	a = metrics_route(line[0], n > 1 ? line[1] : "", accept);
	fuzz_check(a.status == 200 || a.status == 404 || a.status == 405, "status %u", a.status);
	fuzz_check(a.content_type && (a.status == 200) == !a.body, "status %u with%s a body", a.status, a.body ? "" : "out");
	fuzz_check((a.status == 405) == (a.allow != NULL), "status %u, Allow %s", a.status, a.allow ? a.allow : "none");
	if (a.status == 200) {
		bool pb = a.format == METRICS_PROTOBUF;

		fuzz_check(pb == (metrics_negotiate(accept) == METRICS_PROTOBUF) &&
				   pb == !strncmp(a.content_type, "application/vnd.google.protobuf", 31),
			   "format %d, Content-Type %s", a.format, a.content_type);
		/* only a range that names it, with its parameters, gets the protobuf stream (their
		 * names are case-insensitive, RFC 9110 section 5.6.6: "prOto=" is "proto=") */
		fuzz_check(!pb || (strcasestr(accept, "application/vnd.google.protobuf") &&
				   strcasestr(accept, "proto=io.prometheus.client.MetricFamily") &&
				   strcasestr(accept, "encoding=delimited")),
			   "'%s' got the protobuf stream", accept);
		page(line, len, n, a.format);
	}
	free(copy);
	return 0;
}
