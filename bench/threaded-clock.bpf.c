// SPDX-License-Identifier: GPL-2.0
/* The floor of the threaded IRQ benchmark (bench/kinds.sh): a program on sched_switch that
 * only reads the clock, with no map. bpf/threaded.bpf.c's sched_switch program is judged
 * against it: on a machine without threaded IRQs (this project's host) it reads one word of
 * its pid filter and leaves, and never reads the clock, so it may cost less than this. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("tp_btf/sched_switch")
int BPF_PROG(clock_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	volatile __u64 sink = bpf_ktime_get_ns();	/* the stack, not a map */

	(void)sink;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
