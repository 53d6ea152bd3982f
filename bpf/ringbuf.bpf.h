/* SPDX-License-Identifier: GPL-2.0 */
/* The ring buffer every program writes to, and the per-CPU count of records it refused.
 * Each BPF object declares them; the loader makes all objects share one instance. */
#ifndef IRQLAT_RINGBUF_BPF_H
#define IRQLAT_RINGBUF_BPF_H

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, DROP_KINDS);
} drops SEC(".maps");

static __always_inline void count_drop(__u32 kind)
{
	__u64 *n = bpf_map_lookup_elem(&drops, &kind);

	if (n)
		*n += 1;
}

#endif
