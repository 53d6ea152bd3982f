// SPDX-License-Identifier: GPL-2.0
/* The physical floor of the timer and scheduler benchmarks (bench/kinds.sh): programs on
 * timer:hrtimer_expire_entry and _exit, sched:sched_switch and sched:sched_waking that only
 * read the clock, with no map: nothing can time a timer's lateness, a task's wake-up or its
 * switch with less. bpf/timer.bpf.c and bpf/sched.bpf.c are judged against it, each program
 * against its twin here. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(clock_timer, struct hrtimer *timer, ktime_t *now)
{
	volatile __u64 sink = bpf_ktime_get_ns();	/* the stack, not a map */

	(void)sink;
	return 0;
}

SEC("tp_btf/hrtimer_expire_exit")
int BPF_PROG(clock_timer_exit, struct hrtimer *timer)
{
	volatile __u64 sink = bpf_ktime_get_ns();

	(void)sink;
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(clock_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	volatile __u64 sink = bpf_ktime_get_ns();

	(void)sink;
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(clock_waking, struct task_struct *p)
{
	volatile __u64 sink = bpf_ktime_get_ns();

	(void)sink;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
