// SPDX-License-Identifier: GPL-2.0
/* The physical floor of the hard-IRQ benchmark (bench/run.sh): a pair that only reads the
 * clock at irq_handler_entry and at irq_handler_exit, with no map: nothing can time a handler
 * with less. Every contender is judged as a ratio to this pair, measured in the same run.
 * A second instance, attached first and not measured, takes the cold-cache cost that the
 * first program on a tracepoint pays (the "warm" pair). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(clock_entry, int irq, struct irqaction *action)
{
	volatile __u64 sink = bpf_ktime_get_ns();	/* the stack, not a map */

	(void)sink;
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(clock_exit, int irq, struct irqaction *action, int ret)
{
	volatile __u64 sink = bpf_ktime_get_ns();

	(void)sink;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
