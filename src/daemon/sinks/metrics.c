// SPDX-License-Identifier: GPL-2.0
/* The Prometheus page (docs/metrics.md): what it holds, in whichever format the scraper asks
 * for (metrics_page.h: the text format 0.0.4, or the protobuf stream with native histograms),
 * and what other requests get. metrics_http.c serves it. The walk over the collector runs on
 * the daemon's only thread, between ticks, without any locking, and in one go: into a snapshot
 * (metrics_snap.h), which metrics_stream.c then writes out in the format asked for as the page
 * is sent, so the page is one tick's however long the sending takes. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include "daemon/config/config.h"
#include "daemon/kinds/kind.h"
#include "daemon/base/log.h"
#include "daemon/sinks/metrics.h"
#include "daemon/collect/why.h"
#include "daemon/collect/why_counts.h"
#include "daemon/sinks/metrics_page.h"
#include "daemon/sinks/metrics_snap.h"
#include "common/macro.h"
#include "common/util.h"

#define MAX_WINDOW WINDOW_10S	/* <kind>_max_seconds: the max over the last 10 s */

/* Label values: the name as text_escape() writes it (Prometheus refuses a whole page over one
 * label that is not UTF-8, and a handler name is the driver's bytes, cut to IRQ_NAME_LEN by
 * the BPF program, maybe in the middle of a character); the text writer then escapes
 * backslash and double quote as its format wants. */
#define LABEL_MAX (4 * TP_NAME_MAX + 1)	/* text_escape() of the longest name: 4 bytes a byte */

static void label_text(char *buf, const char *s, size_t max)
{
	text_escape(buf, LABEL_MAX, s, strnlen(s, max));
}

/* Series of one kind that share a sub and a name (one driver registered twice on a shared
 * line), or names that read the same once escaped, would give two series with one label set,
 * which Prometheus rejects: they are summed into the first, the group's leader. Only the numbers are kept per group; each group's
 * buckets are summed while its histogram is written, one group at a time. */
struct group {
	unsigned leader;	/* index of the first series with this kind, sub and label */
	char *label;		/* its name as label_text() writes it; NULL for a series gone */
	unsigned next;		/* the next series of the group, UINT_MAX: none */
	unsigned last;		/* the leader's: its last series so far */
	uint64_t count, sum_ns, aux;	/* the leader's: its series' totals since start, summed */
	uint64_t max_ns;	/* the leader's: the largest value of its series in the last 10 s */
	uint64_t storm;		/* the leader's, hard IRQs: 1 while one of its series is in a storm (storm.c) */
	uint64_t storms;	/* the leader's, hard IRQs: storms its series had since start */
	uint64_t *slot_max;	/* metrics-cpu-label: the largest value on each of the series' own CPUs
				 * (series.cpus) in the last 10 s; NULL otherwise */
};

static void groups_free(struct group *g, unsigned n)
{
	for (unsigned i = 0; g && i < n; i++) {
		free(g[i].slot_max);
		free(g[i].label);
	}
	free(g);
}

/* totals as of the last tick, all from the same snapshot, so that the histogram's _count
 * equals runs_total within one page; they are at most one --interval-ms old */
static struct group *group_series(const struct collector *c, bool cpu_label)
{
	struct group *g = calloc(c->nseries ? c->nseries : 1, sizeof(*g));
	struct window_iter it;
	char label[LABEL_MAX];

