// SPDX-License-Identifier: GPL-2.0
/* The Prometheus page, text format 0.0.4 (docs/metrics.md): what GET /metrics answers, and
 * what other requests get. metrics_http.c serves it. A page is a few kB per handler and takes microseconds to build,
 * on the daemon's only thread, between ticks, reading the collector without any locking. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include <systemd/sd-daemon.h>
#include "config.h"
#include "log.h"
#include "metrics.h"
#include "common/macro.h"
#include "common/util.h"

/* The histogram's le boundaries: powers of two from 2^7 ns (128 ns) to 2^32 ns (4.29 s). Each
 * is the lower bound of a bucket of src/hist.c, so each cumulative count is exact. */
#define LE_MIN_LOG2 7
#define LE_MAX_LOG2 HIST_MAX_LOG2
#define MAX_WINDOW WINDOW_10S	/* irqlat_handler_max_seconds: the max over the last 10 s */

/* Label values: the name as text_escape() writes it (Prometheus refuses a whole page over one
 * label that is not UTF-8, and a handler name is the driver's bytes, cut to IRQ_NAME_LEN by
 * the BPF program, maybe in the middle of a character), then backslash and double quote
 * escaped as the text format wants. */
#define LABEL_MAX (4 * TP_NAME_MAX + 1)	/* text_escape() of the longest name: 4 bytes a byte */

static void label_text(char *buf, const char *s, size_t max)
{
	text_escape(buf, LABEL_MAX, s, strnlen(s, max));
}

static void put_escaped(FILE *f, const char *text)
{
	for (; *text; text++) {
		if (*text == '\\' || *text == '"')
			fputc('\\', f);
		fputc(*text, f);
	}
}

