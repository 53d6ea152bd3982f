// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "report.h"

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
static void add_storm_affinity(json_object *o, const struct collector *c, const struct handler *h)
{
	const struct irq_affinity *a = c->topology ? topology_irq(c->topology, h->irq, now_ns()) : NULL;

	json_object_object_add(o, "storm", storm_json(&c->storms, (unsigned)(h - c->handlers), c->start_ns));
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

static json_object *handler_object(const struct collector *c, const struct handler *h, enum window w,
				   struct hist *win, double secs)
{
	json_object *o = json_object_new_object(), *cpus = json_object_new_array();
	struct hist_summary s;

	hist_summarize(win, &s);
	json_object_object_add(o, "irq", json_object_new_int((int)h->irq));
	json_object_object_add(o, "name", json_object_new_string(h->name));
	add_u64(o, "count", collector_live_count(c, h));
	add_u64(o, "total_ns", h->total.sum_ns);
	add_u64(o, "spurious", h->total.spurious);
	json_object_object_add(o, "rate", json_object_new_double(secs > 0 ? (double)s.count / secs : 0));
	add_u64(o, "window_count", s.count);
	add_u64(o, "window_ns", s.sum_ns);
	json_object_object_add(o, "time_share", json_object_new_double(secs > 0 ? (double)s.sum_ns / (secs * 1e9) : 0));
	add_latency(o, "avg_ns", s.avg_ns, s.count);
	add_latency(o, "p50_ns", s.p50_ns, s.count);
	add_latency(o, "p90_ns", s.p90_ns, s.count);
	add_latency(o, "p99_ns", s.p99_ns, s.count);
	add_latency(o, "p999_ns", s.p999_ns, s.count);
	add_latency(o, "max_ns", s.max_ns, s.count);
	add_storm_affinity(o, c, h);
	for (unsigned i = 0; i < h->ncpus; i++) {
		json_object *co = json_object_new_object();

		json_object_object_add(co, "cpu", json_object_new_int((int)h->cpus[i].cpu));
		add_u64(co, "count", h->cpus[i].count);
		add_u64(co, "window_count", collector_cpu_window_count(c, &h->cpus[i], w));
		json_object_array_add(cpus, co);
	}
	json_object_object_add(o, "cpus", cpus);
	return o;
}

/* The daemon's own cost (loader_read_cost); clients take deltas between snapshots. Beside it
 * the other programs on the IRQ tracepoints, whose cost is in every duration (bpf_peers.c). */
static json_object *bpf_cost_object(const struct collector *c)
{
	json_object *o = json_object_new_object(), *ids;
	struct loader_cost cost;
	int r = loader_read_cost(c->bpf, &cost);

	json_object_object_add(o, "stats_enabled", json_object_new_boolean(cost.stats_enabled));
	if (c->peers) {
		uint32_t own[2] = { cost.entry_id, cost.exit_id };

		bpf_peers_refresh(c->peers, own, r < 0 ? 0 : 2, now_ns(), BPF_PEERS_MAX_AGE_NS);
		json_object_object_add(o, "shared", bpf_peers_json(c->peers));
	}
	if (r < 0)
		return o;
	ids = json_object_new_array();
	json_object_array_add(ids, json_object_new_int((int)cost.entry_id));
	json_object_array_add(ids, json_object_new_int((int)cost.exit_id));
	json_object_object_add(o, "prog_ids", ids);
	add_u64(o, "run_time_ns", cost.run_time_ns);
	add_u64(o, "run_cnt", cost.run_cnt);
	if (cost.run_cnt)
		json_object_object_add(o, "ns_per_irq", json_object_new_double((double)cost.run_time_ns / (double)cost.run_cnt));
	return o;
}

static void add_header(json_object *o, const struct collector *c, enum window w, double secs)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	json_object_object_add(o, "time", json_object_new_double((double)ts.tv_sec + ts.tv_nsec / 1e9));
	json_object_object_add(o, "uptime_s", json_object_new_double((double)(now_ns() - c->start_ns) / 1e9));
	json_object_object_add(o, "window", json_object_new_string(window_name(w)));
	json_object_object_add(o, "window_s", json_object_new_double(secs));
	json_object_object_add(o, "drops", drops_object(c));
	json_object_object_add(o, "handlers", json_object_new_int((int)c->nhandlers));
	json_object_object_add(o, "bpf", bpf_cost_object(c));
	add_cpu_sets(o, c);
}

/* For the window's length when no handler is reported: it does not depend on the handler. */
static const struct handler no_handler;

json_object *report_summary(const struct collector *c, enum window w)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	double secs = 0, rate = 0;
	struct hist win;

	for (unsigned i = 0; i < c->nhandlers; i++) {
		collector_window(c, &c->handlers[i], w, &win, &secs);
		rate += secs > 0 ? (double)win.count / secs : 0;
		json_object_array_add(arr, handler_object(c, &c->handlers[i], w, &win, secs));
	}
	if (!c->nhandlers)
		collector_window(c, &no_handler, w, &win, &secs);
	add_header(o, c, w, secs);
	json_object_object_add(o, "rate", json_object_new_double(rate));
	json_object_object_add(o, "irqs", arr);
	return o;
}

json_object *report_hist(const struct collector *c, enum window w, int irq, const char *name)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	double secs = 0;
	struct hist win;

	collector_window(c, &no_handler, w, &win, &secs);
	for (unsigned i = 0; i < c->nhandlers; i++) {
		const struct handler *h = &c->handlers[i];

		if ((irq >= 0 && (int)h->irq != irq) || (name && strcmp(name, h->name)))
			continue;
		collector_window(c, h, w, &win, &secs);
		json_object *ho = handler_object(c, h, w, &win, secs), *b = json_object_new_array();
		for (unsigned k = 0; k < HIST_BUCKETS; k++) {
			if (!win.bucket[k])
				continue;
			json_object *row = json_object_new_array();

			json_object_array_add(row, json_object_new_uint64(hist_lower_ns(k)));
			json_object_array_add(row, json_object_new_uint64(k == HIST_BUCKETS - 1 ? 0 : hist_upper_ns(k)));
			json_object_array_add(row, json_object_new_uint64(win.bucket[k]));
			json_object_array_add(b, row);
		}
		/* [lower_ns, upper_ns (0: unbounded), count] for each non-empty bucket */
		json_object_object_add(ho, "buckets", b);
		json_object_array_add(arr, ho);
	}
	add_header(o, c, w, secs);
	json_object_object_add(o, "irqs", arr);
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
	json_object_array_add(progs, json_object_new_string("irq:irq_handler_entry"));
	json_object_array_add(progs, json_object_new_string("irq:irq_handler_exit"));
	json_object_object_add(o, "programs", progs);
	json_object_object_add(o, "handlers", json_object_new_int((int)c->nhandlers));
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
