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
 * multiples of 64 bytes, so no two CPUs share a line. Defines the map `map` and
 * `map_this()`, this CPU's element of type `state`. */
#define CPU_STATE(map, state)								\
	struct {									\
		__uint(type, BPF_MAP_TYPE_ARRAY);					\
		__uint(map_flags, BPF_F_MMAPABLE);					\
		__type(key, __u32);							\
		__type(value, state);							\
		__uint(max_entries, 1);							\
	} map SEC(".maps");								\
	static __always_inline state *map##_this(void)					\
	{										\
		__u32 cpu = bpf_get_smp_processor_id();					\
											\
		return bpf_map_lookup_elem(&map, &cpu);				\
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

/* Makes cell idx, zeroed, the cell of key: a new one from the pool, or one that user space took
 * back and cleared (the wake-up cells of tasks that exited). Its metadata's `ready` last: user
 * space takes the cell once it is set. -1 when idx is past the pool. */
static __always_inline int cell_take(__u32 idx, const struct cell_key *key, const char *kname,
				     __u64 threshold_ns)
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
	struct cell_pool *pool;
	__u32 zero = 0, *found, idx;

	found = bpf_map_lookup_elem(&cell_index, &key);
	if (found)
		return (int)*found;
	pool = bpf_map_lookup_elem(&cell_next, &zero);
	if (!pool || pool->next >= pool->max)	/* checked first, so next stays near max */
		goto none;
	idx = __sync_fetch_and_add(&pool->next, 1);
	if (cell_take(idx, &key, kname, threshold_ns) < 0)	/* another CPU took the last one */
		goto none;
	return (int)idx;
none:
	count_drop(DROP_NO_CELL);
	return -1;
}

#endif
