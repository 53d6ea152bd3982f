// SPDX-License-Identifier: GPL-2.0
/* Threaded IRQs, per IRQ (irqaction) and CPU, into the shared cells (bpf/cell.bpf.h):
 * - wake-to-run: from the hard-IRQ exit whose handler returned IRQ_WAKE_THREAD (stamped by
 *   hardirq.bpf.c, threaded.bpf.h) to its irq/N-name thread being switched in (sched_switch);
 *   a thread that was still on a CPU when woken (genirq then runs the handler again without
 *   sleeping) is taken at its handler's start instead;
 * - run time: the thread handler, fentry to fexit of genirq's wrapper (irq_thread_fn, or
 *   irq_forced_thread_fn for handlers threaded by threadirqs or PREEMPT_RT): wall time, so a
 *   preemption of the thread is in it; or, where the kernel refuses those programs, the
 *   thread's on-CPU time instead: each interval from its switch-in to its switch-out
 *   (oncpu_run), into the same cells.
 * The cells of both are those of the CPU the thread runs on.
 *
 * sched_switch runs on every context switch: it reads one word of the pid filter (two, with
 * oncpu_run: prev's and next's) and leaves there for every task that is not a tracked IRQ
 * thread; only those look up their entry. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"
#include "threaded.bpf.h"

CPU_STATE(threaded_cpu, struct threaded_cpu)	/* bpf/cell.bpf.h */

/* What a new cell starts with (the daemon writes each cell's own); ~0 turns outliers off. */
volatile __u64 wake_threshold_ns = 500000;
volatile __u64 run_threshold_ns = 1000000;
/* Set by the loader when the run time is the thread's on-CPU time (no fentry programs): in
 * .rodata, so with it off the verifier drops the switch-out code and prev is not even read */
const volatile bool oncpu_run = false;

/* Cold path: an IRQ's first wake-to-run on this CPU, named by its irqaction */
static __noinline int threaded_wake_miss(__u64 action, __u32 irq)
{
	return cell_miss(KIND_THREADED, action, irq, BPF_CORE_READ((struct irqaction *)action, name),
			 wake_threshold_ns);
}

/* ... and its first run there, named by the thread's comm (irq/24-virtio0) */
static __noinline int threaded_run_miss(__u64 action, __u32 irq, const char *comm)
{
	return cell_miss(KIND_THREADED_RUN, action, irq, comm, run_threshold_ns);
}

static __always_inline void record_wake(struct threaded_task *t, __u64 now, __u64 woken)
{
	struct threaded_cpu *st = threaded_cpu_this();
	__u32 irq = t->irq, *slot;
	struct lat_cell *c;
	__u64 d = now - woken;

	if (!st || woken > now)
		return;
	slot = &st->wake_cell[irq & (THREADED_CACHE - 1)];
	c = cell_cached(slot, t->action, irq);
	if (!c)
		c = cell_fill(slot, threaded_wake_miss(t->action, irq));
	if (!c)
		return;
	cell_record(c, d);
	if (d >= c->threshold_ns)
		outlier_emit(*slot - 1, now, d, irq);
}

/* next is switched in: a pending wake ends here; with oncpu_run, its on-CPU interval starts.
 * now: the switch-out's clock read, 0 when there was none. */
static __always_inline void on_switch(struct task_struct *next, __u32 pid, __u64 now)
{
	__u64 woken;
	struct threaded_task *t;

	if (!threaded_pid_tracked(pid))	/* every other task leaves here */
		return;
	t = bpf_map_lookup_elem(&threaded_tasks, &pid);
	if (!t)
		return;
	if (oncpu_run) {
		/* a pid whose IRQ thread exited keeps its bit and entry: a task that reuses it is
		 * not that irqaction's thread, and its on-CPU time is not the IRQ's */
		struct irqaction *action = (struct irqaction *)t->action;	/* not CO-RE: our own struct */

		if (BPF_CORE_READ(action, thread) != next)
			return;
		if (!now)
			now = bpf_ktime_get_ns();
		t->run_ns = now;	/* its on-CPU interval starts */
	}
	if (!t->wake_ns)
		return;
	if (!now)
		now = bpf_ktime_get_ns();
	woken = __sync_lock_test_and_set(&t->wake_ns, 0);	/* a wake stamped meanwhile is not lost */
	if (woken)
		record_wake(t, now, woken);
}

