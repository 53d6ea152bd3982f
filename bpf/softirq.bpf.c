// SPDX-License-Identifier: GPL-2.0
/* Softirqs, per vector and CPU, into the shared cells (bpf/cell.bpf.h): run time
 * (softirq_entry to softirq_exit) and raise-to-run latency (softirq_raise to softirq_entry on
 * the same CPU; the first raise of a pending vector starts the clock, later raises while it is
 * pending do not). Values at or above their cell's threshold go to the ring buffer.
 *
 * One clock read per event: raise reads it only when the vector was not pending; entry stores
 * it last, beside the raise time it takes from the vector; exit reads it first and records both
 * values, so neither includes this program's own work. Softirqs do not nest on a CPU, and the
 * state is one element per CPU of a plain array indexed by the CPU number, as in hardirq.bpf.c. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
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

static __always_inline void record(__u32 *slot, __u32 kind, __u32 vec, __u64 ts_ns, __u64 value_ns)
{
	struct lat_cell *c = cell_cached(slot, vec, vec);

	if (!c)
		c = cell_fill(slot, softirq_miss(kind, vec));
	if (!c)
		return;
	cell_record(c, value_ns);
	if (value_ns >= c->threshold_ns)
		outlier_emit(*slot - 1, ts_ns, value_ns, vec);
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
	struct softirq_cpu *st = softirq_cpu_this();

	if (!st || vec >= SOFTIRQ_VECTORS)
		return;
	barrier_var(vec);
	st->raised_ns = st->v[vec].raise_ns;
	st->v[vec].raise_ns = 0;	/* raises from now on make it pending again */
	st->vec = vec + 1;
	st->start_ns = bpf_ktime_get_ns();	/* last, so our own work is not measured */
}

static __always_inline void on_exit(__u32 vec)
{
	__u64 now = bpf_ktime_get_ns();	/* first, so our own work is not measured */
	struct softirq_cpu *st = softirq_cpu_this();
	__u64 start;

	/* an exit whose entry ran before the programs were attached finds no vector */
	if (!st || vec >= SOFTIRQ_VECTORS || st->vec != vec + 1)
		return;
	barrier_var(vec);
	st->vec = 0;
	start = st->start_ns;
	record(&st->v[vec].run_cell, KIND_SOFTIRQ, vec, now, now - start);
	if (st->raised_ns && st->raised_ns <= start)
		record(&st->v[vec].raise_cell, KIND_SOFTIRQ_RAISE, vec, start, start - st->raised_ns);
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
