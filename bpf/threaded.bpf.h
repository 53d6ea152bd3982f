/* SPDX-License-Identifier: GPL-2.0 */
/* Threaded IRQs: what the hard-IRQ exit program (hardirq.bpf.c) and the thread's programs
 * (threaded.bpf.c) share. The hard-IRQ exit stamps the wake of an irqaction's thread here,
 * in its rare IRQ_WAKE_THREAD branch, rather than in a second program on irq_handler_exit,
 * which every interrupt would pay for (docs/bench.md). The loader makes threaded.bpf.c reuse
 * these two maps of the hard-IRQ object, as it does for the cell pool. */
#ifndef IRQLAT_THREADED_BPF_H
#define IRQLAT_THREADED_BPF_H

#include <bpf/bpf_core_read.h>
#include "ringbuf.bpf.h"

/* pid -> the thread's state (struct threaded_task); preallocated, so it can be written from
 * hard-IRQ context (PREEMPT_RT included) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct threaded_task);
	__uint(max_entries, THREADED_TASKS);
} threaded_tasks SEC(".maps");

/* Bit (pid & 32767) set for every tracked thread: sched_switch reads one word of it and
 * leaves every other task there. Written once per thread, read by every CPU: it stays in
 * their caches. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64[THREADED_PID_WORDS]);
	__uint(max_entries, 1);
} threaded_pids SEC(".maps");

static __always_inline bool threaded_pid_tracked(__u32 pid)
{
	__u32 zero = 0;
	__u64 *bits = bpf_map_lookup_elem(&threaded_pids, &zero);

	return bits && (bits[(pid >> 6) & (THREADED_PID_WORDS - 1)] >> (pid & 63)) & 1;
}

/* The thread pid's entry for (action, irq), made on its first sight; NULL when the table is
 * full (counted as no_cell: that thread is not measured). */
static __always_inline struct threaded_task *threaded_task_of(__u32 pid, __u64 action, __u32 irq)
{
	struct threaded_task *t = bpf_map_lookup_elem(&threaded_tasks, &pid), fresh = {};
	__u32 zero = 0;
	__u64 *bits;

	if (t && t->action == action)
		return t;
	/* new, or a pid reused by another irqaction's thread */
	fresh.action = action;
	fresh.irq = irq;
	if (bpf_map_update_elem(&threaded_tasks, &pid, &fresh, BPF_ANY)) {
		count_drop(DROP_NO_CELL);
		return NULL;
	}
	bits = bpf_map_lookup_elem(&threaded_pids, &zero);
	if (bits)
		__sync_fetch_and_or(&bits[(pid >> 6) & (THREADED_PID_WORDS - 1)], 1ull << (pid & 63));
	return bpf_map_lookup_elem(&threaded_tasks, &pid);
}

/* At the hard-IRQ exit of a handler that returned IRQ_WAKE_THREAD, before genirq wakes the
 * thread: stamp now, unless a wake is already pending (the kernel then does not wake it
 * again either: IRQTF_RUNTHREAD is set), so the latency runs from the first wake. Out of
 * line: the hot path only compares the return value. */
static __noinline __attribute__((unused)) void threaded_stamp(struct irqaction *action, __u32 irq, __u64 now)
{
	__u32 pid = BPF_CORE_READ(action, thread, pid);
	struct threaded_task *t;

	if (!pid)	/* no thread (a handler bug the kernel warns about) */
		return;
	t = threaded_task_of(pid, (__u64)action, irq);
	if (t)
		__sync_val_compare_and_swap(&t->wake_ns, 0, now);
}

#endif
