// SPDX-License-Identifier: GPL-2.0
/* Timer lateness and wake-up latency, into the shared cells (bpf/cell.bpf.h).
 *
 * Lateness (KIND_TIMER): at timer:hrtimer_expire_entry, the tracepoint's `now` (the time of
 * the timer's clock base when the expiry code ran it) minus the timer's hard expiry
 * (node.expires), per timer function and CPU. node.expires and not _softexpires: a timer with
 * slack may run anywhere in [_softexpires, node.expires], the kernel programs the hardware for
 * node.expires, so _softexpires is the early edge of the range the caller allowed and
 * node.expires the latest time it was due; lateness past it is the kernel being late, and a
 * timer run early inside its slack counts as 0 ns late, never as negative.
 *
 * Wake-up latency (KIND_WAKEUP): a timer whose function is hrtimer_wakeup (a task sleeping in
 * nanosleep, clock_nanosleep, poll or select with a timeout...) stores its hard expiry, in
 * CLOCK_MONOTONIC, in the woken task's entry of timer_task (an LRU hash by pid) and sets the
 * pid's bit in timer_pids; at sched:sched_switch, the task being switched in, if its bit is
 * set, records bpf_ktime_get_ns() minus it, per task and CPU, and per CPU for every task
 * together (KIND_WAKEUP_CPU). The expiry and not `now`: what the sleeper waits for is its
 * expiry (cyclictest measures from the time it asked for), so the timer's own lateness is part
 * of its wake-up latency. sched_switch runs on every context switch: one word of the bitmap
 * (an array lookup the verifier inlines, no helper call) and an exit for every task without a
 * pending expiry.
 *
 * Nothing here allocates, takes a task reference or needs a kfunc: the maps are preallocated
 * (an LRU hash is), written only at the expiry (hard-IRQ context, PREEMPT_RT included) and
 * read in place at the switch, so it loads on Linux 6.1 (Debian 12) as on later kernels. The
 * expiry reads the sleeper's task with CO-RE probe reads, not through a trusted pointer.
 *
 * The tick (tick_nohz_handler, tick_sched_timer on older kernels) and hrtimer_wakeup are told
 * apart in user space by the function address (the series' id), named from /proc/kallsyms
 * there; the only address the programs compare with is hrtimer_wakeup's, set by the loader. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"

CPU_STATE(timer_cpu, struct timer_cpu)	/* bpf/cell.bpf.h */

/* pid -> struct timer_task (irqlat_abi.h) */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, struct timer_task);
	__uint(max_entries, TIMER_TASKS);
} timer_task SEC(".maps");

/* Bit pid set while the task's expiry is pending: word pid / 64 of timer_pid_words, one per
 * 64 pids below the pid_max the loader read (4194304 pids: 512 KiB). A pid past it (pid_max
 * raised after the start) has no word and is looked up in the hash at each switch-in. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);	/* timer_pid_words, set by the loader */
} timer_pids SEC(".maps");

/* Wake-up cells the daemon took back from tasks that exited, cleared (src/daemon/wakeup_reclaim.c):
 * the next task of its own takes one of these before a new cell from the pool, so the pool
 * holds no more wake-up cells than the bound. Popped on the cold path only. */
struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__type(value, __u32);
	__uint(max_entries, 1);	/* max_wakeup_cells, set by the loader */
} wakeup_free SEC(".maps");

/* Set by the loader before load: hrtimer_wakeup's address from /proc/kallsyms (0: wake-ups not
 * measured, and the verifier drops that code), and the bound on wake-up cells. */
const volatile __u64 hrtimer_wakeup_fn = 0;
const volatile __u32 max_wakeup_cells = 1024;

/* What a new cell starts with (the daemon writes each cell's own); ~0 turns outliers off. */
volatile __u64 lateness_threshold_ns = 200000;
volatile __u64 wakeup_threshold_ns = 500000;

/* Wake-up cells that tasks of their own hold (the rest share pid 0): the cold path adds one
 * for each it hands out, the daemon takes off those it gave back to wakeup_free. */
__u32 wakeup_cells;

