// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_load.h"
#include "kind.h"
#include "report.h"
#include "common/json.h"
#include "common/macro.h"

static void add_u64(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

/* o[prefix + name] = v */
static void add_named(json_object *o, const char *prefix, const char *name, json_object *v)
{
	char key[64];

	snprintf(key, sizeof(key), "%s%s", prefix, name);
	json_object_object_add(o, key, v);
}

/* A latency of the window, null when the window has no run: never a 0 ns run (irqlat(1)) */
static void add_latency(json_object *o, const char *prefix, const char *k, uint64_t v, uint64_t runs)
{
	add_named(o, prefix, k, runs ? json_object_new_uint64(v) : NULL);
}

/* The handler's storm (storm.c) and its IRQ's affinity (cpu_topology.c) */
static void add_storm_affinity(json_object *o, const struct collector *c, unsigned si, uint32_t irq)
{
	const struct irq_affinity *a = c->topology ? topology_irq(c->topology, irq, now_ns()) : NULL;

	json_object_object_add(o, "storm", storm_json(&c->storms, si, c->start_ns));
	if (a && a->affinity)
		json_object_object_add(o, "affinity", json_object_new_string(a->affinity));
	if (a && a->effective)
		json_object_object_add(o, "effective_affinity", json_object_new_string(a->effective));
}

/* The CPUs where real-time work runs, as /sys/devices/system/cpu says */
static void add_cpu_sets(json_object *o, const struct collector *c)
{
	if (!c->topology)
		return;
	topology_refresh(c->topology, now_ns());
	if (c->topology->isolated)
		json_object_object_add(o, "isolated_cpus", json_object_new_string(c->topology->isolated));
	if (c->topology->nohz_full)
		json_object_object_add(o, "nohz_full_cpus", json_object_new_string(c->topology->nohz_full));
}

static json_object *drops_object(const struct collector *c)
{
	json_object *d = json_object_new_object();

	add_u64(d, "outliers", c->drops[DROP_OUTLIER]);
	add_u64(d, "tracepoint_events", c->drops[DROP_TRACEPOINT]);
	add_u64(d, "no_cell", c->drops[DROP_NO_CELL]);
	return d;
}

/* The element of a series, with what names it: the sub (hard IRQs: the IRQ number) and name */
static json_object *element_new(const struct series *s)
{
	const struct kind_desc *k = kind_get(s->kind);
	json_object *o = json_object_new_object();

	if (k->sub_key)
		json_object_object_add(o, k->sub_key, json_object_new_int((int)s->sub));
	json_object_object_add(o, k->name_key, json_object_new_string(s->name));
	json_object_object_add(o, "cpus", json_object_new_array());
	return o;
}

/* The per-CPU line of cpu in element o's "cpus", made when missing (search: false, a series'
 * own element, whose CPUs come once each) */
static json_object *element_cpu(json_object *o, uint32_t cpu, bool search)
{
	json_object *cpus, *co;

	json_object_object_get_ex(o, "cpus", &cpus);
	for (size_t i = 0; search && i < json_object_array_length(cpus); i++) {
		co = json_object_array_get_idx(cpus, i);
		if (json_get_i64(co, "cpu", -1) == (int64_t)cpu)
			return co;
	}
	co = json_object_new_object();
	json_object_object_add(co, "cpu", json_object_new_int((int)cpu));
	json_object_array_add(cpus, co);
	return co;
}

/* A series' totals as of the last tick and the window's figures, into element o. The value
 * fields carry the kind's prefix ("run_p99_ns"); the counts carry it only for a kind that
 * joins another's element ("raise_count" beside the runs' "count"). */
static void add_figures(json_object *o, const struct collector *c, unsigned si, const struct hist *win,
			const uint64_t *cpu_win, double secs)
{
	const struct series *s = &c->series[si];
	const struct kind_desc *k = kind_get(s->kind);
	bool own = k->join == s->kind;
	const char *p = k->prefix, *cp = own ? "" : p;
	struct hist_summary w;

	hist_summarize(win, &w);
	add_named(o, cp, "count", json_object_new_uint64(s->count));
	add_named(o, p, "total_ns", json_object_new_uint64(s->sum_ns));
	if (k->aux_key)
		add_named(o, cp, k->aux_key, json_object_new_uint64(s->aux));
	add_named(o, cp, "rate", json_object_new_double(secs > 0 ? (double)w.count / secs : 0));
	add_named(o, cp, "window_count", json_object_new_uint64(w.count));
	add_named(o, p, "window_ns", json_object_new_uint64(w.sum_ns));
	if (own && !strcmp(k->value_key, "duration_ns"))	/* a share of time in a latency means nothing */
		json_object_object_add(o, "time_share",
				       json_object_new_double(secs > 0 ? (double)w.sum_ns / (secs * 1e9) : 0));
	add_latency(o, p, "avg_ns", w.avg_ns, w.count);
	add_latency(o, p, "p50_ns", w.p50_ns, w.count);
	add_latency(o, p, "p90_ns", w.p90_ns, w.count);
	add_latency(o, p, "p99_ns", w.p99_ns, w.count);
	add_latency(o, p, "p999_ns", w.p999_ns, w.count);
	add_latency(o, p, "max_ns", w.max_ns, w.count);
	if (s->kind == KIND_HARDIRQ)
		add_storm_affinity(o, c, si, s->sub);
	for (unsigned i = 0; i < s->ncpus; i++) {
		json_object *co = element_cpu(o, s->cpus[i].cpu, !own);

		add_named(co, cp, "count", json_object_new_uint64(s->cpus[i].count));
		add_named(co, cp, "window_count", json_object_new_uint64(cpu_win[i]));
	}
}

/* [lower_ns, upper_ns (0: unbounded), count] for each non-empty bucket, in order */
static json_object *buckets_array(const struct hist *win)
{
	json_object *b = json_object_new_array();

	for (unsigned k = 0; k < HIST_BUCKETS; k++) {
		if (!win->bucket[k])
			continue;
		json_object *row = json_object_new_array();

		json_object_array_add(row, json_object_new_uint64(hist_lower_ns(k)));
		json_object_array_add(row, json_object_new_uint64(k == HIST_OVERFLOW ? 0 : hist_upper_ns(k)));
		json_object_array_add(row, json_object_new_uint64(win->bucket[k]));
		json_object_array_add(b, row);
	}
	return b;
}

/* The daemon's own cost (loader_read_cost, read at the tick); clients take deltas. Beside it
 * the other programs on the IRQ tracepoints, whose cost is in every duration (bpf_peers.c). */
static json_object *bpf_cost_object(const struct collector *c)
{
	json_object *o = json_object_new_object(), *ids;
	const struct loader_cost *cost = &c->cost;
	struct loader_cost first;
	bool read = c->cost_read;

	/* before the first tick (an answer right after start), read now: without the program
	 * ids the daemon would count its own programs among the others */
	if (!read && loader_read_cost(c->bpf, &first) == 0) {
		cost = &first;
		read = true;
	}
	json_object_object_add(o, "stats_enabled", json_object_new_boolean(cost->stats_enabled));
	if (c->peers) {
		uint32_t own[2] = { cost->entry_id, cost->exit_id };

		bpf_peers_refresh(c->peers, own, read ? 2 : 0, now_ns(), BPF_PEERS_MAX_AGE_NS);
		json_object_object_add(o, "shared", bpf_peers_json(c->peers));
	}
	if (!read)
		return o;
	ids = json_object_new_array();
	json_object_array_add(ids, json_object_new_int((int)cost->entry_id));
	json_object_array_add(ids, json_object_new_int((int)cost->exit_id));
	json_object_object_add(o, "prog_ids", ids);
	add_u64(o, "run_time_ns", cost->run_time_ns);
	add_u64(o, "run_cnt", cost->run_cnt);
	if (cost->run_cnt)
		json_object_object_add(o, "ns_per_irq", json_object_new_double((double)cost->run_time_ns / (double)cost->run_cnt));
	return o;
}

static unsigned count_kind(const struct collector *c, enum lat_kind kind)
{
	unsigned n = 0;

	for (unsigned i = 0; i < c->nseries; i++)
		n += !c->series[i].gone && c->series[i].kind == kind;
	return n;
}

/* Every figure is as of the last tick's read of the cells: time and uptime_s say when, and
 * snapshot_begin_ns/snapshot_end_ns (CLOCK_MONOTONIC) bracket the read. */
static void add_header(json_object *o, const struct collector *c, enum window w)
{
	json_object_object_add(o, "time", json_object_new_double(c->snap_wall_s));
	json_object_object_add(o, "uptime_s", json_object_new_double((double)(c->snap_end_ns - c->start_ns) / 1e9));
	add_u64(o, "snapshot_begin_ns", c->snap_begin_ns);
	add_u64(o, "snapshot_end_ns", c->snap_end_ns);
	json_object_object_add(o, "window", json_object_new_string(window_name(w)));
	json_object_object_add(o, "window_s", json_object_new_double(collector_window_seconds(c, w)));
	json_object_object_add(o, "drops", drops_object(c));
	json_object_object_add(o, "handlers", json_object_new_int((int)count_kind(c, KIND_HARDIRQ)));
	json_object_object_add(o, "bpf", bpf_cost_object(c));
	add_cpu_sets(o, c);
}

/* A joined kind's series (softirq raise latency), windowed ahead: few, fixed series, added to
 * their partner's element when its array is built. */
struct joined {
	unsigned s;
	bool used;
	struct hist win;
	uint64_t *cpu_win;
};

/* The series of every kind that match (NULL: all), in one array per series_key; *rate: the
 * runs per second of the hard-IRQ kind's. */
/* A threaded IRQ's element: what its run_ figures are, the thread handler's run time
 * ("handler") or the thread's on-CPU time ("on-cpu"), which differ where the thread is
 * preempted or works between handler calls */
static void add_run_source(json_object *el, const struct collector *c)
{
	if (c->bpf && c->bpf->threaded_run_source)
		json_object_object_add(el, "run_source", json_object_new_string(c->bpf->threaded_run_source));
}

static void add_series(json_object *o, const struct collector *c, enum window w, bool with_buckets,
		       bool (*match)(const struct series *s, const void *arg), const void *arg, double *rate)
{
	double secs = collector_window_seconds(c, w);
	_cleanup_free_ uint64_t *cpu_win = NULL;
	_cleanup_free_ struct joined *joined = NULL;
	unsigned maxcpus = 1, njoined = 0;
	struct window_iter it;

	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];

		if (s->ncpus > maxcpus)
			maxcpus = s->ncpus;
		njoined += kind_get(s->kind)->join != s->kind;
	}
	cpu_win = calloc(maxcpus, sizeof(*cpu_win));
	joined = calloc(njoined ? njoined : 1, sizeof(*joined));
	if (!cpu_win || !joined)
		return;
	njoined = 0;
	collector_window_begin(c, w, &it);
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];
		struct joined *j = &joined[njoined];

		if (s->gone || kind_get(s->kind)->join == s->kind || (match && !match(s, arg)))
			continue;
		j->cpu_win = calloc(s->ncpus ? s->ncpus : 1, sizeof(*j->cpu_win));
		if (!j->cpu_win)
			break;
		j->s = i;
		collector_window_next(&it, i, &j->win, j->cpu_win);
		njoined++;
	}
	for (unsigned k = 0; k < KINDS; k++) {
		const struct kind_desc *kd = kind_get(k);
		json_object *arr;
		struct hist win;

		if (kd->join != k || kd->own_object)	/* a joined kind's series go into its partner's elements */
			continue;
		arr = json_object_new_array();
		collector_window_begin(c, w, &it);
		for (unsigned i = 0; i < c->nseries; i++) {
			const struct series *s = &c->series[i];

			if (s->gone || s->kind != k || (match && !match(s, arg)))
				continue;
			collector_window_next(&it, i, &win, cpu_win);
			if (rate && k == KIND_HARDIRQ && secs > 0)
				*rate += (double)win.count / secs;
			json_object *el = element_new(s);

			add_figures(el, c, i, &win, cpu_win, secs);
			if (with_buckets)
				add_named(el, kd->prefix, "buckets", buckets_array(&win));
			for (unsigned n = 0; n < njoined; n++) {
				const struct series *js = &c->series[joined[n].s];

				if (kind_get(js->kind)->join != k || js->sub != s->sub || js->id != s->id)
					continue;
				add_figures(el, c, joined[n].s, &joined[n].win, joined[n].cpu_win, secs);
				/* named otherwise (a threaded IRQ's thread beside its handler) */
				if (strcmp(kind_get(js->kind)->name_key, kd->name_key))
					json_object_object_add(el, kind_get(js->kind)->name_key, json_object_new_string(js->name));
				if (with_buckets)
					add_named(el, kind_get(js->kind)->prefix, "buckets", buckets_array(&joined[n].win));
				joined[n].used = true;
			}
			if (k == KIND_THREADED)
				add_run_source(el, c);
			json_object_array_add(arr, el);
		}
		for (unsigned n = 0; n < njoined; n++) {	/* a joined series without its partner yet */
			const struct series *js = &c->series[joined[n].s];

			if (kind_get(js->kind)->join != k || joined[n].used)
				continue;
			json_object *el = element_new(js);

			add_figures(el, c, joined[n].s, &joined[n].win, joined[n].cpu_win, secs);
			if (with_buckets)
				add_named(el, kind_get(js->kind)->prefix, "buckets", buckets_array(&joined[n].win));
			if (k == KIND_THREADED)
				add_run_source(el, c);
			json_object_array_add(arr, el);
		}
		json_object_object_add(o, kd->series_key, arr);
	}
	for (unsigned n = 0; n < njoined; n++)
		free(joined[n].cpu_win);
}