/* The thread starts its handler: a wake that no switch took (it was on a CPU) ends here */
static __always_inline void on_handler(struct irqaction *action)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	struct threaded_task *t;
	__u64 woken;

	t = threaded_task_of(pid, (__u64)action, BPF_CORE_READ(action, irq));
	if (!t)
		return;
	if (t->wake_ns) {
		woken = __sync_lock_test_and_set(&t->wake_ns, 0);
		if (woken)
			record_wake(t, now, woken);
	}
	t->run_ns = bpf_ktime_get_ns();	/* last, so our own work is not measured */
}

/* A run of the thread, d ns ending at now: the thread handler's (fexit) or an on-CPU interval */
static __always_inline void record_run(struct threaded_task *t, __u64 now, __u64 d, const char *comm)
{
	struct threaded_cpu *st = threaded_cpu_this();
	__u32 irq = t->irq, *slot;
	struct lat_cell *c;

	if (!st)
		return;
	slot = &st->run_cell[irq & (THREADED_CACHE - 1)];
	c = cell_cached(slot, t->action, irq);
	if (!c)
		c = cell_fill(slot, threaded_run_miss(t->action, irq, comm));
	if (!c)
		return;
	cell_record(c, d);
	if (d >= c->threshold_ns)
		outlier_emit(*slot - 1, now, d, irq);
}

static __always_inline void on_handler_exit(void)
{
	__u64 now = bpf_ktime_get_ns();	/* first, so our own work is not measured */
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	struct threaded_task *t = bpf_map_lookup_elem(&threaded_tasks, &pid);
	struct task_struct *me;
	__u64 start;

	if (!t || !t->run_ns)
		return;
	start = t->run_ns;
	t->run_ns = 0;
	me = bpf_get_current_task_btf();
	record_run(t, now, now - start, me->comm);
}

/* task_struct's state before Linux 5.14 renamed it __state */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

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

/* oncpu_run: a tracked thread leaves the CPU; its switch-in stamp (run_ns) ends here. The
 * comm is only read by the cold path that names a new cell. */
static __always_inline void on_switch_out(__u32 pid, bool preempt, struct task_struct *prev, const char *comm,
					  __u64 *now)
{
	struct threaded_task *t;
	__u64 start;

	if (!threaded_pid_tracked(pid))	/* every other task leaves here */
		return;
	t = bpf_map_lookup_elem(&threaded_tasks, &pid);
	if (!t)
		return;
	/* Without fentry no handler start takes a wake that genirq served by running the handler
	 * again while the thread was on the CPU: its stamp would wait for the thread's next
	 * switch-in, after it slept, and give a wait that never was (tens of ms where the real
	 * one was 0.1). A thread that goes to sleep for its IRQ has served every wake stamped so
	 * far; the one exception, a wake stamped on another CPU between the thread's last look
	 * and this switch, is lost rather than measured wrong. */
	if (t->wake_ns && sleeps_for_irq(preempt, prev))
		t->wake_ns = 0;
	if (!t->run_ns)
		return;
	*now = bpf_ktime_get_ns();
	start = t->run_ns;
	t->run_ns = 0;
	if (start <= *now)
		record_run(t, *now, *now - start, comm);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(threaded_switch_btf, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = 0;

	if (oncpu_run)
		on_switch_out(prev->pid, preempt, prev, prev->comm, &now);
	on_switch(next, next->pid, now);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(threaded_switch_raw, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = 0;

	if (oncpu_run)
		on_switch_out(BPF_CORE_READ(prev, pid), preempt, prev, prev->comm, &now);
	on_switch(next, BPF_CORE_READ(next, pid), now);
	return 0;
}

SEC("fentry/irq_thread_fn")
int BPF_PROG(threaded_fn_entry, struct irq_desc *desc, struct irqaction *action)
{
	on_handler(action);
	return 0;
}

SEC("fexit/irq_thread_fn")
int BPF_PROG(threaded_fn_exit, struct irq_desc *desc, struct irqaction *action)
{
	on_handler_exit();
	return 0;
}

SEC("fentry/irq_forced_thread_fn")
int BPF_PROG(threaded_forced_fn_entry, struct irq_desc *desc, struct irqaction *action)
{
	on_handler(action);
	return 0;
}

SEC("fexit/irq_forced_thread_fn")
int BPF_PROG(threaded_forced_fn_exit, struct irq_desc *desc, struct irqaction *action)
{
	on_handler_exit();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
