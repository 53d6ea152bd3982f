/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The layout shared by the BPF programs (bpf/) and user space (src/): map values, ring-buffer
 * records and the histogram bucketing. One definition, compiled on both sides. */
#ifndef IRQLAT_ABI_H
#define IRQLAT_ABI_H

#ifdef __bpf__
/* vmlinux.h provides __u32/__u64 */
#else
#include <linux/types.h>
#endif

/* Log-linear histogram: values below 2^SUB_BITS ns have a bucket each; above, every power of
 * two is cut into 2^SUB_BITS equal sub-buckets, so a bucket is at most 1/8 = 12.5% as wide as
 * its lower bound. The last bucket holds everything from 2^HIST_MAX_LOG2 ns (4.29 s) up. */
#define HIST_SUB_BITS 3
#define HIST_SUB 8u
#define HIST_MAX_LOG2 32
#define HIST_BUCKETS ((HIST_MAX_LOG2 - HIST_SUB_BITS + 1) * HIST_SUB + 1) /* 241 */

#define IRQ_NAME_LEN 32
#define TASK_COMM_LEN_ABI 16
#define TP_MAX_ARGS 8
#define MODULE_NAME_LEN_ABI 56	/* the kernel's MODULE_NAME_LEN on 64-bit */

/* One cell is one handler (irqaction) on one CPU. Cells are allocated by the BPF program the
 * first time a handler fires on a CPU, so CPU x handler pairs that never fire cost nothing
 * beyond the preallocated pool. Only the owning CPU writes a cell (hard IRQ handlers do not
 * nest), so the hot path needs neither atomics nor locks. */
struct irq_cell {
	__u64 count;          /* handler runs */
	__u64 sum_ns;         /* total time in the handler */
	__u64 max_ns;         /* largest run since user space last took it (it swaps in 0) */
	__u64 spurious;       /* runs that returned IRQ_NONE */
	__u32 hist[HIST_BUCKETS];
	__u32 _pad;
};

/* Written once when a cell is allocated; user space groups cells into handlers by (irq, id). */
struct irq_cell_meta {
	__u64 action_id;      /* identity of the irqaction (its address); never shown to users */
	__u32 irq;
	__u32 cpu;
	char name[IRQ_NAME_LEN];
};

/* Per (CPU, IRQ number): the cell of the handler that last ran there, and its entry time.
 * Shared lines run several handlers in turn; a miss falls back to the cell hash. */
struct irq_slot {
	__u64 action_id;
	__u64 start_ns;
	__u32 cell;
	__u32 _pad;
};

struct cell_key {
	__u64 action_id;
	__u32 irq;
	__u32 cpu;
};

enum ringbuf_kind {
	RB_OUTLIER = 1,
	RB_TRACEPOINT = 2,
	RB_MODULE = 3,	/* bpf/modwatch.bpf.c */
};

enum drop_kind {
	DROP_OUTLIER = 0,
	DROP_TRACEPOINT = 1,
	DROP_NO_CELL = 2,     /* cell pool exhausted: the event is not measured */
	DROP_KINDS = 3,
};

struct outlier_event {
	__u32 kind;           /* RB_OUTLIER */
	__u32 cpu;
	__u64 ts_ns;          /* CLOCK_MONOTONIC at handler exit */
	__u64 duration_ns;
	__u32 irq;
	__u32 cell;
	__u32 pid;            /* interrupted task (tid) */
	__u32 tgid;
	char comm[TASK_COMM_LEN_ABI];
	char name[IRQ_NAME_LEN];
};

struct tracepoint_event {
	__u32 kind;           /* RB_TRACEPOINT */
	__u32 cpu;
	__u64 ts_ns;
	__u32 tp_id;          /* index into the daemon's tracepoint table */
	__u32 nargs;
	__u32 pid;
	__u32 tgid;
	char comm[TASK_COMM_LEN_ABI];
	__u64 args[TP_MAX_ARGS];
};

/* What bpf/modwatch.bpf.c saw happen to a module. */
enum module_what {
	MODULE_LOADED = 1,		/* module:module_load: before its init function runs */
	MODULE_FREED = 2,		/* module:module_free: unloaded, or its init failed */
	MODULE_UNLOAD_REFUSED = 3,	/* delete_module(2) returned an error (ret) */
};

struct module_event {
	__u32 kind;           /* RB_MODULE */
	__u32 what;           /* enum module_what */
	__u64 ts_ns;          /* CLOCK_MONOTONIC */
	__s64 ret;            /* MODULE_UNLOAD_REFUSED: delete_module's -errno */
	__u32 pid;            /* the task that loaded, freed or tried to unload it */
	__u32 tgid;
	char comm[TASK_COMM_LEN_ABI];
	char name[MODULE_NAME_LEN_ABI];
};

/* floor(log2(v)) for v > 0 without loops or a count-leading-zeros instruction (BPF has none). */
static inline __u32 irqlat_log2(__u64 v)
{
	__u32 r = 0, s;

	s = (v > 0xFFFFFFFFull) << 5; v >>= s; r |= s;
	s = (v > 0xFFFF) << 4; v >>= s; r |= s;
	s = (v > 0xFF) << 3; v >>= s; r |= s;
	s = (v > 0xF) << 2; v >>= s; r |= s;
	s = (v > 0x3) << 1; v >>= s; r |= s;
	r |= (__u32)(v >> 1);
	return r;
}

static inline __u32 hist_bucket(__u64 ns)
{
	__u32 e;

	if (ns < HIST_SUB)
		return (__u32)ns;
	if (ns >= (1ull << HIST_MAX_LOG2))
		return HIST_BUCKETS - 1;
	e = irqlat_log2(ns);
	return (e - HIST_SUB_BITS + 1) * HIST_SUB + (__u32)((ns >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

#endif
