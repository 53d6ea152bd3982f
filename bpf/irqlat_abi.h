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
	KIND_WAKEUP = 5,	/* an hrtimer's expiry to the task its callback woke running on a CPU; id, sub: its pid
				 * (0: the tasks past the bound, together) */
	KIND_WAKEUP_CPU = 6,	/* the same wake-ups, every task of a CPU together; id, sub: the CPU */
	KIND_THREADED = 7,	/* hard-IRQ exit (IRQ_WAKE_THREAD) to its irq/N thread running; id: irqaction, sub: IRQ */
	KIND_THREADED_RUN = 8,	/* the thread handler's run time (irq_thread_fn); id: irqaction, sub: IRQ */
	KIND_NMI = 9,		/* NMI handler run time (nmi:nmi_handler's delta_ns); id: the handler's address, sub: 0 */
	KINDS = 10,
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
 * takes it again (src/daemon/collect/wakeup_reclaim.c): no pid matches them, so a task whose storage
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
 * its memory: a direct-mapped cache of cells by IRQ number (a power of two, so the slot is a
 * mask away; IRQ numbers that collide modulo it still measure right, through the cold path).
 * The running handler's start is in the CPU's clock line (struct cpu_clock). A multiple of 64
 * bytes: one element per CPU in an array, no two CPUs share a cache line. */
#define HARDIRQ_CACHE 4096
struct hardirq_cpu {
	__u32 cell[HARDIRQ_CACHE];	/* IRQ number -> cell index + 1 (0: none) */
} __attribute__((aligned(64)));

/* The softirq program's per-CPU state (bpf/softirq.bpf.c): per vector, the time of its first
 * raise while not pending (0: not pending), the raise time of its run in progress (moved there
 * at softirq_entry, so that raises during the run make it pending again), and its two cache
 * slots (run time, raise latency; cell index + 1). Two vectors a cache line, so an event
 * touches its vector's line and the CPU's clock line (the running vector and its start). The
 * vectors are NR_SOFTIRQS, the rows of /proc/softirqs. */
