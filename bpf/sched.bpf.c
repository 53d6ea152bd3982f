// SPDX-License-Identifier: GPL-2.0
/* The scheduler's tracepoints, for every kind whose wait ends when a task runs, in one
 * program each: on every context switch one program runs, not one per kind.
 *
 * sched:sched_switch, on every switch:
 * - the CPU's task clocks (struct cpu_clock, line B): the switched-out task's time since its
 *   switch-in, net of the interrupts meanwhile, into the idle task's or the other tasks'
 *   clock; the switch's time and the interrupt clocks at it; the task switched in. A softirq
 *   its task is switched out of (PREEMPT_RT) is paused until that task comes back, so that the
 *   time of the tasks between is not the softirq's (bpf/clock.bpf.h);
 * - wake-ups (KIND_WAKEUP, KIND_WAKEUP_CPU; wakeups_on): a task switched in with a pending
 *   timer stamp waited from the timer's expiry to now;
 * - threaded IRQs (KIND_THREADED; threaded_on): an IRQ thread switched in with a pending wake
 *   waited from the hard-IRQ exit that woke it; a thread that goes to sleep for its IRQ has
 *   served every wake stamped so far, and the rest (oncpu_run, where the kernel refuses
 *   fentry on the thread wrappers) its on-CPU time (KIND_THREADED_RUN);
 * - for each of those waits at or above its threshold, the explanation (bpf/why.bpf.h).
 * Every task that nobody stamped leaves after one word of each pid filter it is checked
 * against, and the clock read that the task clocks need anyway.
 *
 * sched:sched_waking (wakeups_on): a task woken while an hrtimer callback runs on this CPU
 * (struct cpu_clock, line C, set and cleared by bpf/timer.bpf.c) is stamped with the timer's
 * expiry, the callback's start and the CPU's clocks then, in wait_slots (by pid, direct
 * mapped: no hash) and the wait_pids filter. Any timer: hrtimer_wakeup's sleepers, timerfd
 * and POSIX timers' waiters, rtla's timerlat thread. Every other wake-up leaves after one
 * line of this CPU's clocks, without reading the clock. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
#include "clock.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"
#include "why.bpf.h"
#include "threaded.bpf.h"

/* Set by the loader before load; off, the verifier drops the code */
const volatile bool wakeups_on = false;		/* wake-ups: sched_waking and its stamps */
const volatile bool threaded_on = false;	/* threaded IRQs' wake-to-run */
const volatile bool oncpu_run = false;		/* threaded IRQs' run time from on-CPU intervals */
const volatile __u32 max_wakeup_cells = 1024;

/* What a new cell starts with (the daemon writes each cell's own); ~0 turns outliers off. */
volatile __u64 wakeup_threshold_ns = 500000;
volatile __u64 threaded_wake_threshold_ns = 500000;
volatile __u64 threaded_run_threshold_ns = 1000000;

/* Wake-up cells that tasks of their own hold (the rest share pid 0): the cold path adds one
 * for each it hands out, the daemon takes off those it gave back to wakeup_free. */
__u32 wakeup_cells;

/* pid % WAIT_SLOTS -> struct wait_slot (irqlat_abi.h) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct wait_slot);
	__uint(max_entries, WAIT_SLOTS);
} wait_slots SEC(".maps");

/* Bit pid set while the task has a stamp pending: word pid / 64, one per 64 pids below the
 * pid_max the loader read (4194304 pids: 512 KiB). A pid past it (pid_max raised after the
 * start) has no word, and its slot is read at each of its switch-ins. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);	/* the loader sets it */
} wait_pids SEC(".maps");

/* Wake-up cells the daemon took back from tasks that exited, cleared (src/daemon/collect/wakeup_reclaim.c):
 * the next task of its own takes one of these before a new cell from the pool, so the pool
 * holds no more wake-up cells than the bound. Popped on the cold path only. */
struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__type(value, __u32);
	__uint(max_entries, 1);	/* max_wakeup_cells, set by the loader */
} wakeup_free SEC(".maps");

/* Where a switch-in's wait ends, built here rather than on the stack: the explanation's frames
 * are deep, and the verifier allows 512 bytes of stack in all. sched_switch runs with
 * interrupts off, so nothing else on the CPU uses it meanwhile. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct why_work);
	__uint(max_entries, 1);
} why_work_cpu SEC(".maps");

static __always_inline __u64 *pid_word(__u32 pid)
{
	__u32 w = pid >> 6;

	return bpf_map_lookup_elem(&wait_pids, &w);
}

/* Cold path: a task's first wake-up on this CPU. Past max_wakeup_cells cells of tasks of
 * their own, a task's wake-ups go to the shared cell of pid 0 on the CPU ("(other)"). A cell
 * given back by the daemon is taken before a new one. wakeup_cells counts exactly the cells
 * held: an increment that finds the bound reached, or no cell, is taken back, since the
 * daemon subtracts only what it gave back. */
