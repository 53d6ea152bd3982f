// SPDX-License-Identifier: GPL-2.0
/* The hot-path ladder (bench/run.sh --ladder, docs/bench.md): the hard-IRQ programs as they
 * were before issue 9 (h0), then one design change at a time up to what bpf/hardirq.bpf.c
 * ships, each built from this file with feature macros (mk/bench.mk) and measured side by
 * side in one run, so each step's ratio to the clock-only pair says what that change bought:
 *   PERCPU          one per-CPU struct (start, running action, IRQ-indexed cell cache) instead
 *                   of a 24-byte slot per (CPU, IRQ) found through a bound in .rodata; nothing
 *                   at entry but the clock and the action; the cell says whose it is
 *   CELL_THRESHOLD  the outlier threshold in the cell's first line instead of .data
 *   COUNT_DERIVED   no run counter: user space sums the buckets
 *   SCHEMA3         Prometheus schema-3 buckets (hist_bucket.h) instead of 12.5% log-linear
 *   MRU             (tried) the last action and its cell in the per-CPU struct's first line
 *   BRANCHY         (tried) schema 3 with plain comparisons, which clang turns into jumps
 *   CPU_ARRAY       the per-CPU struct as one element per CPU of a plain mmapable array,
 *                   indexed by the (inlined) CPU number, instead of a per-CPU array, whose
 *                   inlined lookup reads the map's table of per-CPU pointers: one line less
 * Without a step's macro the code does what the design did before it. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "irqlat_abi.h"

#ifndef PERCPU
/* ---------- h0: the design of main before issue 9 ---------- */
#include "ringbuf.bpf.h"

#define OLD_BUCKETS 241
struct old_cell {
	__u64 count, sum_ns, max_ns, spurious;
	__u32 hist[OLD_BUCKETS];
	__u32 _pad;
};
struct old_meta {
	__u64 action_id;
	__u32 irq, cpu;
	char name[IRQ_NAME_LEN];
};
struct old_slot {
	__u64 action_id, start_ns;
	__u32 cell, _pad;
};
struct old_key {
	__u64 action_id;
	__u32 irq, cpu;
};

const volatile __u32 nr_slots = 258;	/* the loader set these; here, this machine's values */
const volatile __u32 max_cells = 1024;
volatile __u64 threshold_ns = 100000;
__u32 next_cell;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct old_slot);
	__uint(max_entries, 258);
} slots SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct old_key);
	__type(value, __u32);
	__uint(max_entries, 1024);
} old_index SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct old_cell);
	__uint(max_entries, 1024);
} old_cells SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct old_meta);
	__uint(max_entries, 1024);
} old_meta SEC(".maps");

static __always_inline __u32 old_log2(__u64 v)
{
	__u32 r = 0, s;

	s = (v > 0xFFFFFFFFull) << 5; v >>= s; r |= s;
	s = (v > 0xFFFF) << 4; v >>= s; r |= s;
	s = (v > 0xFF) << 3; v >>= s; r |= s;
	s = (v > 0xF) << 2; v >>= s; r |= s;
	s = (v > 0x3) << 1; v >>= s; r |= s;
	return r | (__u32)(v >> 1);
}

static __always_inline __u32 old_bucket(__u64 ns)
{
	__u32 e;

	if (ns < 8)
		return (__u32)ns;
	if (ns >= (1ull << 32))
		return OLD_BUCKETS - 1;
	e = old_log2(ns);
	return (e - 2) * 8 + (__u32)((ns >> (e - 3)) & 7);
}

static __noinline int old_cell_of(__u32 irq, struct irqaction *action, __u64 action_id)
{
	struct old_key key = { .action_id = action_id, .irq = irq, .cpu = bpf_get_smp_processor_id() };
	struct old_meta *meta;
	__u32 *found, id;

	found = bpf_map_lookup_elem(&old_index, &key);
	if (found)
		return *found;
	if (next_cell >= max_cells)
		return -1;
	id = __sync_fetch_and_add(&next_cell, 1);
	meta = bpf_map_lookup_elem(&old_meta, &id);
	if (!meta)
		return -1;
	meta->irq = irq;
	meta->cpu = key.cpu;
	bpf_probe_read_kernel_str(meta->name, sizeof(meta->name), BPF_CORE_READ(action, name));
	meta->action_id = action_id;
	bpf_map_update_elem(&old_index, &key, &id, BPF_NOEXIST);
	return id;
}

