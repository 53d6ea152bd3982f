// SPDX-License-Identifier: GPL-2.0
/* The HTTP endpoint's answers: the input is a request's method (line 1) and path (line 2),
 * which metrics_route() answers as metrics_http.c's handler does, then handlers (one a line:
 * a byte for the IRQ number, the rest the name, cut to the kernel's IRQ_NAME_LEN as the BPF
 * program cuts it) whose page metrics_render() writes when the answer is the page. Checked:
 * 200, 404 or 405 with Allow, a text for the errors; the page is the text format as
 * prom_check.h reads it (UTF-8 labels, no series twice) and counts every run once. */
#include <inttypes.h>
#include "fuzz.h"
#include "prom_check.h"
#include "daemon/metrics.h"
#include "daemon/tracepoints.h"

#define MAX_LINES 18	/* method, path, 16 handlers */

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

static void page(char **line, const size_t *len, unsigned n)
{
	struct handler h[MAX_LINES] = { 0 };
	struct collector c = { .handlers = h };
	struct metrics_sources src = { .col = &c, .tps = &tps };
	struct prom_page seen;
	uint64_t runs = 0;
	size_t plen = 0;
	char *text;

	for (unsigned i = 2; i < n; i++) {
		struct handler *x = &h[c.nhandlers++];
		size_t l = len[i] ? len[i] - 1 : 0;

		x->irq = len[i] ? (unsigned char)line[i][0] % 4 : 0;	/* a few numbers: shared lines */
		memcpy(x->name, line[i] + (len[i] ? 1 : 0), l < IRQ_NAME_LEN - 1 ? l : IRQ_NAME_LEN - 1);
		x->total.count = i;
		x->total.bucket[hist_bucket(1000 * i)] = i;
		x->total.sum_ns = 1000ull * i * i;
		runs += i;
	}
	text = metrics_render(&src, &plen);
	fuzz_check(text && strlen(text) == plen, "no page, or its length is wrong");
	prom_check(text, plen, &seen);
	fuzz_check(seen.runs_total == (double)runs, "runs_total sums to %.0f, the handlers ran %" PRIu64, seen.runs_total, runs);
	fuzz_check(seen.runs_series <= c.nhandlers, "%u runs_total series for %u handlers", seen.runs_series, c.nhandlers);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line[MAX_LINES];
	size_t len[MAX_LINES];
	unsigned n;
	char *copy = fuzz_split(data, size, '\n', line, len, MAX_LINES, &n);
	struct metrics_answer a;

	if (!copy)
		return 0;
	/* MHD hands over the method and the path as NUL-terminated strings */
	a = metrics_route(line[0], n > 1 ? line[1] : "");
	fuzz_check(a.status == 200 || a.status == 404 || a.status == 405, "status %u", a.status);
	fuzz_check(a.content_type && (a.status == 200) == !a.body, "status %u with%s a body", a.status, a.body ? "" : "out");
	fuzz_check((a.status == 405) == (a.allow != NULL), "status %u, Allow %s", a.status, a.allow ? a.allow : "none");
	if (a.status == 200)
		page(line, len, n);
	free(copy);
	return 0;
}
