// SPDX-License-Identifier: GPL-2.0
/* Softirqs, per vector and CPU, into the shared cells (bpf/cell.bpf.h): run time
 * (softirq_entry to softirq_exit) and raise-to-run latency (softirq_raise to softirq_entry on
 * the same CPU; the first raise of a pending vector starts the clock, later raises while it is
 * pending do not). Values at or above their cell's threshold go to the ring buffer.
 *
 * One clock read per event: raise reads it only when the vector was not pending; entry stores
 * it last, beside the raise time it takes from the vector; exit reads it first and records both
 * values, so neither includes this program's own work. Softirqs do not nest on a CPU: the running
 * vector and its start are in the CPU's clock line (bpf/clock.bpf.h), with the time of the
 * interrupts nested in it, which the exit takes off for the CPU's softirq clock (the run time
 * keeps them, as /proc/softirqs' count does not tell them apart). Per vector, its raise times
 * and cache slots are in a state of one element per CPU of a plain array indexed by the CPU
 * number, as in hardirq.bpf.c. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
#include "clock.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"

CPU_STATE(softirq_cpu, struct softirq_cpu)	/* bpf/cell.bpf.h */

/* What a new cell starts with (the daemon writes each cell's own); ~0 turns outliers off. */
volatile __u64 run_threshold_ns = 500000;
volatile __u64 raise_threshold_ns = 2000000;

/* Cold path: a vector's first run (or raise latency) on this CPU. */
static __noinline int softirq_miss(__u32 kind, __u32 vec)
{
	return cell_miss(kind, vec, vec, NULL, kind == KIND_SOFTIRQ ? run_threshold_ns : raise_threshold_ns);
}

static __always_inline struct lat_cell *record(__u32 *slot, __u32 kind, __u32 vec, __u64 ts_ns, __u64 value_ns)
{
	struct lat_cell *c = cell_cached(slot, vec, vec);

	if (!c)
		c = cell_fill(slot, softirq_miss(kind, vec));
	if (!c)
		return NULL;
	cell_record(c, value_ns);
	if (value_ns >= c->threshold_ns)
		outlier_emit(*slot - 1, ts_ns, value_ns, vec);
	return c;
}

static __always_inline void on_raise(__u32 vec)
{
	struct softirq_cpu *st = softirq_cpu_this();

	if (!st || vec >= SOFTIRQ_VECTORS)
		return;
	barrier_var(vec);	/* the bounded copy indexes, not a re-extended one (verifier) */
	if (!st->v[vec].raise_ns)
		st->v[vec].raise_ns = bpf_ktime_get_ns();
}

static __always_inline void on_entry(__u32 vec)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct softirq_cpu *st = softirq_cpu_of(cpu);
	struct cpu_clock *k = clock_cpu_of(cpu);

	if (!st || !k || vec >= SOFTIRQ_VECTORS)
		return;
	barrier_var(vec);
	st->v[vec].running_raise_ns = st->v[vec].raise_ns;
	st->v[vec].raise_ns = 0;	/* raises from now on make it pending again */
	k->softirq = vec + 1;
	if (CLOCKS_KEPT)
		k->softirq_nested_ns = 0;
	k->softirq_start_ns = bpf_ktime_get_ns();	/* last, so our own work is not measured */
}

static __always_inline void on_exit(__u32 vec)
{
	__u64 now = bpf_ktime_get_ns();	/* first, so our own work is not measured */
	__u32 cpu = bpf_get_smp_processor_id();
	struct softirq_cpu *st = softirq_cpu_of(cpu);
	struct cpu_clock *k = clock_cpu_of(cpu);
	__u64 start, raised, run, nested;
	struct lat_cell *c;

	/* an exit whose entry ran before the programs were attached finds no vector */
	if (!st || !k || vec >= SOFTIRQ_VECTORS || k->softirq != vec + 1)
		return;
	barrier_var(vec);
	k->softirq = 0;
	start = k->softirq_start_ns;
	run = now - start;
	nested = CLOCKS_KEPT ? k->softirq_nested_ns : 0;
	if (CLOCKS_KEPT)
		k->softirq_ns += run > nested ? run - nested : 0;
	c = record(&st->v[vec].run_cell, KIND_SOFTIRQ, vec, now, run);
	recent_add(k, now, run > nested ? run - nested : 0, RECENT_SOFTIRQ, c ? st->v[vec].run_cell : 0);
	raised = st->v[vec].running_raise_ns;
	if (raised && raised <= start)
		record(&st->v[vec].raise_cell, KIND_SOFTIRQ_RAISE, vec, start, start - raised);
}

SEC("tp_btf/softirq_raise")
int BPF_PROG(softirq_raise_btf, unsigned int vec)
{
	on_raise(vec);
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(softirq_entry_btf, unsigned int vec)
{
	on_entry(vec);
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(softirq_exit_btf, unsigned int vec)
{
	on_exit(vec);
	return 0;
}

SEC("raw_tp/softirq_raise")
int BPF_PROG(softirq_raise_raw, unsigned int vec)
{
	on_raise(vec);
	return 0;
}

SEC("raw_tp/softirq_entry")
int BPF_PROG(softirq_entry_raw, unsigned int vec)
{
	on_entry(vec);
	return 0;
}

SEC("raw_tp/softirq_exit")
int BPF_PROG(softirq_exit_raw, unsigned int vec)
{
	on_exit(vec);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
