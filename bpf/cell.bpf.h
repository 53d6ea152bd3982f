/* SPDX-License-Identifier: GPL-2.0 */
/* The cell pool every latency kind fills (struct lat_cell, irqlat_abi.h), and the two ways to
 * a cell: a per-CPU cache slot on the hot path, the index hash on the cold path.
 *
 * A kind keeps, in its own per-CPU state, a small direct-mapped cache of cell indexes (hardirq:
 * one slot per IRQ number modulo its size). cell_cached() takes the slot's cell when the cell
 * says it is this series (its id and sub, in the cell's first cache line, which the update
 * touches anyway); otherwise the kind calls its __noinline miss function, which calls
 * cell_miss(), and cell_fill() stores the answer in the slot. A slot holds index + 1, so a
 * zeroed slot points nowhere. Each object declares these maps; the loader makes every object
 * share one instance, as for the ring buffer. */
#ifndef IRQLAT_CELL_BPF_H
#define IRQLAT_CELL_BPF_H

#include "ringbuf.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct lat_cell);
	__uint(max_entries, 1);	/* the pool's size, set by the loader */
} cells SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct lat_cell_meta);
	__uint(max_entries, 1);
} cell_meta SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct cell_key);
	__type(value, __u32);
	__uint(max_entries, 1);
} cell_index SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct cell_pool);
	__uint(max_entries, 1);
} cell_next SEC(".maps");

/* A kind's per-CPU state: one element per possible CPU (the loader sets max_entries) of a plain
 * mmapable array indexed by the inlined CPU number, not a per-CPU array, whose inlined lookup
 * reads the map's table of per-CPU pointers first, one cache line more on every event
 * (docs/bench.md: h7 against h4). Mmapable data is page-aligned, and the state types are
 * multiples of 64 bytes, so no two CPUs share a line. Defines the map `map`, `map_this()`,
 * this CPU's element of type `state`, and `map_of(cpu)`, for a program that takes the CPU
 * number once for several states. */
#define CPU_STATE(map, state)								\
	struct {									\
		__uint(type, BPF_MAP_TYPE_ARRAY);					\
		__uint(map_flags, BPF_F_MMAPABLE);					\
		__type(key, __u32);							\
		__type(value, state);							\
		__uint(max_entries, 1);							\
	} map SEC(".maps");								\
	static __always_inline __attribute__((unused)) state *map##_of(__u32 cpu)	\
	{										\
		return bpf_map_lookup_elem(&map, &cpu);				\
	}										\
	static __always_inline __attribute__((unused)) state *map##_this(void)		\
	{										\
		return map##_of(bpf_get_smp_processor_id());				\
	}

/* The cell a cache slot points to, if it is series (id, sub); NULL sends the caller to its
 * miss function. */
static __always_inline struct lat_cell *cell_cached(const __u32 *slot, __u64 id, __u32 sub)
{
	__u32 idx = *slot - 1;
	struct lat_cell *c = bpf_map_lookup_elem(&cells, &idx);

	if (c && c->id == id && c->sub == sub)
		return c;
	return NULL;
}

/* After a miss: remember the cell (idx from cell_miss(), negative when there is none). */
static __always_inline struct lat_cell *cell_fill(__u32 *slot, int idx)
{
	__u32 i = (__u32)idx;

	if (idx < 0)
		return NULL;
	*slot = i + 1;
	return bpf_map_lookup_elem(&cells, &i);
}

/* Makes cell idx, zeroed, the cell of key: its identity, threshold and metadata, `ready` last
 * (user space takes the cell once it is set). -1 when idx is past the pool. No hash, no lock:
 * NMI context can call it (bpf/nmi.bpf.c). */
static __always_inline int cell_init(__u32 idx, const struct cell_key *key, const char *kname, __u64 threshold_ns)
{
	struct lat_cell *c = bpf_map_lookup_elem(&cells, &idx);
	struct lat_cell_meta *meta = bpf_map_lookup_elem(&cell_meta, &idx);

	if (!c || !meta)
		return -1;
	c->id = key->id;
	c->sub = key->sub;
	c->threshold_ns = threshold_ns;
	meta->id = key->id;
	meta->sub = key->sub;
	meta->cpu = key->cpu;
	meta->kind = key->kind;
	if (kname)
		bpf_probe_read_kernel_str(meta->name, sizeof(meta->name), kname);
	asm volatile("" ::: "memory");	/* the compiler keeps the order; x86 stores do too */
	meta->ready = 1;
	return 0;
}

/* A new cell from the pool (one atomic add), or -1 when the pool is used up (not counted:
 * the caller says why). Checked first, so next stays near max. */
static __always_inline int cell_new(void)
{
	__u32 zero = 0;
	struct cell_pool *pool = bpf_map_lookup_elem(&cell_next, &zero);

	if (!pool || pool->next >= pool->max)
		return -1;
	return (int)__sync_fetch_and_add(&pool->next, 1);
}

/* Makes cell idx, zeroed, the cell of key: a new one from the pool, or one that user space took
 * back and cleared (the wake-up cells of tasks that exited), and enters it in the index. -1
 * when idx is past the pool. */
static __always_inline int cell_take(__u32 idx, const struct cell_key *key, const char *kname,
				     __u64 threshold_ns)
{
	if (cell_init(idx, key, kname, threshold_ns) < 0)
		return -1;
	bpf_map_update_elem(&cell_index, key, &idx, BPF_NOEXIST);
	return 0;
}

/* Cold path: the cell of (kind, id, sub) on this CPU, found in the hash or allocated from the
 * pool, or -1 when the pool is used up (counted in drops as DROP_NO_CELL, and tried again on
 * the next event). kname: a kernel string naming the series (NULL: named in user space).
 * Call it from the kind's own __noinline function, so that its instructions are verified and
 * emitted once and the hot path only jumps over them. */
static __always_inline int cell_miss(__u32 kind, __u64 id, __u32 sub, const char *kname,
				     __u64 threshold_ns)
{
	struct cell_key key = { .id = id, .sub = sub, .cpu = (__u16)bpf_get_smp_processor_id(),
				.kind = (__u16)kind };
	__u32 *found;
	int idx;

	found = bpf_map_lookup_elem(&cell_index, &key);
	if (found)
		return (int)*found;
	idx = cell_new();
	if (idx < 0 || cell_take((__u32)idx, &key, kname, threshold_ns) < 0) {	/* another CPU took the last one */
		count_drop(DROP_NO_CELL);
		return -1;
	}
	return idx;
}

#endif
