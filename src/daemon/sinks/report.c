// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/collect/cpu_load.h"
#include "daemon/system/task_sched.h"
#include "daemon/kinds/kind.h"
#include "daemon/sinks/report.h"
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
			const uint64_t *cpu_win, double secs, const struct cpu_pick *pick)
{
	const struct series *s = &c->series[si];
	const struct kind_desc *k = kind_get(s->kind);
	bool own = k->join == s->kind;
	const char *p = k->prefix, *cp = own ? "" : p;
	struct hist_summary w;
	struct hist tot;

	/* since start: the series' own totals, or those of its cells on the CPUs asked for */
	if (pick) {
		collector_series_total_pick(c, si, pick, &tot);
	} else {
		tot.count = s->count;
		tot.sum_ns = s->sum_ns;
		tot.aux = s->aux;
	}
	hist_summarize(win, &w);
	add_named(o, cp, "count", json_object_new_uint64(tot.count));
	add_named(o, p, "total_ns", json_object_new_uint64(tot.sum_ns));
	if (k->aux_key)
		add_named(o, cp, k->aux_key, json_object_new_uint64(tot.aux));
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
	if (k->storms)
		add_storm_affinity(o, c, si, s->sub);
	for (unsigned i = 0; i < s->ncpus; i++) {
		if (!cpu_pick_has(pick, s->cpus[i].cpu))
			continue;
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
static void add_header(json_object *o, const struct collector *c, enum window w, const char *cpus)
{
	json_object_object_add(o, "time", json_object_new_double(c->snap_wall_s));
	json_object_object_add(o, "uptime_s", json_object_new_double((double)(c->snap_end_ns - c->start_ns) / 1e9));
	add_u64(o, "snapshot_begin_ns", c->snap_begin_ns);
	add_u64(o, "snapshot_end_ns", c->snap_end_ns);
	json_object_object_add(o, "window", json_object_new_string(window_name(w)));
	json_object_object_add(o, "window_s", json_object_new_double(collector_window_seconds(c, w)));
	if (cpus)	/* every figure is of these CPUs alone */
		json_object_object_add(o, "cpus", json_object_new_string(cpus));
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

/* Where the values of the kinds in element o come from, when the kernel let the loader choose:
 * "<prefix>source" of each such kind of the element's ("run_source": a threaded IRQ's run
 * time is the thread handler's, "handler", or the thread's on-CPU time, "on-cpu", which differ
 * where the thread is preempted or works between handler calls) */
static void add_sources(json_object *o, const struct collector *c, enum lat_kind k)
{
	for (unsigned j = 0; j < KINDS && c->bpf; j++)
		if (kind_get(j)->join == k && c->bpf->kind_source[j])
			add_named(o, kind_get(j)->prefix, "source", json_object_new_string(c->bpf->kind_source[j]));
}

/* A series' element in kind k's array, with the figures of the series that join it (a
 * softirq's raise latency beside its runs) */
static json_object *series_element(const struct collector *c, enum lat_kind k, unsigned i, const struct hist *win,
				   const uint64_t *cpu_win, double secs, const struct cpu_pick *pick, bool with_buckets,
				   struct joined *joined, unsigned njoined)
{
	const struct series *s = &c->series[i];
	const struct kind_desc *kd = kind_get(s->kind);
	json_object *el = element_new(s);

	add_figures(el, c, i, win, cpu_win, secs, pick);
	if (with_buckets)
		add_named(el, kd->prefix, "buckets", buckets_array(win));
	for (unsigned n = 0; n < njoined; n++) {
		const struct series *js = &c->series[joined[n].s];

		if (js->sub != s->sub || js->id != s->id)
			continue;
		add_figures(el, c, joined[n].s, &joined[n].win, joined[n].cpu_win, secs, pick);
		/* named otherwise (a threaded IRQ's thread beside its handler) */
		if (strcmp(kind_get(js->kind)->name_key, kd->name_key))
			json_object_object_add(el, kind_get(js->kind)->name_key, json_object_new_string(js->name));
		if (with_buckets)
			add_named(el, kind_get(js->kind)->prefix, "buckets", buckets_array(&joined[n].win));
		joined[n].used = true;
	}
	add_sources(el, c, k);
	if (s->kind == KIND_WAKEUP && s->sub) {	/* a task's row: its policy now, for irqlat --rt-only */
		struct task_sched ts;

		(void)task_sched_read(s->sub, &ts);	/* exited: unknown */
		json_object_object_add(el, "policy", json_object_new_string(task_policy_name(ts.policy)));
		if (ts.priority)
			json_object_object_add(el, "priority", json_object_new_int(ts.priority));
		if (s->cgroup)
			json_object_object_add(el, "cgroup", json_object_new_string(s->cgroup));
	}
	return el;
}

/* What one kind's array of series is made from when it is written out (series_array_write) */
struct series_out {
	const struct collector *c;
	enum window w;
	enum lat_kind k;
	bool with_buckets;
	bool (*match)(const struct series *s, const void *arg);
	const void *arg;
	void *arg_owned;	/* freed with it */
	json_object *rate;	/* a double: the hard-IRQ kind's runs per second go there; or NULL */
	struct cpu_pick pick;	/* the CPUs asked for (bits NULL: all), a copy of the request's */
};

static void series_out_free(json_object *jso, void *userdata)
{
	struct series_out *so = userdata;
	(void)jso;

	json_object_put(so->rate);
	free(so->arg_owned);
	free(so->pick.bits);
	free(so);
}

/* Appends element el to an array being written (*first: none yet): json-c's own text of the
 * element, with the separators json-c puts between an array's elements (PLAIN and SPACED; a
 * PRETTY text would be indented as if the element were at the top) */
static int array_append(struct printbuf *pb, json_object *el, int flags, bool *first)
{
	const char *t = json_object_to_json_string_ext(el, flags);
	bool spaced = (flags & JSON_C_TO_STRING_SPACED) && !(flags & JSON_C_TO_STRING_PRETTY);

	if (!t)
		return -1;
	if (!*first && printbuf_memappend(pb, ",", 1) < 0)
		return -1;
	*first = false;
	if (spaced && printbuf_memappend(pb, " ", 1) < 0)
		return -1;
	return printbuf_memappend(pb, t, (int)strlen(t));
}

/* Why an array is written out element by element instead of built: at 4096 handlers on 256
 * CPUs with every kind, the json-c objects of a whole 60 s summary took 35 MiB for 2.4 MB of
 * text (bench/scale.c). Each element is made, written by json-c into the answer's text and
 * freed before the next is made, so the answer's bytes are json-c's as before and only one
 * element's objects are held at a time. The array is a json-c array with this serializer,
 * written out when the answer is (in the same turn of the loop: the collector cannot change in
 * between); json-c's tree shows it empty. */
static int series_array_write(json_object *jso, struct printbuf *pb, int level, int flags)
{
	struct series_out *so = json_object_get_userdata(jso);
	const struct collector *c = so->c;
	const struct cpu_pick *pick = so->pick.bits ? &so->pick : NULL;
	double secs = collector_window_seconds(c, so->w), rate = 0;
	_cleanup_free_ uint64_t *cpu_win = NULL;
	_cleanup_free_ struct joined *joined = NULL;
	unsigned maxcpus = 1, njoined = 0;
	struct window_iter it;
	struct hist win;
	bool first = true;
	int r = 0;
	(void)level;

	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];

		if (s->ncpus > maxcpus)
			maxcpus = s->ncpus;
		njoined += kind_get(s->kind)->join == so->k && s->kind != so->k;
	}
	cpu_win = calloc(maxcpus, sizeof(*cpu_win));
	joined = calloc(njoined ? njoined : 1, sizeof(*joined));
	if (!cpu_win || !joined)
		return -1;
	njoined = 0;
	collector_window_begin_pick(c, so->w, pick, &it);
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];
		struct joined *j = &joined[njoined];

		if (s->gone || kind_get(s->kind)->join != so->k || s->kind == so->k || (so->match && !so->match(s, so->arg)) ||
		    !collector_series_on(s, pick))
			continue;
		j->cpu_win = calloc(s->ncpus ? s->ncpus : 1, sizeof(*j->cpu_win));
		if (!j->cpu_win)
			break;
		j->s = i;
		collector_window_next(&it, i, &j->win, j->cpu_win);
		njoined++;
	}
	if (printbuf_memappend(pb, "[", 1) < 0)
		r = -1;
	collector_window_begin_pick(c, so->w, pick, &it);
	for (unsigned i = 0; i < c->nseries && r >= 0; i++) {
		const struct series *s = &c->series[i];
		json_object *el;

		if (s->gone || s->kind != so->k || (so->match && !so->match(s, so->arg)) || !collector_series_on(s, pick))
			continue;
		collector_window_next(&it, i, &win, cpu_win);
		if (so->rate && so->k == KIND_HARDIRQ && secs > 0)
			rate += (double)win.count / secs;
		el = series_element(c, so->k, i, &win, cpu_win, secs, pick, so->with_buckets, joined, njoined);
		r = array_append(pb, el, flags, &first);
		json_object_put(el);
	}
	for (unsigned n = 0; n < njoined && r >= 0; n++) {	/* a joined series without its partner yet */
		json_object *el;

		if (joined[n].used)
			continue;
		el = series_element(c, so->k, joined[n].s, &joined[n].win, joined[n].cpu_win, secs, pick, so->with_buckets, NULL, 0);
		r = array_append(pb, el, flags, &first);
		json_object_put(el);
	}
	for (unsigned n = 0; n < njoined; n++)
		free(joined[n].cpu_win);
	if (so->rate)
		json_object_set_double(so->rate, rate);
	if (r >= 0 && (flags & JSON_C_TO_STRING_SPACED) && !(flags & JSON_C_TO_STRING_PRETTY))
		r = printbuf_memappend(pb, " ", 1);
	return r < 0 ? r : printbuf_memappend(pb, "]", 1);
}