	if (!g)
		return NULL;
	collector_window_begin(c, MAX_WINDOW, &it);
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];
		struct hist w;

		g[i].leader = g[i].last = i;
		g[i].next = UINT_MAX;
		if (s->gone)	/* ended: its cells are others' now; the loops below skip it */
			continue;
		label_text(label, s->name, IRQ_NAME_LEN);
		if (!(g[i].label = strdup(label))) {
			groups_free(g, c->nseries);
			return NULL;
		}
		for (unsigned j = 0; j < i; j++)
			if (g[j].leader == j && !c->series[j].gone && c->series[j].kind == s->kind && c->series[j].sub == s->sub &&
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
		if (cpu_label && (g[i].slot_max = calloc(s->ncpus ? s->ncpus : 1, sizeof(*g[i].slot_max))))
			collector_window_next_cpu_max(&it, i, &w, NULL, NULL, g[i].slot_max);
		else
			collector_window_next(&it, i, &w, NULL);
		if (w.max_ns > lead->max_ns)
			lead->max_ns = w.max_ns;
		lead->storm |= storm_of(&c->storms, i, NULL) != NULL;
		lead->storms += i < c->storms.n ? c->storms.h[i].started : 0;
	}
	return g;
}

/* The labels of a series: irq="25",handler="virtio1-req.0" (or vector="NET_RX"); sub holds
 * the number's text */
static unsigned series_labels(struct metric_label *l, char sub[12], const struct series *s, const struct group *g)
{
	const struct kind_desc *k = kind_get(s->kind);
	unsigned n = 0;

	if (k->sub_key) {	/* the others' sub only indexes their names */
		snprintf(sub, 12, "%u", s->sub);
		l[n++] = (struct metric_label){ k->sub_key, sub };
	}
	if (k->name_label)	/* else the sub alone names it (a CPU) */
		l[n++] = (struct metric_label){ k->name_label, g->label };
	return n;
}

/* Whether kind k's series get a cpu label of their own (metrics-cpu-label): those whose sub is
 * not the CPU already */
static bool cpu_labelled(enum lat_kind k, bool cpu_label)
{
	const char *sk = kind_get(k)->sub_key;

	return cpu_label && !(sk && !strcmp(sk, "cpu"));
}

/* Group i's figures on one CPU (its series' cells there): false when none ran there */
static bool group_on_cpu(const struct collector *c, const struct group *g, unsigned i, unsigned cpu, struct group *out)
{
	bool any = false;

	memset(out, 0, sizeof(*out));
	for (unsigned j = i; j != UINT_MAX; j = g[j].next) {
		const struct series *s = &c->series[j];

		for (unsigned k = 0; k < s->ncpus; k++) {
			if (s->cpus[k].cpu != cpu)
				continue;
			any = true;
			out->count += s->cpus[k].count;
			out->sum_ns += s->cpus[k].sum_ns;
			out->aux += s->cpus[k].aux;
			if (g[j].slot_max && g[j].slot_max[k] > out->max_ns)
				out->max_ns = g[j].slot_max[k];
		}
	}
	return any;
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
	const char *suffix;
	enum metric_type type;
	const char *help;
	uint64_t (*value)(const struct group *g);
	bool seconds;	/* the value is in ns, shown in seconds */
	bool storms;		/* storms are about IRQ lines (storm.h): a kind whose series are theirs */
} series_families[] = {
	{ "_runs_total", METRIC_COUNTER, "Runs of a %s since irqlatd started.", group_runs, false, false },
	{ "_seconds_total", METRIC_COUNTER, "Time spent in a %s since irqlatd started.", group_ns, true, false },
	{ NULL, METRIC_COUNTER, NULL, group_aux, false, false },
	{ "_max_seconds", METRIC_GAUGE, "Longest run of a %s in the last 10 s.", group_max_ns, true, false },
	{ "_storm", METRIC_GAUGE, "1 while irqlatd sees an interrupt storm on a %s (irqlat(1), STORMS), else 0.",
	  group_storm, false, true },
	{ "_storms_total", METRIC_COUNTER, "Interrupt storms irqlatd saw start on a %s.", group_storms, false, true },
};

