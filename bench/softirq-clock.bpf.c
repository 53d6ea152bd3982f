// SPDX-License-Identifier: GPL-2.0
/* The physical floor of the softirq benchmark (bench/run.sh): programs on softirq_raise,
 * softirq_entry and softirq_exit that only read the clock, with no map: nothing can time a
 * softirq's run and its raise latency with less. bpf/softirq.bpf.c is judged against it. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("tp_btf/softirq_raise")
int BPF_PROG(clock_raise, unsigned int vec)
{
	volatile __u64 sink = bpf_ktime_get_ns();	/* the stack, not a map */

	(void)sink;
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(clock_entry, unsigned int vec)
{
	volatile __u64 sink = bpf_ktime_get_ns();

	(void)sink;
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(clock_exit, unsigned int vec)
{
	volatile __u64 sink = bpf_ktime_get_ns();

	(void)sink;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
