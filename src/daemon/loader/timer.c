// SPDX-License-Identifier: GPL-2.0
/* hrtimer lateness (bpf/timer.bpf.c): timer:hrtimer_expire_entry and _exit, whose running
 * callbacks the scheduler's sched_waking stamps wake-ups with (sched.c). The functions are
 * named from /proc/kallsyms, scanned once here. No kfunc and no task storage: it loads on
 * Linux 6.1 as on later kernels. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "timer.skel.h"
#include "daemon/loader/loader.h"
#include "daemon/loader/object.h"
#include "daemon/loader/progset.h"
#include "daemon/loader/timer.h"
#include "daemon/system/timer_names.h"
#include "daemon/base/log.h"
#include "common/macro.h"

static int timer_open(struct loader *l, void **skel, const struct loader_opts *o, const struct progset_env *env)
{
	struct timer_bpf *t = timer_bpf__open();
	uint64_t wake_fn = 0;
	struct timespec start;
	char missing[128];
	int r;

	if (!t)
		return log_error_errno(-errno, "cannot open the timer BPF object: %m");
	*skel = t;
	t->data->lateness_threshold_ns = l->cell_threshold_ns[KIND_TIMER];
	t->bss->send_idle = o->log_idle;
	clock_gettime(CLOCK_MONOTONIC, &start);
	t->rodata->started_ns = (int64_t)start.tv_sec * 1000000000 + start.tv_nsec;	/* bpf/timer.bpf.c */
	bpf_map__set_max_entries(t->maps.timer_cpu, (uint32_t)env->ncpus);
	r = share_maps(t->obj, l);
	if (r < 0)
		return share_error(r, "timer");
	if (choose_programs(t->obj, env->vmlinux, env->btf_style, missing, sizeof(missing)) == 0 || missing[0]) {
		log_warning("timers: the kernel has no tracepoint timer:%s: timer lateness and wake-ups are not measured",
			    missing[0] ? missing : "hrtimer_expire_entry");
		timer_bpf__destroy(TAKE_PTR(*skel));
		l->kind_on[KIND_WAKEUP] = l->kind_on[KIND_WAKEUP_CPU] = false;	/* no callbacks to stamp with */
		return 0;
	}
	/* before the loop runs: naming a timer function there would hold it for a scan */
	r = timer_names_prefill(env->vmlinux, &wake_fn);
	if (r == -EPERM)
		log_warning("timers: /proc/kallsyms shows irqlatd only zero addresses (kernel.kptr_restrict; it needs CAP_SYSLOG, which irqlatd.service gives): timer functions are not named");
	else if (r < 0)
		log_warning("timers: cannot read /proc/kallsyms (%s): timer functions are not named", strerror(-r));
	if (timer_bpf__load(t))
		return load_error(-errno, "timer");
	r = attach_kind(l, t->obj, "timer");
	if (r < 0)
		return r;
	l->kind_on[KIND_TIMER] = true;
	return 0;
}

static void timer_close(void *skel)
{
	timer_bpf__destroy(skel);
}

static volatile __u64 *timer_threshold(void *skel, enum lat_kind k)
{
	struct timer_bpf *t = skel;

	return k == KIND_TIMER ? &t->data->lateness_threshold_ns : NULL;
}

static uint64_t timer_map_bytes(uint32_t ncpus)
{
	return (uint64_t)ncpus * sizeof(struct timer_cpu);
}

const struct progset progset_timer = {
	.name = "timer",
	.kinds = KIND_BIT(KIND_TIMER),
	.open = timer_open,
	.close = timer_close,
	.threshold = timer_threshold,
	.map_bytes = timer_map_bytes,
};

void loader_set_log_idle(struct loader *l, bool on)
{
	struct timer_bpf *t = loader_set_skel(l, &progset_timer);

	if (t)
		__atomic_store_n(&t->bss->send_idle, on, __ATOMIC_RELAXED);
}
