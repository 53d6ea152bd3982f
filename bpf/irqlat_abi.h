/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The layout shared by the BPF programs (bpf/) and user space (src/): map values, ring-buffer
 * records and the histogram bucketing (hist_bucket.h). One definition, compiled on both sides.
 *
 * Every latency kind (hard-IRQ handler run time, softirq run time and raise latency, the CPU's
 * own interrupts, hrtimer lateness and wake-up latency, threaded IRQs' wake-to-run and
 * thread handler run time) fills the same cells from one pool: a cell is one series of one
 * kind (hardirq: one irqaction) on one CPU. The kind's program keeps
 * what it needs per CPU in its own per-CPU map; the cells, their metadata and the cold-path
 * index are shared by all kinds (bpf/cell.bpf.h), so user space reads one mmap'ed array. */
#ifndef IRQLAT_ABI_H
#define IRQLAT_ABI_H

#ifdef __bpf__
/* vmlinux.h provides __u32/__u64 */
#else
#include <linux/types.h>
#endif
#include "hist_bucket.h"

#define IRQ_NAME_LEN 32
#define TASK_COMM_LEN_ABI 16
#define TP_MAX_ARGS 8
#define MODULE_NAME_LEN_ABI 56	/* the kernel's MODULE_NAME_LEN on 64-bit */

/* What a cell measures; user space names and groups series by it (src/daemon/kind.c). */
enum lat_kind {
	KIND_HARDIRQ = 0,	/* hard-IRQ handler run time; id: irqaction, sub: IRQ number */
	KIND_SOFTIRQ = 1,	/* softirq run time, softirq_entry to _exit; id, sub: the vector */
	KIND_SOFTIRQ_RAISE = 2,	/* softirq_raise to softirq_entry on one CPU; id, sub: the vector */
	KIND_VECTOR = 3,	/* the CPU's own interrupts (x86 irq_vectors); id, sub: enum vector_label */
	KIND_TIMER = 4,		/* hrtimer lateness; id: the timer's function, sub: the CPU */
	KIND_WAKEUP = 5,	/* hrtimer_wakeup expiry to the woken task on a CPU; id, sub: its pid
				 * (0: the tasks past the bound, together) */
	KIND_WAKEUP_CPU = 6,	/* the same wake-ups, every task of a CPU together; id, sub: the CPU */
	KIND_THREADED = 7,	/* hard-IRQ exit (IRQ_WAKE_THREAD) to its irq/N thread running; id: irqaction, sub: IRQ */
	KIND_THREADED_RUN = 8,	/* the thread handler's run time (irq_thread_fn); id: irqaction, sub: IRQ */
	KINDS = 9,
};

/* One series of one kind on one CPU. Allocated by the kind's program the first time the series
 * shows on that CPU, from a preallocated pool, so CPU x series pairs that never fire cost
 * nothing beyond the pool. Only the owning CPU writes it (a kind's events do not nest on a
 * CPU), so the hot path needs neither atomics nor locks. The runs are the sum of hist[]: no
 * separate count, so a copy of a cell always agrees with itself.
 * 1088 bytes, 17 cache lines: the header and the first buckets share the first. */
struct lat_cell {
	__u64 id;		/* the series within its kind (hardirq: the irqaction's address) */
	__u32 sub;		/* the rest of its identity (hardirq: the IRQ number) */
	__u32 aux;		/* per-kind count, mod 2^32 (hardirq: runs that returned IRQ_NONE) */
	__u64 sum_ns;		/* total of the values */
	__u64 max_ns;		/* largest value since user space last took it (it swaps in 0) */
	__u64 threshold_ns;	/* values at or above go to the ring buffer; ~0: off. User space sets it */
	__u32 hist[HIST_BUCKETS];	/* counts mod 2^32, bucket k as in hist_bucket.h */
	__u32 _pad[4];
};

