// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kind.h"
#include "report.h"
#include "common/macro.h"

static void add_u64(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

/* A latency of the window, null when the window has no run: never a 0 ns run (irqlat(1)) */
static void add_latency(json_object *o, const char *k, uint64_t v, uint64_t runs)
{
	json_object_object_add(o, k, runs ? json_object_new_uint64(v) : NULL);
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

/* One series: identity and totals as of the last tick, the window's figures, per CPU. */
static json_object *series_object(const struct collector *c, unsigned si, const struct hist *win,
				  const uint64_t *cpu_win, double secs)
{
	const struct series *s = &c->series[si];
	const struct kind_desc *k = kind_get(s->kind);
	json_object *o = json_object_new_object(), *cpus = json_object_new_array();
	struct hist_summary w;

	hist_summarize(win, &w);
	json_object_object_add(o, k->sub_key, json_object_new_int((int)s->sub));
	json_object_object_add(o, "name", json_object_new_string(s->name));
	add_u64(o, "count", s->count);
	add_u64(o, "total_ns", s->sum_ns);
	add_u64(o, k->aux_key, s->aux);
	json_object_object_add(o, "rate", json_object_new_double(secs > 0 ? (double)w.count / secs : 0));
	add_u64(o, "window_count", w.count);
	add_u64(o, "window_ns", w.sum_ns);
	json_object_object_add(o, "time_share", json_object_new_double(secs > 0 ? (double)w.sum_ns / (secs * 1e9) : 0));
	add_latency(o, "avg_ns", w.avg_ns, w.count);
	add_latency(o, "p50_ns", w.p50_ns, w.count);
	add_latency(o, "p90_ns", w.p90_ns, w.count);
	add_latency(o, "p99_ns", w.p99_ns, w.count);
	add_latency(o, "p999_ns", w.p999_ns, w.count);
	add_latency(o, "max_ns", w.max_ns, w.count);
	if (s->kind == KIND_HARDIRQ)
		add_storm_affinity(o, c, si, s->sub);
	for (unsigned i = 0; i < s->ncpus; i++) {
		json_object *co = json_object_new_object();

		json_object_object_add(co, "cpu", json_object_new_int((int)s->cpus[i].cpu));
		add_u64(co, "count", s->cpus[i].count);
		add_u64(co, "window_count", cpu_win[i]);
		json_object_array_add(cpus, co);
	}
	json_object_object_add(o, "cpus", cpus);
	return o;
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
		n += c->series[i].kind == kind;
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

/* Each kind's series that match (NULL: all), in an array under the kind's name; *rate: the
 * runs per second of the hard-IRQ kind's. */
static void add_series(json_object *o, const struct collector *c, enum window w, bool with_buckets,
		       bool (*match)(const struct series *s, const void *arg), const void *arg, double *rate)
{
	double secs = collector_window_seconds(c, w);
	_cleanup_free_ uint64_t *cpu_win = NULL;
	unsigned maxcpus = 1;

	for (unsigned i = 0; i < c->nseries; i++)
		if (c->series[i].ncpus > maxcpus)
			maxcpus = c->series[i].ncpus;
	cpu_win = calloc(maxcpus, sizeof(*cpu_win));
	for (unsigned k = 0; k < KINDS; k++) {
		json_object *arr = json_object_new_array();
		struct window_iter it;
		struct hist win;

		collector_window_begin(c, w, &it);
		for (unsigned i = 0; i < c->nseries && cpu_win; i++) {
			const struct series *s = &c->series[i];

			if (s->kind != k || (match && !match(s, arg)))
				continue;
			collector_window_next(&it, i, &win, cpu_win);
			if (rate && k == KIND_HARDIRQ && secs > 0)
				*rate += (double)win.count / secs;
			json_object *so = series_object(c, i, &win, cpu_win, secs);

			if (with_buckets)
				json_object_object_add(so, "buckets", buckets_array(&win));
			json_object_array_add(arr, so);
		}
		json_object_object_add(o, kind_get(k)->series_key, arr);
	}
}

json_object *report_summary(const struct collector *c, enum window w)
{
	json_object *o = json_object_new_object();
	double rate = 0;

	add_header(o, c, w);
	add_series(o, c, w, false, NULL, NULL, &rate);
	json_object_object_add(o, "rate", json_object_new_double(rate));
	return o;
}

struct selection {
	int irq;
	const char *name;
};

static bool selected(const struct series *s, const void *arg)
{
	const struct selection *sel = arg;

	return (sel->irq < 0 || (int)s->sub == sel->irq) && (!sel->name || !strcmp(sel->name, s->name));
}

json_object *report_hist(const struct collector *c, enum window w, int irq, const char *name)
{
	json_object *o = json_object_new_object();
	struct selection sel = { irq, name };

	add_header(o, c, w);
	add_series(o, c, w, true, selected, &sel, NULL);
	return o;
}

json_object *report_status(const struct collector *c, const struct daemon_info *info)
{
	json_object *o = json_object_new_object(), *cfg = json_object_new_object();

	json_object_object_add(o, "version", json_object_new_string(info->version));
	json_object_object_add(o, "pid", json_object_new_int(info->pid));
	json_object_object_add(o, "uptime_s", json_object_new_double((double)(now_ns() - c->start_ns) / 1e9));
	json_object_object_add(o, "attach", json_object_new_string(info->attach_style));
	json_object *progs = json_object_new_array();
	for (unsigned k = 0; k < KINDS; k++)
		for (unsigned t = 0; t < ELEMENTSOF(kind_get(k)->tracepoints); t++)
			json_object_array_add(progs, json_object_new_string(kind_get(k)->tracepoints[t]));
	json_object_object_add(o, "programs", progs);
	json_object_object_add(o, "handlers", json_object_new_int((int)count_kind(c, KIND_HARDIRQ)));
	add_u64(o, "cells_used", loader_cells_used(c->bpf));
	json_object_object_add(o, "drops", drops_object(c));
	json_object_object_add(o, "bpf", bpf_cost_object(c));
	json_object_object_add(o, "storms", storm_status_json(&c->storms));
	add_cpu_sets(o, c);
	json_object_object_add(cfg, "bpf_stats", json_object_new_boolean(info->bpf_stats));
	add_u64(cfg, "threshold_ns", info->threshold_ns);
	add_u64(cfg, "interval_ms", info->interval_ms);
	add_u64(cfg, "max_cells", info->max_cells);
	add_u64(cfg, "ringbuf_bytes", info->ringbuf_bytes);
	json_object_object_add(cfg, "socket", json_object_new_string(info->socket_path));
	json_object_object_add(o, "config", cfg);
	return o;
}
