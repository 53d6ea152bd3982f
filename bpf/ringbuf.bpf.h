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

/* Whether the ring would stay at most quarters/4 full with a record of size bytes more. The
 * records of outliers stop at three quarters, leaving the last quarter to the tracepoints'
 * events, each one a user asked for, and few: a flood of outliers (an emulated CPU's every
 * tick late) fills the ring whenever the daemon is held up for a moment. Timelines stop at
 * half (bpf/why.bpf.h). Two helper calls, on the outliers' path only. */
static __always_inline bool ringbuf_below(__u64 size, __u64 quarters)
{
	return 4 * (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) + size) <= quarters * bpf_ringbuf_query(&events, BPF_RB_RING_SIZE);
}

#endif