#define SOFTIRQ_VECTORS 10
struct softirq_vec {
	__u64 raise_ns;
	__u64 running_raise_ns;	/* the raise of the run in progress; 0: none seen */
	__u32 run_cell;
	__u32 raise_cell;
	__u64 _pad;
};
struct softirq_cpu {
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

/* The vector program's per-CPU state (bpf/vector.bpf.c): a cache slot per label; the running
 * label and its start are in the CPU's clock line (struct cpu_clock). One cache line. */
struct vector_cpu {
	__u32 cell[VECTOR_LABELS];	/* cell index + 1 */
} __attribute__((aligned(64)));

/* The timer program's per-CPU state (bpf/timer.bpf.c): a direct-mapped cache of cells by the
 * timer's function address (bits 4 and up: functions are 16-byte aligned), one cache line the
 * expiry touches. The callback's own state is in the CPU's clock line (struct cpu_clock). */
#define TIMER_CACHE 16
struct timer_cpu {
	__u32 cell[TIMER_CACHE];	/* cell index + 1 */
} __attribute__((aligned(64)));

/* NMIs (bpf/nmi.bpf.c): per CPU, the handlers seen there and their cells. NMI context allows
 * no hash update, so a handler's first NMI on a CPU takes a slot here and a cell from the pool
 * (one atomic add, as cell_miss() does) without the cell_index hash. NMIs do not nest, so only
 * the CPU's own NMI writes its element. A ninth handler on one CPU is not measured (drops:
 * no_cell). */
#define NMI_SLOTS 8
struct nmi_cpu {
	__u64 handler[NMI_SLOTS];	/* the handler's address; 0: free */
	__u32 cell[NMI_SLOTS];		/* its cell index + 1 */
} __attribute__((aligned(64)));

/* ---- The interference clocks and the explanation of a wait (docs/architecture.md, "Why it
 * was late"). */

/* A CPU's clocks at one moment, each mod 2^32 ns (differences over a wait under 4.29 s are
 * exact): the net time in hard-IRQ handlers, vector interrupts, softirqs and NMI handlers, of
 * the idle task and of every other task (net of the interrupts), and the switches to tasks
 * other than idle. valid: the task clocks ran (a switch was seen on that CPU). */
struct why_snap {
	__u32 irq, vec, softirq, nmi;
	__u32 idle, task;
	__u32 switches;
	__u32 valid;
};

/* One recent interference event of a CPU (hard-IRQ handler, vector, softirq, NMI handler):
 * where it ended, its net time, and its cell with its class in the top bits. A ring of them
 * per CPU names the handler, label or vector that took the most of a wait. */
#define RECENT_EVENTS 32	/* a power of two */
enum recent_class { RECENT_IRQ = 0, RECENT_VECTOR = 1, RECENT_SOFTIRQ = 2, RECENT_NMI = 3, RECENT_CLASSES = 4 };
#define RECENT_CLASS_SHIFT 28
struct recent_event {
	__u64 end_ns;		/* CLOCK_MONOTONIC */
	__u32 ns;		/* net of what nested in it */
	__u32 cell;		/* class << RECENT_CLASS_SHIFT | cell index + 1 */
};

/* The flight recorder: per CPU, a ring of the last FLIGHT_EVENTS events the programs already
 * see, one small fixed record each, written from the values the program holds anyway (no
 * helper call of its own). An outlier's explanation sends the newest of them as its timeline
 * (struct timeline_event). A compile-time size: the ring sits in the CPU's clock element, which
 * every program already looks up, so a record costs stores and no lookup; a size set by the
 * loader would need a map of its own and a lookup per event. 256 x 24 bytes: 6 KiB per CPU. */
#define FLIGHT_EVENTS 256	/* a power of two, a multiple of TIMELINE_BLOCK */
enum flight_type {
	/* the interference events, at their end; as enum recent_class: a = net ns, b = cell + 1 */
	FL_IRQ = RECENT_IRQ, FL_VECTOR = RECENT_VECTOR, FL_SOFTIRQ = RECENT_SOFTIRQ, FL_NMI = RECENT_NMI,
	FL_SWITCH = 4,	/* sched_switch: a = prev pid, b = next pid, c = prev prio << 16 | next prio */
	FL_TIMER = 5,	/* hrtimer callback start: a = its lateness ns (clamped), b = cell + 1, c = 1 soft */
	FL_WAKE = 6,	/* a task woken by a timer callback stamped: a = its pid, b = the timer's cell + 1 */
	FL_TYPES = 7,
};
struct flight_rec {
	__u64 ts_ns;	/* CLOCK_MONOTONIC */
	__u32 a, b, c;
	__u32 type;	/* enum flight_type */
};

/* An hrtimer callback running on a CPU, from hrtimer_expire_entry to hrtimer_expire_exit:
 * sched_waking stamps a task it wakes with the timer's expiry. Two per CPU: a timer of the
 * hard-IRQ context can run while a soft one (HRTIMER_SOFTIRQ) is in its callback. */
struct timer_slot {
	__u64 expires_ns;	/* the timer's hard expiry (node.expires), CLOCK_MONOTONIC; 0: none running */
	__u64 start_ns;		/* the callback's start: hrtimer_expire_entry's clock */
	__u32 late_cell;	/* the timer's cell + 1 when its lateness is an outlier, sent at the exit */
	__u32 woke;		/* the first task the callback woke (pid); 0: none */
};
enum timer_slot_ctx { TIMER_HARD = 0, TIMER_SOFT = 1 };
/* Whose stacks an outlier's explanation takes, each at most once a CPU every STACKS_GAP */
enum why_stacks_for { STACKS_WAIT = 0, STACKS_TIMER = 1 };
#define STACKS_GAP 1024	/* in 2^20 ns: 1.07 s */

/* The scan of the flight recorder for a wait's blocking task (bpf/why.bpf.h's
 * why_blocker_earlier()): its runs in the wait before its last one, which the caller has */
struct why_runs {
	__u64 run_end;		/* the run the scan is in (going back): its switch-out */
	__u64 intr;		/* the interrupts' time in that run so far */
	__u64 earlier;		/* its runs in the window, net of interrupts */
	__u32 pid;		/* the blocking task's */
	__u32 base;		/* the recorder's head at the start: the newest record's slot + 1 */
	__u16 ins;		/* its switch-ins in the window, the last one not counted */
	__u8 running;		/* the scan is inside one of its runs */
};

/* The scans of a CPU's recent[] for the interrupts in a window (bpf/why.bpf.h's why_top()),
 * and of its flight recorder for the blocking task's runs: their state between bpf_loop()
 * steps. One scan at a time: the runs' before the interrupts'. */
struct why_scan {
	__u64 from, to;
	__u64 oldest;
	union {
		struct {
			__u32 sum[RECENT_CLASSES];	/* each class's time in the window */
			__u32 most[RECENT_CLASSES];	/* its largest single event */
			__u32 best[RECENT_CLASSES];	/* that event's cell + 1 */
			__u32 top[RECENT_CLASSES];	/* the time of that cell in the window (second pass) */
		};
		struct why_runs runs;
	};
	__u32 seen;
	__u8 overlap, second;
};

/* Who scans: each context that can interrupt another has its own room (struct cpu_clock's
 * scan[]), as each has its own struct why_work; a late timer's by its callback's context */
enum why_scan_ctx {
	WHY_SCAN_SWITCH = 0,		/* sched_switch (IRQs off) */
	WHY_SCAN_WAKING = 1,		/* sched_waking (in a timer's callback) */
	WHY_SCAN_THREAD = 2,		/* an IRQ thread's handler start (threaded.bpf.c) */
	WHY_SCAN_TIMER_HARD = 3,	/* a late timer, hard-IRQ context */
	WHY_SCAN_TIMER_SOFT = 4,	/* a late timer, softirq context */
	WHY_SCAN_CTXS = 5,
};

/* The CPU's clock lines: one element per CPU of the clock_cpu map (a plain mmapable array, as
 * the kinds' states), shared by every object as the cell pool is. Line A is the interrupt
 * programs': what runs in hard-IRQ context and since when, the running softirq, and the four
 * net clocks; line B is sched_switch's: the task clocks; line C the timer's running callbacks
 * and the CPU's wake-up cell; then the ring of recent interference events.
 *
 * Net of nesting, as osnoise counts: only NMIs nest in a hard-IRQ handler or a vector, so an
 * NMI pushes the running one's start on by its time (their run time excludes NMI handlers);
 * hard IRQs, vectors and NMIs nest in a softirq, so each adds its net time to
 * softirq_nested_ns, which the softirq's exit takes off its run time for softirq_ns (its run
 * time histogram keeps it, as before). On PREEMPT_RT a softirq runs in a task and can be
 * preempted: the switch pauses it (CLOCK_PAUSED, the owner's pid kept) and the owner's next
 * switch-in resumes it, the time between counted as nested. So at any moment the CPU's time is
 * in exactly one of: a hard-IRQ handler, a vector, a softirq, an NMI handler, the idle task,
 * another task; and the time of any interval is split by subtracting two readings. */
#define CLOCK_VECTOR 0x80000000u	/* cpu_clock.hard: a vector interrupt runs, | its label */
#define CLOCK_PAUSED 0x8000		/* cpu_clock.softirq: its task is switched out */
struct cpu_clock {
	/* line A: hardirq.bpf.c, vector.bpf.c, softirq.bpf.c, nmi.bpf.c */
	__u64 irq_ns;		/* hard-IRQ handlers, net */
	__u64 vec_ns;		/* vector interrupts, net */
	__u64 softirq_ns;	/* softirqs, net */
	__u64 nmi_ns;		/* NMI handlers (nmi_handler's delta_ns) */
	__u64 hard_start_ns;	/* the running hard-IRQ handler's or vector's entry, pushed on by nested NMIs */
	__u64 softirq_start_ns;	/* the running softirq's entry */
	__u32 hard;		/* in hard-IRQ context: 0 nothing, IRQ number + 1, or CLOCK_VECTOR | label */
	__u32 softirq_nested_ns;	/* interrupts nested in the running softirq, mod 2^32 (paused: less the pause's start) */
	__u16 softirq;		/* the running softirq's vector + 1, | CLOCK_PAUSED; 0: none */
	__u16 recent_head;	/* the next slot of recent[] */
	__u32 softirq_owner;	/* paused: the pid whose softirq it is */
	/* line B: sched.bpf.c's sched_switch */
	__u64 switch_ns;	/* the last switch on this CPU; 0: none seen yet (task clocks not running) */
	__u64 switch_intr_ns;	/* irq + vec + softirq + nmi (with a softirq in progress) at that switch */
	__u64 idle_ns;		/* the idle task (pid 0), net of interrupts */
	__u64 task_ns;		/* every other task, net of interrupts */
	__u32 switches;		/* switches to tasks other than idle, mod 2^32 */
	__u32 curr_pid;		/* the task switched in last */
	__u32 flight_head;	/* the next slot of flight[]: here, in sched_switch's line, since line A is
				 * full; the interrupts touch this line once more */
	__u32 oncpu_pid;	/* a task a timer's callback woke while it ran here (the callback interrupted
				 * it): its stamp waits for the next switch on this CPU (or the next such
				 * wake), which tells whether it ran on from the wake (its wait ended at
				 * oncpu_ns) or left the CPU runnable (its switch-in ends the wait); 0: none */
	__u64 timeline_ns;	/* the last timeline sent from this CPU (why.bpf.h's timeline_send()) */
	__u64 oncpu_ns;		/* that wake's time */
	/* line C: timer.bpf.c's running callbacks, read by sched_waking */
	struct timer_slot slot[2];	/* enum timer_slot_ctx */
	__u32 wake_cell;	/* KIND_WAKEUP_CPU's cell index + 1 */
	__u16 stacks_at[2];	/* the last stacks taken here, in 2^20 ns mod 2^16, by enum why_stacks_for */
	__u64 timer_fn;		/* the expiring timer's function, passed through here: the verifier reads a
				 * function pointer as read-only memory, and a number back */
	/* the ring of recent interference events, recent_head % RECENT_EVENTS next */
	struct recent_event recent[RECENT_EVENTS];
	/* the flight recorder, flight_head % FLIGHT_EVENTS next */
	struct flight_rec flight[FLIGHT_EVENTS];
	/* where an outlier's explanation scans recent[] (bpf/why.bpf.h's why_top()), one room a
	 * context that can interrupt another's; the programs' own, the daemon never reads it */
	struct why_scan scan[WHY_SCAN_CTXS];
} __attribute__((aligned(64)));

/* What a late wait's time went to, in the order the delay builds up. The parts of one wait add
 * up to its total exactly: each is clamped to what the earlier ones left, the remainder takes
 * the rest. */
enum why_part {
	WHY_LATE_IDLE = 0,	/* the timer's lateness (its expiry to its callback), the CPU idle at the expiry: exit from idle */
	WHY_LATE_BUSY = 1,	/* the timer's lateness, the CPU busy at the expiry: IRQs off or a hypervisor */
	WHY_IRQ = 2,		/* hard-IRQ handlers on the CPU */
	WHY_VECTOR = 3,		/* vector interrupts (the timer's own interrupt after its callback's start among them) */
	WHY_SOFTIRQ = 4,	/* softirqs */
	WHY_NMI = 5,		/* NMI handlers */
	WHY_IDLE = 6,		/* the idle task ran: the CPU was idle after the wake-up (idle exit, scheduler) */
	WHY_BLOCKING = 7,	/* the blocking task (switched out for the waiter), of at least the waiter's priority */
	WHY_OTHERS = 8,		/* other tasks that ran on the CPU */
	WHY_REMAINDER = 9,	/* the scheduler and preemption-off sections: a blocking task of lower priority than
				 * a real-time waiter kept the CPU; and what no clock holds */
	WHY_UNSPLIT = 10,	/* not split: the wait moved to another CPU, or the CPU's clocks were not running */
	WHY_PARTS = 11,
};

/* why_event.flags */
#define WHY_F_IDLE_AT_EXPIRY	0x01	/* the CPU was idle when the timer's interrupt came (exit from idle) */
#define WHY_F_MOVED		0x02	/* woken on one CPU (wake_cpu), run on another: not split */
#define WHY_F_NO_CLOCKS		0x04	/* the CPU's task clocks were not running yet, or the wait outlasted 4.29 s: not split */
#define WHY_F_BLOCKER_LOWER	0x08	/* the blocking task had lower priority than the real-time waiter: its time is in the remainder */
#define WHY_F_RECENT_PARTIAL	0x10	/* the ring of recent events did not reach back to the wait's start: top[] from its end only */
#define WHY_F_SOFT		0x20	/* the timer ran in softirq context (HRTIMER_SOFTIRQ) */
#define WHY_F_ON_CPU		0x40	/* threaded IRQ: the thread was still on the CPU (taken at its handler's start) */
#define WHY_F_WOKE		0x80	/* late timer: its callback woke a task (pid) */
#define WHY_F_RAN_ON		0x100	/* wake-up of the task the timer's callback interrupted, which ran on: the
					 * wait ended at the wake, its parts the timer's lateness and its interrupt */

/* The explanation of one outlier's wait, sent right after its outlier record (same cell and
 * ts_ns): a timer wake-up (KIND_WAKEUP), a threaded IRQ's wake-to-run (KIND_THREADED) or a late
 * timer (KIND_TIMER: its lateness split into the interrupts that ran meanwhile and the rest). */
/* Frames of a why_event's stacks: deep enough to reach below the scheduler and an interrupt's
 * entry to the code that was running (24), and the user stack's top frames only (8) */
#define WHY_KSTACK 24
/* bpf/ksym.bpf.c's request: addresses in, the kernel's names of them out ("" when unknown) */
#define KSYM_BATCH WHY_KSTACK
#define KSYM_NAME 128
struct ksym_req {
	__u64 addr[KSYM_BATCH];
	char name[KSYM_BATCH][KSYM_NAME];
	__u32 n;
	__u32 _pad;
};
#define WHY_USTACK 8
struct why_event {
	__u32 type;		/* RB_WHY */
	__u32 cell;		/* the outlier's cell */
	__u64 ts_ns;		/* the outlier's ts_ns: the wait's end */
	__u64 total_ns;		/* the outlier's value: the sum of part_ns */
	__u64 part_ns[WHY_PARTS];
	__u32 pid;		/* the task that waited; a late timer: the first task its callback woke (0: none) */
	__u32 flags;		/* WHY_F_* */
	__u16 cpu;		/* the CPU it waited on */
	__u16 wake_cpu;		/* the CPU of its wake-up: the timer's callback or the hard IRQ */
	__u16 others;		/* other tasks switched in during the wait, beside the blocking task */
	__u16 waiter_prio;	/* the kernel's prio of the waiter: 0-99 real-time (99 - rt_priority), 100-139 nice + 120 */
	__u32 blocker_pid;	/* the task switched out for the waiter; a late timer: the task its interrupt found (0: idle) */
	__u16 blocker_prio;	/* as waiter_prio */
	__u16 blocker_policy;	/* SCHED_OTHER 0, FIFO 1, RR 2, BATCH 3, IDLE 5, DEADLINE 6 */
	char blocker_comm[TASK_COMM_LEN_ABI];
	struct {
		__u32 cell;	/* cell index + 1 of the hard-IRQ handler, vector label, softirq vector, NMI
				 * handler with the most time in the wait (from the ring of recent
				 * events); 0: none */
		__u32 ns;
	} top[RECENT_CLASSES];	/* enum recent_class */
	/* Added at the end (the fields above keep their offsets). The stacks of stack_pid, the
	 * blocker at its switch-out or the task a late timer's interrupt found, taken only when
	 * that task is the one on the CPU at the moment the record is made (bpf_get_task_stack()
	 * of current): return addresses, innermost first; the daemon symbolizes them (kernel ones
	 * from /proc/kallsyms, user ones as a file + offset of stack_pid's /proc/PID/maps). */
	__u32 stack_pid;	/* 0: no stacks (the blocker was not the task on the CPU) */
	__u16 kstack_n;		/* frames in kstack */
	__u16 ustack_n;		/* frames in ustack (0: a kernel thread, or in the kernel on its own behalf) */
	__u64 kstack[WHY_KSTACK];
	__u64 ustack[WHY_USTACK];
};

/* Per CPU and class of wait, what the late waits (those at or above their cell's threshold)
 * spent in each part: the why_counts map, a plain mmapable array, element
 * cpu * WHY_CLASSES + class, written only by that CPU's programs, one wait at a time. A
 * reader on another CPU sees a wait's fields change one at a time (each 8-byte field whole), so
 * a copy taken while a wait is added can hold part of it: seq is odd while one is, and moves on
 * with each, so a copy between two equal even readings of seq is whole (a seqcount). */
enum why_class { WHY_CLASS_WAKEUP = 0, WHY_CLASS_THREADED = 1, WHY_CLASS_TIMER = 2, WHY_CLASSES = 3 };
struct why_count {
	__u64 waits;		/* late waits explained */
	__u64 total_ns;		/* their total */
	__u64 part_ns[WHY_PARTS];
	__u64 seq;		/* 2 x waits added; odd while one is being added */
	/* Of waits, the late timers counted here and not sent one by one: those on a CPU idle
	 * at the expiry that woke no task, while the daemon does not log them (log-idle). The
	 * daemon takes unsent_max_ns (the longest since it last did) by swapping it for 0. */
	__u64 unsent;
	__u64 unsent_max_ns;
} __attribute__((aligned(64)));

/* Timer wake-ups (bpf/sched.bpf.c): a task that sched_waking saw woken from inside an hrtimer
 * callback gets the timer's expiry in wait_slots[pid % WAIT_SLOTS] and its pid's bit in the
 * wait_pids bitmap; its switch-in takes it. A direct-mapped array, not a hash: no update, no
 * lock on the stamp's path. Two tasks whose pids collide while both wait: the later stamp
 * wins, the earlier wake-up is not measured. The slot also caches the task's wake-up cell.
 * expires_ns is written last and cleared first, so a reader that sees it unchanged before and
 * after its reads has a whole stamp. */
#define WAIT_SLOTS 4096	/* a power of two */
struct wait_slot {
	__u32 pid;		/* whose stamp and cell this is */
	__u32 cell;		/* its wake-up cell index + 1, on cell_cpu */
	__u32 cell_cpu;		/* that cell's CPU + 1 */
	__u16 wake_cpu;		/* the CPU of the callback that woke it */
	__u16 flags;		/* WHY_F_IDLE_AT_EXPIRY, WHY_F_SOFT */
	__u64 expires_ns;	/* the timer's hard expiry, CLOCK_MONOTONIC: the wait's start; 0: none pending */
	__u64 start_ns;		/* the callback's start */
	struct why_snap snap;	/* wake_cpu's clocks at the callback's start */
} __attribute__((aligned(64)));

/* Threaded IRQs (bpf/threaded.bpf.c). A hard-IRQ handler that returns IRQ_WAKE_THREAD wakes
 * its irqaction's thread (irq/N-name); the hard-IRQ exit program stamps the time in the
 * thread's entry of the threaded_tasks hash (by pid), with that CPU's clocks for the
 * explanation, and sets its pid's bit in the threaded_pids filter, so that sched_switch leaves
 * every other task after one word of the filter. The entry also holds the handler's start
 * while the thread runs it. */
#define THREADED_TASKS 1024	/* IRQ threads tracked; more are not measured (drops: no_cell) */
#define THREADED_PID_WORDS 512	/* the filter: bit (pid & 32767); a false hit costs one hash lookup */
#define THREADED_CACHE 64	/* per CPU, cell slots by IRQ number & 63 */
struct threaded_task {
	__u64 action;		/* the irqaction whose thread this is */
	__u64 wake_ns;		/* the hard-IRQ exit that woke it, until it runs; 0: none pending */
	__u64 run_ns;		/* its handler's start (fentry), until the handler returns; 0: not in it */
	__u32 irq;
	__u16 wake_cpu;		/* the CPU of that hard-IRQ exit */
	__u16 _pad;
	__u64 snap_ns;		/* the wake_ns the snapshot is of: 0 while it is written */
	struct why_snap snap;	/* wake_cpu's clocks at the hard-IRQ exit */
};
struct threaded_cpu {
	__u32 wake_cell[THREADED_CACHE];	/* KIND_THREADED cell index + 1 */
	__u32 run_cell[THREADED_CACHE];		/* KIND_THREADED_RUN cell index + 1 */
} __attribute__((aligned(64)));

enum ringbuf_kind {
	RB_OUTLIER = 1,
	RB_TRACEPOINT = 2,
	RB_MODULE = 3,	/* bpf/modwatch.bpf.c */
	RB_WHY = 4,	/* struct why_event: an outlier's explanation */
	RB_TIMELINE = 5,	/* struct timeline_event: its CPU's flight recorder, right before the RB_WHY */
};

/* An outlier's timeline: the newest records of the flight recorder of the CPU its wait ended
 * on, sent just before its RB_WHY (same cell and ts_ns) by the same program, so the daemon has
 * it when the explanation comes. The ring is copied as two aligned blocks of TIMELINE_BLOCK
 * (the newest TIMELINE_BLOCK records always among them): two probe reads of constant size, no
 * loop for the verifier; the daemon picks the wait's window. 3 KiB a record. */
#define TIMELINE_BLOCK 64
#define TIMELINE_RECS (2 * TIMELINE_BLOCK)
struct timeline_event {
	__u32 type;		/* RB_TIMELINE */
	__u32 cell;		/* the outlier's cell */
	__u64 ts_ns;		/* the outlier's ts_ns: the wait's end */
	__u64 start_ns;		/* the wait's start (a timer's expiry, a hard-IRQ exit) */
	__u32 cpu;
	__u32 head;		/* flight_head at the copy: rec[] holds ring slots first .. first + TIMELINE_RECS - 1,
				 * first = the block before the head's, mod FLIGHT_EVENTS */
	struct flight_rec rec[TIMELINE_RECS];
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
			       * vector: the x86 vector number; timer: bits 0-31 the first task its
			       * callback woke (0: none), TIMER_AUX_IDLE, TIMER_AUX_SOFT; wakeup:
			       * the woken task's pid; threaded: the IRQ; nmi: the handler's
			       * "handled" count) */
};

/* outlier_event.aux of a late timer: the CPU was idle when its interrupt came (exit from idle),
 * it ran in softirq context */
#define TIMER_AUX_IDLE (1ULL << 32)
#define TIMER_AUX_SOFT (1ULL << 33)

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
