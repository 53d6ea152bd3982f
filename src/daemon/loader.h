/* SPDX-License-Identifier: GPL-2.0 */
/* Loads and attaches the latency programs (hard IRQs, bpf/hardirq.bpf.c, whose object owns
 * the shared maps; softirqs, bpf/softirq.bpf.c; the CPU's own interrupts, bpf/vector.bpf.c;
 * hrtimer lateness and wake-up latency, bpf/timer.bpf.c),
 * and hands user space the maps it reads: the cell pool (mmap'ed), the ring buffer, the drop
 * counters. */
#ifndef IRQLAT_LOADER_H
#define IRQLAT_LOADER_H

#include <stdbool.h>
#include <stdint.h>
#include <bpf/libbpf.h>
#include "irqlat_abi.h"

enum attach_mode { ATTACH_AUTO, ATTACH_TP_BTF, ATTACH_RAW_TP };
/* Where a threaded IRQ's run time comes from (threaded-run): the thread handler, fentry/fexit
 * on genirq's wrappers; or the thread's on-CPU time, from sched_switch pairs; auto: the
 * handler where the kernel lets those programs load and attach, else on-CPU time */
enum threaded_run_mode { THREADED_RUN_AUTO, THREADED_RUN_HANDLER, THREADED_RUN_ON_CPU };

struct loader_opts {
	enum attach_mode mode;
	uint32_t max_cells;
	uint32_t ringbuf_bytes;
	uint64_t threshold_ns[KINDS];	/* per kind; 0: no outliers */
	bool softirqs, vectors;		/* load those kinds (hard IRQs always) */
	bool timers, wakeups;		/* hrtimer lateness; wake-up latency (needs timers) */
	uint32_t max_wakeup_cells;	/* wake-up cells of tasks of their own */
	bool threaded;			/* threaded IRQs: wake-to-run and the thread handler's run time */
	enum threaded_run_mode threaded_run;	/* where that run time comes from */
	int verbose;
};

struct hardirq_bpf;
struct softirq_bpf;
struct vector_bpf;
struct timer_bpf;
struct threaded_bpf;

#define LOADER_LINKS_MAX 40	/* the extra kinds' links: softirq 3, vectors 22, timers 2, threaded 5 */

struct loader {
	struct hardirq_bpf *skel;	/* owns the shared maps */
	struct softirq_bpf *softirq;	/* NULL: --no-softirqs */
	struct vector_bpf *vector;	/* NULL: --no-vectors, or the kernel has no irq_vectors */
	struct timer_bpf *timer;	/* NULL: --no-timers, or the kernel has no timer:hrtimer_expire_entry */
	bool wakeups;			/* the timer object measures wake-ups (sched_switch attached) */
	struct threaded_bpf *threaded;	/* NULL: --no-threaded, or the kernel lacks sched_switch */
	bool threaded_run;		/* the threads' run time is measured (KIND_THREADED_RUN) */
	const char *threaded_run_source;	/* "handler" (fentry/fexit) or "on-cpu" (sched_switch); NULL: not measured */
	struct bpf_link *links[LOADER_LINKS_MAX];	/* of softirq, vector, timer and threaded, in attach order */
	unsigned nlinks;
	/* every program attached, in attach order: status and the journal name them */
	struct loader_tp {
		char tracepoint[48];	/* "irq:softirq_entry" */
		char program[48];	/* "softirq_entry_btf" */
	} attached[LOADER_LINKS_MAX + 2];
	unsigned nattached;
	const char *attach_style;	/* "tp_btf" or "raw_tp" */
	uint32_t max_cells;
	unsigned ncpus;			/* possible CPUs */
	uint64_t cell_threshold_ns[KINDS];	/* what each kind's cells' threshold_ns is set to (~0: off) */
	volatile struct lat_cell *cells;	/* mmap of the cells map */
	volatile struct lat_cell_meta *meta;
	volatile struct cell_pool *pool;	/* mmap of cell_next */
	size_t cells_len, meta_len, pool_len;
	int ringbuf_fd;
	int drops_fd;
	int entry_prog_fd, exit_prog_fd;
	int stats_fd;		/* --bpf-stats: run-time stats stay on while this is open; 0: not held */
};

/* irqlatd's own cost: the kernel's run-time statistics of the two hard-IRQ programs. One IRQ
 * runs both, so ns per IRQ is run_time_ns / run_cnt. Cumulative while the statistics are on:
 * readers take deltas. */
struct loader_cost {
	bool stats_enabled;	/* the kernel counts: our stats fd is held or the sysctl is 1 */
	uint32_t entry_id, exit_id;	/* the programs' ids */
	uint64_t run_time_ns;	/* entry and exit together */
	uint64_t run_cnt;	/* runs of the exit program */
};

int attach_mode_parse(const char *s, enum attach_mode *m);
int threaded_run_mode_parse(const char *s, enum threaded_run_mode *m);
const char *threaded_run_mode_name(enum threaded_run_mode m);
/* Exit-code-worthy failures log one line saying what is missing; returns negative errno. */
int loader_check_privileges(void);
int loader_open(struct loader *l, const struct loader_opts *o);
void loader_close(struct loader *l);
/* Turns on the kernel's BPF run-time statistics until loader_close(); 0 or negative errno. */
int loader_enable_stats(struct loader *l);
/* Fills cost; stats_enabled even when the programs cannot be read (not loaded: -EBADF, or
 * the kernel's negative errno), the rest only on 0. */
int loader_read_cost(const struct loader *l, struct loader_cost *cost);
uint32_t loader_cells_used(const struct loader *l);
/* A kind's outlier threshold (0: off), for its cells there are and those to come. */
void loader_set_threshold(struct loader *l, enum lat_kind kind, uint64_t threshold_ns);
/* Gives cell id the threshold in effect: the collector calls it when it first sees a cell, so
 * one allocated while the threshold changed cannot keep the old one. */
void loader_apply_threshold(struct loader *l, uint32_t id);
/* Sum over CPUs of the per-kind drop counters. */
int loader_read_drops(const struct loader *l, uint64_t out[DROP_KINDS]);
/* The same for one kind, from the drops map drops_fd (which the tracepoint programs share). */
int loader_read_drop(int drops_fd, uint32_t kind, uint64_t *sum);
/* Bytes of map memory for this configuration (docs/architecture.md section 6 has the formula). */
uint64_t loader_map_bytes(uint32_t ncpus, uint32_t max_cells, uint32_t ringbuf_bytes);
/* Whether a kind's programs are attached (hard IRQs: always, once open). */
bool loader_kind_on(const struct loader *l, enum lat_kind kind);

#endif
