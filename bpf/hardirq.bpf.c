// SPDX-License-Identifier: GPL-2.0
/* Hard-IRQ handler run time: irq_handler_entry to irq_handler_exit of each irqaction, per CPU,
 * into the shared cells (bpf/cell.bpf.h); runs at or above the cell's threshold go to the ring
 * buffer. The run, net of NMIs, also goes into the CPU's hard-IRQ clock (bpf/clock.bpf.h).
 * Every instruction here runs on every interrupt of the machine: entry stores the clock and
 * the IRQ in the CPU's clock line, nothing else; exit touches that line, one cache slot, the
 * cell's first line and bucket, and the ring of recent events, nothing in .data or .rodata
 * (docs/bench.md measures each choice). */
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

/* struct hardirq_cpu (irqlat_abi.h): the cell cache by IRQ number, one element per CPU
 * (CPU_STATE, bpf/cell.bpf.h) */
CPU_STATE(hardirq_cpu, struct hardirq_cpu)

/* The threshold a new cell starts with; the daemon also writes each cell's own (reload keeps
 * the histograms). ~0 turns outliers off. */
volatile __u64 threshold_ns = 100000;

/* Stamp the wakes of IRQ threads for threaded.bpf.c (set by the loader when that kind is on).
 * Frozen before load: when off, the verifier removes the branch that reads it. */
const volatile bool threaded_on = false;

/* Cold path: the first run of a handler on this CPU, a shared line switching handlers, or two
 * IRQ numbers colliding in the cache. */
static __noinline int hardirq_miss(struct irqaction *action, __u32 irq)
{
	return cell_miss(KIND_HARDIRQ, (__u64)action, irq, BPF_CORE_READ(action, name), threshold_ns);
}

static __always_inline void on_entry(__u32 irq)
{
	struct cpu_clock *k = clock_cpu_this();

	if (!k)
		return;
	k->hard = irq + 1;
	k->hard_start_ns = bpf_ktime_get_ns();	/* last, so our own work is not measured */
}

static __always_inline void on_exit(__u32 irq, struct irqaction *action, int ret)
{
	__u64 now = bpf_ktime_get_ns();	/* first, so our own work is not measured */
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_clock *k = clock_cpu_of(cpu);
	struct hardirq_cpu *st = hardirq_cpu_of(cpu);
	struct lat_cell *c;
	__u32 *slot;
	__u64 d;

	/* an exit whose entry ran before the programs were attached finds no IRQ (the exit
	 * program is attached first); clearing it keeps a stale entry from pairing later */
	if (!k || !st || k->hard != irq + 1)
		return;
	k->hard = 0;
	d = now - k->hard_start_ns;
	clock_hard_done(k, &k->irq_ns, d);
	/* rare: only threaded handlers return it; then the flag's .rodata line */
	if (ret == IRQ_WAKE_THREAD && threaded_on)
		threaded_stamp(action, irq, now, k);
	slot = &st->cell[irq & (HARDIRQ_CACHE - 1)];
	c = cell_cached(slot, (__u64)action, irq);
	if (!c)
		c = cell_fill(slot, hardirq_miss(action, irq));
	recent_add(k, now, d, RECENT_IRQ, c ? *slot : 0);
	if (!c)
		return;
	if (ret == 0)	/* IRQ_NONE: the handler says the interrupt was not its device's */
		c->aux++;
	cell_record(c, d);
	if (d >= c->threshold_ns)
		outlier_emit(*slot - 1, now, d, (__u64)ret);
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(irq_entry_btf, int irq, struct irqaction *action)
{
	on_entry(irq);
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(irq_exit_btf, int irq, struct irqaction *action, int ret)
{
	on_exit(irq, action, ret);
	return 0;
}

SEC("raw_tp/irq_handler_entry")
int BPF_PROG(irq_entry_raw, int irq, struct irqaction *action)
{
	on_entry(irq);
	return 0;
}

SEC("raw_tp/irq_handler_exit")
int BPF_PROG(irq_exit_raw, int irq, struct irqaction *action, int ret)
{
	on_exit(irq, action, ret);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