/* Timer series (one per function and CPU) grouped by function or by CPU */
struct timer_group {
	uint64_t key;		/* the function's address, or the CPU */
	const char *name;	/* the function's */
	uint64_t count;		/* since start */
	struct hist win;
	json_object *cpus;	/* a function's per-CPU lines */
	bool woke;		/* a CPU's: wake-ups measured there (KIND_WAKEUP_CPU) */
	uint64_t wake_count;
	struct hist wake;
};

static struct timer_group *timer_group_of(struct timer_group *g, unsigned *n, uint64_t key)
{
	for (unsigned i = 0; i < *n; i++)
		if (g[i].key == key)
			return &g[i];
	g[*n].key = key;
	return &g[(*n)++];
}

/* count (since start), window_count and the window's lateness; full: the rate, mean and the
 * other percentiles too */
static void add_lateness(json_object *o, const struct hist *win, uint64_t count, double secs, bool full)
{
	struct hist_summary w;

	hist_summarize(win, &w);
	add_u64(o, "count", count);
	add_u64(o, "window_count", w.count);
	if (full) {
		json_object_object_add(o, "rate", json_object_new_double(secs > 0 ? (double)w.count / secs : 0));
		add_latency(o, "lateness_", "avg_ns", w.avg_ns, w.count);
	}
	add_latency(o, "lateness_", "p50_ns", w.p50_ns, w.count);
	if (full)
		add_latency(o, "lateness_", "p90_ns", w.p90_ns, w.count);
	add_latency(o, "lateness_", "p99_ns", w.p99_ns, w.count);
	if (full)
		add_latency(o, "lateness_", "p999_ns", w.p999_ns, w.count);
	add_latency(o, "lateness_", "max_ns", w.max_ns, w.count);
}

