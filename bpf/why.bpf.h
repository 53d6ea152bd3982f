/* SPDX-License-Identifier: GPL-2.0 */
/* Why a wait was late: the explanation of an outlier (struct why_event, irqlat_abi.h), from
 * the CPU's clocks (bpf/clock.bpf.h) read at the wait's start and at its end, and the per-CPU
 * counts of what the late waits spent in each part (why_counts).
 *
 * A wait runs from its start (a timer's hard expiry; a hard-IRQ exit that woke an IRQ thread)
 * to the waiter's switch-in on a CPU (or its handler's start, for an IRQ thread still on its
 * CPU). Its parts: the timer's lateness (its expiry to its callback's start), then, over the
 * rest, the differences of the CPU's clocks: hard IRQs, vectors, softirqs, NMIs, the idle task,
 * the tasks; of the tasks' time, the blocking task's (the one switched out for the waiter) is
 * a part of its own when it had at least the waiter's priority, and goes to the remainder
 * (the scheduler and preemption-off sections) when a real-time waiter had to wait for a task
 * of lower priority; the other tasks' time is the rest. The parts are clamped in that order to
 * what the earlier ones left, and the remainder takes what is left over, so they add up to the
 * total exactly whatever a race between a clock's reading and its update did. A wait that
 * started on one CPU and ended on another is not split (WHY_UNSPLIT): the clocks of one CPU
 * say nothing of the other's.
 *
 * All of it runs only for a wait at or above its threshold (an outlier), out of line. */
#ifndef IRQLAT_WHY_BPF_H
#define IRQLAT_WHY_BPF_H

#include <bpf/bpf_core_read.h>
#include "clock.bpf.h"
#include "outlier.bpf.h"

/* Per CPU and class, the late waits' parts: element cpu * WHY_CLASSES + class (the loader
 * sizes it), written only by that CPU's programs */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct why_count);
	__uint(max_entries, WHY_CLASSES);
} why_counts SEC(".maps");

/* What a wait's explanation is made from */
struct why_in {
	__u64 start_ns;		/* the wait's start */
	__u64 cb_ns;		/* a timer's callback start (start_ns otherwise): the clocks' window starts here */
	__u64 end_ns;		/* its end: the switch-in, or the handler's start */
	__u64 waiter;		/* struct task_struct * of the waiter */
	__u64 blocker;		/* struct task_struct * switched out for it, or the waiter itself (ON_CPU) */
	__u64 blocker_in_ns;	/* the blocker's last switch-in */
	__u64 blocker_net_ns;	/* its time since, net of interrupts */
	struct why_snap from;	/* wake_cpu's clocks at cb_ns */
	__u32 wake_cpu;
	__u32 flags;		/* WHY_F_IDLE_AT_EXPIRY, WHY_F_SOFT, WHY_F_ON_CPU from the stamp */
	__u32 pid;		/* the waiter */
	__u32 cell;		/* the outlier's cell index */
	__u32 cls;		/* enum why_class */
	__u32 switched;		/* 1: the end is the waiter's own switch-in (counted in the switches) */
};

/* A wait's explanation is worked out in a per-CPU array value (one element, looked up once by
 * the program the wait ends in), not on the stack: Linux 6.1's verifier allows 512 bytes of
 * stack over the whole chain of calls (program, threaded_take(), why_wait(), the bpf_loop()
 * step), and with these on it the threaded fentry programs came to 544 and were refused. */
struct why_work {
	struct why_in in;		/* filled by the caller */
	__u64 part[WHY_PARTS];		/* why_wait()'s own */
	struct why_snap to;		/* this CPU's clocks at the wait's end */
	__u32 scan;			/* enum why_scan_ctx: where why_top() works (struct cpu_clock) */
};

/* The clamping in the order of the parts; the remainder is what is left, which holds its own
 * part (the time of a blocking task of lower priority, counted in no other part) when the
 * others leave room for it: the parts then add up to the total exactly, whatever it held */
