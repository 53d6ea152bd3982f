// SPDX-License-Identifier: GPL-2.0
/* Timer lateness, into the shared cells (bpf/cell.bpf.h), and the running callbacks that
 * bpf/sched.bpf.c's sched_waking stamps wake-ups with.
 *
 * Lateness (KIND_TIMER): at timer:hrtimer_expire_entry, the program's clock (the callback's
 * start) minus the timer's hard expiry (node.expires, in CLOCK_MONOTONIC: less its clock
 * base's offset), per timer function and CPU. node.expires and not _softexpires: a timer with
 * slack may run anywhere in [_softexpires, node.expires], the kernel programs the hardware for
 * node.expires, so _softexpires is the early edge of the range the caller allowed and
 * node.expires the latest time it was due; lateness past it is the kernel being late, and a
 * timer run early inside its slack counts as 0 ns late, never as negative.
 *
 * The running callback: the expiry and the callback's start go into the CPU's clock line
 * (struct cpu_clock, line C), one slot for the hard-IRQ context and one for the softirq
 * context (a hard timer can run while a soft one is in its callback), until
 * hrtimer_expire_exit; a task woken meanwhile from that context (hrtimer_wakeup's sleeper, a
 * timerfd's or POSIX timer's waiter, rtla's timerlat thread) is stamped with it by
 * sched_waking. A lateness at or above the cell's threshold is sent at the exit, when it is
 * known whether the callback woke a task (the outlier's aux) and what the CPU was doing (the
 * explanation, bpf/why.bpf.h).
 *
 * Per expiry: the clock, the timer's fields (a tp_btf program reads them directly; the raw_tp
 * twin through CO-RE probe reads), the cache line of cells by function, the line of running
 * callbacks, the cell; no helper call but the clock, no hash, no atomic. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "irqlat_abi.h"
#include "cell.bpf.h"
#include "clock.bpf.h"
#include "hist.bpf.h"
#include "outlier.bpf.h"
#include "why.bpf.h"

CPU_STATE(timer_cpu, struct timer_cpu)	/* bpf/cell.bpf.h */

/* What a new cell starts with (the daemon writes each cell's own); ~0 turns outliers off. */
volatile __u64 lateness_threshold_ns = 200000;
/* log-idle: whether a timer late out of idle that woke no task is sent as an outlier
 * (bpf/why.bpf.h, why_late_timer); the daemon sets it */
volatile __u32 send_idle = 0;
/* The daemon's start (CLOCK_MONOTONIC ns, set before load). A timer due before it that runs
 * only now was armed with a time already gone: sd-event arms "at once" as 1 ns, a
 * CLOCK_REALTIME timer may be set to a date past. The kernel runs it as soon as it is armed;
 * its time since that expiry is the caller's choice, not lateness (a systemd guest read
 * timerfd_tmrproc 603 s late, its uptime). It counts as on time, and a task it wakes waits
 * from its callback's start. (A timer really due before the start and run after it would
 * have been late by the whole load; it is taken for one of these.) */
const volatile __s64 started_ns = 0;

/* Cold path: a timer function's first expiry on this CPU, or two colliding in the cache. */
static __noinline int timer_miss(__u64 fn, __u32 cpu)
{
	return cell_miss(KIND_TIMER, fn, cpu, NULL, lateness_threshold_ns);
}

static __always_inline void on_expiry(struct cpu_clock *k, __u32 cpu, __u64 now, __u64 fn, __s64 expires, bool soft)
{
	struct timer_cpu *st = timer_cpu_of(cpu);
	struct timer_slot *ts;
	struct lat_cell *c;
	__u32 *slot;
	__u64 late;

	if (!st)
		return;
	if (expires < started_ns)	/* armed with a time long gone (above) */
		expires = (__s64)now;
	late = (__s64)now > expires ? now - expires : 0;	/* early inside its slack: not late */
	ts = &k->slot[soft ? TIMER_SOFT : TIMER_HARD];
	ts->expires_ns = expires > 0 ? expires : 1;	/* 0 means no callback */
	ts->start_ns = now;
	ts->late_cell = 0;
	ts->woke = 0;
	slot = &st->cell[(fn >> 4) & (TIMER_CACHE - 1)];
	c = cell_cached(slot, fn, cpu);
	if (!c)
		c = cell_fill(slot, timer_miss(fn, cpu));
	flight_add(k, now, FL_TIMER, late > 0xffffffffULL ? 0xffffffffU : (__u32)late, c ? *slot : 0, soft);
	if (!c)
		return;
	cell_record(c, late);
	if (late >= c->threshold_ns)
		ts->late_cell = *slot;
}

/* The callback returned. Its timer may be gone (a sleeper's, on a stack that its woken task
 * has left), so which slot it was is not read from it: a hard-IRQ context callback runs to its
 * end before anything else on the CPU, so while one is in its slot, this is its exit. */
static __always_inline void on_expiry_exit(void)
{
	struct cpu_clock *k = clock_cpu_this();
	struct timer_slot *ts;

	if (!k)
		return;
	ts = k->slot[TIMER_HARD].expires_ns ? &k->slot[TIMER_HARD] : &k->slot[TIMER_SOFT];
	if (ts->late_cell)
		why_late_timer(k, ts, ts == &k->slot[TIMER_SOFT], send_idle);
	ts->expires_ns = 0;
}

/* The timer's function as a number. A tp_btf program reads the pointer directly, but newer
 * verifiers type it as read-only memory, on which no arithmetic is allowed (the cache's index
 * needs some): stored in this CPU's clock line and read back, it is a number (a privileged
 * program may store a pointer in a map), without the helper call a probe read costs. */
static __always_inline __u64 fn_number(struct cpu_clock *k, enum hrtimer_restart (*fn)(struct hrtimer *))
{
	k->timer_fn = (__u64)fn;
	asm volatile("" ::: "memory");
	return *(volatile __u64 *)&k->timer_fn;
}

SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(hrtimer_expire_entry_btf, struct hrtimer *timer, ktime_t *now)
{
	__u64 t = bpf_ktime_get_ns();	/* first: the callback's start */
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_clock *k = clock_cpu_of(cpu);

	if (k)
		on_expiry(k, cpu, t, fn_number(k, timer->function), timer->node.expires - timer->base->offset,
			  timer->is_soft);
	return 0;
}

SEC("tp_btf/hrtimer_expire_exit")
int BPF_PROG(hrtimer_expire_exit_btf, struct hrtimer *timer)
{
	on_expiry_exit();
	return 0;
}

SEC("raw_tp/hrtimer_expire_entry")
int BPF_PROG(hrtimer_expire_entry_raw, struct hrtimer *timer, ktime_t *now)
{
	__u64 t = bpf_ktime_get_ns();
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_clock *k = clock_cpu_of(cpu);

	if (k)
		on_expiry(k, cpu, t, (__u64)BPF_CORE_READ(timer, function),
			  BPF_CORE_READ(timer, node.expires) - BPF_CORE_READ(timer, base, offset), BPF_CORE_READ(timer, is_soft));
	return 0;
}

SEC("raw_tp/hrtimer_expire_exit")
int BPF_PROG(hrtimer_expire_exit_raw, struct hrtimer *timer)
{
	on_expiry_exit();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
