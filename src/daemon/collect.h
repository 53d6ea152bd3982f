/* SPDX-License-Identifier: GPL-2.0 */
/* Turns the BPF cells (one handler on one CPU, cumulative) into per-handler summaries:
 * totals since start and sliding windows of the last 1 s, 10 s and 60 s. */
#ifndef IRQLAT_COLLECT_H
#define IRQLAT_COLLECT_H

#include <stdint.h>
#include "common/window.h"
#include "bpf_peers.h"
#include "cpu_topology.h"
#include "hist.h"
#include "loader.h"
#include "storm.h"

#define WINDOW_TICKS_MAX 60

struct cpu_stat {
	uint32_t cpu;
	uint64_t count;		/* since start */
	uint64_t window_count[WINDOW_TICKS_MAX];	/* per tick, ring like handler.ring */
};

struct handler {
	uint32_t irq;
	uint64_t action_id;
	char name[IRQ_NAME_LEN];
	struct hist total;
	struct hist_tick ring[WINDOW_TICKS_MAX];	/* deltas of the last ticks; ring[tick % N] */
	struct cpu_stat *cpus;
	unsigned ncpus;
};

struct cell_state {
	int handler;		/* index into handlers, -1 until the cell's metadata is ready */
	unsigned cpu_idx;	/* index into handler.cpus */
	struct irq_cell prev;
};

struct collector {
	struct loader *bpf;
	uint64_t start_ns;	/* CLOCK_MONOTONIC */
	uint64_t tick;		/* ticks done */
	/* end time of each tick, ring; one more than the longest window, whose start is the
	 * end of the tick before its first */
	uint64_t tick_ns[WINDOW_TICKS_MAX + 1];
	struct handler *handlers;
	unsigned nhandlers;
	struct cell_state *cells;
	uint32_t ncells;
	uint64_t drops[DROP_KINDS];
	/* beside the cells: storms, fed every tick (storm.c); where CPUs and IRQs may run and
	 * the other BPF programs on the IRQ tracepoints, read when a client asks (report.c) */
	struct storm storms;
	struct cpu_topology *topology;
	struct bpf_peers *peers;
};

uint64_t now_ns(void);

int collector_init(struct collector *c, struct loader *bpf);
void collector_free(struct collector *c);
/* Reads the cells, folds their deltas into the handlers; call once per interval. A handler
 * that cannot be tracked (out of memory) is logged and tried again next time; 0, or the
 * negative errno of reading the drop counters (which then keep their last values). */
int collector_tick(struct collector *c);

/* The histogram of handler h over window w, and its length in seconds. */
void collector_window(const struct collector *c, const struct handler *h, enum window w,
		      struct hist *out, double *seconds);
/* Runs of h since start up to this moment: the last tick's total plus what the cells have
 * counted since, so a client comparing with /proc/interrupts is not an interval behind. */
uint64_t collector_live_count(const struct collector *c, const struct handler *h);
uint64_t collector_cpu_window_count(const struct collector *c, const struct cpu_stat *cs, enum window w);

#endif