static int cmp_cpu_group(const void *a, const void *b)
{
	const struct timer_group *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* The timers object: "classes", one element per timer function (its class: the tick, sleep
 * for hrtimer_wakeup, other) with its CPUs, and "cpus", every timer of a CPU together. The
 * wake-ups' array joins it in the caller. */
static json_object *timers_object(const struct collector *c, enum window w, bool with_buckets,
				  bool (*match)(const struct series *s, const void *arg), const void *arg)
{
	double secs = collector_window_seconds(c, w);
	_cleanup_free_ struct timer_group *fn = calloc(c->nseries ? c->nseries : 1, sizeof(*fn));
	_cleanup_free_ struct timer_group *cpu = calloc(c->nseries ? c->nseries : 1, sizeof(*cpu));
	json_object *o = json_object_new_object(), *classes = json_object_new_array(), *cpus = json_object_new_array();
	unsigned nfn = 0, ncpu = 0;
	struct window_iter it;
	struct hist win;

	json_object_object_add(o, "classes", classes);
	json_object_object_add(o, "cpus", cpus);
	if (!fn || !cpu)
		return o;
	collector_window_begin(c, w, &it);
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];
		struct timer_group *f, *g;
		json_object *line;

		if (s->kind == KIND_WAKEUP_CPU && !match) {	/* every task of a CPU together */
			collector_window_next(&it, i, &win, NULL);
			g = timer_group_of(cpu, &ncpu, s->sub);
			g->woke = true;
			g->wake_count += s->count;
			hist_add(&g->wake, &win);
			continue;
		}
		if (s->kind != KIND_TIMER || (match && !match(s, arg)))
			continue;
		collector_window_next(&it, i, &win, NULL);
		f = timer_group_of(fn, &nfn, s->id);
		if (!f->cpus) {
			f->name = s->name;
			f->cpus = json_object_new_array();
		}
		hist_add(&f->win, &win);
		f->count += s->count;
		line = json_object_new_object();
		json_object_object_add(line, "cpu", json_object_new_int((int)s->sub));
		add_lateness(line, &win, s->count, secs, false);
		json_object_array_add(f->cpus, line);
		g = timer_group_of(cpu, &ncpu, s->sub);
		hist_add(&g->win, &win);
		g->count += s->count;
	}
	for (unsigned i = 0; i < nfn; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "class", json_object_new_string(timer_class(fn[i].name)));
		json_object_object_add(e, "function", json_object_new_string(fn[i].name));
		add_lateness(e, &fn[i].win, fn[i].count, secs, true);
		if (with_buckets)
			json_object_object_add(e, "lateness_buckets", buckets_array(&fn[i].win));
		json_object_object_add(e, "cpus", fn[i].cpus);
		json_object_array_add(classes, e);
	}
	qsort(cpu, ncpu, sizeof(*cpu), cmp_cpu_group);
	for (unsigned i = 0; i < ncpu; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "cpu", json_object_new_int((int)cpu[i].key));
		add_lateness(e, &cpu[i].win, cpu[i].count, secs, true);
		if (cpu[i].woke) {
			struct hist_summary w;

			hist_summarize(&cpu[i].wake, &w);
			add_u64(e, "wakeup_count", cpu[i].wake_count);
			add_u64(e, "wakeup_window_count", w.count);
			add_latency(e, "wakeup_latency_", "p50_ns", w.p50_ns, w.count);
			add_latency(e, "wakeup_latency_", "p99_ns", w.p99_ns, w.count);
			add_latency(e, "wakeup_latency_", "max_ns", w.max_ns, w.count);
		}
		json_object_array_add(cpus, e);
	}
	return o;
}

