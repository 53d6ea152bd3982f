// SPDX-License-Identifier: GPL-2.0
/* A reference count for bench/count-ref.sh: one increment per softirq_raise, entry and
 * exit, per vector, and per irq_vectors entry and exit, into a per-CPU array, nothing else.
 * What it counts is what the tracepoint ran this program for; beside /proc/softirqs,
 * /proc/interrupts, an ftrace hist trigger and irqlatd's cells it says where runs go missing.
 * It also keeps irqlatd's pairing (the running vector per CPU, set at entry, checked at exit) and
 * counts the exits that find another vector there (`unpaired`). Not a bench twin. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

enum {
	C_RAISE = 0,		/* + vector (10) */
	C_ENTRY = 10,
	C_EXIT = 20,
	C_UNPAIRED = 30,	/* softirq exits that found another vector (or none) running */
	C_VEC = 40,		/* + 3 * label: entry, exit, unpaired exit */
	C_SLOTS = 64,
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, C_SLOTS);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 2);	/* 0: softirq running + 1, 1: vector running + 1 */
} running SEC(".maps");

static __always_inline void inc(__u32 k)
{
	__u64 *n = bpf_map_lookup_elem(&counts, &k);

	if (n)
		*n += 1;
}

static __always_inline void enter(__u32 which, __u32 v)
{
	__u32 *r = bpf_map_lookup_elem(&running, &which);

	if (r)
		*r = v + 1;
}

static __always_inline int leave(__u32 which, __u32 v)
{
	__u32 *r = bpf_map_lookup_elem(&running, &which);
	int ok = r && *r == v + 1;

	if (r)
		*r = 0;
	return ok;
}

SEC("tp_btf/softirq_raise")
int BPF_PROG(ref_raise, unsigned int vec)
{
	if (vec < 10)
		inc(C_RAISE + vec);
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(ref_entry, unsigned int vec)
{
	if (vec < 10) {
		inc(C_ENTRY + vec);
		enter(0, vec);
	}
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(ref_exit, unsigned int vec)
{
	if (vec < 10) {
		inc(C_EXIT + vec);
		if (!leave(0, vec))
			inc(C_UNPAIRED + vec);
	}
	return 0;
}

#define REF_VEC(tp, label)							\
	SEC("tp_btf/" #tp "_entry")						\
	int BPF_PROG(ref_##tp##_entry, int vector)				\
	{ inc(C_VEC + 3 * (label)); enter(1, label); return 0; }		\
	SEC("tp_btf/" #tp "_exit")						\
	int BPF_PROG(ref_##tp##_exit, int vector)				\
	{ inc(C_VEC + 3 * (label) + 1); if (!leave(1, label)) inc(C_VEC + 3 * (label) + 2); return 0; }

/* labels as in enum vector_label (bpf/irqlat_abi.h): LOC 0, IWI 4, RES 5, CAL 6 */
REF_VEC(local_timer, 0)
REF_VEC(irq_work, 4)
REF_VEC(reschedule, 5)
REF_VEC(call_function, 6)
REF_VEC(call_function_single, 6)

char LICENSE[] SEC("license") = "GPL";
