// SPDX-License-Identifier: GPL-2.0
/* Threaded IRQs, per IRQ (irqaction) and CPU, into the shared cells (bpf/cell.bpf.h): the
 * thread handler's run time, fentry to fexit of genirq's wrapper (irq_thread_fn, or
 * irq_forced_thread_fn for handlers threaded by threadirqs or PREEMPT_RT): wall time, so a
 * preemption of the thread is in it; and the wake-to-run of a thread that was still on its CPU
 * when woken (genirq then runs the handler again without sleeping), which ends at the
 * handler's start. The rest is sched.bpf.c's: the wake-to-run that ends at the thread's
 * switch-in, and the thread's on-CPU time where the kernel refuses these programs
 * (threaded.bpf.h has what they share). The cells of both are those of the CPU the thread runs
 * on. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
#include "clock.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"
#include "threaded.bpf.h"

/* What a new cell starts with (the daemon writes each cell's own); ~0 turns outliers off. */
volatile __u64 wake_threshold_ns = 500000;
volatile __u64 run_threshold_ns = 1000000;

/* Where a wait that ends at the handler's start is described and explained (struct why_work,
 * bpf/why.bpf.h), rather than on the stack. Per CPU: the program runs with migration off; on
 * PREEMPT_RT, where it can be preempted, another IRQ thread's handler start on this CPU
 * between the fill and the explanation would lend it its own fields. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct why_work);
	__uint(max_entries, 1);
} why_work_thread SEC(".maps");

/* The thread starts its handler: a wake that no switch took (it was on a CPU) ends here, the
 * thread itself the task it waited behind */
static __always_inline void on_handler(struct irqaction *action)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 pid = (__u32)bpf_get_current_pid_tgid(), zero = 0;
	struct cpu_clock *k = clock_cpu_this();
	struct threaded_task *t;
	struct why_work *w;

	t = threaded_task_of(pid, (__u64)action, BPF_CORE_READ(action, irq));
	if (!t)
		return;
	if (t->wake_ns && k && (w = bpf_map_lookup_elem(&why_work_thread, &zero))) {
		struct why_in *in = &w->in;
		__u64 me = bpf_get_current_task(), intr = clock_intr(k, now), ran = now - k->switch_ns;

		__builtin_memset(in, 0, sizeof(*in));
		w->scan = WHY_SCAN_THREAD;
		in->end_ns = now;
		in->waiter = in->blocker = me;
		in->blocker_in_ns = k->switch_ns;
		in->blocker_net_ns = ran > intr - k->switch_intr_ns ? ran - (intr - k->switch_intr_ns) : 0;
		in->pid = pid;
		in->flags = WHY_F_ON_CPU;
		threaded_take(t, k, w, wake_threshold_ns);
	}
	t->run_ns = bpf_ktime_get_ns();	/* last, so our own work is not measured */
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
	threaded_record_run(t, now, now - start, me->comm, run_threshold_ns);
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