static __always_inline void why_clamp(__u64 *part, __u64 total)
{
	__u64 left = total, v;

#pragma unroll
	for (int i = 0; i < WHY_PARTS; i++) {
		if (i == WHY_REMAINDER)
			continue;
		v = bf_min(part[i], left);
		part[i] = v;
		left -= v;
	}
	part[WHY_REMAINDER] = left;
}

static __always_inline void why_count_add(__u32 cls, __u64 total, const __u64 *part, bool unsent)
{
	__u32 key = bpf_get_smp_processor_id() * WHY_CLASSES + cls;
	struct why_count *n = bpf_map_lookup_elem(&why_counts, &key);

	if (!n)
		return;
	/* seq odd around the update, for the daemon's reader on another CPU (struct why_count):
	 * locked adds, so the stores between them are seen after the first and before the second */
	__sync_fetch_and_add(&n->seq, 1);
	n->waits++;
	n->total_ns += total;
#pragma unroll
	for (int i = 0; i < WHY_PARTS; i++)
		n->part_ns[i] += part[i];
	if (unsent) {
		n->unsent++;
		if (total > n->unsent_max_ns)	/* a swap for 0 by the daemon in between: taken */
			n->unsent_max_ns = total;
	}
	__sync_fetch_and_add(&n->seq, 1);
}

/* bpf_loop()'s context for why_scan_step(): on the caller's stack (bpf_loop() takes no other
 * memory), and the same at every step */
struct why_scan_ref {
	__u32 cpu;
	__u32 ctx;	/* enum why_scan_ctx */
};

/* One event of the ring per bpf_loop() step: the verifier checks the step once, not each of
 * RECENT_EVENTS copies of it. What the scan keeps is in the CPU's clock element (struct
 * why_scan), not on the caller's stack: the verifier follows a stack's values from step to
 * step (Linux 6.8 and later), and every way a scan of the stack could end went on through
 * the rest of the caller: most of the daemon's start-up was the verifier's. A map value's
 * contents are unknown to it, and the stack here never changes, so the scan is one state. */
static int why_scan_step(__u32 i, struct why_scan_ref *ref)
{
	struct cpu_clock *k = clock_cpu_of(ref->cpu);
	const struct recent_event *r;
	struct why_scan *s;
	__u64 end, ns, begin;
	__u32 cls, cell;

	if (!k || ref->ctx >= WHY_SCAN_CTXS)
		return 1;
	s = &k->scan[ref->ctx];
	r = &k->recent[i & (RECENT_EVENTS - 1)];
	end = r->end_ns;
	ns = r->ns;
	begin = end > ns ? end - ns : 0;
	cls = (r->cell >> RECENT_CLASS_SHIFT) & (RECENT_CLASSES - 1);
	cell = r->cell & ((1U << RECENT_CLASS_SHIFT) - 1);
	if (!end)
		return 0;
	if (!s->second) {
		s->seen++;
		if (end < s->oldest)
			s->oldest = end;
	}
	if (s->overlap) {
		if (end <= s->from || begin >= s->to)
			return 0;
		ns = (end < s->to ? end : s->to) - (begin > s->from ? begin : s->from);
	} else if (end <= s->from || end > s->to) {
		return 0;
	}
	if (!cell)
		return 0;
	if (s->second) {
		if (cell == s->best[cls])
			s->top[cls] += ns;
		return 0;
	}
	s->sum[cls] += ns;
	if (ns > s->most[cls]) {
		s->most[cls] = ns;
		s->best[cls] = cell;
	}
	return 0;
}

/* one of why_event.top[] */
typedef __typeof__(((struct why_event *)0)->top[0]) why_top_t;

/* The ring's events in [from, to] of this CPU: per class, the cell with the largest single
 * event, and that cell's time in the window, into top[RECENT_CLASSES]; WHY_F_RECENT_PARTIAL
 * into *flags; sum (when not NULL): each class's time in the window. overlap: count only the
 * part of each event in the window (a late timer's), else an event that ended in it whole.
 * ctx: the caller's context (enum why_scan_ctx), whose room in k the scan works in. */