/* The timers object beside the other arrays, with the wake-ups' array (add_series made it)
 * moved into it */
static void add_timers(json_object *o, const struct collector *c, enum window w, bool with_buckets,
		       bool (*match)(const struct series *s, const void *arg), const void *arg)
{
	json_object *t = timers_object(c, w, with_buckets, match, arg), *wake;
	const char *key = kind_get(KIND_WAKEUP)->series_key;

	if (json_object_object_get_ex(o, key, &wake)) {
		json_object_object_add(t, key, json_object_get(wake));
		json_object_object_del(o, key);
	} else {
		json_object_object_add(t, key, json_object_new_array());
	}
	json_object_object_add(o, kind_get(KIND_TIMER)->series_key, t);
}

json_object *report_summary(const struct collector *c, enum window w)
{
	json_object *o = json_object_new_object();
	double rate = 0;

	add_header(o, c, w);
	add_series(o, c, w, false, NULL, NULL, &rate);
	add_timers(o, c, w, false, NULL, NULL);
	json_object_object_add(o, "rate", json_object_new_double(rate));
	json_object_object_add(o, "cpu_load", cpu_load_json(c, w));	/* after add_header: the CPU sets are read */
	return o;
}

struct selection {
	int irq, pid;
	const char *name;
	const struct collector *c;
};

