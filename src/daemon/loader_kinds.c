// SPDX-License-Identifier: GPL-2.0
/* The loader's kinds beyond the hard IRQs (loader.c owns the hard-IRQ object, whose maps every
 * kind shares): how a kind's object is opened on the shared maps, which of its tp_btf/raw_tp
 * twins are loaded, and the attach order; then each kind's own opening (softirqs, vector
 * interrupts, timers and wake-ups, threaded IRQs). Apart from loader.c, which passed 600 lines
 * with the timer and threaded kinds (issue 8's bound): a new kind is a function here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "hardirq.skel.h"
#include "softirq.skel.h"
#include "vector.skel.h"
#include "timer.skel.h"
#include "timer_names.h"
#include "threaded.skel.h"
#include "loader.h"
#include "loader_kinds.h"
#include "log.h"
#include "common/macro.h"

/* Every kind's object shares these with the hardirq object's (bpf/cell.bpf.h, ringbuf.bpf.h):
 * one pool of cells, one mmap, one ring buffer; and, with the objects that have them, the
 * threaded IRQs' state that the hard-IRQ exit stamps (bpf/threaded.bpf.h). */
static const char *const shared_maps[] = { "cells", "cell_meta", "cell_index", "cell_next", "events", "drops",
					   "threaded_tasks", "threaded_pids" };

static int share_maps(struct bpf_object *obj, struct bpf_object *owner)
{
	for (size_t i = 0; i < ELEMENTSOF(shared_maps); i++) {
		struct bpf_map *m = bpf_object__find_map_by_name(obj, shared_maps[i]);
		struct bpf_map *o = bpf_object__find_map_by_name(owner, shared_maps[i]);
		int r;

		if (!m && i >= 6)	/* not every kind has the threaded maps */
			continue;
		if (!m || !o)
			return -ENOENT;
		r = bpf_map__reuse_fd(m, bpf_map__fd(o));
		if (r < 0)
			return r;
	}
	return 0;
}

/* "softirq_entry" of SEC("tp_btf/softirq_entry"); *btf: which twin it is */
static const char *prog_event(const struct bpf_program *p, bool *btf)
{
	const char *sec = bpf_program__section_name(p);

	*btf = !strncmp(sec, "tp_btf/", 7);
	return *btf || !strncmp(sec, "raw_tp/", 7) ? sec + 7 : NULL;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* Loads, of a kind's object, the attach style's twin of each program whose tracepoint the
 * kernel has; the others' events go to missing ("threshold_apic, deferred_error_apic", each
 * pair once). Returns the programs chosen. */
static unsigned choose_programs(struct bpf_object *obj, const struct btf *vmlinux, bool btf_style,
				char *missing, size_t len)
{
	struct bpf_program *p;
	unsigned n = 0;

	missing[0] = 0;
	bpf_object__for_each_program(p, obj) {
		bool btf, has;
		const char *ev = prog_event(p, &btf);

		if (!ev) {
			bpf_program__set_autoload(p, false);
			continue;
		}
		has = kernel_has_event(vmlinux, ev);
		bpf_program__set_autoload(p, has && btf == btf_style);
		n += has && btf == btf_style;
		if (!has && btf && !ends_with(ev, "_entry")) {	/* a pair (or a lone event) once */
			size_t k = strlen(missing), ln = ends_with(ev, "_exit") ? strlen(ev) - 5 : strlen(ev);

			snprintf(missing + k, len - k, "%s%.*s", k ? ", " : "", (int)ln, ev);
		}
	}
	return n;
}

void note_attached(struct loader *l, const char *system, const char *event, const struct bpf_program *p)
{
	struct loader_tp *t;

	if (l->nattached == ELEMENTSOF(l->attached))
		return;
	t = &l->attached[l->nattached++];
	snprintf(t->tracepoint, sizeof(t->tracepoint), "%s:%s", system, event);
	snprintf(t->program, sizeof(t->program), "%s", bpf_program__name(p));
}

/* The tracepoint system of an event of a kind's object: the kind's, but sched_switch's is sched */
static const char *event_system(const char *ev, const char *system)
{
	return !strcmp(ev, "sched_switch") ? "sched" : system;
}

/* Attaches the loaded programs of a kind's object: exits first, then entries, then the rest
 * (softirq_raise, sched_switch): an entry without its exit is harmless, an exit paired with a
 * stale entry is not, and a raise is only measured once its entry is seen. */
