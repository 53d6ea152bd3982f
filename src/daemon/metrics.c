// SPDX-License-Identifier: GPL-2.0
/* The Prometheus page, text format 0.0.4 (docs/metrics.md): what GET /metrics answers, and
 * what other requests get. metrics_http.c serves it. A page is a few kB per handler and takes
 * microseconds to build, on the daemon's only thread, between ticks, reading the collector
 * without any locking. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "kind.h"
#include "log.h"
#include "metrics.h"
#include "common/macro.h"
#include "common/util.h"

/* The classic histogram's le bounds: every 8th schema-3 bound, 2^m s for m = -23 (119 ns) to
 * 2 (4 s), each an exact bucket bound of bpf/hist_bucket.h, so each cumulative count is exact
 * and a Prometheus native histogram of the same cells would agree with it. */
#define LE_MIN_LOG2_S (-23)
#define LE_MAX_LOG2_S 2
#define MAX_WINDOW WINDOW_10S	/* <kind>_max_seconds: the max over the last 10 s */

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

/* Series of one kind that share a sub and a name (one driver registered twice on a shared
 * line), or names that read the same once escaped, would give two series with one label set,
 * which Prometheus rejects: they are summed into the first, the group's leader. Only the numbers are kept per group; each group's
 * buckets are summed while its histogram is written, one group at a time. */
struct group {
	unsigned leader;	/* index of the first series with this kind, sub and label */
	char label[LABEL_MAX];	/* its name as label_text() writes it */
	unsigned next;		/* the next series of the group, UINT_MAX: none */
	unsigned last;		/* the leader's: its last series so far */
	uint64_t count, sum_ns, aux;	/* the leader's: its series' totals since start, summed */
	uint64_t max_ns;	/* the leader's: the largest value of its series in the last 10 s */
	uint64_t storm;		/* the leader's, hard IRQs: 1 while one of its series is in a storm (storm.c) */
	uint64_t storms;	/* the leader's, hard IRQs: storms its series had since start */
};

/* totals as of the last tick, all from the same snapshot, so that the histogram's _count
 * equals runs_total within one page; they are at most one --interval-ms old */
static struct group *group_series(const struct collector *c)
{
	struct group *g = calloc(c->nseries ? c->nseries : 1, sizeof(*g));
	struct window_iter it;

	if (!g)
		return NULL;
	collector_window_begin(c, MAX_WINDOW, &it);
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];
		struct hist w;

		g[i].leader = g[i].last = i;
		g[i].next = UINT_MAX;
		label_text(g[i].label, s->name, IRQ_NAME_LEN);
		for (unsigned j = 0; j < i; j++)
			if (g[j].leader == j && c->series[j].kind == s->kind && c->series[j].sub == s->sub &&
			    !strcmp(g[j].label, g[i].label)) {
				g[i].leader = j;
				break;
			}
		struct group *lead = &g[g[i].leader];

		if (lead != &g[i]) {
			g[lead->last].next = i;
			lead->last = i;
		}
		lead->count += s->count;
		lead->sum_ns += s->sum_ns;
		lead->aux += s->aux;
		collector_window_next(&it, i, &w, NULL);
		if (w.max_ns > lead->max_ns)
			lead->max_ns = w.max_ns;
		lead->storm |= storm_of(&c->storms, i, NULL) != NULL;
		lead->storms += i < c->storms.n ? c->storms.h[i].started : 0;
	}
	return g;
}

/* "name{irq="25",handler="virtio1-req.0"": the caller adds more labels or the closing brace */
static void series_labels(FILE *f, const char *prefix, const char *suffix, const struct series *s)
{
	const struct kind_desc *k = kind_get(s->kind);

	fprintf(f, "%s%s{", prefix, suffix);
	if (k->sub_key)	/* the others' sub only indexes their names */
		fprintf(f, "%s=\"%u\"%s", k->sub_key, s->sub, k->name_label ? "," : "");
	if (!k->name_label)	/* the sub alone names it (a CPU) */
		return;
	fprintf(f, "%s=\"", k->name_label);
	put_label(f, s->name, IRQ_NAME_LEN);
	fputc('"', f);
}

static uint64_t group_runs(const struct group *g)
{
	return g->count;
}

static uint64_t group_ns(const struct group *g)
{
	return g->sum_ns;
}

