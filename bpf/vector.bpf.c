// SPDX-License-Identifier: GPL-2.0
/* The CPU's own interrupts (x86 irq_vectors:*: local timer, IPIs, APIC events), which
 * irq_handler_entry never sees: run time of each *_entry/_exit pair, per /proc/interrupts label
 * (enum vector_label; CAL is two tracepoints) and CPU, into the shared cells, and the CPU's
 * vector clock (bpf/clock.bpf.h). These handlers run with interrupts off and do not nest with
 * each other or with device handlers, so the running label and its start share the CPU's clock
 * line with the hard-IRQ handlers'; the state of its own is a cache slot per label. The loader
 * loads only the pairs the kernel has (THR and DFR need AMD MCE support, none exist off x86). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
#include "clock.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"

CPU_STATE(vector_cpu, struct vector_cpu)	/* bpf/cell.bpf.h */

/* What a new cell starts with (the daemon writes each cell's own); ~0 turns outliers off. */
volatile __u64 threshold_ns = 100000;

/* Cold path: a label's first interrupt on this CPU. */
static __noinline int vector_miss(__u32 label)
{
	return cell_miss(KIND_VECTOR, label, label, NULL, threshold_ns);
}

static __always_inline void on_entry(__u32 label)
{
	struct cpu_clock *k = clock_cpu_this();

	if (!k)
		return;
	k->hard = CLOCK_VECTOR | label;
	k->hard_start_ns = bpf_ktime_get_ns();	/* last, so our own work is not measured */
}

static __always_inline void on_exit(__u32 label, int vector)
{
	__u64 now = bpf_ktime_get_ns();	/* first, so our own work is not measured */
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_clock *k = clock_cpu_of(cpu);
	struct vector_cpu *st = vector_cpu_of(cpu);
	struct lat_cell *c;
	__u32 *slot;
	__u64 d;

	if (!k || !st || k->hard != (CLOCK_VECTOR | label))	/* its entry ran before the programs were attached */
		return;
	k->hard = 0;
	d = now - k->hard_start_ns;
	clock_hard_done(k, &k->vec_ns, d);
	slot = &st->cell[label];
	c = cell_cached(slot, label, label);
	if (!c)
		c = cell_fill(slot, vector_miss(label));
	recent_add(k, now, d, RECENT_VECTOR, c ? *slot : 0);
	if (!c)
		return;
	cell_record(c, d);
	if (d >= c->threshold_ns)
		outlier_emit(*slot - 1, now, d, (__u64)vector);
}

/* Each tracepoint's entry and exit, tp_btf and raw_tp; the label is a constant in each. */
#define VECTOR_PAIR(tp, label)								\
	SEC("tp_btf/" #tp "_entry")							\
	int BPF_PROG(tp##_entry_btf, int vector) { on_entry(label); return 0; }	\
	SEC("tp_btf/" #tp "_exit")							\
	int BPF_PROG(tp##_exit_btf, int vector) { on_exit(label, vector); return 0; }	\
	SEC("raw_tp/" #tp "_entry")							\
	int BPF_PROG(tp##_entry_raw, int vector) { on_entry(label); return 0; }	\
	SEC("raw_tp/" #tp "_exit")							\
	int BPF_PROG(tp##_exit_raw, int vector) { on_exit(label, vector); return 0; }

VECTOR_PAIR(local_timer, VEC_LOC)
VECTOR_PAIR(spurious_apic, VEC_SPU)
VECTOR_PAIR(error_apic, VEC_ERR)
VECTOR_PAIR(x86_platform_ipi, VEC_PLT)
VECTOR_PAIR(irq_work, VEC_IWI)
VECTOR_PAIR(reschedule, VEC_RES)
VECTOR_PAIR(call_function, VEC_CAL)
VECTOR_PAIR(call_function_single, VEC_CAL)
VECTOR_PAIR(threshold_apic, VEC_THR)
VECTOR_PAIR(deferred_error_apic, VEC_DFR)
VECTOR_PAIR(thermal_apic, VEC_TRM)

char LICENSE[] SEC("license") = "GPL";