/* Cold path: a timer function's first expiry on this CPU, or two colliding in the cache. */
static __noinline int timer_miss(__u64 fn, __u32 cpu)
{
	return cell_miss(KIND_TIMER, fn, cpu, NULL, lateness_threshold_ns);
}

/* Cold path: a task's first wake-up on this CPU. Past max_wakeup_cells cells of tasks of
 * their own, a task's wake-ups go to the shared cell of pid 0 on the CPU ("(other)"). A cell
 * given back by the daemon is taken before a new one. wakeup_cells counts exactly the cells
 * held: an increment that finds the bound reached, or no cell, is taken back, since the
 * daemon subtracts only what it gave back. */
static __noinline int wakeup_miss(__u32 pid, const char *comm)
{
	struct cell_key key = { .id = pid, .sub = pid, .cpu = (__u16)bpf_get_smp_processor_id(),
				.kind = KIND_WAKEUP };
	__u32 *found = bpf_map_lookup_elem(&cell_index, &key), idx;
	int r;

	if (found)
		return (int)*found;
	if (wakeup_cells >= max_wakeup_cells)
		return cell_miss(KIND_WAKEUP, 0, 0, NULL, wakeup_threshold_ns);
	if (__sync_fetch_and_add(&wakeup_cells, 1) >= max_wakeup_cells) {
		__sync_fetch_and_sub(&wakeup_cells, 1);
		return cell_miss(KIND_WAKEUP, 0, 0, NULL, wakeup_threshold_ns);
	}
	if (bpf_map_pop_elem(&wakeup_free, &idx) == 0 && cell_take(idx, &key, comm, wakeup_threshold_ns) == 0)
		return (int)idx;
	r = cell_miss(KIND_WAKEUP, pid, pid, comm, wakeup_threshold_ns);
	if (r >= 0)
		return r;
	__sync_fetch_and_sub(&wakeup_cells, 1);	/* the pool is used up: counted in drops */
	return cell_miss(KIND_WAKEUP, 0, 0, NULL, wakeup_threshold_ns);
}

/* Cold path: the first wake-up measured on this CPU, for its all-tasks cell (no outliers: the
 * task's own cell has them) */
static __noinline int wakeup_cpu_miss(__u32 cpu)
{
	return cell_miss(KIND_WAKEUP_CPU, cpu, cpu, NULL, ~0ULL);
}

static __always_inline void record_lateness(__u64 fn, __s64 late, __u64 ts_ns, __u64 aux)
{
	struct timer_cpu *st = timer_cpu_this();
	__u32 cpu = bpf_get_smp_processor_id(), *slot;
	__u64 v = late > 0 ? (__u64)late : 0;	/* early inside its slack: not late */
	struct lat_cell *c;

	if (!st)
		return;
	slot = &st->cell[(fn >> 4) & (TIMER_CACHE - 1)];
	c = cell_cached(slot, fn, cpu);
	if (!c)
		c = cell_fill(slot, timer_miss(fn, cpu));
	if (!c)
		return;
	cell_record(c, v);
	if (v >= c->threshold_ns)
		outlier_emit(*slot - 1, ts_ns, v, aux);
}

/* The pid's word of timer_pids; NULL past the bitmap */
static __always_inline __u64 *pid_word(__u32 pid)
{
	__u32 w = pid >> 6;

	return bpf_map_lookup_elem(&timer_pids, &w);
}

/* The sleeper's task, stamped with the expiry, unless it is on a CPU now: then the wake-up
 * needs no switch (the timer fired before the task scheduled out), and a stamp would wait for
 * its next switch-in, however much later. The entry is written before the bit is set, so a
 * switch-in that sees the bit finds the expiry. Out of line: only hrtimer_wakeup timers come
 * here. Returns the pid (0: none). */