/* Whether s, or a series in its element (a threaded IRQ's wake-up and thread run time), is
 * named name */
static bool element_named(const struct collector *c, const struct series *s, const char *name)
{
	if (!strcmp(name, s->name))
		return true;
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *t = &c->series[i];

		if (t != s && !t->gone && t->id == s->id && t->sub == s->sub &&
		    kind_get(t->kind)->join == kind_get(s->kind)->join && !strcmp(name, t->name))
			return true;
	}
	return false;
}

/* irq selects hard-IRQ series by number, pid a task's wake-ups; name any series by its name
 * (a handler, a softirq vector, a vector label, a timer function, a task's comm, an IRQ
 * thread) and timers by their class too (tick, sleep, other) */
static bool selected(const struct series *s, const void *arg)
{
	const struct selection *sel = arg;

	return (sel->irq < 0 || (s->kind == KIND_HARDIRQ && (int)s->sub == sel->irq)) &&
	       (sel->pid < 0 || (s->kind == KIND_WAKEUP && (int)s->sub == sel->pid)) &&
	       (!sel->name || element_named(sel->c, s, sel->name) ||
		(s->kind == KIND_TIMER && !strcmp(sel->name, timer_class(s->name))));
}

json_object *report_hist(const struct collector *c, enum window w, int irq, int pid, const char *name)
{
	json_object *o = json_object_new_object();
	struct selection sel = { irq, pid, name, c };

	add_header(o, c, w);
	add_series(o, c, w, true, selected, &sel, NULL);
	add_timers(o, c, w, true, selected, &sel);
	return o;
}

