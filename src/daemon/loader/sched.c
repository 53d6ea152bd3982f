// SPDX-License-Identifier: GPL-2.0
/* The scheduler's programs (bpf/sched.bpf.c), one of each for every kind that needs them:
 * sched_switch for wake-ups and threaded IRQs (and the task clocks of the explanation),
 * sched_waking for wake-ups. Threaded IRQs need the threaded set's choice of their run time
 * (threaded.c, before this set); wake-ups need the timer programs too (their running
 * callbacks), opened after the hard-IRQ programs: until then sched_waking stamps nothing. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "sched.skel.h"
#include "daemon/loader/loader.h"
#include "daemon/loader/object.h"
#include "daemon/loader/sched.h"
#include "daemon/base/log.h"
#include "common/macro.h"

extern const struct progset progset_sched;

/* Words of the wake-up stamps' pid filter: one per 64 pids below pid_max (read once at the
 * start; a pid past it, after pid_max is raised, reads its slot at each switch-in instead).
 * PID_MAX_LIMIT, 4194304 on 64-bit, when it cannot be read. */
static uint32_t wait_pid_words(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/sys/kernel/pid_max", "re");
	unsigned long pid_max = 0;

	if (!f || fscanf(f, "%lu", &pid_max) != 1 || pid_max == 0 || pid_max > 4194304)
		pid_max = 4194304;
	return (uint32_t)((pid_max + 63) / 64);
}

static int sched_open(struct loader *l, void **skel, const struct loader_opts *o, const struct progset_env *env)
{
	const char *run_source = l->kind_source[KIND_THREADED_RUN];	/* set by the threaded set */
	bool wakeups = o->on[KIND_WAKEUP], threaded = o->on[KIND_THREADED] && run_source;
	struct sched_bpf *s;
	char missing[128];
	int r;

	if (wakeups && !(kernel_has_event(env->vmlinux, "sched_switch") && kernel_has_event(env->vmlinux, "sched_waking") &&
			 kernel_has_event(env->vmlinux, "hrtimer_expire_entry") &&
			 kernel_has_event(env->vmlinux, "hrtimer_expire_exit"))) {
		log_warning("wake-ups: the kernel lacks sched:sched_switch, sched:sched_waking or timer:hrtimer_expire_entry/exit: wake-up latency is not measured");
		wakeups = false;
	}
	if (!wakeups && !threaded)
		return 0;
	s = sched_bpf__open();
	if (!s)
		return log_error_errno(-errno, "cannot open the scheduler BPF object: %m");
	*skel = s;
	s->rodata->wakeups_on = wakeups;
	s->rodata->threaded_on = threaded;
	s->rodata->oncpu_run = threaded && !strcmp(run_source, "on-cpu");
	s->rodata->max_wakeup_cells = o->max_wakeup_cells;
	s->data->wakeup_threshold_ns = l->cell_threshold_ns[KIND_WAKEUP];
	s->data->threaded_wake_threshold_ns = l->cell_threshold_ns[KIND_THREADED];
	s->data->threaded_run_threshold_ns = l->cell_threshold_ns[KIND_THREADED_RUN];
	bpf_map__set_max_entries(s->maps.wait_pids, wakeups ? wait_pid_words() : 1);
	/* room for every wake-up cell given back at once (collect/wakeup_reclaim.c) */
	bpf_map__set_max_entries(s->maps.wakeup_free, o->max_wakeup_cells ? o->max_wakeup_cells : 1);
	if (!wakeups)
		bpf_map__set_max_entries(s->maps.wait_slots, 1);
	r = share_maps(s->obj, l);
	if (r < 0)
		return share_error(r, "scheduler");
	choose_programs(s->obj, env->vmlinux, env->btf_style, missing, sizeof(missing));
	if (!wakeups) {
		bpf_program__set_autoload(s->progs.sched_waking_btf, false);
		bpf_program__set_autoload(s->progs.sched_waking_raw, false);
	}
	if (sched_bpf__load(s))
		return load_error(-errno, "scheduler");
	r = attach_kind(l, s->obj, "sched");
	if (r < 0)
		return r;
	l->kind_on[KIND_WAKEUP] = l->kind_on[KIND_WAKEUP_CPU] = wakeups;
	l->kind_on[KIND_THREADED] = l->kind_on[KIND_THREADED_RUN] = threaded;
	return 0;
}

static void sched_close(void *skel)
{
	sched_bpf__destroy(skel);
}

static volatile __u64 *sched_threshold(void *skel, enum lat_kind k)
{
	struct sched_bpf *s = skel;

	/* KIND_WAKEUP_CPU has none: the task's own cell has the outliers */
	switch (k) {
	case KIND_WAKEUP:
		return &s->data->wakeup_threshold_ns;
	case KIND_THREADED:
		return &s->data->threaded_wake_threshold_ns;
	case KIND_THREADED_RUN:
		return &s->data->threaded_run_threshold_ns;
	default:
		return NULL;
	}
}

/* the wake-up stamps by pid (the pid filter, fixed by pid_max, is not counted) */
static uint64_t sched_map_bytes(uint32_t ncpus)
{
	(void)ncpus;
	return (uint64_t)WAIT_SLOTS * sizeof(struct wait_slot);
}

const struct progset progset_sched = {
	.name = "sched",
	.kinds = KIND_BIT(KIND_WAKEUP) | KIND_BIT(KIND_WAKEUP_CPU) | KIND_BIT(KIND_THREADED) | KIND_BIT(KIND_THREADED_RUN),
	.open = sched_open,
	.close = sched_close,
	.threshold = sched_threshold,
	.map_bytes = sched_map_bytes,
};

struct sched_bpf *loader_sched(const struct loader *l)
{
	return loader_set_skel(l, &progset_sched);
}
