/* SPDX-License-Identifier: GPL-2.0 */
/* Threaded IRQs: what the hard-IRQ exit program (hardirq.bpf.c), sched_switch (sched.bpf.c)
 * and the thread's own programs (threaded.bpf.c) share. The hard-IRQ exit stamps the wake of
 * an irqaction's thread here, in its rare IRQ_WAKE_THREAD branch, rather than in a second
 * program on irq_handler_exit, which every interrupt would pay for (docs/bench.md); the
 * thread's switch-in, or its handler's start when it was still on its CPU, takes it. The
 * loader makes the other objects reuse these maps of the hard-IRQ object, as it does for the
 * cell pool. */
#ifndef IRQLAT_THREADED_BPF_H
#define IRQLAT_THREADED_BPF_H

#include <bpf/bpf_core_read.h>
#include "ringbuf.bpf.h"
#include "clock.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"
#include "why.bpf.h"

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

/* Per CPU, the cells of the IRQs whose threads run there (struct threaded_cpu) */
CPU_STATE(threaded_cpu, struct threaded_cpu)	/* bpf/cell.bpf.h */

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
 * again either: IRQTF_RUNTHREAD is set), so the latency runs from the first wake; and this
 * CPU's clocks (the exit's run already in them), for the explanation of a late wake. snap_ns
 * is cleared before the snapshot is written and set to the stamp after, so a reader that
 * finds it equal to the stamp it took, before and after reading, has the whole snapshot. Out
 * of line: the hot path only compares the return value. */
static __noinline __attribute__((unused)) void threaded_stamp(struct irqaction *action, __u32 irq, __u64 now,
							      const struct cpu_clock *k)
{
	__u32 pid = BPF_CORE_READ(action, thread, pid);
	struct threaded_task *t;

	if (!pid)	/* no thread (a handler bug the kernel warns about) */
		return;
	t = threaded_task_of(pid, (__u64)action, irq);
	if (!t || __sync_val_compare_and_swap(&t->wake_ns, 0, now) != 0)
		return;
	t->snap_ns = 0;
	asm volatile("" ::: "memory");
	t->wake_cpu = bpf_get_smp_processor_id();
	why_snapshot(k, now, &t->snap);
	asm volatile("" ::: "memory");
	t->snap_ns = now;
}

/* Cold path: an IRQ's first wake-to-run on this CPU, named by its irqaction */
static __noinline __attribute__((unused)) int threaded_wake_miss(__u64 action, __u32 irq, __u64 threshold_ns)
{
	return cell_miss(KIND_THREADED, action, irq, BPF_CORE_READ((struct irqaction *)action, name), threshold_ns);
}

/* ... and its first run there, named by the thread's comm (irq/24-virtio0) */
static __noinline __attribute__((unused)) int threaded_run_miss(__u64 action, __u32 irq, const char *comm,
								 __u64 threshold_ns)
{
	return cell_miss(KIND_THREADED_RUN, action, irq, comm, threshold_ns);
}

/* t's pending wake, if any, ends now (w->in.end_ns) on this CPU: its wake-to-run into the IRQ's
 * cell there and, at or above the cell's threshold, the outlier and its explanation. w->in:
 * where the wait ended (the caller's part: end, waiter, blocker); the stamp's part is filled
 * here.
 * The exchange takes the wake: one stamped meanwhile on another CPU is kept for the next
 * run, not lost; the snapshot is the stamp's if snap_ns reads as the wake before and after
 * the copy. */
static __noinline __attribute__((unused)) void threaded_take(struct threaded_task *t, const struct cpu_clock *k,
							      struct why_work *w, __u64 threshold_ns)
{
	struct why_in *in = &w->in;
	struct threaded_cpu *st = threaded_cpu_this();
	__u64 woken, s1, s2, d, action = t->action;
	__u32 irq = t->irq, *slot;
	struct lat_cell *c;

	woken = __sync_lock_test_and_set(&t->wake_ns, 0);
	if (!woken || !st || woken > in->end_ns)
		return;
	s1 = t->snap_ns;
	asm volatile("" ::: "memory");
	in->from = t->snap;
	in->wake_cpu = t->wake_cpu;
	asm volatile("" ::: "memory");
	s2 = t->snap_ns;
	d = in->end_ns - woken;
	slot = &st->wake_cell[irq & (THREADED_CACHE - 1)];
	c = cell_cached(slot, action, irq);
	if (!c)
		c = cell_fill(slot, threaded_wake_miss(action, irq, threshold_ns));
	if (!c)
		return;
	cell_record(c, d);
	if (d < c->threshold_ns)
		return;
	outlier_emit(*slot - 1, in->end_ns, d, irq);
	if (s1 != woken || s2 != woken)
		in->from.valid = 0;
	in->start_ns = in->cb_ns = woken;
	in->cell = *slot - 1;
	in->cls = WHY_CLASS_THREADED;
	why_wait(k, w);
}

/* A run of the thread, d ns ending at now: the thread handler's (fexit) or an on-CPU interval */
static __always_inline void threaded_record_run(struct threaded_task *t, __u64 now, __u64 d, const char *comm,
						__u64 threshold_ns)
{
	struct threaded_cpu *st = threaded_cpu_this();
	__u32 irq = t->irq, *slot;
	struct lat_cell *c;

	if (!st)
		return;
	slot = &st->run_cell[irq & (THREADED_CACHE - 1)];
	c = cell_cached(slot, t->action, irq);
	if (!c)
		c = cell_fill(slot, threaded_run_miss(t->action, irq, comm, threshold_ns));
	if (!c)
		return;
	cell_record(c, d);
	if (d >= c->threshold_ns)
		outlier_emit(*slot - 1, now, d, irq);
}

#endif