static __always_inline void why_top(struct cpu_clock *k, enum why_scan_ctx ctx, __u64 from, __u64 to, bool overlap,
				    why_top_t *top, __u32 *flags, __u64 *sum)
{
	struct why_scan_ref ref = { .cpu = bpf_get_smp_processor_id(), .ctx = ctx };
	struct why_scan *s;

	if (ctx >= WHY_SCAN_CTXS)
		return;
	s = &k->scan[ctx];
	__builtin_memset(s, 0, sizeof(*s));
	s->from = from;
	s->to = to;
	s->oldest = ~0ULL;
	s->overlap = overlap;
	bpf_loop(RECENT_EVENTS, why_scan_step, &ref, 0);
	s->second = 1;
	bpf_loop(RECENT_EVENTS, why_scan_step, &ref, 0);
#pragma unroll
	for (int c = 0; c < RECENT_CLASSES; c++) {
		top[c].cell = s->best[c];
		top[c].ns = s->top[c];
		if (sum)
			sum[c] = s->sum[c];
	}
	if (s->seen == RECENT_EVENTS && s->oldest > from)
		*flags |= WHY_F_RECENT_PARTIAL;
}

/* One record of the flight recorder per bpf_loop() step, newest first, as why_scan_step():
 * the blocking task's runs in [from, to), to being its last switch-in. Newest first, so that
 * the scan walks the wait's records only: it skips those at or after to (its last run, which
 * the caller has from the clocks) and stops at the first before from. Going back, a run
 * begins at the task's switch-out and ends at its switch-in, or at from when it ran then;
 * the interrupts that ended in it (their records' own net times) are taken out. */
static int why_runs_step(__u32 i, struct why_scan_ref *ref)
{
	struct cpu_clock *k = clock_cpu_of(ref->cpu);
	const struct flight_rec *r;
	struct why_runs *u;
	struct why_scan *s;
	__u64 ts, d;

	if (!k || ref->ctx >= WHY_SCAN_CTXS)
		return 1;
	s = &k->scan[ref->ctx];
	u = &s->runs;
	r = &k->flight[(u->base - 1 - i) & (FLIGHT_EVENTS - 1)];
	ts = r->ts_ns;
	if (!ts)
		return 1;	/* never written, nor any older one */
	if (ts >= s->to)
		return 0;
	if (ts < s->from) {	/* the window's start: a run it was in counts from there */
		if (u->running) {
			d = u->run_end - s->from;
			u->earlier += d > u->intr ? d - u->intr : 0;
		}
		return 1;
	}
	if (r->type == FL_SWITCH) {
		if (u->running && r->b == u->pid) {	/* its switch-in: the run's start */
			d = u->run_end - ts;
			u->earlier += d > u->intr ? d - u->intr : 0;
			u->running = 0;
			u->ins++;
		}
		if (r->a == u->pid) {	/* its switch-out: a run's end */
			u->running = 1;
			u->run_end = ts;
			u->intr = 0;
		}
	} else if (r->type < FL_SWITCH && u->running) {
		d = ts - s->from;
		u->intr += r->a < d ? r->a : d;
	}
	return 0;
}

/* The blocking task's (pid's) time in [from, to) on this CPU, net of interrupts, from the
 * flight recorder: its runs before its last switch-in (to), which the clocks of the wait's
 * end do not tell apart from other tasks' (a busy task preempted in the wait by a kworker, a
 * migration thread). As far back as the recorder reaches: a run older than its oldest record
 * is not counted. *ins: its switch-ins in the window but the
 * last, which the caller's count of other tasks' takes out. Outliers only. */
static __always_inline __u64 why_blocker_earlier(struct cpu_clock *k, enum why_scan_ctx ctx, __u32 pid, __u64 from,
						 __u64 to, __u64 *ins)
{
	struct why_scan_ref ref = { .cpu = bpf_get_smp_processor_id(), .ctx = ctx };
	struct why_scan *s;

	if (ctx >= WHY_SCAN_CTXS)
		return 0;
	s = &k->scan[ctx];
	__builtin_memset(s, 0, sizeof(*s));
	s->from = from;
	s->to = to;
	s->runs.pid = pid;
	s->runs.base = k->flight_head;
	bpf_loop(FLIGHT_EVENTS, why_runs_step, &ref, 0);
	*ins = s->runs.ins;
	return s->runs.earlier;
}