static void series_metrics(struct page_writer *w, const struct collector *c, const struct group *g, enum lat_kind kind,
			   bool cpu_label)
{
	const struct kind_desc *k = kind_get(kind);

	if (!k->counters)
		return;
	for (unsigned j = 0; j < ELEMENTSOF(series_families); j++) {
		const struct series_family *fam = &series_families[j];
		char name[96], help[160];

		if (!fam->suffix && !k->aux_key)
			continue;
		if (fam->storms && !k->storms)
			continue;

		if (fam->suffix)
			snprintf(name, sizeof(name), "%s%s", k->metric, fam->suffix);
		else
			snprintf(name, sizeof(name), "%s_%s_total", k->metric, k->aux_key);
		/* a latency kind says what its counters count (the docs' words, docs/metrics.md) */
		const char *own = fam->value == group_runs ? k->runs_help : fam->value == group_ns ? k->seconds_help :
				  fam->value == group_max_ns ? k->max_help : NULL;

		if (own)
			snprintf(help, sizeof(help), "%s", own);
		else if (fam->help)
			snprintf(help, sizeof(help), fam->help, k->noun);
		else
			snprintf(help, sizeof(help), "%s", k->aux_help);
		w->family(w, name, fam->type, help);
		for (unsigned i = 0; i < c->nseries; i++) {
			struct metric_label l[METRIC_LABELS_MAX];
			char sub[12], cpu[12];
			struct group one;
			unsigned n;

			if (g[i].leader != i || c->series[i].gone || c->series[i].kind != kind)
				continue;
			n = series_labels(l, sub, &c->series[i], &g[i]);
			/* a storm is a line's, whichever CPU took its IRQs: no cpu label */
			if (!cpu_labelled(kind, cpu_label) || fam->storms) {
				w->number(w, l, n, fam->value(&g[i]), fam->seconds);
				continue;
			}
			l[n] = (struct metric_label){ "cpu", cpu };
			for (unsigned k = 0; k < c->ncpus; k++) {
				if (!group_on_cpu(c, g, i, k, &one))
					continue;
				snprintf(cpu, sizeof(cpu), "%u", k);
				w->number(w, l, n + 1, fam->value(&one), fam->seconds);
			}
		}
	}
}

/* Per series, the sum of its group's cells since start: irqlatd's buckets, which each writer
 * turns into its format's (docs/metrics.md, "The histogram's buckets") */
static void histogram_metrics(struct page_writer *w, const struct collector *c, const struct group *g, enum lat_kind kind,
			      unsigned le_factor, bool cpu_label)
{
	const struct kind_desc *k = kind_get(kind);
	_cleanup_free_ struct hist *sum = malloc(sizeof(*sum));
	char name[96], help[240];

	if (!sum)
		return;
	snprintf(name, sizeof(name), "%s%s", k->metric, k->hist_suffix);
	if (le_factor == 1)
		snprintf(help, sizeof(help), "%s; le bounds are the bounds of irqlatd's histogram, Prometheus schema 3 (exact counts).",
			 k->value_help);
	else
		snprintf(help, sizeof(help), "%s; le bounds are every %uth bound of irqlatd's histogram, Prometheus schema 3 (exact counts).",
			 k->value_help, le_factor);
	w->family(w, name, METRIC_HISTOGRAM, help);
	for (unsigned i = 0; i < c->nseries; i++) {
		struct metric_label l[METRIC_LABELS_MAX];
		struct hist one;
		char sub[12];

		if (g[i].leader != i || c->series[i].gone || c->series[i].kind != kind)
			continue;
		unsigned n = series_labels(l, sub, &c->series[i], &g[i]);

		if (cpu_labelled(kind, cpu_label)) {	/* one histogram per CPU: the group's cells there */
			char cpu[12];

			l[n] = (struct metric_label){ "cpu", cpu };
			for (unsigned k = 0; k < c->ncpus; k++) {
				bool any = false;

				memset(sum, 0, sizeof(*sum));
				for (unsigned j = i; j != UINT_MAX; j = g[j].next)
					for (unsigned slot = 0; slot < c->series[j].ncpus; slot++)
						if (c->series[j].cpus[slot].cpu == k) {
							collector_series_cpu_total(c, j, slot, &one);
							hist_add(sum, &one);
							any = true;
						}
				if (!any)
					continue;
				snprintf(cpu, sizeof(cpu), "%u", k);
				w->histogram(w, l, n + 1, sum);
			}
			continue;
		}
		memset(sum, 0, sizeof(*sum));
		for (unsigned j = i; j != UINT_MAX; j = g[j].next) {
			collector_series_total(c, j, &one);
			hist_add(sum, &one);
		}
		w->histogram(w, l, n, sum);
	}
}

