// SPDX-License-Identifier: GPL-2.0
/* The per-CPU-lookup floor of the hard-IRQ benchmark (bench/run.sh): the least a pair can do
 * to time a handler and keep the result, i.e. the clock at irq_handler_entry into a per-CPU
 * slot, and at irq_handler_exit the difference added to the same slot. It was the floor before
 * issue 9; bench/clock.bpf.c, the same without the map, is the physical one. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* Hard-IRQ handlers do not nest on a CPU, so one per-CPU slot holds the entry time. */
struct floor_state {
	__u64 start_ns;
	__u64 sum_ns;	/* the deltas go somewhere, so the compiler cannot drop the exit clock */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct floor_state);
	__uint(max_entries, 1);
} floor_state SEC(".maps");

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(floor_entry, int irq, struct irqaction *action)
{
	__u32 zero = 0;
	struct floor_state *s = bpf_map_lookup_elem(&floor_state, &zero);

	if (s)
		s->start_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(floor_exit, int irq, struct irqaction *action, int ret)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 zero = 0;
	struct floor_state *s = bpf_map_lookup_elem(&floor_state, &zero);

	if (s)
		s->sum_ns += now - s->start_ns;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