static __noinline int wakeup_miss(__u32 pid, __u64 task)
{
	struct cell_key key = { .id = pid, .sub = pid, .cpu = (__u16)bpf_get_smp_processor_id(),
				.kind = KIND_WAKEUP };
	/* the task's comm, read once into the cell's name (a kernel address: probe-read there) */
	const char *comm = (const char *)task + bpf_core_field_offset(struct task_struct, comm);
	__u32 *found = bpf_map_lookup_elem(&cell_index, &key), idx;
	int r;

	if (found)
		return (int)*found;
	if (wakeup_cells >= max_wakeup_cells)
		return cell_miss(KIND_WAKEUP, 0, 0, NULL, wakeup_threshold_ns);
	if (__sync_fetch_and_add(&wakeup_cells, 1) >= max_wakeup_cells) {
		__sync_fetch_and_sub(&wakeup_cells, 1);
		return cell_miss(KIND_WAKEUP, 0, 0, NULL, wakeup_threshold_ns);
	}
	if (bpf_map_pop_elem(&wakeup_free, &idx) == 0 && cell_take(idx, &key, comm, wakeup_threshold_ns) == 0)
		return (int)idx;
	r = cell_miss(KIND_WAKEUP, pid, pid, comm, wakeup_threshold_ns);
	if (r >= 0)
		return r;
	__sync_fetch_and_sub(&wakeup_cells, 1);	/* the pool is used up: counted in drops */
	return cell_miss(KIND_WAKEUP, 0, 0, NULL, wakeup_threshold_ns);
}

/* Cold path: the first wake-up measured on this CPU, for its all-tasks cell (no outliers: the
 * task's own cell has them) */
static __noinline int wakeup_cpu_miss(__u32 cpu)
{
	return cell_miss(KIND_WAKEUP_CPU, cpu, cpu, NULL, ~0ULL);
}

/* pid is switched in with its bit set: its stamp, if the slot still holds a whole one of its
 * own, ends now. wk->in: where the wait ended (end, waiter, blocker). The rare paths of
 * sched_switch are global functions: the verifier checks each once, not once for every way
 * through the program to it (Linux 6.1's gave up on the program otherwise, too complex). */
__noinline int wakeup_end(struct cpu_clock *k, __u32 pid, struct why_work *wk)
{
	struct why_in *in;
	struct wait_slot *ws;
	__u32 key = pid & (WAIT_SLOTS - 1), cpu = bpf_get_smp_processor_id();
	__u64 e1, e2, now, v, *w = pid_word(pid);
	struct lat_cell *c = NULL;

	if (!k || !wk)
		return 0;
	in = &wk->in;
	now = in->end_ns;
	if (w)
		__sync_fetch_and_and(w, ~(1ull << (pid & 63)));
	ws = bpf_map_lookup_elem(&wait_slots, &key);
	if (!ws)
		return 0;
	e1 = ws->expires_ns;
	if (!e1 || ws->pid != pid)
		return 0;
	asm volatile("" ::: "memory");
	in->cb_ns = ws->start_ns;
	in->from = ws->snap;
	in->wake_cpu = ws->wake_cpu;
	in->flags |= ws->flags;
	asm volatile("" ::: "memory");
	e2 = ws->expires_ns;
	if (e1 != e2 || ws->pid != pid || __sync_val_compare_and_swap(&ws->expires_ns, e1, 0) != e1)
		return 0;	/* another task's stamp took the slot meanwhile */
	v = now > e1 ? now - e1 : 0;
	if (ws->cell_cpu == cpu + 1) {
		c = cell_cached(&ws->cell, pid, pid);
		/* past the bound: the shared cell, unless the daemon has given cells back since
		 * (the .bss line is read only by the wake-ups of tasks in "(other)") */
		if (!c && (c = cell_cached(&ws->cell, 0, 0)) && wakeup_cells < max_wakeup_cells)
			c = NULL;
	}
	if (!c) {
		ws->cell_cpu = cpu + 1;
		c = cell_fill(&ws->cell, wakeup_miss(pid, in->waiter));
	}
	if (c) {
		cell_record(c, v);
		if (v >= c->threshold_ns) {
			outlier_emit(ws->cell - 1, now, v, pid);
			in->start_ns = e1;
			in->cell = ws->cell - 1;
			in->cls = WHY_CLASS_WAKEUP;
			why_wait(k, wk);
		}
	}
	/* and the CPU's, every task together */
	c = cell_cached(&k->wake_cell, cpu, cpu);
	if (!c)
		c = cell_fill(&k->wake_cell, wakeup_cpu_miss(cpu));
	if (c)
		cell_record(c, v);
	return 0;
}