/* A task's identity into the record (a kernel pointer read by CO-RE probe reads: the caller
 * may hold it only as a number) */
static __always_inline void why_task(struct why_event *e, __u64 task)
{
	struct task_struct *t = (struct task_struct *)task;

	e->blocker_pid = BPF_CORE_READ(t, pid);
	e->blocker_prio = BPF_CORE_READ(t, prio);
	e->blocker_policy = BPF_CORE_READ(t, policy);
	BPF_CORE_READ_STR_INTO(&e->blocker_comm, t, comm);
}

/* The outlier's timeline: this CPU's flight recorder, the block of its newest record and the
 * one before (struct timeline_event), sent before the explanation so that the daemon holds it
 * when the explanation comes. Two probe reads of constant size: a copy by record would be a
 * loop for the verifier, or a bpf_loop() whose steps cannot hold the ring buffer's record.
 * The timeline goes first when the ring buffer fills: none is sent while it is half full, so
 * that 3 KiB records do not take the room of the outliers and explanations behind them (the
 * explanation then comes without one). And one a CPU every TIMELINE_GAP_NS at most: under a
 * flood of late timers (an emulated CPU's every tick) 3 KiB each, and the daemon's work on
 * each, outran the daemon and the ring buffer dropped the events behind them. */
#define TIMELINE_GAP_NS 20000000ull
static __always_inline void timeline_send(const struct cpu_clock *k, __u32 cell, __u64 ts_ns, __u64 start_ns)
{
	struct timeline_event *t;
	__u32 head = k->flight_head, newest = (head - 1) >> 6;	/* the newest record's block */
	__u32 mask = FLIGHT_EVENTS / TIMELINE_BLOCK - 1;

	if (ts_ns - k->timeline_ns < TIMELINE_GAP_NS)
		return;
	if (!ringbuf_below(sizeof(*t), 2))
		return;
	t = bpf_ringbuf_reserve(&events, sizeof(*t), 0);
	if (!t)
		return;
	((struct cpu_clock *)k)->timeline_ns = ts_ns;
	t->type = RB_TIMELINE;
	t->cell = cell;
	t->ts_ns = ts_ns;
	t->start_ns = start_ns;
	t->cpu = bpf_get_smp_processor_id();
	t->head = head;
	bpf_probe_read_kernel(&t->rec[0], TIMELINE_BLOCK * sizeof(struct flight_rec),
			      &k->flight[((newest - 1) & mask) * TIMELINE_BLOCK]);
	bpf_probe_read_kernel(&t->rec[TIMELINE_BLOCK], TIMELINE_BLOCK * sizeof(struct flight_rec),
			      &k->flight[(newest & mask) * TIMELINE_BLOCK]);
	bpf_ringbuf_submit(t, 0);
}

/* The stacks of the task on this CPU into the record, if it is the one the record names
 * (blocker: a kernel pointer as a number; current in sched_switch is the task being switched
 * out), and not the idle task (its stack is the idle loop's). At most once a CPU every
 * STACKS_GAP for each of the two kinds of record (a late timer and the wait it delays come
 * together, and each should have its stacks): the two helper calls walk the kernel's and
 * the user's frames, some 20 us an outlier under emulation, where the rest of the outlier's
 * work is a few hundred ns, and a flood of late timers made them most of the timer
 * programs' time. bpf_get_task_stack() of current, not bpf_get_stack(): the global functions
 * that make the records have no context to pass it (Linux 6.1 types no global function
 * argument as a context). Not a STACK_TRACE map with bpf_get_stackid(): its ids are a hash of
 * the stack whose buckets a later stack overwrites (the daemon would read another task's
 * stack, or none) and every record would cost the daemon a lookup syscall; here the frames
 * travel in the record itself, and only outliers take them. */
static __always_inline void why_stacks(const struct cpu_clock *k, struct why_event *e, __u64 blocker, __u64 now,
				       enum why_stacks_for what)
{
	__u16 t = (__u16)(now >> 20);
	__u64 id;
	long n;