static int attach_kind(struct loader *l, struct bpf_object *obj, const char *system)
{
	struct bpf_program *p;

	for (int pass = 0; pass < 3; pass++)
		bpf_object__for_each_program(p, obj) {
			bool btf;
			const char *ev = prog_event(p, &btf);
			struct bpf_link *k;

			if (!ev || !bpf_program__autoload(p) ||
			    (ends_with(ev, "_exit") ? 0 : ends_with(ev, "_entry") ? 1 : 2) != pass)
				continue;
			if (l->nlinks == LOADER_LINKS_MAX)
				return log_error_errno(-E2BIG, "more than %d programs to attach: raise LOADER_LINKS_MAX", LOADER_LINKS_MAX);
			k = bpf_program__attach(p);
			if (!k)
				return log_error_errno(-errno, "cannot attach to tracepoint %s:%s (%s): %m", event_system(ev, system), ev,
						       l->attach_style);
			l->links[l->nlinks++] = k;
			note_attached(l, event_system(ev, system), ev, p);
		}
	return 0;
}

int load_error(int r, const char *what)
{
	if (r == -EPERM)
		return log_error_errno(r, "the kernel refused to load BPF programs (%m): run as root with CAP_BPF and CAP_PERFMON, and check kernel.unprivileged_bpf_disabled and lockdown");
	return log_error_errno(r, "cannot load the %s BPF programs into the kernel: %m (libbpf's warnings above include the verifier's log; IRQLATD_LIBBPF_DEBUG=1 with --verbose shows every step)", what);
}

/* Softirqs (bpf/softirq.bpf.c): every architecture has irq:softirq_*. */
int open_softirq(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus)
{
	struct softirq_bpf *s = softirq_bpf__open();
	char missing[128];
	int r;

	if (!s)
		return log_error_errno(-errno, "cannot open the softirq BPF object: %m");
	l->softirq = s;
	s->data->run_threshold_ns = l->cell_threshold_ns[KIND_SOFTIRQ];
	s->data->raise_threshold_ns = l->cell_threshold_ns[KIND_SOFTIRQ_RAISE];
	bpf_map__set_max_entries(s->maps.softirq_cpu, (uint32_t)ncpus);
	r = share_maps(s->obj, l->skel->obj);
	if (r < 0)
		return log_error_errno(r, "cannot share the cell pool with the softirq programs: %m");
	if (choose_programs(s->obj, vmlinux, btf_style, missing, sizeof(missing)) == 0 || missing[0]) {
		log_warning("softirqs: the kernel has no tracepoint irq:%s: softirqs are not measured", missing);
		softirq_bpf__destroy(TAKE_PTR(l->softirq));
		return 0;
	}
	if (softirq_bpf__load(s))
		return load_error(-errno, "softirq");
	return attach_kind(l, s->obj, "irq");
}

/* The CPU's own interrupts (bpf/vector.bpf.c): the pairs of irq_vectors:* this kernel has,
 * said in one line when some or all are missing (they are x86's). */
int open_vector(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus)
{
	struct vector_bpf *v = vector_bpf__open();
	char missing[256];
	unsigned n;
	int r;

	if (!v)
		return log_error_errno(-errno, "cannot open the vector interrupt BPF object: %m");
	l->vector = v;
	v->data->threshold_ns = l->cell_threshold_ns[KIND_VECTOR];
	bpf_map__set_max_entries(v->maps.vector_cpu, (uint32_t)ncpus);
	r = share_maps(v->obj, l->skel->obj);
	if (r < 0)
		return log_error_errno(r, "cannot share the cell pool with the vector interrupt programs: %m");
	n = choose_programs(v->obj, vmlinux, btf_style, missing, sizeof(missing));
	if (!n) {
		log_info("vector interrupts: this kernel has no irq_vectors tracepoints (they are x86's): the CPU's own interrupts (local timer, IPIs) are not measured");
		vector_bpf__destroy(TAKE_PTR(l->vector));
		return 0;
	}
	if (missing[0])
		log_info("vector interrupts: this kernel has no irq_vectors tracepoint for %s: those are not measured, the others are", missing);
	if (vector_bpf__load(v))
		return load_error(-errno, "vector interrupt");
	return attach_kind(l, v->obj, "irq_vectors");
}

static bool kernel_has_func(const struct btf *vmlinux, const char *func)
{
	return btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC) > 0;
}

/* Words of the timer program's pending-expiry bitmap: one per 64 pids below pid_max (read
 * once at the start; a pid past it, after pid_max is raised, is looked up in the hash at each
 * switch-in instead). PID_MAX_LIMIT, 4194304 on 64-bit, when it cannot be read. */
static uint32_t timer_pid_words(void)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/sys/kernel/pid_max", "re");
	unsigned long pid_max = 0;

	if (!f || fscanf(f, "%lu", &pid_max) != 1 || pid_max == 0 || pid_max > 4194304)
		pid_max = 4194304;
	return (uint32_t)((pid_max + 63) / 64);
}