/* The wait of a task woken while it ran on this CPU (k->oncpu_pid) ended at its wake
 * (k->oncpu_ns): it ran on from there. wk->in.waiter: the task. Called at the CPU's next
 * switch (the task leaves the CPU, not runnable) or at its next such wake (it ran on through
 * its next cycle without a switch). */
static __always_inline void wakeup_ran_on(struct cpu_clock *k, struct why_work *wk, __u32 pid)
{
	struct why_in *in = &wk->in;
	__u64 waiter = in->waiter;

	__builtin_memset(in, 0, sizeof(*in));
	in->end_ns = k->oncpu_ns;
	in->waiter = waiter;
	in->pid = pid;
	in->flags = WHY_F_RAN_ON;
	wakeup_end(k, pid, wk);
}

/* Where sched_waking resolves an earlier on-CPU wake: not why_work_cpu, which sched_switch
 * uses with interrupts off, but a waking callback can run inside another's softirq */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct why_work);
	__uint(max_entries, 1);
} why_work_waking SEC(".maps");

/* task_struct's state before Linux 5.14 renamed it __state */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

#define TASK_RUNNING 0x0
#define TASK_INTERRUPTIBLE 0x1

/* Whether prev, switched out by itself (not preempted), sleeps interruptibly: an IRQ thread
 * does so only in genirq's irq_wait_for_interrupt(), having found no wake to serve; a lock
 * or a mutex in its handler sleeps otherwise (uninterruptible, or rtlock on PREEMPT_RT). */
static __always_inline bool sleeps_for_irq(bool preempt, struct task_struct *prev)
{
	struct task_struct___pre514 *old = (void *)prev;
	unsigned long state;

	if (preempt)
		return false;
	if (bpf_core_field_exists(prev->__state))
		state = BPF_CORE_READ(prev, __state);
	else
		state = BPF_CORE_READ(old, state);
	return state == TASK_INTERRUPTIBLE;
}

/* The CPU's first switch after a wake of the task it ran (k->oncpu_pid): that task leaves
 * runnable (preempted at the interrupt's end, or yielding in its own schedule() to a task
 * of higher priority the interrupt woke), and its switch-in ends its wait as any stamp's; or
 * it leaves not runnable, having run on from the wake, where its wait ended. wk->in.waiter:
 * prev. */
__noinline int oncpu_switch(struct cpu_clock *k, struct why_work *wk, __u32 prev_pid, __u32 preempt)
{
	struct task_struct___pre514 *old;
	struct task_struct *prev;
	unsigned long state;
	__u32 pid;

	if (!k || !wk)
		return 0;
	pid = k->oncpu_pid;
	k->oncpu_pid = 0;
	prev = (struct task_struct *)wk->in.waiter;
	old = (void *)prev;
	if (bpf_core_field_exists(prev->__state))
		state = BPF_CORE_READ(prev, __state);
	else
		state = BPF_CORE_READ(old, state);
	if (pid == prev_pid && (preempt || state == TASK_RUNNING))
		return 0;
	if (pid != prev_pid)	/* a switch the programs missed: not the task, and the wait ends */
		wk->in.waiter = 0;
	wakeup_ran_on(k, wk, pid);
	return 0;
}

/* A tracked IRQ thread leaves the CPU. Going to sleep for its IRQ, it has served every wake
 * stamped so far: a stamp still pending is one that no switch-in or handler start took (the
 * thread ran the handler again without sleeping, and no fentry saw it), and kept, it would
 * give a wait that never was at the thread's next switch-in, however much later. The one
 * exception, a wake stamped on another CPU between the thread's last look and this switch, is
 * lost rather than measured wrong. With oncpu_run, its on-CPU interval (from its switch-in
 * stamp, run_ns) ends here. */
static __noinline int threaded_switch_out(__u32 pid, bool preempt, struct task_struct *prev, __u64 now)
{
	struct threaded_task *t = bpf_map_lookup_elem(&threaded_tasks, &pid);
	char comm[TASK_COMM_LEN_ABI];
	__u64 start;

	if (!t)
		return 0;
	if (t->wake_ns && sleeps_for_irq(preempt, prev))
		t->wake_ns = 0;
	if (!oncpu_run || !t->run_ns)
		return 0;
	start = t->run_ns;
	t->run_ns = 0;
	BPF_CORE_READ_STR_INTO(&comm, prev, comm);
	if (start <= now)
		threaded_record_run(t, now, now - start, comm, threaded_run_threshold_ns);
	return 0;
}