static void bpf_stats(struct page_writer *w, const struct loader *l)
{
	struct loader_cost cost;

	/* only while the kernel counts: a stale total would read as no cost at all */
	if (loader_read_cost(l, &cost) < 0 || !cost.stats_enabled)
		return;
	w->family(w, "irqlat_bpf_run_seconds_total", METRIC_COUNTER,
		  "Time the kernel ran irqlatd's IRQ entry and exit programs (while BPF stats are on).");
	w->number(w, NULL, 0, cost.run_time_ns, true);
	w->family(w, "irqlat_bpf_runs_total", METRIC_COUNTER,
		  "IRQs irqlatd's programs measured while BPF stats were on (runs of the exit program).");
	w->number(w, NULL, 0, cost.run_cnt, false);
}

static void tracepoint_metrics(struct page_writer *w, const struct metrics_sources *src)
{
	static const struct {
		const char *name, *help;
		enum tp_counter counter;
	} fam[] = {
		{ "irqlat_tracepoint_events_total", "Events of a consumed tracepoint.", TP_COUNTER_EVENTS },
		{ "irqlat_tracepoint_gaps_total",
		  "Times a tracepoint's counting argument skipped values (events the program did not see).",
		  TP_COUNTER_GAPS },
		{ "irqlat_tracepoint_missed_total", "Values a tracepoint's counting argument skipped, summed over its gaps.",
		  TP_COUNTER_MISSED },
	};
	unsigned n = src->tp_count ? src->tp_count(src->tps) : 0;
	char label[LABEL_MAX];
	struct metric_label l = { "tracepoint", label };

	if (!n)
		return;
	for (unsigned k = 0; k < ELEMENTSOF(fam); k++) {
		w->family(w, fam[k].name, METRIC_COUNTER, fam[k].help);
		for (unsigned i = 0; i < n; i++) {
			struct tp_info t = src->tp_info(src->tps, i);

			label_text(label, t.name, TP_NAME_MAX);
			w->number(w, &l, 1, t.counter[fam[k].counter], false);
		}
	}
	w->family(w, "irqlat_tracepoint_attached", METRIC_GAUGE,
		  "1 while irqlatd's program is attached to the tracepoint, 0 while it waits or is detached.");
	for (unsigned i = 0; i < n; i++) {
		struct tp_info t = src->tp_info(src->tps, i);

		label_text(label, t.name, TP_NAME_MAX);
		w->number(w, &l, 1, t.attached ? 1 : 0, false);
	}
}

/* What the late waits (those at or above their threshold) spent in each part, per CPU and class
 * of wait, since start, as the kernel counted them (why_counts.h: a record the ring buffer
 * dropped is in them): irqlat_late_wait_seconds_total{cpu, wait, cause}. Only the series that
 * moved: a CPU and class with no late wait has none. */
static void why_metrics(struct page_writer *w, const struct why_store *s)
{
	char cpu[12];
	struct metric_label l[3] = { { "cpu", cpu }, { "wait", NULL }, { "cause", NULL } };

	if (!s)
		return;
	if (s->kernel)
		why_counts_sync(s->kernel);
	w->family(w, "irqlat_late_wait_seconds_total", METRIC_COUNTER,
		  "Time late waits (timer wake-ups, threaded IRQs' wake-to-run, late timers at or above their "
		  "threshold) spent in each cause, by the CPU they waited on (docs/metrics.md).");
	for (unsigned c = 0; c < s->ncpus; c++)
		for (int k = 0; k < WHY_CLASSES; k++) {
			const struct why_total *t = why_counts_shown(s, c, (enum why_class)k);

			if (!t->waits)
				continue;
			snprintf(cpu, sizeof(cpu), "%u", c);
			l[1].value = why_class_name((enum why_class)k);
			for (int p = 0; p < WHY_PARTS; p++) {
				l[2].value = why_parts[p].key;
				w->number(w, l, 3, t->part_ns[p], true);
			}
		}
}

