// SPDX-License-Identifier: GPL-2.0
/* Threaded IRQs, per IRQ (irqaction) and CPU, into the shared cells (bpf/cell.bpf.h):
 * - wake-to-run: from the hard-IRQ exit whose handler returned IRQ_WAKE_THREAD (stamped by
 *   hardirq.bpf.c, threaded.bpf.h) to its irq/N-name thread being switched in (sched_switch);
 *   a thread that was still on a CPU when woken (genirq then runs the handler again without
 *   sleeping) is taken at its handler's start instead;
 * - run time: the thread handler, fentry to fexit of genirq's wrapper (irq_thread_fn, or
 *   irq_forced_thread_fn for handlers threaded by threadirqs or PREEMPT_RT): wall time, so a
 *   preemption of the thread is in it.
 * The cells of both are those of the CPU the thread runs on.
 *
 * sched_switch runs on every context switch: it reads one word of the pid filter and leaves
 * there for every task that is not a tracked IRQ thread; only those look up their entry. */
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

static __always_inline void on_switch(__u32 pid)
{
	__u64 now, woken;
	struct threaded_task *t;

	if (!threaded_pid_tracked(pid))	/* every other task leaves here */
		return;
	t = bpf_map_lookup_elem(&threaded_tasks, &pid);
	if (!t || !t->wake_ns)
		return;
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

static __always_inline void on_handler_exit(void)
{
	__u64 now = bpf_ktime_get_ns();	/* first, so our own work is not measured */
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	struct threaded_task *t = bpf_map_lookup_elem(&threaded_tasks, &pid);
	struct threaded_cpu *st = threaded_cpu_this();
	struct task_struct *me;
	struct lat_cell *c;
	__u32 irq, *slot;
	__u64 d;

	if (!t || !t->run_ns || !st)
		return;
	d = now - t->run_ns;
	t->run_ns = 0;
	irq = t->irq;
	slot = &st->run_cell[irq & (THREADED_CACHE - 1)];
	c = cell_cached(slot, t->action, irq);
	if (!c) {
		me = bpf_get_current_task_btf();
		c = cell_fill(slot, threaded_run_miss(t->action, irq, me->comm));
	}
	if (!c)
		return;
	cell_record(c, d);
	if (d >= c->threshold_ns)
		outlier_emit(*slot - 1, now, d, irq);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(threaded_switch_btf, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	on_switch(next->pid);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(threaded_switch_raw, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	on_switch(BPF_CORE_READ(next, pid));
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
