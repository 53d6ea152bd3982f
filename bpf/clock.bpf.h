/* SPDX-License-Identifier: GPL-2.0 */
/* The CPU's clock lines (struct cpu_clock, irqlat_abi.h): what runs in interrupt context and
 * since when, the net time of each kind of interference, the task clocks of sched_switch, the
 * timer's running callbacks, and the ring of recent interference events. Every object
 * declares the map; the loader makes them share one instance, as for the cell pool.
 *
 * The interrupt programs already read the clock and touch their per-CPU state on every event:
 * keeping the entry stamps here, beside the four net clocks, lets them keep the clocks without
 * touching a line more. */
#ifndef IRQLAT_CLOCK_BPF_H
#define IRQLAT_CLOCK_BPF_H

#include "cell.bpf.h"

CPU_STATE(clock_cpu, struct cpu_clock)	/* bpf/cell.bpf.h */

/* make bench builds each kind's programs a second time with IRQLAT_BENCH_NO_CLOCKS: the same
 * programs without the clocks' bookkeeping (the net interrupt clocks, the task clocks of
 * sched_switch, the ring of recent events), so that bench/clocks.sh can measure, side by side,
 * what keeping the clocks adds to each kind's programs. The daemon never loads that build. */
#ifdef IRQLAT_BENCH_NO_CLOCKS
#define CLOCKS_KEPT 0
#else
#define CLOCKS_KEPT 1
#endif

/* Arithmetic without branches, for the paths the explanation takes: the verifier follows each
 * branch of a program on its own, and a chain of independent ones multiplies the paths it
 * walks (Linux 6.1's gave up on the explanation written with branches: over a million
 * instructions). barrier_var() keeps the compiler from turning them back into branches. For
 * values below 2^63 (nanoseconds, small counts). */
static __always_inline __u64 bf_pos(__s64 d)	/* max(d, 0) */
{
	__s64 m = d >> 63;

	barrier_var(m);
	return d & ~m;
}

static __always_inline __u64 bf_nz(__u64 x)	/* 1 when x != 0 */
{
	__u64 n = x | -x;

	barrier_var(n);
	return n >> 63;
}

static __always_inline __u64 bf_lt(__u64 a, __u64 b)	/* 1 when a < b */
{
	__u64 d = a - b;

	barrier_var(d);
	return d >> 63;
}

static __always_inline __u64 bf_min(__u64 a, __u64 b)
{
	return a - bf_pos((__s64)(a - b));
}

/* Whether a softirq runs on this CPU and is not paused (its task switched out, PREEMPT_RT) */
static __always_inline bool softirq_running(const struct cpu_clock *k)
{
	__u16 s = k->softirq;

	return s && !(s & CLOCK_PAUSED);
}

/* A hard-IRQ handler or vector interrupt that started at hard_start_ns ended after ns of its
 * own (NMIs already taken off): its clock, and the softirq it interrupted, if any. */
static __always_inline void clock_hard_done(struct cpu_clock *k, __u64 *clock, __u64 ns)
{
	if (!CLOCKS_KEPT)
		return;
	*clock += ns;
	if (softirq_running(k))
		k->softirq_nested_ns += (__u32)ns;
}

/* One record into the CPU's flight recorder (struct flight_rec): stores only, from values
 * the caller holds. IRQLAT_NO_FLIGHT (make BPF_EXTRA_CFLAGS=-DIRQLAT_NO_FLIGHT) builds the
 * programs without it, for bench/kinds.sh to measure what it costs (docs/bench.md); the
 * timelines are then empty. */
static __always_inline void flight_add(struct cpu_clock *k, __u64 ts, __u32 type, __u32 a, __u32 b, __u32 c)
{
#ifndef IRQLAT_NO_FLIGHT
	struct flight_rec *r = &k->flight[k->flight_head++ & (FLIGHT_EVENTS - 1)];

	r->ts_ns = ts;
	r->a = a;
	r->b = b;
	r->c = c;
	r->type = type;
#endif
}

/* One interference event into the ring, and into the flight recorder; cell: its cell index
 * + 1 (0: none) */
static __always_inline void recent_add(struct cpu_clock *k, __u64 end_ns, __u64 ns, __u32 class, __u32 cell)
{
	__u32 ns32 = ns > 0xffffffffULL ? 0xffffffffU : (__u32)ns;
	struct recent_event *e;

	flight_add(k, end_ns, class, ns32, cell, 0);
	if (!CLOCKS_KEPT)
		return;
	e = &k->recent[k->recent_head++ & (RECENT_EVENTS - 1)];
	e->end_ns = end_ns;
	e->ns = ns32;
	e->cell = class << RECENT_CLASS_SHIFT | cell;
}

/* The softirq's own time so far (net of what nested in it) at time t: frozen while paused;
 * while a hard-IRQ context runs on top of it, up to that context's start. */
static __always_inline __u32 softirq_so_far(const struct cpu_clock *k, __u64 t)
{
	__u64 s = k->softirq, running = bf_nz(s), paused = (s >> 15) & 1;
	__u64 upto = t + bf_nz(k->hard) * (k->hard_start_ns - t);	/* the hard context's start, if one runs */
	__s32 so_far;

	upto *= 1 - paused;	/* paused: nested holds "nested - pause start", the pause counts as nested */
	so_far = (__u32)(upto - k->softirq_start_ns) - k->softirq_nested_ns;
	return bf_pos(so_far) * running;
}

/* The four interrupt clocks together as of time t, the softirq in progress included (a hard
 * context in progress is not: callers read it outside one, or past its exit) */
static __always_inline __u64 clock_intr(const struct cpu_clock *k, __u64 t)
{
	__u64 sum = k->irq_ns + k->vec_ns + k->softirq_ns + k->nmi_ns;

	if (k->softirq)	/* only on PREEMPT_RT: a switch inside a softirq */
		sum += softirq_so_far(k, t);
	return sum;
}

/* This CPU's clocks as of time t, which is within the innermost context running now (or
 * after it, when nothing runs): the contexts in progress count up to t. */
static __always_inline void why_snapshot(const struct cpu_clock *k, __u64 t, struct why_snap *s)
{
	__u32 hard = k->hard;
	__u64 vec_in = hard >> 31;	/* CLOCK_VECTOR */
	__u64 run = bf_pos(t - k->hard_start_ns) * bf_nz(hard);
	__u64 irq = k->irq_ns + run * (1 - vec_in), vec = k->vec_ns + run * vec_in;
	__u64 sirq = k->softirq_ns + softirq_so_far(k, t);
	__u64 valid = bf_nz(k->switch_ns), idle = 1 - bf_nz(k->curr_pid), intr, cur;

	/* the task on the CPU since the last switch, net of the interrupts since */
	intr = irq + vec + sirq + k->nmi_ns;
	cur = bf_pos((__s64)(t - k->switch_ns) - (__s64)(intr - k->switch_intr_ns)) * valid;
	s->irq = irq;
	s->vec = vec;
	s->softirq = sirq;
	s->nmi = k->nmi_ns;
	s->idle = k->idle_ns + cur * idle;
	s->task = k->task_ns + cur * (1 - idle);
	s->switches = k->switches;
	s->valid = valid;
}

#endif