/* The id and sub of a wake-up cell the daemon took back from a task that exited, until a task
 * takes it again (src/daemon/wakeup_reclaim.c): no pid matches them, so a task whose storage
 * still caches the cell finds it is not its own (cell_cached()) and takes another. */
#define CELL_FREE_ID (~0ULL)
#define CELL_FREE_SUB (~0U)

/* Written once by the program that allocates the cell; `ready` last: user space takes a cell
 * once it is set. */
struct lat_cell_meta {
	__u64 id;		/* as in the cell */
	__u32 sub;
	__u32 cpu;
	__u32 kind;		/* enum lat_kind */
	__u32 ready;		/* 1 once everything above and name are written */
	char name[IRQ_NAME_LEN];	/* hardirq: irqaction->name; kinds named in user space leave it empty */
};

/* The cold path's index: (kind, id, sub, cpu) -> cell. */
struct cell_key {
	__u64 id;
	__u32 sub;
	__u16 cpu;
	__u16 kind;
};

/* The pool's counter (map cell_next, shared by every kind, mmap'ed by user space). */
struct cell_pool {
	__u32 next;		/* cells handed out; may run past max when the pool is exhausted */
	__u32 max;		/* the pool's size, set by the loader */
};

/* The hardirq program's per-CPU state (bpf/hardirq.bpf.c); here so that user space can count
 * its memory. Hard-IRQ handlers do not nest on a CPU: one start time and one running action
 * per CPU, and a direct-mapped cache of cells by IRQ number (a power of two, so the slot is a
 * mask away; IRQ numbers that collide modulo it still measure right, through the cold path).
 * A multiple of 64 bytes: one element per CPU in an array, no two CPUs share a cache line. */
#define HARDIRQ_CACHE 4096
struct hardirq_cpu {
	__u64 start_ns;
	__u64 action;		/* the irqaction running, 0 between handlers */
	__u32 cell[HARDIRQ_CACHE];	/* IRQ number -> cell index + 1 (0: none) */
} __attribute__((aligned(64)));

/* The softirq program's per-CPU state (bpf/softirq.bpf.c). Softirqs do not nest on a CPU: one
 * start per CPU, with the raise time of the vector that is running; per vector, the time of
 * its first raise while pending (0: not pending) and its two cache slots (run time, raise
 * latency; cell index + 1). A vector's 16 bytes sit in one cache line, so an event touches the
 * header's line and its vector's. The vectors are NR_SOFTIRQS, the rows of /proc/softirqs. */
#define SOFTIRQ_VECTORS 10
struct softirq_vec {
	__u64 raise_ns;
	__u32 run_cell;
	__u32 raise_cell;
};
struct softirq_cpu {
	__u64 start_ns;		/* softirq_entry of the running vector */
	__u64 raised_ns;	/* when the running vector was raised; 0: no raise seen */
	__u32 vec;		/* the running vector + 1; 0: none */
	__u32 _pad[3];
	struct softirq_vec v[SOFTIRQ_VECTORS];
} __attribute__((aligned(64)));

/* The CPU's own interrupts by their /proc/interrupts label; a label can be made of several
 * tracepoints (CAL: call_function and call_function_single), src/daemon/kind.c names them and
 * docs/architecture.md lists which. */
enum vector_label {
	VEC_LOC = 0,	/* local_timer */
	VEC_SPU,	/* spurious_apic */
	VEC_ERR,	/* error_apic */
	VEC_PLT,	/* x86_platform_ipi */
	VEC_IWI,	/* irq_work */
	VEC_RES,	/* reschedule */
	VEC_CAL,	/* call_function, call_function_single */
	VEC_THR,	/* threshold_apic */
	VEC_DFR,	/* deferred_error_apic */
	VEC_TRM,	/* thermal_apic */
	VECTOR_LABELS,
};

/* The vector program's per-CPU state (bpf/vector.bpf.c): these handlers run with interrupts
 * off and do not nest, so one start and one running label per CPU, and a cache slot per label.
 * One cache line. */