/* A tracked IRQ thread is switched in (wk->in.waiter): a pending wake ends here; with oncpu_run,
 * its on-CPU interval starts. The task pointers reach global functions through wk, a map
 * value: Linux 6.1's verifier takes no kernel pointer as a global function's argument. */
__noinline int threaded_switch_in(struct cpu_clock *k, __u32 pid, struct why_work *wk)
{
	struct threaded_task *t = bpf_map_lookup_elem(&threaded_tasks, &pid);
	struct why_in *in;

	if (!t || !k || !wk)
		return 0;
	in = &wk->in;
	if (oncpu_run) {
		/* a pid whose IRQ thread exited keeps its bit and entry: a task that reuses it is
		 * not that irqaction's thread, and its on-CPU time is not the IRQ's */
		struct irqaction *action = (struct irqaction *)t->action;	/* not CO-RE: our own struct */

		if ((__u64)BPF_CORE_READ(action, thread) != in->waiter)
			return 0;
		t->run_ns = in->end_ns;	/* its on-CPU interval starts */
	}
	if (t->wake_ns)
		threaded_take(t, k, wk, threaded_wake_threshold_ns);
	return 0;
}

static __always_inline void on_switch(bool preempt, struct task_struct *prev, struct task_struct *next, __u32 prev_pid,
				      __u32 next_pid, __u32 prev_prio, __u32 next_prio)
{
	__u64 now = bpf_ktime_get_ns();
	struct cpu_clock *k = clock_cpu_this();
	__u64 intr, prev_in = 0, prev_net = 0, *w = NULL;
	bool stamped = false;
	__u16 s;

	if (!k)
		return;
	flight_add(k, now, FL_SWITCH, prev_pid, next_pid, prev_prio << 16 | (next_prio & 0xffff));
	/* the task clocks */
	if (!CLOCKS_KEPT)
		goto waits;
	intr = clock_intr(k, now);
	s = k->softirq;
	if (s && !(s & CLOCK_PAUSED)) {	/* PREEMPT_RT: prev leaves inside its softirq */
		k->softirq = s | CLOCK_PAUSED;
		k->softirq_owner = prev_pid;
		k->softirq_nested_ns -= (__u32)now;
	} else if ((s & CLOCK_PAUSED) && next_pid == k->softirq_owner) {
		k->softirq = s & ~CLOCK_PAUSED;
		k->softirq_nested_ns += (__u32)now;
	}
	prev_in = k->switch_ns;
	if (prev_in) {
		__u64 ran = now - prev_in, di = intr - k->switch_intr_ns;

		prev_net = ran > di ? ran - di : 0;
		if (prev_pid)
			k->task_ns += prev_net;
		else
			k->idle_ns += prev_net;
	}
	k->switch_ns = now;
	k->switch_intr_ns = intr;
	k->curr_pid = next_pid;
	if (next_pid)
		k->switches++;

waits:	/* the waits: one word of each filter for every task nobody stamped */
	if (wakeups_on && k->oncpu_pid) {
		__u32 zero = 0;
		struct why_work *wk = bpf_map_lookup_elem(&why_work_cpu, &zero);

		if (wk) {
			wk->scan = WHY_SCAN_SWITCH;
			wk->in.waiter = (__u64)prev;
			oncpu_switch(k, wk, prev_pid, preempt);
		}
	}
	if (threaded_on && threaded_pid_tracked(prev_pid))
		threaded_switch_out(prev_pid, preempt, prev, now);
	if (wakeups_on) {
		w = pid_word(next_pid);
		stamped = !w || ((*w >> (next_pid & 63)) & 1);
	}
	if (stamped || (threaded_on && threaded_pid_tracked(next_pid))) {
		__u32 zero = 0;
		struct why_work *wk = bpf_map_lookup_elem(&why_work_cpu, &zero);
		struct why_in *in;

		if (!wk)
			return;
		wk->scan = WHY_SCAN_SWITCH;
		in = &wk->in;
		__builtin_memset(in, 0, sizeof(*in));
		in->end_ns = now;
		in->waiter = (__u64)next;
		in->blocker = (__u64)prev;
		in->blocker_in_ns = prev_in;
		in->blocker_net_ns = prev_net;
		in->pid = next_pid;
		in->switched = next_pid != 0;
		if (stamped)
			wakeup_end(k, next_pid, wk);
		if (threaded_on && threaded_pid_tracked(next_pid)) {
			__builtin_memset(&in->from, 0, sizeof(in->from));
			in->flags = 0;
			threaded_switch_in(k, next_pid, wk);
		}
	}
}

