/* SPDX-License-Identifier: GPL-2.0 */
/* Turns the BPF cells (one series of one kind on one CPU, cumulative) into per-series
 * summaries: totals since start and sliding windows of the last 1 s, 10 s and 60 s, kept
 * sparsely (ticks.h). Everything an answer reports comes from one snapshot: the last tick. */
#ifndef IRQLAT_COLLECT_H
#define IRQLAT_COLLECT_H

#include <stdbool.h>
#include <stdint.h>
#include "common/window.h"
#include "bpf_peers.h"
#include "cpu_topology.h"
#include "hist.h"
#include "loader.h"
#include "ticks.h"
#include "storm.h"

#define WINDOW_TICKS_MAX 60

struct series_cpu {
	uint32_t cpu;
	uint32_t cell;		/* the pool index of its cell */
	uint64_t count;		/* since start, as of the last tick */
	uint64_t sum_ns;	/* time since start on this CPU, as of the last tick */
};

/* One series of one kind: a hard-IRQ handler (irqaction) for KIND_HARDIRQ. */
struct series {
	enum lat_kind kind;
	uint64_t id;		/* as in the cell (hardirq: the irqaction's address; never shown) */
	uint32_t sub;		/* hardirq: the IRQ number */
	char name[IRQ_NAME_LEN];
	/* since start, as of the last tick; the buckets since start are those of its cells as
	 * last read (collector_series_total), not kept twice */
	uint64_t count, sum_ns, aux, max_ns;
	struct series_cpu *cpus;
	unsigned ncpus;
	/* ended (collector_end_series): its cells belong to others now, the answers leave it out,
	 * and its slot is used again once no window holds its ticks */
	bool gone;
	uint64_t gone_tick;	/* the collector's tick count when it ended */
	uint64_t born_tick;	/* ... when it was made */
	uint64_t task_start;	/* KIND_WAKEUP: the task's start time (/proc/PID/stat), 0 until read */
	uint64_t exit_tick;	/* KIND_WAKEUP: the tick its task was first seen gone, 0: not yet */
};

struct cell_prev;

struct cell_state {
	int32_t series;		/* index into series, -1 until the cell's metadata is ready */
	uint32_t cpu_slot;	/* index into series.cpus */
	struct cell_prev *prev;	/* the cell as last read */
};

struct collector {
	struct loader *bpf;
	uint64_t (*clock)(void);	/* CLOCK_MONOTONIC in ns: now_ns, or a test's */
	uint64_t start_ns;
	uint64_t tick;		/* ticks done */
	/* end time of each tick, ring; one more than the longest window, whose start is the
	 * end of the tick before its first */
	uint64_t tick_ns[WINDOW_TICKS_MAX + 1];
	/* the last tick's read of the cells: every figure of an answer is as of then */
	uint64_t snap_begin_ns, snap_end_ns;	/* CLOCK_MONOTONIC */
	double snap_wall_s;			/* CLOCK_REALTIME at snap_end_ns, seconds */
	struct loader_cost cost;		/* the programs' run-time statistics then */
	bool cost_read;				/* cost holds them (not only stats_enabled) */
	struct tick_buf ticks[WINDOW_TICKS_MAX];	/* ticks[t % WINDOW_TICKS_MAX] */
	struct series *series;
	unsigned nseries, series_cap;
	struct cell_state *cells;
	uint32_t ncells;
	uint32_t pending;	/* cells below this are taken, but for those in retake */
	uint32_t *retake;	/* cells given back (collector_end_series), to take again once reused */
	uint32_t nretake;
	uint64_t drops[DROP_KINDS];
	/* scratch of a tick */
	uint64_t delta[HIST_BUCKETS];
	uint64_t *cpu_delta, *cpu_sum_delta;
	unsigned cpu_delta_cap;
	unsigned ncpus;		/* possible CPUs (loader), for the per-CPU load */
	/* beside the cells: storms, fed every tick (storm.c); where CPUs and IRQs may run and
	 * the other BPF programs on the IRQ tracepoints, read when a client asks (report.c) */
	struct storm storms;
	struct cpu_topology *topology;
	struct bpf_peers *peers;
};

uint64_t now_ns(void);

int collector_init(struct collector *c, struct loader *bpf);
void collector_free(struct collector *c);
/* Reads the cells, folds what moved into the series; call once per interval. Its time is
 * linear in the cells that fired, plus one cache line per cell that did not. A series that
 * cannot be tracked (out of memory) is logged and tried again next time; 0, or the negative
 * errno of reading the drop counters (which then keep their last values). */
int collector_tick(struct collector *c);
/* Ends series s: the caller has given its cells back to the programs (a wake-up series whose
 * task exited, src/daemon/wakeup_reclaim.c), cleared their metadata's `ready`, and will hand
 * them out again: each is taken again, for its new series, once it is ready. The series is
 * left out of every answer from now on; its slot is reused WINDOW_TICKS_MAX ticks later. */
void collector_end_series(struct collector *c, unsigned s);

/* The series of cell id, taken now if its metadata is ready but no tick has seen it yet
 * (an outlier can come before); NULL when there is none yet. *cpu: the cell's CPU. */
const struct series *collector_cell_series(struct collector *c, uint32_t id, uint32_t *cpu);

/* Series s since start: its totals and the buckets of its cells as last read. */
void collector_series_total(const struct collector *c, unsigned s, struct hist *out);

/* Windows. Walk the series in increasing order: for each, its histogram over window w and its
 * per-CPU counts (cpu_count[i] for series.cpus[i], NULL: not wanted). */
struct window_iter {
	const struct collector *c;
	enum window w;
	unsigned n;
	struct tick_cursor cur[WINDOW_TICKS_MAX];
};
void collector_window_begin(const struct collector *c, enum window w, struct window_iter *it);
void collector_window_next(struct window_iter *it, unsigned s, struct hist *out, uint64_t *cpu_count);
/* The same, with the time on each CPU in the window in cpu_sum_ns[i] too (NULL: not wanted). */
void collector_window_next_cpus(struct window_iter *it, unsigned s, struct hist *out, uint64_t *cpu_count,
				uint64_t *cpu_sum_ns);
/* The window's length in seconds (section 3 of docs/architecture.md). */
double collector_window_seconds(const struct collector *c, enum window w);
/* One series' window, for callers that want only one (it walks the window's ticks). */
void collector_window(const struct collector *c, unsigned s, enum window w, struct hist *out, double *seconds);

#endif