static __noinline __u32 stamp_sleeper(struct hrtimer *timer, __u64 expires)
{
	/* the timer is the sleeper's first member; its task pointer is read, not trusted */
	struct hrtimer_sleeper *sl = (void *)timer - bpf_core_field_offset(struct hrtimer_sleeper, timer);
	struct task_struct *task = BPF_CORE_READ(sl, task);
	struct timer_task *tt, fresh = {};
	__u32 pid;
	__u64 *w;

	if (!task)
		return 0;
	pid = BPF_CORE_READ(task, pid);
	if (!pid || BPF_CORE_READ(task, on_cpu))
		return pid;
	/* the expiry is in the timer's clock base; offset = that clock - CLOCK_MONOTONIC */
	fresh.expires_ns = expires - BPF_CORE_READ(timer, base, offset);
	tt = bpf_map_lookup_elem(&timer_task, &pid);
	if (tt)
		tt->expires_ns = fresh.expires_ns;
	else if (bpf_map_update_elem(&timer_task, &pid, &fresh, BPF_ANY))
		return pid;
	w = pid_word(pid);
	if (w)
		__sync_fetch_and_or(w, 1ull << (pid & 63));
	return pid;
}

static __always_inline void on_expiry(struct hrtimer *timer, __u64 fn, __u64 expires, __s64 t_now)
{
	__u64 aux = 0;

	if (hrtimer_wakeup_fn && fn == hrtimer_wakeup_fn)
		aux = stamp_sleeper(timer, expires);
	record_lateness(fn, t_now - (__s64)expires, t_now, aux);
}

SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(hrtimer_expire_entry_btf, struct hrtimer *timer, ktime_t *now)
{
	__u64 fn = 0;
	__s64 t_now = 0;

	/* a function pointer reads as a pointer to memory and an int pointer as a scalar to the
	 * verifier: both values come through the helper */
	bpf_probe_read_kernel(&fn, sizeof(fn), &timer->function);
	bpf_probe_read_kernel(&t_now, sizeof(t_now), now);
	on_expiry(timer, fn, timer->node.expires, t_now);
	return 0;
}

SEC("raw_tp/hrtimer_expire_entry")
int BPF_PROG(hrtimer_expire_entry_raw, struct hrtimer *timer, ktime_t *now)
{
	__u64 fn = (__u64)BPF_CORE_READ(timer, function);
	__s64 t_now = 0;

	bpf_probe_read_kernel(&t_now, sizeof(t_now), now);
	on_expiry(timer, fn, BPF_CORE_READ(timer, node.expires), t_now);
	return 0;
}

/* The task pid being switched in: its wake-up latency if a timer stamped it */
static __always_inline void switch_in(__u32 pid, const char *comm)
{
	struct timer_task *tt;
	__u64 now, expires, v, *w = pid_word(pid);
	__u32 cpu;
	struct lat_cell *c = NULL;

	if (w) {
		if (!((*w >> (pid & 63)) & 1))
			return;	/* the common case: not woken by a timer we saw */
		__sync_fetch_and_and(w, ~(1ull << (pid & 63)));
	}
	tt = bpf_map_lookup_elem(&timer_task, &pid);
	if (!tt || !tt->expires_ns)
		return;
	now = bpf_ktime_get_ns();
	expires = tt->expires_ns;
	tt->expires_ns = 0;
	v = now > expires ? now - expires : 0;
	cpu = bpf_get_smp_processor_id();
	if (tt->cpu == cpu + 1) {
		c = cell_cached(&tt->cell, pid, pid);
		/* past the bound: the shared cell, unless the daemon has given cells back since
		 * (the .bss line is read only by the wake-ups of tasks in "(other)") */
		if (!c && (c = cell_cached(&tt->cell, 0, 0)) && wakeup_cells < max_wakeup_cells)
			c = NULL;
	}
	if (!c) {
		tt->cpu = cpu + 1;
		c = cell_fill(&tt->cell, wakeup_miss(pid, comm));
	}
	if (c) {
		cell_record(c, v);
		if (v >= c->threshold_ns)
			outlier_emit(tt->cell - 1, now, v, pid);
	}
	/* and the CPU's, every task together */
	struct timer_cpu *st = timer_cpu_this();

	if (!st)
		return;
	c = cell_cached(&st->wake_cell, cpu, cpu);
	if (!c)
		c = cell_fill(&st->wake_cell, wakeup_cpu_miss(cpu));
	if (c)
		cell_record(c, v);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch_btf, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	switch_in(next->pid, next->comm);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(sched_switch_raw, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	switch_in(BPF_CORE_READ(next, pid), __builtin_preserve_access_index(&next->comm[0]));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