/* A task woken inside an hrtimer callback (hard-IRQ context, or the HRTIMER softirq with no
 * hard-IRQ context on top of it, not paused) is stamped, unless it is on another CPU (still
 * switching out there: no switch-in follows, and a stamp would wait for its next one, however
 * much later). The task the callback interrupted, running here between setting its sleep
 * state and sleeping, is stamped too, and the CPU's next switch decides (k->oncpu_pid): it
 * left runnable (preempted at the interrupt's end), and its switch-in ends the wait; or it ran
 * on, and the wait ended at the wake. rtla's timerlat thread is such a task whenever its timer
 * fires before it has slept, and its latency then is the timer's lateness, or a preemption's.
 * The first task woken is the callback's too, for its lateness outlier. */
static __noinline int waking_stamp(struct cpu_clock *k, struct task_struct *p)
{
	struct timer_slot *ts;
	struct wait_slot *ws;
	__u32 pid, key, flags = 0, oncpu = 0;
	__u64 *w;

	if (!k)
		return 0;
	if (k->slot[TIMER_HARD].expires_ns) {
		ts = &k->slot[TIMER_HARD];
	} else if (!k->hard && !(k->softirq & CLOCK_PAUSED)) {
		ts = &k->slot[TIMER_SOFT];
		flags = WHY_F_SOFT;
	} else {
		return 0;
	}
	pid = BPF_CORE_READ(p, pid);
	if (!pid)
		return 0;
	if (!ts->woke)
		ts->woke = pid;
	if (BPF_CORE_READ(p, on_cpu)) {
		__u32 zero = 0;
		struct why_work *wk;

		if (pid != k->curr_pid)
			return 0;
		/* it ran on through a cycle since its last such wake, which ended then */
		if (k->oncpu_pid == pid && (wk = bpf_map_lookup_elem(&why_work_waking, &zero))) {
			wk->scan = WHY_SCAN_WAKING;
			wk->in.waiter = (__u64)p;
			wakeup_ran_on(k, wk, pid);
		}
		oncpu = pid;
	}
	if ((__u32)bpf_get_current_pid_tgid() == 0)
		flags |= WHY_F_IDLE_AT_EXPIRY;
	key = pid & (WAIT_SLOTS - 1);
	ws = bpf_map_lookup_elem(&wait_slots, &key);
	if (!ws)
		return 0;
	ws->expires_ns = 0;	/* a reader that sees it unchanged across its reads has a whole stamp */
	asm volatile("" ::: "memory");
	if (ws->pid != pid) {	/* another task's slot: its cell cache is not ours */
		ws->pid = pid;
		ws->cell = 0;
		ws->cell_cpu = 0;
	}
	ws->wake_cpu = bpf_get_smp_processor_id();
	ws->flags = flags;
	ws->start_ns = ts->start_ns;
	why_snapshot(k, ts->start_ns, &ws->snap);
	asm volatile("" ::: "memory");
	ws->expires_ns = ts->expires_ns;
	/* at the callback's start: the waking tracepoint's own time would take a clock read */
	flight_add(k, ts->start_ns, FL_WAKE, pid, 0, flags & WHY_F_SOFT ? 1 : 0);
	w = pid_word(pid);
	if (w)
		__sync_fetch_and_or(w, 1ull << (pid & 63));
	if (oncpu) {
		k->oncpu_ns = bpf_ktime_get_ns();
		k->oncpu_pid = oncpu;
	}
	return 0;
}

static __always_inline void on_waking(struct task_struct *p)
{
	struct cpu_clock *k = clock_cpu_this();

	if (k && (k->slot[TIMER_HARD].expires_ns | k->slot[TIMER_SOFT].expires_ns))
		waking_stamp(k, p);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch_btf, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	on_switch(preempt, prev, next, prev->pid, next->pid, prev->prio, next->prio);
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(sched_waking_btf, struct task_struct *p)
{
	if (wakeups_on)
		on_waking(p);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(sched_switch_raw, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	/* the prios for the flight recorder: two probe reads more, on this fallback for kernels
	 * without tp_btf only */
	on_switch(preempt, prev, next, BPF_CORE_READ(prev, pid), BPF_CORE_READ(next, pid), BPF_CORE_READ(prev, prio),
		  BPF_CORE_READ(next, prio));
	return 0;
}

SEC("raw_tp/sched_waking")
int BPF_PROG(sched_waking_raw, struct task_struct *p)
{
	if (wakeups_on)
		on_waking(p);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