static void put_label(FILE *f, const char *s, size_t max)
{
	char text[LABEL_MAX];

	label_text(text, s, max);
	put_escaped(f, text);
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* ns as seconds, exactly: 1234567890 -> 1.234567890 */
static void put_seconds(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

/* Handlers that share an IRQ number and a name (one driver registered twice on a shared line),
 * or names that read the same once escaped, would give two series with one label set, which
 * Prometheus rejects: they are summed into the first, the group's leader. */
struct group {
	unsigned leader;	/* index of the first handler with this IRQ and label */
	char label[LABEL_MAX];	/* its name as label_text() writes it */
	struct hist sum;	/* the leader's: its handlers' totals since start, summed */
	uint64_t max_ns;	/* the leader's: the longest run of its handlers in the last 10 s */
	uint64_t storm;		/* the leader's: 1 while one of its handlers is in a storm (storm.c) */
	uint64_t storms;	/* the leader's: storms its handlers had since start */
};

/* totals as of the last tick, all from the same snapshot, so that the histogram's _count
 * equals runs_total within one page; they are at most one --interval-ms old */
static struct group *group_handlers(const struct collector *c)
{
	struct group *g = calloc(c->nhandlers ? c->nhandlers : 1, sizeof(*g));

	if (!g)
		return NULL;
	for (unsigned i = 0; i < c->nhandlers; i++) {
		struct hist w;
		double secs;

		g[i].leader = i;
		label_text(g[i].label, c->handlers[i].name, IRQ_NAME_LEN);
		for (unsigned j = 0; j < i; j++)
			if (g[j].leader == j && c->handlers[j].irq == c->handlers[i].irq && !strcmp(g[j].label, g[i].label)) {
				g[i].leader = j;
				break;
			}
		struct group *lead = &g[g[i].leader];

		hist_add(&lead->sum, &c->handlers[i].total);
		collector_window(c, &c->handlers[i], MAX_WINDOW, &w, &secs);
		if (w.max_ns > lead->max_ns)
			lead->max_ns = w.max_ns;
		lead->storm |= storm_of(&c->storms, i, NULL) != NULL;
		lead->storms += i < c->storms.n ? c->storms.h[i].started : 0;
	}
	return g;
}

/* "name{irq="25",handler="virtio1-req.0"": the caller adds more labels or the closing brace */
static void series(FILE *f, const char *name, const struct handler *h, const struct group *g)
{
	fprintf(f, "%s{irq=\"%u\",handler=\"", name, h->irq);
	put_escaped(f, g->label);
	fputc('"', f);
}

static uint64_t group_runs(const struct group *g)
{
	return g->sum.count;
}

static uint64_t group_ns(const struct group *g)
{
	return g->sum.sum_ns;
}

static uint64_t group_spurious(const struct group *g)
{
	return g->sum.spurious;
}

static uint64_t group_max_ns(const struct group *g)
{
	return g->max_ns;
}

static uint64_t group_storm(const struct group *g)
{
	return g->storm;
}

static uint64_t group_storms(const struct group *g)
{
	return g->storms;
}

/* The per-handler families of one number each; the histogram has its own shape. */
static const struct handler_family {
	const char *name, *type, *help;
	uint64_t (*value)(const struct group *g);
	bool seconds;	/* the value is in ns, shown in seconds */
} handler_families[] = {
	{ "irqlat_handler_runs_total", "counter", "Runs of a hard-IRQ handler since irqlatd started.",
	  group_runs, false },
	{ "irqlat_handler_seconds_total", "counter", "Time spent in a hard-IRQ handler since irqlatd started.",
	  group_ns, true },
	{ "irqlat_handler_spurious_total", "counter",
	  "Runs of a hard-IRQ handler that returned IRQ_NONE (not its device's interrupt).", group_spurious, false },
	{ "irqlat_handler_max_seconds", "gauge", "Longest run of a hard-IRQ handler in the last 10 s.",
	  group_max_ns, true },
	{ "irqlat_handler_storm", "gauge",
	  "1 while irqlatd sees an interrupt storm on a hard-IRQ handler (irqlat(1), STORMS), else 0.", group_storm, false },
	{ "irqlat_handler_storms_total", "counter", "Interrupt storms irqlatd saw start on a hard-IRQ handler.",
	  group_storms, false },
};

static void handler_metrics(FILE *f, const struct collector *c, const struct group *g)
{
	for (unsigned k = 0; k < ELEMENTSOF(handler_families); k++) {
		const struct handler_family *fam = &handler_families[k];

		family(f, fam->name, fam->type, fam->help);
		for (unsigned i = 0; i < c->nhandlers; i++) {
			if (g[i].leader != i)
				continue;
			series(f, fam->name, &c->handlers[i], &g[i]);
			fputs("} ", f);
			if (fam->seconds)
				put_seconds(f, fam->value(&g[i]));
			else
				fprintf(f, "%" PRIu64, fam->value(&g[i]));
			fputc('\n', f);
		}
	}
}

static void histogram_metrics(FILE *f, const struct collector *c, const struct group *g)
{
	static const char name[] = "irqlat_handler_duration_seconds";

	family(f, name, "histogram",
	       "Run time of a hard-IRQ handler; le bounds are bucket bounds of irqlatd's histogram (exact counts).");
	for (unsigned i = 0; i < c->nhandlers; i++) {
		const struct handler *h = &c->handlers[i];
		const struct hist *sum = &g[i].sum;
		uint64_t cum = 0;
		unsigned b = 0;

		if (g[i].leader != i)
			continue;
		for (unsigned k = LE_MIN_LOG2; k <= LE_MAX_LOG2; k++) {
			/* the buckets below 2^k ns: durations are whole ns, so "< 2^k" is "<= 2^k - 1" */
			for (; b < HIST_BUCKETS && hist_upper_ns(b) <= (1ull << k); b++)
				cum += sum->bucket[b];
			series(f, "irqlat_handler_duration_seconds_bucket", h, &g[i]);
			fprintf(f, ",le=\"%.10g\"} %" PRIu64 "\n", (double)(1ull << k) / 1e9, cum);
		}
		for (; b < HIST_BUCKETS; b++)
			cum += sum->bucket[b];
		series(f, "irqlat_handler_duration_seconds_bucket", h, &g[i]);
		fprintf(f, ",le=\"+Inf\"} %" PRIu64 "\n", cum);
		series(f, "irqlat_handler_duration_seconds_sum", h, &g[i]);
		fputs("} ", f);
		put_seconds(f, sum->sum_ns);
		fputc('\n', f);
		series(f, "irqlat_handler_duration_seconds_count", h, &g[i]);
		/* the buckets' total, not .count: the two are equal (each run lands in one bucket) */
		fprintf(f, "} %" PRIu64 "\n", cum);
	}
}

static void bpf_stats(FILE *f, const struct loader *l)
{
	struct loader_cost cost;

	/* only while the kernel counts: a stale total would read as no cost at all */
	if (loader_read_cost(l, &cost) < 0 || !cost.stats_enabled)
		return;
	family(f, "irqlat_bpf_run_seconds_total", "counter",
	       "Time the kernel ran irqlatd's IRQ entry and exit programs (while BPF stats are on).");
	fputs("irqlat_bpf_run_seconds_total ", f);
	put_seconds(f, cost.run_time_ns);
	fputc('\n', f);
	family(f, "irqlat_bpf_runs_total", "counter",
	       "IRQs irqlatd's programs measured while BPF stats were on (runs of the exit program).");
	fprintf(f, "irqlat_bpf_runs_total %llu\n", (unsigned long long)cost.run_cnt);
}

static void tracepoint_metrics(FILE *f, const struct tp_set *s)
{
	static const struct {
		const char *name, *type, *help;
		enum tp_counter counter;
	} fam[] = {
		{ "irqlat_tracepoint_events_total", "counter", "Events of a consumed tracepoint.",
		  TP_COUNTER_EVENTS },
		{ "irqlat_tracepoint_gaps_total", "counter",
		  "Times a tracepoint's counting argument skipped values (events the program did not see).",
		  TP_COUNTER_GAPS },
		{ "irqlat_tracepoint_missed_total", "counter",
		  "Values a tracepoint's counting argument skipped, summed over its gaps.",
		  TP_COUNTER_MISSED },
	};
	unsigned n = tracepoints_count(s);

	if (!n)
		return;
	for (unsigned k = 0; k < sizeof(fam) / sizeof(fam[0]); k++) {
		family(f, fam[k].name, fam[k].type, fam[k].help);
		for (unsigned i = 0; i < n; i++) {
			struct tp_info t = tracepoints_info(s, i);

			fprintf(f, "%s{tracepoint=\"", fam[k].name);
			put_label(f, t.name, TP_NAME_MAX);
			fprintf(f, "\"} %" PRIu64 "\n", t.counter[fam[k].counter]);
		}
	}
	family(f, "irqlat_tracepoint_attached", "gauge",
	       "1 while irqlatd's program is attached to the tracepoint, 0 while it waits or is detached.");
	for (unsigned i = 0; i < n; i++) {
		struct tp_info t = tracepoints_info(s, i);

		fputs("irqlat_tracepoint_attached{tracepoint=\"", f);
		put_label(f, t.name, TP_NAME_MAX);
		fprintf(f, "\"} %d\n", t.attached);
	}
}

char *metrics_render(const struct metrics_sources *src, size_t *len)
{
	static const char *const drop_names[DROP_KINDS] = { "outlier", "tracepoint", "no_cell" };
	const struct collector *c = src->col;
	_cleanup_free_ struct group *g = group_handlers(c);
	_cleanup_free_ char *buf = NULL;
	_cleanup_fclose_ FILE *f = open_memstream(&buf, len);	/* closed before buf is freed */

	if (!f || !g)
		return NULL;

	family(f, "irqlat_build_info", "gauge", "irqlatd's version; always 1.");
	fprintf(f, "irqlat_build_info{version=\"%s\"} 1\n", IRQLAT_VERSION);
	handler_metrics(f, c, g);
	histogram_metrics(f, c, g);

	family(f, "irqlat_ringbuf_drops_total", "counter",
	       "Records the BPF programs could not hand to irqlatd (ring buffer full; no_cell: cell pool full, run not measured).");
	for (unsigned k = 0; k < DROP_KINDS; k++)
		fprintf(f, "irqlat_ringbuf_drops_total{kind=\"%s\"} %" PRIu64 "\n", drop_names[k], c->drops[k]);
	family(f, "irqlat_handlers", "gauge", "Hard-IRQ handlers seen since irqlatd started.");
	fprintf(f, "irqlat_handlers %u\n", c->nhandlers);
	bpf_stats(f, c->bpf);
	tracepoint_metrics(f, src->tps);

	if (fclose(TAKE_PTR(f)) != 0)
		return NULL;	/* out of memory while writing: buf is freed */
	return TAKE_PTR(buf);
}

struct metrics_answer metrics_route(const char *method, const char *path)
{
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return (struct metrics_answer){ 405, "irqlatd answers only GET (and HEAD)\n", "text/plain; charset=utf-8",
						"GET, HEAD" };
	if (strcmp(path, "/metrics"))
		return (struct metrics_answer){ 404, "irqlatd serves only /metrics\n", "text/plain; charset=utf-8", NULL };
	return (struct metrics_answer){ 200, NULL, "text/plain; version=0.0.4; charset=utf-8", NULL };
}