/* hrtimer lateness and wake-up latency (bpf/timer.bpf.c): timer:hrtimer_expire_entry, and
 * sched:sched_switch for the wake-ups, which need hrtimer_wakeup's address from
 * /proc/kallsyms. No kfunc and no task storage: it loads on Linux 6.1 as on later kernels. */
int open_timer(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus, bool wakeups,
		      uint32_t max_wakeup_cells)
{
	struct timer_bpf *t = timer_bpf__open();
	uint64_t wake_fn = 0;
	char missing[128];
	int r;

	if (!t)
		return log_error_errno(-errno, "cannot open the timer BPF object: %m");
	l->timer = t;
	t->data->lateness_threshold_ns = l->cell_threshold_ns[KIND_TIMER];
	t->data->wakeup_threshold_ns = l->cell_threshold_ns[KIND_WAKEUP];
	bpf_map__set_max_entries(t->maps.timer_cpu, (uint32_t)ncpus);
	/* room for every wake-up cell given back at once (src/daemon/wakeup_reclaim.c) */
	bpf_map__set_max_entries(t->maps.wakeup_free, max_wakeup_cells ? max_wakeup_cells : 1);
	r = share_maps(t->obj, l->skel->obj);
	if (r < 0)
		return log_error_errno(r, "cannot share the cell pool with the timer programs: %m");
	if (choose_programs(t->obj, vmlinux, btf_style, missing, sizeof(missing)) == 0 ||
	    !kernel_has_event(vmlinux, "hrtimer_expire_entry")) {
		log_warning("timers: the kernel has no tracepoint timer:hrtimer_expire_entry: timer lateness and wake-ups are not measured");
		timer_bpf__destroy(TAKE_PTR(l->timer));
		return 0;
	}
	/* before the loop runs: naming a timer function there would hold it for a scan */
	r = timer_names_prefill(vmlinux, &wake_fn);
	if (r == -EPERM)
		log_warning("%s/proc/kallsyms shows irqlatd only zero addresses (kernel.kptr_restrict; it needs CAP_SYSLOG, which irqlatd.service gives): %stimer functions are not named",
			    wakeups ? "wake-ups: " : "timers: ", wakeups ? "wake-up latency is not measured, " : "");
	else if (r < 0)
		log_warning("timers: cannot read /proc/kallsyms (%s): %stimer functions are not named",
			    strerror(-r), wakeups ? "wake-up latency is not measured, " : "");
	else if (wakeups && !wake_fn)
		log_warning("wake-ups: cannot find hrtimer_wakeup in /proc/kallsyms: wake-up latency is not measured");
	if (wakeups && wake_fn && !kernel_has_event(vmlinux, "sched_switch")) {
		log_warning("wake-ups: the kernel has no tracepoint sched:sched_switch: wake-up latency is not measured");
		wake_fn = 0;
	}
	if (!wakeups)
		wake_fn = 0;
	l->wakeups = wake_fn != 0;
	t->rodata->hrtimer_wakeup_fn = wake_fn;
	t->rodata->max_wakeup_cells = max_wakeup_cells;
	bpf_map__set_max_entries(t->maps.timer_pids, timer_pid_words());
	if (!l->wakeups) {
		bpf_program__set_autoload(t->progs.sched_switch_btf, false);
		bpf_program__set_autoload(t->progs.sched_switch_raw, false);
	}
	if (timer_bpf__load(t))
		return load_error(-errno, "timer");
	return attach_kind(l, t->obj, "timer");
}

/* A forced threaded-run = handler the kernel cannot give: one error line, and irqlatd exits
 * (1) rather than measure something else than what was asked for */
static int handler_refused(int r, const char *why)
{
	return log_error_errno(r, "threaded IRQs: threaded-run = handler, but %s: use threaded-run = on-cpu or auto (the thread's on-CPU time), or --no-threaded",
			       why);
}

/* Threaded IRQs (bpf/threaded.bpf.c): sched_switch, and the run time from fentry/fexit on
 * genirq's thread wrappers when the kernel's BTF has them and the kernel lets them load and
 * attach (mode handler or auto); otherwise from sched_switch pairs, the thread's on-CPU time
 * (mode on-cpu, or auto's fallback). Which one is said once. Attached before the hard-IRQ
 * programs, so that no wake is stamped before its switch can be seen. */
