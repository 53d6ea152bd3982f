// SPDX-License-Identifier: GPL-2.0
/* The floor for the hard-IRQ benchmark (bench/run.sh): the least a program pair can do to time
 * a handler, i.e. read the clock at irq_handler_entry and again at irq_handler_exit. irqlatd's
 * programs are judged as a ratio to this pair, measured side by side in the same run.
 * Also a throwaway pair that only reads the clock: attached first, it pays the cold-cache cost
 * that the first program on a tracepoint pays, so neither measured pair does. */
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

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} warm_clock SEC(".maps");

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

static __always_inline void warm(void)
{
	__u32 zero = 0;
	__u64 *t = bpf_map_lookup_elem(&warm_clock, &zero);

	if (t)
		*t = bpf_ktime_get_ns();
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(warm_entry, int irq, struct irqaction *action)
{
	warm();
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(warm_exit, int irq, struct irqaction *action, int ret)
{
	warm();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