	if (!blocker || blocker != bpf_get_current_task())
		return;
	if ((__u16)(t - k->stacks_at[what & 1]) < STACKS_GAP)
		return;
	id = bpf_get_current_pid_tgid();
	if ((__u32)id == 0)
		return;
	((struct cpu_clock *)k)->stacks_at[what & 1] = t;
	e->stack_pid = (__u32)id;
	n = bpf_get_task_stack(bpf_get_current_task_btf(), e->kstack, sizeof(e->kstack), 0);
	e->kstack_n = n > 0 ? (__u64)n / 8 : 0;
	n = bpf_get_task_stack(bpf_get_current_task_btf(), e->ustack, sizeof(e->ustack), BPF_F_USER_STACK);
	e->ustack_n = n > 0 ? (__u64)n / 8 : 0;
}

/* A wait at or above its cell's threshold ended on this CPU: its parts, the counts, the
 * record. k: this CPU's clocks, already past the switch (sched_switch) or at the handler's
 * start; w: the wait (w->in, the caller's) and the room to work it out. A global function: the verifier checks it once, not at each call in each context
 * (under QEMU's emulation a daemon whose explanation was checked at every call took over a
 * minute to load). */
__noinline int why_wait(const struct cpu_clock *k, struct why_work *w)
{
	const struct why_in *in;
	__u64 *part;
	__u64 total, late;
	__u32 cpu = bpf_get_smp_processor_id(), flags;
	__u64 waiter_prio;
	/* kernel pointers held as numbers, read by CO-RE probe reads (not the struct they are in) */
	struct task_struct *waiter, *blocker;
	__u64 blocker_pid, blocker_prio, others, idle_exp, ran_on, moved, no_clocks, unsplit, split;
	__u64 d_task, switches, has_blocker, blocking, lower, earlier = 0, ins = 0;
	struct why_snap *to;
	struct why_event *e;

	if (!k || !w)
		return 0;
	in = &w->in;
	part = w->part;
	to = &w->to;
	__builtin_memset(part, 0, sizeof(w->part));
	/* no branches from here to the parts' end: see bf_pos() */
	total = bf_pos(in->end_ns - in->start_ns);
	late = bf_pos(in->cb_ns - in->start_ns);
	flags = in->flags;
	waiter = (struct task_struct *)in->waiter;
	blocker = (struct task_struct *)in->blocker;	/* NULL reads as 0 */
	waiter_prio = BPF_CORE_READ(waiter, prio);
	blocker_pid = BPF_CORE_READ(blocker, pid);
	blocker_prio = BPF_CORE_READ(blocker, prio);
	/* the blocker switched in during the wait: its runs before that one, if any */
	if (blocker_pid && in->blocker != in->waiter && in->blocker_in_ns > in->cb_ns && in->wake_cpu == cpu &&
	    !(flags & WHY_F_RAN_ON))
		earlier = why_blocker_earlier((struct cpu_clock *)k, w->scan, blocker_pid, in->cb_ns, in->blocker_in_ns,
					      &ins);
	idle_exp = flags & WHY_F_IDLE_AT_EXPIRY;
	part[WHY_LATE_IDLE] = late * idle_exp;
	part[WHY_LATE_BUSY] = late * (1 - idle_exp);
	/* a wait that ended at its wake (the task ran on, WHY_F_RAN_ON) is its timer's lateness and
	 * then the callback's interrupt up to the wake, exactly: no clocks to split */
	ran_on = bf_nz(flags & WHY_F_RAN_ON);
	moved = bf_nz(in->wake_cpu ^ cpu) * (1 - ran_on);
	no_clocks = ((1 - in->from.valid) | (1 - bf_nz(k->switch_ns)) | bf_nz(total >> 32)) * (1 - ran_on);
	unsplit = moved | no_clocks;
	flags |= moved * WHY_F_MOVED | no_clocks * WHY_F_NO_CLOCKS;
	part[WHY_UNSPLIT] = total * unsplit;
	split = 1 - unsplit - ran_on;
	why_snapshot(k, in->end_ns, to);
	part[WHY_IRQ] = (__u32)(to->irq - in->from.irq) * split;
	part[WHY_VECTOR] = (__u32)(to->vec - in->from.vec) * split + bf_pos(total - late) * ran_on;
	part[WHY_SOFTIRQ] = (__u32)(to->softirq - in->from.softirq) * split;
	part[WHY_NMI] = (__u32)(to->nmi - in->from.nmi) * split;
	part[WHY_IDLE] = (__u32)(to->idle - in->from.idle) * split;
	d_task = (__u32)(to->task - in->from.task);
	/* switches to other tasks than idle in the wait, less the waiter's own and the blocker's
	 * when it was switched in during the wait; a race with their update counts none */
	switches = bf_pos((__s32)(to->switches - in->from.switches - in->switched));
	has_blocker = bf_nz(blocker_pid);
	switches -= bf_lt(in->cb_ns, in->blocker_in_ns) * has_blocker * bf_nz(switches);
	switches -= bf_min(ins, switches);
	others = switches * split;
	blocking = bf_min(in->blocker_net_ns + earlier, d_task) * has_blocker;
	part[WHY_OTHERS] = (d_task - blocking) * split;
	/* a real-time waiter behind a task of lower priority: the scheduler and preemption-off */
	lower = bf_lt(waiter_prio, 100) * has_blocker * bf_lt(waiter_prio, blocker_prio);
	part[WHY_REMAINDER] = blocking * lower * split;
	part[WHY_BLOCKING] = blocking * (1 - lower) * split;
	flags |= lower * split * WHY_F_BLOCKER_LOWER;
	why_clamp(part, total);
	why_count_add(in->cls, total, part, false);
	timeline_send(k, in->cell, in->end_ns, in->start_ns);
	e = ringbuf_below(sizeof(*e), 3) ? bpf_ringbuf_reserve(&events, sizeof(*e), 0) : NULL;
	if (!e) {
		count_drop(DROP_OUTLIER);
		return 0;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->type = RB_WHY;
	e->cell = in->cell;
	e->ts_ns = in->end_ns;
	e->total_ns = total;
#pragma unroll
	for (int i = 0; i < WHY_PARTS; i++)
		e->part_ns[i] = part[i];
	e->pid = in->pid;
	e->cpu = cpu;
	e->wake_cpu = in->wake_cpu;
	e->others = others > 0xffff ? 0xffff : others;
	e->waiter_prio = waiter_prio;
	if (in->blocker) {
		why_task(e, in->blocker);
		why_stacks(k, e, in->blocker, in->end_ns, STACKS_WAIT);
	}
	if (!(flags & (WHY_F_MOVED | WHY_F_NO_CLOCKS | WHY_F_RAN_ON)))
		why_top((struct cpu_clock *)k, w->scan, in->cb_ns, in->end_ns, false, e->top, &e->flags, NULL);
	e->flags |= flags;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* A timer's lateness at or above its threshold, at its callback's exit: the outlier (aux: the
 * first task it woke, whether the CPU was idle when its interrupt came, its context), and its
 * explanation: the interrupts that ran between the expiry and the callback (from the ring of
 * recent events, and the timer's own interrupt or softirq up to the callback), the rest exit
 * from idle when the CPU was idle, else IRQs off or a hypervisor. Worked out and counted before
 * its record is reserved, as a wait's is: a record the ring buffer has no room for is counted
 * all the same (the daemon shows the counts). */
__noinline int why_late_timer(const struct cpu_clock *k, const struct timer_slot *ts, bool soft, bool send_idle)
{
	__u64 part[WHY_PARTS] = {}, sum[RECENT_CLASSES] = {};
	why_top_t top[RECENT_CLASSES] = {};
	__u64 x, c, total, from;
	__u64 id = bpf_get_current_pid_tgid();
	bool idle = (__u32)id == 0;
	bool quiet;
	struct task_struct *cur = (struct task_struct *)bpf_get_current_task();
	__u32 cell, flags = 0;
	struct why_event *e;

	if (!k || !ts)
		return 0;
	/* a timer late out of idle that woke nobody delayed no task: while the daemon logs none
	 * of those (log-idle), it is counted here (histogram, parts, unsent) and not sent: on an
	 * idle machine they are most outliers, each a record, a wake-up and the daemon's work */
	quiet = idle && !ts->woke && !send_idle;
	x = ts->expires_ns;
	c = ts->start_ns;
	total = c > x ? c - x : 0;
	cell = ts->late_cell - 1;
	if (!quiet)
		outlier_emit(cell, c, total, ts->woke | (idle ? TIMER_AUX_IDLE : 0) | (soft ? TIMER_AUX_SOFT : 0));
	why_top((struct cpu_clock *)k, soft ? WHY_SCAN_TIMER_SOFT : WHY_SCAN_TIMER_HARD, x, c, true, top, &flags, sum);
	part[WHY_IRQ] = sum[RECENT_IRQ];
	part[WHY_VECTOR] = sum[RECENT_VECTOR];
	part[WHY_SOFTIRQ] = sum[RECENT_SOFTIRQ];
	part[WHY_NMI] = sum[RECENT_NMI];
	/* the timer's own interrupt (or softirq) before the callback: earlier callbacks, its entry */
	if (!soft && k->hard && k->hard_start_ns < c) {
		from = k->hard_start_ns > x ? k->hard_start_ns : x;
		part[k->hard & CLOCK_VECTOR ? WHY_VECTOR : WHY_IRQ] += c - from;
		/* and the softirq that interrupt came in, still running, so not in the ring: its
		 * time in the window up to the interrupt, less what nested in it there (all it
		 * nested when it began in the window; the ring's hard events in the window when
		 * it began before, for all of them nested in it) */
		if (softirq_running(k) && k->hard_start_ns > x) {
			__u64 s = k->softirq_start_ns, nested;

			nested = s >= x ? (__u32)k->softirq_nested_ns : sum[RECENT_IRQ] + sum[RECENT_VECTOR] + sum[RECENT_NMI];
			from = s > x ? s : x;
			part[WHY_SOFTIRQ] += bf_pos((__s64)(k->hard_start_ns - from - nested));
		}
	} else if (soft && k->softirq && k->softirq_start_ns < c) {
		from = k->softirq_start_ns > x ? k->softirq_start_ns : x;
		part[WHY_SOFTIRQ] += c - from;
	}
	why_clamp(part, total);
	/* what no interrupt explains: exit from idle, or IRQs off or a hypervisor */
	part[idle ? WHY_LATE_IDLE : WHY_LATE_BUSY] = part[WHY_REMAINDER];
	part[WHY_REMAINDER] = 0;
	why_count_add(WHY_CLASS_TIMER, total, part, quiet);
	if (quiet)
		return 0;
	timeline_send(k, cell, c, x);
	e = ringbuf_below(sizeof(*e), 3) ? bpf_ringbuf_reserve(&events, sizeof(*e), 0) : NULL;
	if (!e) {
		count_drop(DROP_OUTLIER);
		return 0;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->type = RB_WHY;
	e->cell = cell;
	e->ts_ns = c;
	e->total_ns = total;
#pragma unroll
	for (int i = 0; i < WHY_PARTS; i++)
		e->part_ns[i] = part[i];
#pragma unroll
	for (int i = 0; i < RECENT_CLASSES; i++)
		e->top[i] = top[i];
	e->pid = ts->woke;
	e->cpu = bpf_get_smp_processor_id();
	e->wake_cpu = e->cpu;
	e->flags = flags | (idle ? WHY_F_IDLE_AT_EXPIRY : 0) | (soft ? WHY_F_SOFT : 0) | (ts->woke ? WHY_F_WOKE : 0);
	e->blocker_pid = (__u32)id;
	e->blocker_prio = BPF_CORE_READ(cur, prio);
	e->blocker_policy = BPF_CORE_READ(cur, policy);
	bpf_get_current_comm(e->blocker_comm, sizeof(e->blocker_comm));
	/* where the CPU was when the timer was due: the interrupted context (idle: the idle loop) */
	why_stacks(k, e, (__u64)cur, c, STACKS_TIMER);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

#endif