static void page_walk(struct page_writer *w, const struct metrics_sources *src, const struct group *g, unsigned le_factor,
		      bool cpu_label)
{
	static const char *const drop_names[DROP_KINDS] = { "outlier", "tracepoint", "no_cell" };
	const struct collector *c = src->col;
	struct metric_label l;
	unsigned handlers = 0;

	w->family(w, "irqlat_build_info", METRIC_GAUGE, "irqlatd's version; always 1.");
	l = (struct metric_label){ "version", IRQLAT_VERSION };
	w->number(w, &l, 1, 1, false);
	for (unsigned k = 0; k < KINDS; k++) {
		series_metrics(w, c, g, k, cpu_label);
		histogram_metrics(w, c, g, k, le_factor, cpu_label);
	}
	w->family(w, "irqlat_ringbuf_drops_total", METRIC_COUNTER,
		  "Records the BPF programs could not hand to irqlatd: the ring buffer was full (kind outlier or tracepoint; "
		  "kind no_cell is deprecated: irqlat_unmeasured_runs_total).");
	for (unsigned k = 0; k < DROP_KINDS; k++) {
		l = (struct metric_label){ "kind", drop_names[k] };
		w->number(w, &l, 1, c->drops[k], false);
	}
	/* no ring buffer is involved: a run found no cell (the pool, max-cells, was full; or a
	 * threaded IRQ past the 1024 threads followed), so it was not measured */
	w->family(w, "irqlat_unmeasured_runs_total", METRIC_COUNTER,
		  "Runs the BPF programs did not measure for want of a cell (max-cells full, or past the 1024 IRQ threads followed).");
	w->number(w, NULL, 0, c->drops[DROP_NO_CELL], false);
	w->family(w, "irqlat_handlers", METRIC_GAUGE, "Hard-IRQ handlers seen since irqlatd started.");
	for (unsigned i = 0; i < c->nseries; i++)
		handlers += c->series[i].kind == KIND_HARDIRQ;
	w->number(w, NULL, 0, handlers, false);
	bpf_stats(w, c->bpf);
	tracepoint_metrics(w, src);
	why_metrics(w, src->why);
}

/* Bytes of recording a series (metrics_snap.h): about 190 at 4096 handlers on 256 CPUs, its
 * labels once per family and its histogram's buckets; more with metrics-cpu-label (a
 * histogram per CPU) or wider histograms, and past the hint it grows by halves. */
#define SNAP_SERIES_BYTES 384u
#define SNAP_BASE_BYTES (16u << 10)	/* build info, drops, BPF statistics, tracepoints */

struct page_snap *metrics_snapshot(const struct metrics_sources *src, unsigned le_factor)
{
	bool cpu_label = src->cfg && src->cfg->metrics_cpu_label;
	struct group *g = group_series(src->col, cpu_label);
	struct page_writer *w = g ? page_snap_recorder(SNAP_BASE_BYTES + (size_t)SNAP_SERIES_BYTES * src->col->nseries) : NULL;
	struct page_snap *snap = NULL;

	if (w) {
		page_walk(w, src, g, le_factor, cpu_label);
		if (w->end(w) == 0)
			snap = page_snap_take(w);
		w->free(w);
	}
	groups_free(g, src->col->nseries);
	return snap;
}

/* One media range of an Accept header, [p, end): its q (1 when absent; 0, the range refused,
 * when it is not a number from 0 to 1), and whether it names the protobuf stream irqlatd
 * writes or the text format. Parameters other than proto, encoding, version and q are
 * ignored; a range irqlatd cannot serve is neither. */