static __always_inline void on_entry(__u32 irq, struct irqaction *action)
{
	__u32 idx = irq < nr_slots - 1 ? irq : nr_slots - 1;
	struct old_slot *slot = bpf_map_lookup_elem(&slots, &idx);
	int cell;

	if (!slot)
		return;
	if (slot->action_id != (__u64)action) {
		cell = old_cell_of(irq, action, (__u64)action);
		if (cell < 0) {
			count_drop(DROP_NO_CELL);
			slot->action_id = 0;
			return;
		}
		slot->action_id = (__u64)action;
		slot->cell = cell;
	}
	slot->start_ns = bpf_ktime_get_ns();
}

static __noinline void old_outlier(__u32 cell_id, __u64 now, __u64 d)
{
	struct old_meta *meta = bpf_map_lookup_elem(&old_meta, &cell_id);
	struct outlier_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		count_drop(DROP_OUTLIER);
		return;
	}
	e->type = RB_OUTLIER;
	e->cell = cell_id;
	e->ts_ns = now;
	e->value_ns = d;
	e->pid = (__u32)bpf_get_current_pid_tgid();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (meta)
		e->aux = meta->irq;
	bpf_ringbuf_submit(e, 0);
}

static __always_inline void on_exit(__u32 irq, struct irqaction *action, int ret)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 idx = irq < nr_slots - 1 ? irq : nr_slots - 1;
	struct old_slot *slot = bpf_map_lookup_elem(&slots, &idx);
	struct old_cell *cell;
	__u64 d, threshold;
	__u32 b, cell_id;

	if (!slot || !slot->start_ns || slot->action_id != (__u64)action)
		return;
	d = now - slot->start_ns;
	slot->start_ns = 0;
	cell_id = slot->cell;
	cell = bpf_map_lookup_elem(&old_cells, &cell_id);
	if (!cell)
		return;
	cell->count++;
	cell->sum_ns += d;
	if (d > cell->max_ns)
		cell->max_ns = d;
	if (ret == 0)
		cell->spurious++;
	b = old_bucket(d);
	if (b < OLD_BUCKETS)
		cell->hist[b]++;
	threshold = threshold_ns;
	if (threshold && d >= threshold)
		old_outlier(cell_id, now, d);
}

#else
/* ---------- h1 and later: bpf/hardirq.bpf.c's design, one change at a time ---------- */
#include "cell.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"

#ifdef SLOT_START
#define STEP_SLOTS 1024
struct hardirq_step_slot {
	__u64 start_ns;	/* of the handler running on this line, 0 between handlers */
	__u32 cell;	/* index + 1 */
	__u32 _pad;
};
struct hardirq_step_cpu {
	struct hardirq_step_slot slot[STEP_SLOTS];
} __attribute__((aligned(64)));
#else
struct hardirq_step_cpu {
	__u64 start_ns;
	__u64 action;
#ifdef MRU
	__u64 mru_action;
	__u32 mru_cell;	/* index + 1 */
	__u32 _pad;
#endif
	__u32 cell[HARDIRQ_CACHE];
} __attribute__((aligned(64)));	/* a multiple of 64 bytes, as struct hardirq_cpu */
#endif

#ifdef CPU_ARRAY
/* one element per CPU in a plain array: the CPU number is inlined (a per-CPU variable the
 * kernel keeps hot), the element's address is the map's base plus an offset, and mmapable
 * data is page-aligned, so with elements a multiple of 64 bytes no two CPUs share a line */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct hardirq_step_cpu);
	__uint(max_entries, 1);	/* the possible CPUs: the loader sizes it */
} hardirq_cpu SEC(".maps");

static __always_inline struct hardirq_step_cpu *this_cpu(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return bpf_map_lookup_elem(&hardirq_cpu, &cpu);
}
#else
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct hardirq_step_cpu);
	__uint(max_entries, 1);
} hardirq_cpu SEC(".maps");

static __always_inline struct hardirq_step_cpu *this_cpu(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&hardirq_cpu, &zero);
}
#endif

volatile __u64 threshold_ns = 100000;

