// SPDX-License-Identifier: GPL-2.0
/* The CPU's own interrupts (x86 irq_vectors:*: local timer, IPIs, APIC events), which
 * irq_handler_entry never sees: run time of each *_entry/_exit pair, per /proc/interrupts label
 * (enum vector_label; CAL is two tracepoints) and CPU, into the shared cells. These handlers run
 * with interrupts off and do not nest, so the per-CPU state is one start time and the running
 * label, with a cache slot per label, in one cache line. The loader loads only the pairs the
 * kernel has (THR and DFR need AMD MCE support, none exist off x86). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
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
	struct vector_cpu *st = vector_cpu_this();

	if (!st)
		return;
	st->label = label + 1;
	st->start_ns = bpf_ktime_get_ns();	/* last, so our own work is not measured */
}

static __always_inline void on_exit(__u32 label, int vector)
{
	__u64 now = bpf_ktime_get_ns();	/* first, so our own work is not measured */
	struct vector_cpu *st = vector_cpu_this();
	struct lat_cell *c;
	__u32 *slot;
	__u64 d;

	if (!st || st->label != label + 1)	/* its entry ran before the programs were attached */
		return;
	st->label = 0;
	d = now - st->start_ns;
	slot = &st->cell[label];
	c = cell_cached(slot, label, label);
	if (!c)
		c = cell_fill(slot, vector_miss(label));
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
