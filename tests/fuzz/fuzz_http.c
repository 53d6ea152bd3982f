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
#include "../unit/daemon/fake_bpf.h"
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
	struct fake_bpf b;
	struct collector c;
	struct metrics_sources src = { .col = &c, .tps = &tps };
	struct prom_page seen;
	unsigned handlers = 0;
	uint64_t runs = 0;
	size_t plen = 0;
	char *text;

	fake_bpf_init(&b, MAX_LINES);
	fuzz_check(collector_init(&c, &b.l) == 0, "collector_init");
	for (unsigned i = 2; i < n; i++) {
		/* a few IRQ numbers: shared lines; the name up to a NUL, as the BPF program reads it */
		uint32_t irq = len[i] ? (unsigned char)line[i][0] % 4 : 0;
		uint32_t cell = fake_bpf_new_cell(&b, irq, 0, 0x1000 + i, len[i] ? line[i] + 1 : "");

		for (unsigned k = 0; k < i; k++)
			fake_bpf_run(&b, cell, 1000 * i, 0);
		runs += i;
		handlers++;
	}
	collector_tick(&c);
	text = metrics_render(&src, &plen);
	fuzz_check(text && strlen(text) == plen, "no page, or its length is wrong");
	prom_check(text, plen, &seen);
	fuzz_check(seen.runs_total == (double)runs, "runs_total sums to %.0f, the handlers ran %" PRIu64, seen.runs_total, runs);
	fuzz_check(seen.runs_series <= handlers, "%u runs_total series for %u handlers", seen.runs_series, handlers);
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
