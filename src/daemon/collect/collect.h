/* SPDX-License-Identifier: GPL-2.0 */
/* Turns the BPF cells (one series of one kind on one CPU, cumulative) into per-series
 * summaries: totals since start and sliding windows of the last 1 s, 10 s and 60 s, kept
 * sparsely (ticks.h). Everything an answer reports comes from one snapshot: the last tick. */
#ifndef IRQLAT_COLLECT_H
#define IRQLAT_COLLECT_H

#include <stdbool.h>
#include <stdint.h>
#include "common/window.h"
#include "daemon/base/ratelimit.h"
#include "daemon/system/bpf_peers.h"
#include "daemon/system/cpu_topology.h"
#include "daemon/collect/hist.h"
#include "daemon/loader/loader.h"
#include "daemon/collect/ticks.h"
#include "daemon/collect/storm.h"

#define WINDOW_TICKS_MAX 60

struct series_cpu {
	uint32_t cpu;
	uint32_t cell;		/* the pool index of its cell */
	uint64_t count;		/* since start, as of the last tick */
	uint64_t sum_ns;	/* time since start on this CPU, as of the last tick */
	uint64_t aux;		/* the kind's own count there since start */
	uint64_t max_ns;	/* the largest value there since start */
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
	char *cgroup;		/* KIND_WAKEUP: its task's cgroup v2 path, read with the start time; NULL until then */
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
	struct report_limit drops_said[DROP_KINDS];	/* the warnings of drops: one a minute at most */
	/* scratch of a tick: one cell's buckets */
	uint64_t delta[HIST_BUCKETS];
	unsigned ncpus;		/* possible CPUs (loader), for the per-CPU load */
	/* beside the cells: storms, fed every tick (storm.c); where CPUs and IRQs may run and
	 * the other BPF programs on the IRQ tracepoints, read when a client asks (report.c) */
	struct storm storms;
	storm_report_fn storm_report;	/* a storm's start or end: storm_journal(), or the daemon's */
	void *storm_userdata;
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
/* The series of a kind the answers show (not ended): status's "handlers" for KIND_HARDIRQ */
unsigned collector_count_kind(const struct collector *c, enum lat_kind kind);
/* Ends series s: the caller has given its cells back to the programs (a wake-up series whose
 * task exited, src/daemon/collect/wakeup_reclaim.c), cleared their metadata's `ready`, and will hand
 * them out again: each is taken again, for its new series, once it is ready. The series is
 * left out of every answer from now on; its slot is reused WINDOW_TICKS_MAX ticks later. */
void collector_end_series(struct collector *c, unsigned s);

/* The series of cell id, taken now if its metadata is ready but no tick has seen it yet
 * (an outlier can come before); NULL when there is none yet. *cpu: the cell's CPU. */
const struct series *collector_cell_series(struct collector *c, uint32_t id, uint32_t *cpu);

/* The CPUs an answer is about (a request's "cpus", -C): a bitmap of CPUs 0..ncpus-1. A NULL
 * pick is every CPU. Since a cell is one series on one CPU, every figure over a pick is exact:
 * the sum (or max) over the cells on those CPUs. */
struct cpu_pick {
	unsigned ncpus;
	uint64_t *bits;
};
/* The CPUs of a kernel CPU list ("0-3,8"): 0; -EINVAL for a list that is not one or is empty;
 * -ERANGE when it names a CPU the machine does not have (ncpus possible CPUs), *missing the
 * highest; -ENOMEM. */
int cpu_pick_init(struct cpu_pick *p, const char *list, unsigned ncpus, unsigned *missing);
void cpu_pick_free(struct cpu_pick *p);
bool cpu_pick_has(const struct cpu_pick *p, unsigned cpu);
/* Whether series s has a cell on a CPU of the pick (ran there since start) */
bool collector_series_on(const struct series *s, const struct cpu_pick *p);

/* Series s since start: its totals and the buckets of its cells as last read; _pick: of the
 * cells on those CPUs only. */
void collector_series_total(const struct collector *c, unsigned s, struct hist *out);
void collector_series_total_pick(const struct collector *c, unsigned s, const struct cpu_pick *pick, struct hist *out);
/* Series s on its slot-th CPU (series.cpus[slot]) since start: that cell's alone */
void collector_series_cpu_total(const struct collector *c, unsigned s, unsigned slot, struct hist *out);

/* Windows. Walk the series in increasing order: for each, its histogram over window w and its
 * per-CPU counts (cpu_count[i] for series.cpus[i], NULL: not wanted); with a pick, of the
 * CPUs of the pick only (the others' cpu_count is 0). */
struct window_iter {
	const struct collector *c;
	enum window w;
	const struct cpu_pick *pick;
	unsigned n;
	struct tick_cursor cur[WINDOW_TICKS_MAX];
};
void collector_window_begin(const struct collector *c, enum window w, struct window_iter *it);
void collector_window_begin_pick(const struct collector *c, enum window w, const struct cpu_pick *pick,
				 struct window_iter *it);
void collector_window_next(struct window_iter *it, unsigned s, struct hist *out, uint64_t *cpu_count);
/* The same, with the time on each CPU in the window in cpu_sum_ns[i] too (NULL: not wanted). */
void collector_window_next_cpus(struct window_iter *it, unsigned s, struct hist *out, uint64_t *cpu_count,
				uint64_t *cpu_sum_ns);
/* The same, with the largest value on each CPU in the window in cpu_max[i] too (NULL: not wanted). */
void collector_window_next_cpu_max(struct window_iter *it, unsigned s, struct hist *out, uint64_t *cpu_count,
				   uint64_t *cpu_sum_ns, uint64_t *cpu_max);
/* The window's length in seconds (section 3 of docs/architecture.md). */
double collector_window_seconds(const struct collector *c, enum window w);
/* One series' window, for callers that want only one (it walks the window's ticks). */
void collector_window(const struct collector *c, unsigned s, enum window w, struct hist *out, double *seconds);

#endif
