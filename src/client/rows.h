/* SPDX-License-Identifier: GPL-2.0 */
/* The rows of irqlat's tables as the summary gives them: which array of the summary each table
 * comes from, one row per element, and the way back from a row to its element. table.c turns
 * them into columns; cpuline.c into per-CPU lines. */
#ifndef IRQLAT_ROWS_H
#define IRQLAT_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "common/kinds/kind.h"

/* The letters of the FLAGS column, in the order they are written */
#define FLAG_STORM 'S'		/* the daemon sees a rate storm: far above the handler's recent rate */
#define FLAG_UNHANDLED 'U'	/* the daemon sees the line's interrupts mostly unhandled (IRQ_NONE) */
#define FLAG_ISOLATED 'I'	/* ran in the window on an isolated or nohz_full CPU */
#define FLAG_AFFINITY 'A'	/* ran in the window on a CPU outside the IRQ's affinity */

/* A table's rows come from the summary's array of the kind's elements (kind_table in
 * src/common/kinds/kind.h: handlers, softirq vectors, vector interrupts, timer functions
 * (timers.classes), tasks woken by their timer (timers.wakeups), threaded IRQs). The rows are
 * the same (name, counts, latencies); softirqs add their raise-to-run latency. */
struct row {
	enum lat_kind kind;	/* whose table */
	int irq;		/* -1 for the rows of a table without the IRQ column */
	int64_t key;		/* its element's field of the kind's select_key (irq, pid); -1: none */
	char name[32];		/* a task's: "comm[pid]" */
	char cpus[96];		/* "0,1!": CPUs it ran on since start, ! on an isolated, nohz_full or
				 * outside-affinity one */
	uint64_t count, spurious, total_ns;	/* since start */
	uint64_t window_count;
	double rate, time_share;
	bool idle;		/* no run in the window: its latencies are not measurements */
	uint64_t avg_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
	uint64_t raise_window_count, raise_p99_ns, raise_max_ns;	/* softirqs: raise-to-run latency */
	char flags[8];		/* FLAG_* letters, "" when none */
	char cause[128];	/* a task's: the top cause of its kept late waits ("62% IRQ 36 ..."), "" */
	int src;		/* index in its source's array (per-CPU detail lives there) */
};

/* The array of the summary kind k's rows come from; NULL when the summary has none. */
json_object *table_source_array(json_object *summary, enum lat_kind k);
/* The number o[prefix + name] ("run_" "p99_ns"), 0 when missing or null */
uint64_t table_field(json_object *o, const char *prefix, const char *name);
/* The element of the summary row r was made from */
json_object *table_row_object(json_object *summary, const struct row *r);
/* The CPU's element of the summary's timers.cpus (its timers' lateness and the wake-ups of its
 * tasks), NULL when no timer fired there since the daemon started */
json_object *table_timer_cpu(json_object *summary, int64_t cpu);
/* Runs lost of every kind since the daemon started: the sum of the summary's "drops". */
uint64_t table_drops(json_object *summary);
/* "2.1k IRQ/s (25.7 device, 2.1k vector)": the interrupts the CPUs took in the summary's
 * window, the devices' handlers and the kernel's own vectors (the timer, IPIs) together; the
 * devices' alone ("25.7 IRQ/s") when the summary has no vector rows (--no-vectors, not x86) */
void table_irq_rate(char *buf, size_t len, json_object *summary);
#endif
