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

/* Whether a record of size bytes leaves the last quarter of the ring free. Outliers and their
 * explanations stop there: a flood of them (every tick of an emulated CPU late, hundreds a
 * second a CPU) fills the ring whenever the daemon is held up for a moment, and the events of
 * the tracepoints a user attached, each one asked for and few, then found no room (the
 * systemd guest lost 19 of sillymod's 169 in one run, 2026-12-07). Two helper calls, on the
 * outliers' path only; the timelines stop at half (bpf/why.bpf.h). */
static __always_inline bool ringbuf_outlier_room(__u64 size)
{
	return 4 * (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) + size) <= 3 * bpf_ringbuf_query(&events, BPF_RB_RING_SIZE);
}

#endif
