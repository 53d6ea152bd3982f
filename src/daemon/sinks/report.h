/* SPDX-License-Identifier: GPL-2.0 */
/* The daemon's answers as JSON objects: summaries, histograms, status. */
#ifndef IRQLAT_REPORT_H
#define IRQLAT_REPORT_H

#include <json-c/json.h>
#include "daemon/collect/collect.h"

struct daemon_info {
	const char *version;
	const char *attach_style;
	uint64_t threshold_ns[KINDS];	/* per kind, 0: off */
	uint64_t interval_ms;
	uint32_t max_cells;
	uint32_t ringbuf_bytes;
	const char *socket_path;
	int pid;
	int bpf_stats;		/* irqlatd --bpf-stats holds a bpf_enable_stats() fd (loader.stats_fd) */
};

/* {"time":..,"uptime_s":..,"window":"10s","window_s":..,"irqs":[...],"drops":{..},
 *  "timers":{"classes":[..],"cpus":[..],"wakeups":[..]}} */
json_object *report_summary(const struct collector *c, enum window w);
/* Series whose IRQ number is irq (irq >= 0: hard IRQs only), whose task is pid (pid >= 0:
 * wake-ups only) and whose name is name (name != NULL: a handler, softirq vector, vector
 * label, timer function or class, task's comm), or all. */
json_object *report_hist(const struct collector *c, enum window w, int irq, int pid, const char *name);
/* The same of the CPUs of pick alone (NULL: every CPU): every series with a cell on one of
 * them, its figures (since start, window, percentiles, max) those of its cells there and its
 * per-CPU lines those CPUs'; timers and CPU wake-ups of those CPUs. cpus, the list asked for,
 * is said in the answer's "cpus". */
json_object *report_summary_pick(const struct collector *c, enum window w, const struct cpu_pick *pick,
				 const char *cpus);
json_object *report_hist_pick(const struct collector *c, enum window w, int irq, int pid, const char *name,
			      const struct cpu_pick *pick, const char *cpus);
json_object *report_status(const struct collector *c, const struct daemon_info *info);

#endif