int open_threaded(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus, enum threaded_run_mode mode)
{
	struct threaded_bpf *t = threaded_bpf__open();
	char missing[128], why[160];
	unsigned first = l->nlinks, first_noted = l->nattached;
	bool has_funcs, fentry;
	struct bpf_program *p;
	int r;

	if (!t)
		return log_error_errno(-errno, "cannot open the threaded IRQ BPF object: %m");
	l->threaded = t;
	t->data->wake_threshold_ns = l->cell_threshold_ns[KIND_THREADED];
	t->data->run_threshold_ns = l->cell_threshold_ns[KIND_THREADED_RUN];
	bpf_map__set_max_entries(t->maps.threaded_cpu, (uint32_t)ncpus);
	r = share_maps(t->obj, l->skel->obj);
	if (r < 0)
		return log_error_errno(r, "cannot share the cell pool with the threaded IRQ programs: %m");
	if (choose_programs(t->obj, vmlinux, btf_style, missing, sizeof(missing)) == 0) {
		log_warning("threaded IRQs: the kernel has no tracepoint sched:%s: threaded IRQs are not measured", missing);
		threaded_bpf__destroy(TAKE_PTR(l->threaded));
		return 0;
	}
	has_funcs = kernel_has_func(vmlinux, "irq_thread_fn") && kernel_has_func(vmlinux, "irq_forced_thread_fn");
	if (mode == THREADED_RUN_HANDLER && !has_funcs)
		return handler_refused(-EOPNOTSUPP, "this kernel has no irq_thread_fn/irq_forced_thread_fn in its BTF");
	if (mode == THREADED_RUN_AUTO && !has_funcs) {
		log_info("threaded IRQs: this kernel has no irq_thread_fn/irq_forced_thread_fn in its BTF: the threads' on-CPU time is measured instead of the thread handlers' run time");
		mode = THREADED_RUN_ON_CPU;
	}
	fentry = mode != THREADED_RUN_ON_CPU;
	t->rodata->oncpu_run = !fentry;	/* else the verifier drops the switch-out code */
	bpf_program__set_autoload(t->progs.threaded_fn_entry, fentry);
	bpf_program__set_autoload(t->progs.threaded_fn_exit, fentry);
	bpf_program__set_autoload(t->progs.threaded_forced_fn_entry, fentry);
	bpf_program__set_autoload(t->progs.threaded_forced_fn_exit, fentry);
	libbpf_set_quiet(fentry);	/* a refused fentry program is said below, in one line */
	r = threaded_bpf__load(t) ? -errno : 0;
	libbpf_set_quiet(false);
	if (r < 0) {
		if (!fentry)
			return load_error(r, "threaded IRQ");
		snprintf(why, sizeof(why), "the kernel refused fentry/fexit programs on irq_thread_fn (%s; IRQLATD_LIBBPF_DEBUG=1 with --verbose shows libbpf's log)",
			 strerror(-r));
		if (mode == THREADED_RUN_HANDLER)
			return handler_refused(r, why);
		log_warning("threaded IRQs: %s: the threads' on-CPU time is measured instead of the thread handlers' run time", why);
		threaded_bpf__destroy(TAKE_PTR(l->threaded));
		return open_threaded(l, vmlinux, btf_style, ncpus, THREADED_RUN_ON_CPU);
	}
	/* fexit before fentry, as exits before entries */
	for (int pass = 0; fentry && pass < 2; pass++)
		bpf_object__for_each_program(p, t->obj) {
			const char *sec = bpf_program__section_name(p);
			struct bpf_link *k;

			if (!bpf_program__autoload(p) || strncmp(sec, pass ? "fentry/" : "fexit/", pass ? 7 : 6))
				continue;
			if (l->nlinks == LOADER_LINKS_MAX)
				return log_error_errno(-E2BIG, "more than %d programs to attach: raise LOADER_LINKS_MAX", LOADER_LINKS_MAX);
			k = bpf_program__attach(p);
			if (!k) {
				r = -errno;
				snprintf(why, sizeof(why), "cannot attach %s (%s)", sec, strerror(-r));
				if (mode == THREADED_RUN_HANDLER)
					return handler_refused(r, why);
				log_warning("threaded IRQs: %s: the threads' on-CPU time is measured instead of the thread handlers' run time", why);
				while (l->nlinks > first)
					bpf_link__destroy(l->links[--l->nlinks]);
				l->nattached = first_noted;
				threaded_bpf__destroy(TAKE_PTR(l->threaded));
				return open_threaded(l, vmlinux, btf_style, ncpus, THREADED_RUN_ON_CPU);
			}
			l->links[l->nlinks++] = k;
			note_attached(l, pass ? "fentry" : "fexit", strchr(sec, '/') + 1, p);
		}
	l->threaded_run = true;
	l->threaded_run_source = fentry ? "handler" : "on-cpu";
	log_info("threaded IRQs: run time from %s (threaded-run = %s)",
		 fentry ? "the thread handler, fentry/fexit on irq_thread_fn and irq_forced_thread_fn"
			: "the thread's on-CPU time, sched_switch in to out",
		 l->threaded_run_source);
	return attach_kind(l, t->obj, "sched");
}
