// SPDX-License-Identifier: GPL-2.0
/* Hard-IRQ handler run time: irq_handler_entry to irq_handler_exit of each irqaction, per CPU,
 * into the shared cells (bpf/cell.bpf.h); runs at or above the cell's threshold go to the ring
 * buffer. Every instruction here runs on every interrupt of the machine: entry stores the
 * clock and the action, nothing else; exit touches this CPU's state, one cache slot, and the
 * cell's first line and bucket, nothing in .data or .rodata (docs/bench.md measures each
 * choice). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"

/* struct hardirq_cpu (irqlat_abi.h): start time, running action, cell cache by IRQ number.
 * One element per CPU of a plain array indexed by the CPU number, not a per-CPU array: the CPU
 * number is a per-CPU variable the kernel keeps hot (the helper is inlined), the element's
 * address the map's base plus an offset, where the inlined lookup of a per-CPU array reads the
 * map's table of per-CPU pointers first, one cache line more on every program (docs/bench.md:
 * h7 against h4). Mmapable data is page-aligned, so the 64-byte multiples keep CPUs apart. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct hardirq_cpu);
	__uint(max_entries, 1);	/* the possible CPUs, set by the loader */
} hardirq_cpu SEC(".maps");

/* The threshold a new cell starts with; the daemon also writes each cell's own (reload keeps
 * the histograms). ~0 turns outliers off. */
volatile __u64 threshold_ns = 100000;

static __always_inline struct hardirq_cpu *this_cpu(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&hardirq_cpu, &cpu);
}

/* Cold path: the first run of a handler on this CPU, a shared line switching handlers, or two
 * IRQ numbers colliding in the cache. */
static __noinline int hardirq_miss(struct irqaction *action, __u32 irq)
{
	return cell_miss(KIND_HARDIRQ, (__u64)action, irq, BPF_CORE_READ(action, name), threshold_ns);
}

static __always_inline void on_entry(struct irqaction *action)
{
	struct hardirq_cpu *st = this_cpu();

	if (!st)
		return;
	st->action = (__u64)action;
	st->start_ns = bpf_ktime_get_ns();	/* last, so our own work is not measured */
}

static __always_inline void on_exit(__u32 irq, struct irqaction *action, int ret)
{
	__u64 now = bpf_ktime_get_ns();	/* first, so our own work is not measured */
	struct hardirq_cpu *st = this_cpu();
	struct lat_cell *c;
	__u32 *slot;
	__u64 d;

	/* an exit whose entry ran before the programs were attached finds no action (the exit
	 * program is attached first); clearing it keeps a stale entry from pairing later */
	if (!st || st->action != (__u64)action)
		return;
	st->action = 0;
	d = now - st->start_ns;
	slot = &st->cell[irq & (HARDIRQ_CACHE - 1)];
	c = cell_cached(slot, (__u64)action, irq);
	if (!c)
		c = cell_fill(slot, hardirq_miss(action, irq));
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
	on_entry(action);
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
	on_entry(action);
	return 0;
}

SEC("raw_tp/irq_handler_exit")
int BPF_PROG(irq_exit_raw, int irq, struct irqaction *action, int ret)
{
	on_exit(irq, action, ret);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