json_object *report_status(const struct collector *c, const struct daemon_info *info)
{
	json_object *o = json_object_new_object(), *cfg = json_object_new_object();

	json_object_object_add(o, "version", json_object_new_string(info->version));
	json_object_object_add(o, "pid", json_object_new_int(info->pid));
	json_object_object_add(o, "uptime_s", json_object_new_double((double)(now_ns() - c->start_ns) / 1e9));
	json_object_object_add(o, "attach", json_object_new_string(info->attach_style));
	json_object *progs = json_object_new_array(), *kinds = json_object_new_array();
	for (unsigned t = 0; t < c->bpf->nattached; t++)
		json_object_array_add(progs, json_object_new_string(c->bpf->attached[t].tracepoint));
	json_object_object_add(o, "programs", progs);
	for (unsigned k = 0; k < KINDS; k++)
		if (loader_kind_on(c->bpf, k))
			json_object_array_add(kinds, json_object_new_string(kind_get(k)->name));
	json_object_object_add(o, "kinds", kinds);
	if (c->bpf->threaded_run_source)	/* where threaded_run comes from: "handler" or "on-cpu" */
		json_object_object_add(o, "threaded_run", json_object_new_string(c->bpf->threaded_run_source));
	json_object_object_add(o, "handlers", json_object_new_int((int)count_kind(c, KIND_HARDIRQ)));
	add_u64(o, "cells_used", loader_cells_used(c->bpf));
	json_object_object_add(o, "drops", drops_object(c));
	json_object_object_add(o, "bpf", bpf_cost_object(c));
	json_object_object_add(o, "storms", storm_status_json(&c->storms));
	add_cpu_sets(o, c);
	json_object_object_add(cfg, "bpf_stats", json_object_new_boolean(info->bpf_stats));
	add_u64(cfg, "threshold_ns", info->threshold_ns[KIND_HARDIRQ]);
	add_u64(cfg, "softirq_threshold_ns", info->threshold_ns[KIND_SOFTIRQ]);
	add_u64(cfg, "softirq_raise_threshold_ns", info->threshold_ns[KIND_SOFTIRQ_RAISE]);
	add_u64(cfg, "vector_threshold_ns", info->threshold_ns[KIND_VECTOR]);
	add_u64(cfg, "timer_threshold_ns", info->threshold_ns[KIND_TIMER]);
	add_u64(cfg, "wakeup_threshold_ns", info->threshold_ns[KIND_WAKEUP]);
	add_u64(cfg, "threaded_threshold_ns", info->threshold_ns[KIND_THREADED]);
	add_u64(cfg, "threaded_run_threshold_ns", info->threshold_ns[KIND_THREADED_RUN]);
	add_u64(cfg, "interval_ms", info->interval_ms);
	add_u64(cfg, "max_cells", info->max_cells);
	add_u64(cfg, "ringbuf_bytes", info->ringbuf_bytes);
	json_object_object_add(cfg, "socket", json_object_new_string(info->socket_path));
	json_object_object_add(o, "config", cfg);
	return o;
}
