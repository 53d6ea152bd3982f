/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's state: what the loader's files share (object.c, the program sets, loader.c) and
 * what the collector reads (the mmap'ed cell pool, the late waits' counts). libbpf's types are only named here. */
#ifndef IRQLAT_LOADER_STATE_H
#define IRQLAT_LOADER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "irqlat_abi.h"
#include "daemon/config/config.h"

struct loader_opts {
	enum attach_mode mode;
	uint32_t max_cells;
	uint32_t ringbuf_bytes;
	uint64_t threshold_ns[KINDS];	/* per kind; 0: no outliers */
	bool on[KINDS];			/* the kinds the configuration turns on (config_kind_on) */
	uint32_t max_wakeup_cells;	/* wake-up cells of tasks of their own */
	enum threaded_run_mode threaded_run;	/* where that run time comes from */
	bool log_idle;			/* send timers late out of idle that woke no task (log-idle) */
	int verbose;
};

struct bpf_link;
struct hardirq_bpf;

#define LOADER_LINKS_MAX 40	/* the other sets' links: softirq 3, vectors 22, timers 2, threaded 4, sched 2, nmi 1 */
#define LOADER_SETS_MAX 8	/* program sets (sets.c) */

struct loader {
	struct hardirq_bpf *skel;	/* owns the shared maps */
	void *set_skel[LOADER_SETS_MAX];	/* each program set's object, by its place in loader_sets[];
					 * NULL: not wanted, or the kernel lacks its tracepoints */
	bool kind_on[KINDS];		/* the kinds whose programs are attached */
	/* where a kind's values come from when the kernel let the loader choose: "handler"
	 * (fentry/fexit) or "on-cpu" (sched_switch) for threaded_run; NULL: the one way */
	const char *kind_source[KINDS];
	struct bpf_link *links[LOADER_LINKS_MAX];	/* of the sets but the hard IRQs', in attach order */
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
	/* mmap of why_counts: ncpus * WHY_CLASSES elements, each written by its CPU's programs
	 * while the daemon reads it (struct why_count says how to read one whole); the daemon
	 * writes only unsent_max_ns, swapping it for 0 */
	volatile struct why_count *why_counts;
	size_t cells_len, meta_len, pool_len, why_counts_len;
	int ringbuf_fd;
	int drops_fd;
	int entry_prog_fd, exit_prog_fd;
	int stats_fd;		/* --bpf-stats: run-time stats stay on while this is open; 0: not held */
};

#endif
