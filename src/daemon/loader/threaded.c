// SPDX-License-Identifier: GPL-2.0
/* Threaded IRQs: their wake-to-run ends at sched_switch, in the scheduler's set (sched.c),
 * which also attaches them (kind_on[]). This set chooses where their run time comes from:
 * fentry/fexit on genirq's thread wrappers (bpf/threaded.bpf.c) when the kernel's BTF has them
 * and the kernel lets them load and attach (mode handler or auto), otherwise sched_switch
 * pairs, the thread's on-CPU time (mode on-cpu, or auto's fallback). Which one is said once,
 * and is the run time's kind_source, which the scheduler's set reads. Before the hard-IRQ
 * programs, so that no wake is stamped before its switch can be seen. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "threaded.skel.h"
#include "daemon/loader/object.h"
#include "daemon/loader/progset.h"
#include "daemon/base/log.h"
#include "common/macro.h"

/* A forced threaded-run = handler the kernel cannot give: one error line, and irqlatd exits
 * (1) rather than measure something else than what was asked for */
static int handler_refused(int r, const char *why)
{
	return log_error_errno(r, "threaded IRQs: threaded-run = handler, but %s: use threaded-run = on-cpu or auto (the thread's on-CPU time), or --no-threaded",
			       why);
}

/* The thread handlers' fentry/fexit. 0 loaded and attached; 1 the kernel refused them (why
 * says how), so the run time is the on-CPU time; negative: an error. */
static int open_handlers(struct loader *l, void **skel, char *why, size_t why_len)
{
	struct threaded_bpf *t = threaded_bpf__open();
	unsigned first = l->nlinks, first_noted = l->nattached;
	struct bpf_program *p;
	int r;

	if (!t)
		return log_error_errno(-errno, "cannot open the threaded IRQ BPF object: %m");
	*skel = t;
	t->data->wake_threshold_ns = l->cell_threshold_ns[KIND_THREADED];
	t->data->run_threshold_ns = l->cell_threshold_ns[KIND_THREADED_RUN];
	r = share_maps(t->obj, l);
	if (r < 0)
		return share_error(r, "threaded IRQ");
	libbpf_set_quiet(true);	/* a refused fentry program is said by the caller, in one line */
	r = threaded_bpf__load(t) ? -errno : 0;
	libbpf_set_quiet(false);
	if (r == -EMFILE || r == -ENFILE) {
		/* out of descriptors is no refusal of fentry: loading without it would fail too */
		threaded_bpf__destroy(TAKE_PTR(*skel));
		return load_error(r, "threaded IRQ");
	}
	if (r < 0) {
		snprintf(why, why_len, "the kernel refused fentry/fexit programs on irq_thread_fn (%s; IRQLATD_LIBBPF_DEBUG=1 with --verbose shows libbpf's log)",
			 strerror(-r));
		threaded_bpf__destroy(TAKE_PTR(*skel));
		return 1;
	}
	/* fexit before fentry, as exits before entries */
	for (int pass = 0; pass < 2; pass++)
		bpf_object__for_each_program(p, t->obj) {
			const char *sec = bpf_program__section_name(p);
			struct bpf_link *k;

			if (strncmp(sec, pass ? "fentry/" : "fexit/", pass ? 7 : 6))
				continue;
			if (l->nlinks == LOADER_LINKS_MAX)
				return log_error_errno(-E2BIG, "more than %d programs to attach: raise LOADER_LINKS_MAX", LOADER_LINKS_MAX);
			k = bpf_program__attach(p);
			if (!k) {
				snprintf(why, why_len, "cannot attach %s (%s)", sec, strerror(errno));
				while (l->nlinks > first)
					bpf_link__destroy(l->links[--l->nlinks]);
				l->nattached = first_noted;
				threaded_bpf__destroy(TAKE_PTR(*skel));
				return 1;
			}
			l->links[l->nlinks++] = k;
			note_attached(l, pass ? "fentry" : "fexit", strchr(sec, '/') + 1, p);
		}
	return 0;
}

static int threaded_open(struct loader *l, void **skel, const struct loader_opts *o, const struct progset_env *env)
{
	enum threaded_run_mode mode = o->threaded_run;
	const char *source;
	char why[160];
	bool has_funcs;
	int r;

	if (!kernel_has_event(env->vmlinux, "sched_switch")) {
		log_warning("threaded IRQs: the kernel has no tracepoint sched:sched_switch: threaded IRQs are not measured");
		return 0;
	}
	has_funcs = kernel_has_func(env->vmlinux, "irq_thread_fn") && kernel_has_func(env->vmlinux, "irq_forced_thread_fn");
	if (mode == THREADED_RUN_HANDLER && !has_funcs)
		return handler_refused(-EOPNOTSUPP, "this kernel has no irq_thread_fn/irq_forced_thread_fn in its BTF");
	if (mode == THREADED_RUN_AUTO && !has_funcs) {
		log_info("threaded IRQs: this kernel has no irq_thread_fn/irq_forced_thread_fn in its BTF: the threads' on-CPU time is measured instead of the thread handlers' run time");
		mode = THREADED_RUN_ON_CPU;
	}
	if (mode != THREADED_RUN_ON_CPU) {
		r = open_handlers(l, skel, why, sizeof(why));
		if (r < 0)
			return r;
		if (r > 0 && mode == THREADED_RUN_HANDLER)
			return handler_refused(-EPERM, why);
		if (r > 0) {
			log_warning("threaded IRQs: %s: the threads' on-CPU time is measured instead of the thread handlers' run time", why);
			mode = THREADED_RUN_ON_CPU;
		}
	}
	source = mode == THREADED_RUN_ON_CPU ? "on-cpu" : "handler";
	log_info("threaded IRQs: run time from %s (threaded-run = %s)",
		 mode == THREADED_RUN_ON_CPU ? "the thread's on-CPU time, sched_switch in to out"
					     : "the thread handler, fentry/fexit on irq_thread_fn and irq_forced_thread_fn",
		 source);
	/* the scheduler's set measures the kinds with it, and says them on */
	l->kind_source[KIND_THREADED_RUN] = source;
	return 0;
}

static void threaded_close(void *skel)
{
	threaded_bpf__destroy(skel);
}

static volatile __u64 *threaded_threshold(void *skel, enum lat_kind k)
{
	struct threaded_bpf *t = skel;

	return k == KIND_THREADED ? &t->data->wake_threshold_ns : k == KIND_THREADED_RUN ? &t->data->run_threshold_ns : NULL;
}

/* the per-CPU cache, and the IRQ threads' state, in the hard-IRQ object's maps that its
 * programs and the scheduler's share (bpf/threaded.bpf.h) */
static uint64_t threaded_map_bytes(uint32_t ncpus)
{
	return (uint64_t)ncpus * sizeof(struct threaded_cpu) +
	       (uint64_t)THREADED_TASKS * (4 + sizeof(struct threaded_task) + 48) + THREADED_PID_WORDS * 8;
}

const struct progset progset_threaded = {
	.name = "threaded",
	.kinds = KIND_BIT(KIND_THREADED) | KIND_BIT(KIND_THREADED_RUN),
	.open = threaded_open,
	.close = threaded_close,
	.threshold = threaded_threshold,
	.map_bytes = threaded_map_bytes,
};