static void media_range(const char *p, const char *end, bool *protobuf, bool *text, double *q)
{
	size_t n = strcspn(p, ";");
	char type[64], proto[64] = "", encoding[32] = "", version[16] = "";

	if (p + n > end)
		n = (size_t)(end - p);
	*q = 1;
	*protobuf = *text = false;
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n >= sizeof(type))
		return;
	memcpy(type, p, n);
	type[n] = 0;
	for (const char *a = p + strcspn(p, ";"); a < end && *a == ';';) {
		const char *key = a + 1 + strspn(a + 1, " \t");
		size_t klen = strcspn(key, "=;,"), vlen;
		const char *val = key + klen;
		char v[64];

		a = val + strcspn(val, ";,");
		if (a > end)
			a = end;
		if (*val != '=' || val >= end)
			continue;
		val++;
		vlen = (size_t)(a - val);
		while (vlen && (val[vlen - 1] == ' ' || val[vlen - 1] == '\t'))
			vlen--;
		if (vlen >= sizeof(v))
			continue;
		memcpy(v, val, vlen);
		v[vlen] = 0;
		if (klen == 1 && (*key == 'q' || *key == 'Q')) {
			char *e;
			double d = strtod(v, &e);

			*q = e != v && !*e && d >= 0 && d <= 1 ? d : 0;
		} else if (klen == 5 && !strncasecmp(key, "proto", 5) && vlen < sizeof(proto)) {
			memcpy(proto, v, vlen + 1);
		} else if (klen == 8 && !strncasecmp(key, "encoding", 8) && vlen < sizeof(encoding)) {
			memcpy(encoding, v, vlen + 1);
		} else if (klen == 7 && !strncasecmp(key, "version", 7) && vlen < sizeof(version)) {
			memcpy(version, v, vlen + 1);
		}
	}
	*protobuf = !strcasecmp(type, "application/vnd.google.protobuf") &&
		    !strcmp(proto, "io.prometheus.client.MetricFamily") && !strcmp(encoding, "delimited");
	*text = (!strcasecmp(type, "text/plain") && (!*version || !strcmp(version, "0.0.4"))) ||
		!strcasecmp(type, "text/*") || !strcasecmp(type, "*/*");
}

enum metrics_format metrics_negotiate(const char *accept)
{
	double best_pb = 0, best_text = 0;
	bool pb_first = false;

	if (!accept)
		return METRICS_TEXT;
	for (const char *p = accept; *p;) {
		const char *end = p + strcspn(p, ",");
		bool pb, text;
		double q;

		media_range(p, end, &pb, &text, &q);
		if (pb && q > best_pb) {
			best_pb = q;
			pb_first = best_text < q;
		} else if (text && q > best_text) {
			best_text = q;
		}
		p = *end ? end + 1 : end;
	}
	/* the protobuf stream when the client prefers it; a tie goes to what it listed first */
	return best_pb > 0 && (best_pb > best_text || (best_pb == best_text && pb_first)) ? METRICS_PROTOBUF : METRICS_TEXT;
}

struct metrics_answer metrics_route(const char *method, const char *path, const char *accept)
{
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return (struct metrics_answer){ 405, "irqlatd answers only GET (and HEAD)\n", "text/plain; charset=utf-8",
						"GET, HEAD", METRICS_TEXT };
	if (strcmp(path, "/metrics"))
		return (struct metrics_answer){ 404, "irqlatd serves only /metrics\n", "text/plain; charset=utf-8", NULL,
						METRICS_TEXT };
	if (metrics_negotiate(accept) == METRICS_PROTOBUF)
		return (struct metrics_answer){ 200, NULL, METRICS_PROTOBUF_TYPE, NULL, METRICS_PROTOBUF };
	return (struct metrics_answer){ 200, NULL, "text/plain; version=0.0.4; charset=utf-8", NULL, METRICS_TEXT };
}
