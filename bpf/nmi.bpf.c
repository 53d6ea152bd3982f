// SPDX-License-Identifier: GPL-2.0
/* NMI handlers: nmi:nmi_handler fires after each handler of an NMI with the handler's address,
 * its run time (delta_ns, measured by the kernel around the call) and how many events it
 * handled. Per handler and CPU into the shared cells (KIND_NMI), at or above the cell's
 * threshold to the ring buffer, and into the CPU's NMI clock (bpf/clock.bpf.h), taken off the
 * hard-IRQ handler, vector or softirq it interrupted.
 *
 * NMI context: it can interrupt anything, this CPU's other programs included, so it writes
 * only what no other program writes (the NMI clock, its own state, its cells) or adds to what
 * they read (the running context's start and nested time), takes no lock and updates no hash.
 * Its cold path takes a cell from the pool with one atomic add (cell_new()) and enters it in a
 * per-CPU table of handler slots (struct nmi_cpu), not in the cell_index hash, whose update
 * takes a bucket lock. NMIs do not nest, so the table needs no atomics. The ring buffer's
 * reserve in NMI context only tries its lock: a failure is counted (drops: outliers). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
#include "clock.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"

CPU_STATE(nmi_cpu, struct nmi_cpu)	/* bpf/cell.bpf.h */

/* What a new cell starts with (the daemon writes each cell's own); ~0 turns outliers off. */
volatile __u64 threshold_ns = 100000;

/* Cold path: the handler's first NMI on this CPU, or a collision in the first slot tried.
 * Scans the table for the handler; else takes a free slot and a new cell for it. Returns the
 * slot, or -1 (the table full, or the pool used up: drops no_cell). */
static __noinline int nmi_miss(struct nmi_cpu *st, __u64 handler)
{
	struct cell_key key = { .id = handler, .sub = 0, .cpu = (__u16)bpf_get_smp_processor_id(),
				.kind = KIND_NMI };
	int free = -1, idx;

	for (int i = 0; i < NMI_SLOTS; i++) {
		if (st->handler[i] == handler && st->cell[i])
			return i;
		if (!st->handler[i] && free < 0)
			free = i;
	}
	if (free < 0 || (idx = cell_new()) < 0 || cell_init((__u32)idx, &key, NULL, threshold_ns) < 0) {
		count_drop(DROP_NO_CELL);
		return -1;
	}
	barrier_var(free);
	if (free >= NMI_SLOTS)	/* tells the verifier */
		return -1;
	st->handler[free] = handler;
	st->cell[free] = (__u32)idx + 1;
	return free;
}

static __always_inline void on_nmi(__u64 handler, __s64 delta, int handled)
{
	__u64 now = bpf_ktime_get_ns();
	struct cpu_clock *k = clock_cpu_this();
	struct nmi_cpu *st = nmi_cpu_this();
	__u64 d = delta > 0 ? (__u64)delta : 0;
	struct lat_cell *c = NULL;
	__u32 i = (handler >> 4) & (NMI_SLOTS - 1), *slot;
	int s;

	if (!k || !st)
		return;
	/* the clock, and the context it interrupted: a hard-IRQ handler's or vector's start moves
	 * on by it (their runs exclude NMIs), a softirq counts it as nested */
	if (CLOCKS_KEPT)
		k->nmi_ns += d;
	if (k->hard)
		k->hard_start_ns += d;
	if (CLOCKS_KEPT && softirq_running(k))
		k->softirq_nested_ns += (__u32)d;
	if (st->handler[i] != handler || !st->cell[i]) {
		s = nmi_miss(st, handler);
		if (s < 0 || s >= NMI_SLOTS) {
			recent_add(k, now, d, RECENT_NMI, 0);
			return;
		}
		i = s;
	}
	slot = &st->cell[i & (NMI_SLOTS - 1)];
	c = cell_cached(slot, handler, 0);
	recent_add(k, now, d, RECENT_NMI, c ? *slot : 0);
	if (!c)
		return;
	if (handled == 0)	/* not this handler's NMI */
		c->aux++;
	cell_record(c, d);
	if (d >= c->threshold_ns)
		outlier_emit(*slot - 1, now, d, (__u64)handled);
}

SEC("tp_btf/nmi_handler")
int BPF_PROG(nmi_handler_btf, void *handler, s64 delta_ns, int handled)
{
	on_nmi((__u64)handler, delta_ns, handled);
	return 0;
}

SEC("raw_tp/nmi_handler")
int BPF_PROG(nmi_handler_raw, void *handler, s64 delta_ns, int handled)
{
	on_nmi((__u64)handler, delta_ns, handled);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