struct vector_cpu {
	__u64 start_ns;
	__u32 label;		/* the running label + 1; 0: none */
	__u32 cell[VECTOR_LABELS];	/* cell index + 1 */
} __attribute__((aligned(64)));

/* The timer program's per-CPU state (bpf/timer.bpf.c): a direct-mapped cache of cells by the
 * timer's function address (bits 4 and up: functions are 16-byte aligned), one cache line the
 * expiry touches; then the CPU's all-tasks wake-up cell, on a line of its own that only
 * sched_switch touches, and only for a task that its timer woke. */
#define TIMER_CACHE 16
struct timer_cpu {
	__u32 cell[TIMER_CACHE];	/* cell index + 1 */
	__u32 wake_cell __attribute__((aligned(64)));	/* KIND_WAKEUP_CPU's cell index + 1 */
} __attribute__((aligned(64)));

/* What bpf/timer.bpf.c keeps per sleeping task, in the timer_task LRU hash by pid: the expiry
 * of the hrtimer_wakeup timer that woke it, until it runs, and its wake-up cell on the CPU it
 * last ran on after such a timer. The entry stays after the wake-up (the cell cache); the
 * least recently used of TIMER_TASKS entries makes room for a new task. The timer_pids bitmap
 * (a bit per pid below the pid_max the loader read) says which tasks have an expiry pending,
 * so that sched_switch leaves every other task after one word. */
#define TIMER_TASKS 8192
struct timer_task {
	__u64 expires_ns;	/* the timer's hard expiry, CLOCK_MONOTONIC; 0: none pending */
	__u32 cell;		/* cell index + 1 */
	__u32 cpu;		/* the CPU of that cell + 1 */
};

/* Threaded IRQs (bpf/threaded.bpf.c). A hard-IRQ handler that returns IRQ_WAKE_THREAD wakes
 * its irqaction's thread (irq/N-name); the hard-IRQ exit program stamps the time in the
 * thread's entry of the threaded_tasks hash (by pid) and sets its pid's bit in the
 * threaded_pids filter, so that sched_switch leaves every other task after one word of the
 * filter. The entry also holds the handler's start while the thread runs it. */
#define THREADED_TASKS 1024	/* IRQ threads tracked; more are not measured (drops: no_cell) */
#define THREADED_PID_WORDS 512	/* the filter: bit (pid & 32767); a false hit costs one hash lookup */
#define THREADED_CACHE 64	/* per CPU, cell slots by IRQ number & 63 */
struct threaded_task {
	__u64 action;		/* the irqaction whose thread this is */
	__u64 wake_ns;		/* the hard-IRQ exit that woke it, until it runs; 0: none pending */
	__u64 run_ns;		/* its handler's start (fentry), until the handler returns; 0: not in it */
	__u32 irq;
	__u32 _pad;
};
struct threaded_cpu {
	__u32 wake_cell[THREADED_CACHE];	/* KIND_THREADED cell index + 1 */
	__u32 run_cell[THREADED_CACHE];		/* KIND_THREADED_RUN cell index + 1 */
} __attribute__((aligned(64)));

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

/* A value at or above its cell's threshold. The cell tells the kind, the series, its name
 * and the CPU: user space has them, so the record carries none of them. */
struct outlier_event {
	__u32 type;           /* RB_OUTLIER */
	__u32 cell;
	__u64 ts_ns;          /* CLOCK_MONOTONIC when the value was taken */
	__u64 value_ns;       /* the duration or latency */
	__u32 pid;            /* the task on the CPU (hard IRQ: the one it interrupted), tid */
	__u32 tgid;
	char comm[TASK_COMM_LEN_ABI];
	__u64 aux;            /* per kind (hardirq: the handler's return value; softirq: the vector;
			       * vector: the x86 vector number; timer: the woken task's pid for
			       * hrtimer_wakeup, else 0; wakeup: the woken task's pid) */
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

#endif