static uint64_t group_aux(const struct group *g)
{
	return g->aux;
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

/* The per-series families of one number each; the histogram has its own shape. Names are the
 * kind's prefix plus the suffix (NULL: "_<aux_key>_total"), help texts the kind's noun. */
static const struct series_family {
	const char *suffix, *type, *help;
	uint64_t (*value)(const struct group *g);
	bool seconds;	/* the value is in ns, shown in seconds */
	bool hardirq_only;	/* storms are about IRQ lines (storm.h) */
} series_families[] = {
	{ "_runs_total", "counter", "Runs of a %s since irqlatd started.", group_runs, false, false },
	{ "_seconds_total", "counter", "Time spent in a %s since irqlatd started.", group_ns, true, false },
	{ NULL, "counter", NULL, group_aux, false, false },
	{ "_max_seconds", "gauge", "Longest run of a %s in the last 10 s.", group_max_ns, true, false },
	{ "_storm", "gauge", "1 while irqlatd sees an interrupt storm on a %s (irqlat(1), STORMS), else 0.",
	  group_storm, false, true },
	{ "_storms_total", "counter", "Interrupt storms irqlatd saw start on a %s.", group_storms, false, true },
};

static void series_metrics(FILE *f, const struct collector *c, const struct group *g, enum lat_kind kind)
{
	const struct kind_desc *k = kind_get(kind);

	if (!k->counters)
		return;
	for (unsigned j = 0; j < ELEMENTSOF(series_families); j++) {
		const struct series_family *fam = &series_families[j];
		char name[96], help[160];

		if (!fam->suffix && !k->aux_key)
			continue;
		if (fam->hardirq_only && kind != KIND_HARDIRQ)
			continue;

		if (fam->suffix)
			snprintf(name, sizeof(name), "%s%s", k->metric, fam->suffix);
		else
			snprintf(name, sizeof(name), "%s_%s_total", k->metric, k->aux_key);
		if (fam->help)
			snprintf(help, sizeof(help), fam->help, k->noun);
		else
			snprintf(help, sizeof(help), "%s", k->aux_help);
		family(f, name, fam->type, help);
		for (unsigned i = 0; i < c->nseries; i++) {
			if (g[i].leader != i || c->series[i].kind != kind)
				continue;
			series_labels(f, name, "", &c->series[i]);
			fputs("} ", f);
			if (fam->seconds)
				put_seconds(f, fam->value(&g[i]));
			else
				fprintf(f, "%" PRIu64, fam->value(&g[i]));
			fputc('\n', f);
		}
	}
}

static void histogram_metrics(FILE *f, const struct collector *c, const struct group *g, enum lat_kind kind)
{
	const struct kind_desc *k = kind_get(kind);
	_cleanup_free_ struct hist *sum = malloc(sizeof(*sum));
	char name[96], help[200];

	if (!sum)
		return;
	snprintf(name, sizeof(name), "%s%s", k->metric, k->hist_suffix);
	snprintf(help, sizeof(help), "%s; le bounds are every 8th bound of irqlatd's histogram, Prometheus schema 3 (exact counts).",
		 k->value_help);
	family(f, name, "histogram", help);
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];
		struct hist one;
		uint64_t cum = 0;
		unsigned b = 0;

		if (g[i].leader != i || s->kind != kind)
			continue;
		memset(sum, 0, sizeof(*sum));
		for (unsigned j = i; j != UINT_MAX; j = g[j].next) {
			collector_series_total(c, j, &one);
			hist_add(sum, &one);
		}
		for (int m = LE_MIN_LOG2_S; m <= LE_MAX_LOG2_S; m++) {
			/* le = 2^m s is the upper bound (inclusive) of schema-3 bucket 8m */
			for (; b < HIST_BUCKETS && hist_schema_index(b) <= 8 * m; b++)
				cum += sum->bucket[b];
			series_labels(f, name, "_bucket", s);
			fprintf(f, ",le=\"%.17g\"} %" PRIu64 "\n", ldexp(1.0, m), cum);
		}
		for (; b < HIST_BUCKETS; b++)
			cum += sum->bucket[b];
		series_labels(f, name, "_bucket", s);
		fprintf(f, ",le=\"+Inf\"} %" PRIu64 "\n", cum);
		series_labels(f, name, "_sum", s);
		fputs("} ", f);
		put_seconds(f, sum->sum_ns);
		fputc('\n', f);
		series_labels(f, name, "_count", s);
		/* the buckets' total, which is .count (each value lands in one bucket) */
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
	_cleanup_free_ struct group *g = group_series(c);
	_cleanup_free_ char *buf = NULL;
	_cleanup_fclose_ FILE *f = open_memstream(&buf, len);	/* closed before buf is freed */

	if (!f || !g)
		return NULL;

	family(f, "irqlat_build_info", "gauge", "irqlatd's version; always 1.");
	fprintf(f, "irqlat_build_info{version=\"%s\"} 1\n", IRQLAT_VERSION);
	for (unsigned k = 0; k < KINDS; k++) {
		series_metrics(f, c, g, k);
		histogram_metrics(f, c, g, k);
	}

	family(f, "irqlat_ringbuf_drops_total", "counter",
	       "Records the BPF programs could not hand to irqlatd (ring buffer full; no_cell: cell pool full, run not measured).");
	for (unsigned k = 0; k < DROP_KINDS; k++)
		fprintf(f, "irqlat_ringbuf_drops_total{kind=\"%s\"} %" PRIu64 "\n", drop_names[k], c->drops[k]);
	family(f, "irqlat_handlers", "gauge", "Hard-IRQ handlers seen since irqlatd started.");
	unsigned handlers = 0;
	for (unsigned i = 0; i < c->nseries; i++)
		handlers += c->series[i].kind == KIND_HARDIRQ;
	fprintf(f, "irqlat_handlers %u\n", handlers);
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
