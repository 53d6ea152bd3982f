/* SPDX-License-Identifier: GPL-2.0 */
/* Loads and attaches the latency programs, one program set per BPF object (progset.h,
 * sets.c: the hard-IRQ object, which owns the shared maps, first), and hands user space the
 * maps it reads: the cell pool (mmap'ed), the ring buffer, the drop counters. */
#ifndef IRQLAT_LOADER_H
#define IRQLAT_LOADER_H

#include <stdbool.h>
#include <stdint.h>
#include "daemon/loader/state.h"


/* irqlatd's own cost: the kernel's run-time statistics of the two hard-IRQ programs. One IRQ
 * runs both, so ns per IRQ is run_time_ns / run_cnt. Cumulative while the statistics are on:
 * readers take deltas. */
struct loader_cost {
	bool stats_enabled;	/* the kernel counts: our stats fd is held or the sysctl is 1 */
	uint32_t entry_id, exit_id;	/* the programs' ids */
	uint64_t run_time_ns;	/* entry and exit together */
	uint64_t run_cnt;	/* runs of the exit program */
};

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
struct progset;
/* The object of program set ps, NULL when it is not loaded */
void *loader_set_skel(const struct loader *l, const struct progset *ps);

#endif