static __always_inline __attribute__((unused)) __u32 bucket(__u64 v)
{
#if defined(BRANCHY)
	__u64 x, e;

	if (v > HIST_TOP_NS)
		return HIST_OVERFLOW;
	if (!v)
		return HIST_ZERO;
	e = hist_log2_32(v);
	x = v << (63 - e);
	return (__u32)(8 * e + 1 + (x > HIST_T0) + (x > HIST_T1) + (x > HIST_T2) + (x > HIST_T3) +
		       (x > HIST_T4) + (x > HIST_T5) + (x > HIST_T6) + (x > HIST_T7));
#elif defined(SCHEMA3)
	return hist_bucket(v);
#else	/* the 12.5% log-linear buckets of before */
	__u64 e;

	if (v < 8)
		return (__u32)v;
	if (v >= (1ull << 32))
		return 240;
	e = hist_log2_32(v);
	return (__u32)((e - 2) * 8 + ((v >> (e - 3)) & 7));
#endif
}

/* the pool is sized by the bench loader (--pool), as the daemon's loader does */
static __noinline int hardirq_miss(struct irqaction *action, __u32 irq)
{
	return cell_miss(KIND_HARDIRQ, (__u64)action, irq, BPF_CORE_READ(action, name), threshold_ns);
}

/* the cell of a cache slot, or of the cold path */
static __always_inline struct lat_cell *slot_cell(__u32 *slot, struct irqaction *action, __u32 irq)
{
	struct lat_cell *c = cell_cached(slot, (__u64)action, irq);

	return c ? c : cell_fill(slot, hardirq_miss(action, irq));
}

#ifdef SLOT_START
static __always_inline void on_entry(__u32 irq, struct irqaction *action)
{
	struct hardirq_step_cpu *st = this_cpu();

	if (st)
		st->slot[irq & (STEP_SLOTS - 1)].start_ns = bpf_ktime_get_ns();
}

static __always_inline void on_exit(__u32 irq, struct irqaction *action, int ret)
{
	__u64 now = bpf_ktime_get_ns();
	struct hardirq_step_cpu *st = this_cpu();
	struct hardirq_step_slot *sl;
	struct lat_cell *c;
	__u64 d;

	if (!st)
		return;
	sl = &st->slot[irq & (STEP_SLOTS - 1)];
	if (!sl->start_ns)	/* its entry ran before the programs were attached */
		return;
	d = now - sl->start_ns;
	sl->start_ns = 0;
	c = slot_cell(&sl->cell, action, irq);
	if (!c)
		return;
	if (ret == 0)
		c->aux++;
	cell_record(c, d);
	if (d >= c->threshold_ns)
		outlier_emit(sl->cell - 1, now, d, (__u64)ret);
}
#else
static __always_inline void on_entry(__u32 irq, struct irqaction *action)
{
	struct hardirq_step_cpu *st = this_cpu();

	if (!st)
		return;
	st->action = (__u64)action;
	st->start_ns = bpf_ktime_get_ns();
}

static __always_inline void on_exit(__u32 irq, struct irqaction *action, int ret)
{
	__u64 now = bpf_ktime_get_ns();
	struct hardirq_step_cpu *st = this_cpu();
	struct lat_cell *c;
	__u32 *slot, k;
	__u64 d;

	if (!st || st->action != (__u64)action)
		return;
	st->action = 0;
	d = now - st->start_ns;
#ifdef MRU
	c = st->mru_action == (__u64)action ? cell_cached(&st->mru_cell, (__u64)action, irq) : NULL;
	slot = &st->mru_cell;
	if (!c) {
		slot = &st->cell[irq & (HARDIRQ_CACHE - 1)];
		c = slot_cell(slot, action, irq);
		if (!c)
			return;
		st->mru_action = (__u64)action;
		st->mru_cell = *slot;
	}
#else
	slot = &st->cell[irq & (HARDIRQ_CACHE - 1)];
	c = slot_cell(slot, action, irq);
	if (!c)
		return;
#endif
	if (ret == 0)
		c->aux++;
#ifndef COUNT_DERIVED
	c->hist[HIST_ZERO]++;	/* stands for a run counter in the cell's first line */
#endif
	c->sum_ns += d;
	if (d > c->max_ns)
		c->max_ns = d;
	k = bucket(d);
	if (k < HIST_BUCKETS)
		c->hist[k]++;
#ifdef CELL_THRESHOLD
	if (d >= c->threshold_ns)
#else
	if (threshold_ns && d >= threshold_ns)
#endif
		outlier_emit(*slot - 1, now, d, (__u64)ret);
}
#endif
#endif

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(hot_entry, int irq, struct irqaction *action)
{
	on_entry(irq, action);
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(hot_exit, int irq, struct irqaction *action, int ret)
{
	on_exit(irq, action, ret);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