/* The series of every kind that match (NULL: all), in one array per series_key, each written
 * out with the answer (series_array_write); rate (a double, or NULL): set to the runs per
 * second of the hard-IRQ kind's when they are written. arg_size: bytes of arg to copy (the
 * answer is written after the caller returns). */
static void add_series(json_object *o, const struct collector *c, enum window w, const struct cpu_pick *pick,
		       bool with_buckets, bool (*match)(const struct series *s, const void *arg), const void *arg,
		       size_t arg_size, json_object *rate)
{
	for (unsigned k = 0; k < KINDS; k++) {
		const struct kind_desc *kd = kind_get(k);
		json_object *arr;
		struct series_out *so;

		if (kd->join != k || kd->own_object)	/* a joined kind's series go into its partner's elements */
			continue;
		arr = json_object_new_array();
		so = calloc(1, sizeof(*so));
		if (arr && so) {
			*so = (struct series_out){ .c = c, .w = w, .k = k, .with_buckets = with_buckets, .match = match,
						   .rate = k == KIND_HARDIRQ ? json_object_get(rate) : NULL };
			if (arg && arg_size && (so->arg_owned = malloc(arg_size)))
				memcpy(so->arg_owned, arg, arg_size);
			if (pick && pick->bits) {
				size_t bytes = (pick->ncpus + 63) / 64 * sizeof(uint64_t);

				so->pick.ncpus = pick->ncpus;
				if ((so->pick.bits = malloc(bytes ? bytes : sizeof(uint64_t))))
					memcpy(so->pick.bits, pick->bits, bytes);
			}
			so->arg = arg_size ? so->arg_owned : arg;
			json_object_set_serializer(arr, series_array_write, so, series_out_free);
		} else {
			free(so);
		}
		json_object_object_add(o, kd->series_key, arr);
	}
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
static json_object *timers_object(const struct collector *c, enum window w, const struct cpu_pick *pick,
				  bool with_buckets, bool (*match)(const struct series *s, const void *arg),
				  const void *arg)
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

		/* a timer's and a CPU's wake-ups' series are of one CPU, their sub */
		if ((s->kind == KIND_WAKEUP_CPU || s->kind == KIND_TIMER) && !cpu_pick_has(pick, s->sub))
			continue;
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
static void add_timers(json_object *o, const struct collector *c, enum window w, const struct cpu_pick *pick,
		       bool with_buckets, bool (*match)(const struct series *s, const void *arg), const void *arg)
{
	json_object *t = timers_object(c, w, pick, with_buckets, match, arg), *wake;
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
	return report_summary_pick(c, w, NULL, NULL);
}

json_object *report_summary_pick(const struct collector *c, enum window w, const struct cpu_pick *pick,
				 const char *cpus)
{
	json_object *o = json_object_new_object(), *rate = json_object_new_double(0);

	add_header(o, c, w, pick ? cpus : NULL);
	add_series(o, c, w, pick, false, NULL, NULL, 0, rate);	/* sets rate when written, before rate is */
	add_timers(o, c, w, pick, false, NULL, NULL);
	json_object_object_add(o, "rate", rate);
	json_object_object_add(o, "cpu_load", cpu_load_json(c, w, pick));	/* after add_header: the CPU sets are read */
	return o;
}

/* What a hist request selects; copied whole, its name with it, into the arrays written after
 * report_hist() returns */
struct selection {
	int irq, pid;
	const struct collector *c;
	bool named;
	char name[];
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

/* Whether kind k's series are selected by the request's field key (irq, pid) by their sub */
static bool selects(enum lat_kind k, const char *key)
{
	const char *sk = kind_get(k)->table.select_key;

	return sk && !strcmp(sk, key);
}

/* irq selects hard-IRQ series by number, pid a task's wake-ups (the kinds whose select_key
 * they are); name any series by its name (a handler, a softirq vector, a vector label, a timer
 * function, a task's comm, an IRQ thread) and timers by their class too (tick, sleep, other) */
static bool selected(const struct series *s, const void *arg)
{
	const struct selection *sel = arg;

	return (sel->irq < 0 || (selects(s->kind, "irq") && (int)s->sub == sel->irq)) &&
	       (sel->pid < 0 || (selects(s->kind, "pid") && (int)s->sub == sel->pid)) &&
	       (!sel->named || element_named(sel->c, s, sel->name) ||
		(s->kind == KIND_TIMER && !strcmp(sel->name, timer_class(s->name))));
}

json_object *report_hist(const struct collector *c, enum window w, int irq, int pid, const char *name)
{
	return report_hist_pick(c, w, irq, pid, name, NULL, NULL);
}

json_object *report_hist_pick(const struct collector *c, enum window w, int irq, int pid, const char *name,
			      const struct cpu_pick *pick, const char *cpus)
{
	size_t size = sizeof(struct selection) + (name ? strlen(name) : 0) + 1;
	_cleanup_free_ struct selection *sel = calloc(1, size);
	json_object *o = json_object_new_object();

	if (!sel)
		return o;
	*sel = (struct selection){ .irq = irq, .pid = pid, .c = c, .named = name != NULL };
	if (name)
		strcpy(sel->name, name);
	add_header(o, c, w, pick ? cpus : NULL);
	add_series(o, c, w, pick, true, selected, sel, size, NULL);
	add_timers(o, c, w, pick, true, selected, sel);
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
	for (unsigned k = 0; k < KINDS; k++)	/* threaded_run: "handler" or "on-cpu" */
		if (c->bpf->kind_source[k])
			json_object_object_add(o, kind_get(k)->name, json_object_new_string(c->bpf->kind_source[k]));
	json_object_object_add(o, "handlers", json_object_new_int((int)count_kind(c, KIND_HARDIRQ)));
	add_u64(o, "cells_used", loader_cells_used(c->bpf));
	json_object_object_add(o, "drops", drops_object(c));
	json_object_object_add(o, "bpf", bpf_cost_object(c));
	json_object_object_add(o, "storms", storm_status_json(&c->storms));
	add_cpu_sets(o, c);
	json_object_object_add(cfg, "bpf_stats", json_object_new_boolean(info->bpf_stats));
	for (unsigned k = 0; k < KINDS; k++) {	/* each kind's that has a key (KIND-threshold-us) */
		const struct kind_desc *d = kind_get(k);

		if (!d->threshold.help)
			continue;
		if (d->threshold.status_key)
			add_u64(cfg, d->threshold.status_key, info->threshold_ns[k]);
		else
			add_named(cfg, d->name, "_threshold_ns", json_object_new_uint64(info->threshold_ns[k]));
	}
	add_u64(cfg, "interval_ms", info->interval_ms);
	add_u64(cfg, "max_cells", info->max_cells);
	add_u64(cfg, "ringbuf_bytes", info->ringbuf_bytes);
	json_object_object_add(cfg, "socket", json_object_new_string(info->socket_path));
	json_object_object_add(o, "config", cfg);
	return o;
}
