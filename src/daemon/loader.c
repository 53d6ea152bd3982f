// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "hardirq.skel.h"
#include "softirq.skel.h"
#include "vector.skel.h"
#include "timer.skel.h"
#include "ksym.h"
#include "threaded.skel.h"
#include "loader.h"
#include "log.h"
#include "common/macro.h"

int attach_mode_parse(const char *s, enum attach_mode *m)
{
	if (!strcmp(s, "auto"))
		*m = ATTACH_AUTO;
	else if (!strcmp(s, "tp_btf"))
		*m = ATTACH_TP_BTF;
	else if (!strcmp(s, "raw_tp"))
		*m = ATTACH_RAW_TP;
	else
		return -EINVAL;
	return 0;
}

static int has_cap(cap_t caps, cap_value_t c)
{
	cap_flag_value_t v = CAP_CLEAR;

	return cap_get_flag(caps, c, CAP_EFFECTIVE, &v) == 0 && v == CAP_SET;
}

int loader_check_privileges(void)
{
	cap_t caps = cap_get_proc();
	const char *missing = NULL;

	if (!caps)
		return log_error_errno(-errno, "cannot read this process's capabilities: %m");
	/* CAP_SYS_ADMIN stands in for both on kernels before 5.8 */
	if (!has_cap(caps, CAP_SYS_ADMIN)) {
		if (!has_cap(caps, CAP_BPF) && !has_cap(caps, CAP_PERFMON))
			missing = "CAP_BPF and CAP_PERFMON";
		else if (!has_cap(caps, CAP_BPF))
			missing = "CAP_BPF";
		else if (!has_cap(caps, CAP_PERFMON))
			missing = "CAP_PERFMON";
	}
	cap_free(caps);
	if (missing) {
		log_error("missing capability %s: run irqlatd as root (sudo) or grant it %s", missing, missing);
		return -EPERM;
	}
	return 0;
}

/* Set while a load may fail for a reason the loader reports in its own words and works around
 * (fentry refused): libbpf's warnings then go to the debug level. */
static bool libbpf_quiet;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static int verbose = -1;
	char *buf, *line, *save = NULL;

	if (verbose < 0)
		verbose = getenv("IRQLATD_LIBBPF_DEBUG") != NULL;
	if (level == LIBBPF_WARN && libbpf_quiet)
		level = LIBBPF_DEBUG;
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	/* one message can be the verifier's whole log: log every line of it, none cut */
	if (vasprintf(&buf, fmt, ap) < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		log_full(level == LIBBPF_WARN ? LOG_WARNING : LOG_DEBUG, "%s%s", strncmp(line, "libbpf: ", 8) ? "libbpf: " : "", line);
	free(buf);
	return 0;
}

/* Whether the kernel has tracepoint event: every tracepoint of a kernel with BTF has its
 * btf_trace_<event> type (both attach styles need the tracepoint; tp_btf needs the type). */
static bool kernel_has_event(const struct btf *vmlinux, const char *event)
{
	char name[96];

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	return btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) > 0;
}

static int load_vmlinux_btf(struct btf **btf)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		log_error("kernel BTF is missing (/sys/kernel/btf/vmlinux): irqlatd needs a kernel built with CONFIG_DEBUG_INFO_BTF=y");
		return -ENOTSUP;
	}
	*btf = btf__load_vmlinux_btf();
	if (!*btf)
		return log_error_errno(-errno, "cannot read kernel BTF from /sys/kernel/btf/vmlinux: %m");
	return 0;
}

static int choose_attach_style(const struct btf *btf, enum attach_mode mode, const char **style)
{
	bool has_btf_tp = kernel_has_event(btf, "irq_handler_entry") && kernel_has_event(btf, "irq_handler_exit");

	switch (mode) {
	case ATTACH_TP_BTF:
		if (!has_btf_tp) {
			log_error("kernel BTF has no irq_handler_entry/exit tracepoint types: use --attach raw_tp or auto");
			return -ENOTSUP;
		}
		*style = "tp_btf";
		break;
	case ATTACH_RAW_TP:
		*style = "raw_tp";
		break;
	default:
		*style = has_btf_tp ? "tp_btf" : "raw_tp";
	}
	return 0;
}

/* Maps the values of an mmapable array map into our memory. */
static int map_mmap(struct bpf_map *map, void **ret, size_t *len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t sz = (size_t)bpf_map__value_size(map) * bpf_map__max_entries(map);
	void *p;

	*len = (sz + page - 1) / page * page;
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), 0);
	if (p == MAP_FAILED)
		return -errno;
	*ret = p;
	return 0;
}

/* Attaches p, the link kept where the skeleton's destroy detaches it. */
static int attach(struct bpf_program *p, struct bpf_link **link, const char *tracepoint, const char *style)
{
	struct bpf_link *k = bpf_program__attach(p);

	if (!k)
		return log_error_errno(-errno, "cannot attach to tracepoint %s (%s): %m; the kernel needs CONFIG_TRACEPOINTS and CONFIG_BPF_EVENTS",
				       tracepoint, style);
	*link = k;
	return 0;
}

static void loader_closep(struct loader **l)
{
	if (*l)
		loader_close(*l);
}

uint64_t loader_map_bytes(uint32_t ncpus, uint32_t max_cells, uint32_t ringbuf_bytes)
{
	uint64_t hash_entry = sizeof(struct cell_key) + 8 /* value, rounded */ + 48 /* htab_elem */;

	return (uint64_t)ncpus * (sizeof(struct hardirq_cpu) + sizeof(struct softirq_cpu) + sizeof(struct vector_cpu) +
				  sizeof(struct timer_cpu) + sizeof(struct threaded_cpu)) +
	       (uint64_t)max_cells * (sizeof(struct lat_cell) + sizeof(struct lat_cell_meta) + hash_entry) +
	       (uint64_t)THREADED_TASKS * (4 + sizeof(struct threaded_task) + 48) + THREADED_PID_WORDS * 8 +
	       ringbuf_bytes + (uint64_t)ncpus * DROP_KINDS * 8;
}

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

static void note_attached(struct loader *l, const char *system, const char *event, const struct bpf_program *p)
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

static int load_error(int r, const char *what)
{
	if (r == -EPERM)
		return log_error_errno(r, "the kernel refused to load BPF programs (%m): run as root with CAP_BPF and CAP_PERFMON, and check kernel.unprivileged_bpf_disabled and lockdown");
	return log_error_errno(r, "cannot load the %s BPF programs into the kernel: %m (libbpf's warnings above include the verifier's log; IRQLATD_LIBBPF_DEBUG=1 with --verbose shows every step)", what);
}

/* Softirqs (bpf/softirq.bpf.c): every architecture has irq:softirq_*. */
static int open_softirq(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus)
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
static int open_vector(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus)
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

/* hrtimer lateness and wake-up latency (bpf/timer.bpf.c): timer:hrtimer_expire_entry, and
 * sched:sched_switch for the wake-ups, which need tp_btf (task local storage takes a typed
 * task pointer) and hrtimer_wakeup's address from /proc/kallsyms. */
static int open_timer(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus, bool wakeups,
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
	r = share_maps(t->obj, l->skel->obj);
	if (r < 0)
		return log_error_errno(r, "cannot share the cell pool with the timer programs: %m");
	if (choose_programs(t->obj, vmlinux, btf_style, missing, sizeof(missing)) == 0 ||
	    !kernel_has_event(vmlinux, "hrtimer_expire_entry")) {
		log_warning("timers: the kernel has no tracepoint timer:hrtimer_expire_entry: timer lateness and wake-ups are not measured");
		timer_bpf__destroy(TAKE_PTR(l->timer));
		return 0;
	}
	if (wakeups) {
		if (!btf_style)
			log_info("wake-ups: not measured with raw_tp programs (task local storage needs tp_btf); timer lateness is");
		else if (!kernel_has_event(vmlinux, "sched_switch"))
			log_warning("wake-ups: the kernel has no tracepoint sched:sched_switch: wake-up latency is not measured");
		else if ((r = ksym_addr(NULL, "hrtimer_wakeup", &wake_fn)) < 0)
			log_warning("wake-ups: cannot find hrtimer_wakeup in /proc/kallsyms (%s): wake-up latency is not measured",
				    strerror(-r));
	}
	l->wakeups = wake_fn != 0;
	t->rodata->hrtimer_wakeup_fn = wake_fn;
	t->rodata->max_wakeup_cells = max_wakeup_cells;
	bpf_program__set_autoload(t->progs.sched_switch_btf, l->wakeups);
	if (timer_bpf__load(t))
		return load_error(-errno, "timer");
	return attach_kind(l, t->obj, "timer");
}

static bool kernel_has_func(const struct btf *vmlinux, const char *func)
{
	return btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC) > 0;
}

/* Threaded IRQs (bpf/threaded.bpf.c): sched_switch, and fentry/fexit on genirq's thread
 * wrappers when the kernel's BTF has them and the kernel lets them attach; without those the
 * wake-to-run is measured and the run time is not (said once). Attached before the hard-IRQ
 * programs, so that no wake is stamped before its switch can be seen. */
static int open_threaded(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus, bool fentry)
{
	struct threaded_bpf *t = threaded_bpf__open();
	char missing[128];
	unsigned first = l->nlinks, first_noted = l->nattached;
	bool has_funcs;
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
	fentry = fentry && has_funcs;
	bpf_program__set_autoload(t->progs.threaded_fn_entry, fentry);
	bpf_program__set_autoload(t->progs.threaded_fn_exit, fentry);
	bpf_program__set_autoload(t->progs.threaded_forced_fn_entry, fentry);
	bpf_program__set_autoload(t->progs.threaded_forced_fn_exit, fentry);
	libbpf_quiet = fentry;	/* a refused fentry program is said below, in one line */
	r = threaded_bpf__load(t) ? -errno : 0;
	libbpf_quiet = false;
	if (r < 0) {
		if (!bpf_program__autoload(t->progs.threaded_fn_entry))
			return load_error(r, "threaded IRQ");
		log_warning("threaded IRQs: the kernel refused fentry/fexit programs on irq_thread_fn (%s; IRQLATD_LIBBPF_DEBUG=1 with --verbose shows libbpf's log): the thread handlers' run time is not measured",
			    strerror(-r));
		threaded_bpf__destroy(TAKE_PTR(l->threaded));
		return open_threaded(l, vmlinux, btf_style, ncpus, false);
	}
	/* fexit before fentry, as exits before entries */
	for (int pass = 0; pass < 2; pass++)
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
				log_warning("threaded IRQs: cannot attach %s (%s): the thread handlers' run time is not measured",
					    sec, strerror(-r));
				while (l->nlinks > first)
					bpf_link__destroy(l->links[--l->nlinks]);
				l->nattached = first_noted;
				threaded_bpf__destroy(TAKE_PTR(l->threaded));
				return open_threaded(l, vmlinux, btf_style, ncpus, false);
			}
			l->links[l->nlinks++] = k;
			note_attached(l, pass ? "fentry" : "fexit", strchr(sec, '/') + 1, p);
		}
	l->threaded_run = fentry;
	if (!has_funcs)
		log_info("threaded IRQs: this kernel has no irq_thread_fn/irq_forced_thread_fn in its BTF: the wake-to-run latency is measured, the thread handlers' run time is not");
	return attach_kind(l, t->obj, "sched");
}

bool loader_kind_on(const struct loader *l, enum lat_kind kind)
{
	switch (kind) {
	case KIND_HARDIRQ:
		return l->skel != NULL;
	case KIND_SOFTIRQ:
	case KIND_SOFTIRQ_RAISE:
		return l->softirq != NULL;
	case KIND_VECTOR:
		return l->vector != NULL;
	case KIND_TIMER:
		return l->timer != NULL;
	case KIND_WAKEUP:
	case KIND_WAKEUP_CPU:
		return l->timer != NULL && l->wakeups;
	case KIND_THREADED:
		return l->threaded != NULL;
	case KIND_THREADED_RUN:
		return l->threaded != NULL && l->threaded_run;
	default:
		return false;
	}
}

static void btf_freep(struct btf **b)
{
	btf__free(*b);
}

int loader_open(struct loader *l, const struct loader_opts *o)
{
	_cleanup_(loader_closep) struct loader *opened = l;	/* undone on every failure below */
	_cleanup_(btf_freep) struct btf *vmlinux = NULL;
	struct hardirq_bpf *skel;
	void *cells, *meta, *pool;
	bool btf_style;
	int r;

	memset(l, 0, sizeof(*l));
	l->ringbuf_fd = l->drops_fd = -1;
	libbpf_set_print(libbpf_print);

	r = load_vmlinux_btf(&vmlinux);
	if (r < 0)
		return r;
	r = choose_attach_style(vmlinux, o->mode, &l->attach_style);
	if (r < 0)
		return r;
	btf_style = !strcmp(l->attach_style, "tp_btf");

	skel = hardirq_bpf__open();
	if (!skel)
		return log_error_errno(-errno, "cannot open the BPF object: %m");
	l->skel = skel;
	l->max_cells = o->max_cells;
	for (unsigned k = 0; k < KINDS; k++)
		l->cell_threshold_ns[k] = o->threshold_ns[k] ? o->threshold_ns[k] : UINT64_MAX;
	skel->data->threshold_ns = l->cell_threshold_ns[KIND_HARDIRQ];
	int ncpus = libbpf_num_possible_cpus();

	if (ncpus < 0)
		return log_error_errno(ncpus, "cannot count the possible CPUs (/sys/devices/system/cpu/possible): %m");
	l->ncpus = (unsigned)ncpus;
	bpf_map__set_max_entries(skel->maps.hardirq_cpu, (uint32_t)ncpus);
	bpf_map__set_max_entries(skel->maps.cell_index, o->max_cells);
	bpf_map__set_max_entries(skel->maps.cells, o->max_cells);
	bpf_map__set_max_entries(skel->maps.cell_meta, o->max_cells);
	bpf_map__set_max_entries(skel->maps.events, o->ringbuf_bytes);
	skel->rodata->threaded_on = o->threaded;	/* the exit stamps IRQ threads' wakes */
	if (!o->threaded)
		bpf_map__set_max_entries(skel->maps.threaded_tasks, 1);
	/* one attach style per run, chosen once, so the verifier sees only the programs we use */
	bpf_program__set_autoload(skel->progs.irq_entry_btf, btf_style);
	bpf_program__set_autoload(skel->progs.irq_exit_btf, btf_style);
	bpf_program__set_autoload(skel->progs.irq_entry_raw, !btf_style);
	bpf_program__set_autoload(skel->progs.irq_exit_raw, !btf_style);

	if (hardirq_bpf__load(skel))
		return load_error(-errno, "hard-IRQ");

	/* the pool's size goes in before the programs run: until then every cold path finds it full */
	r = map_mmap(skel->maps.cells, &cells, &l->cells_len);
	if (r >= 0) {
		l->cells = cells;
		r = map_mmap(skel->maps.cell_meta, &meta, &l->meta_len);
	}
	if (r >= 0) {
		l->meta = meta;
		r = map_mmap(skel->maps.cell_next, &pool, &l->pool_len);
	}
	if (r < 0)
		return log_error_errno(r, "cannot map the histogram cells into memory: %m");
	l->pool = pool;
	l->pool->max = o->max_cells;
	/* before the hard-IRQ programs: a wake stamped before its thread's switch could be seen
	 * would give one false latency at the thread's next switch */
	if (o->threaded && (r = open_threaded(l, vmlinux, btf_style, ncpus, true)) < 0)
		return r;

	struct bpf_program *entry = btf_style ? skel->progs.irq_entry_btf : skel->progs.irq_entry_raw;
	struct bpf_program *exit_ = btf_style ? skel->progs.irq_exit_btf : skel->progs.irq_exit_raw;
	/* exit first: an entry without its exit is harmless, the other way round is not measured */
	r = attach(exit_, btf_style ? &skel->links.irq_exit_btf : &skel->links.irq_exit_raw,
		   "irq:irq_handler_exit", l->attach_style);
	if (r < 0)
		return r;
	r = attach(entry, btf_style ? &skel->links.irq_entry_btf : &skel->links.irq_entry_raw,
		   "irq:irq_handler_entry", l->attach_style);
	if (r < 0)
		return r;
	note_attached(l, "irq", "irq_handler_exit", exit_);
	note_attached(l, "irq", "irq_handler_entry", entry);
	if (o->softirqs && (r = open_softirq(l, vmlinux, btf_style, ncpus)) < 0)
		return r;
	if (o->vectors && (r = open_vector(l, vmlinux, btf_style, ncpus)) < 0)
		return r;
	if (o->timers && (r = open_timer(l, vmlinux, btf_style, ncpus, o->wakeups, o->max_wakeup_cells)) < 0)
		return r;
	l->entry_prog_fd = bpf_program__fd(entry);
	l->exit_prog_fd = bpf_program__fd(exit_);
	l->ringbuf_fd = bpf_map__fd(skel->maps.events);
	l->drops_fd = bpf_map__fd(skel->maps.drops);
	TAKE_PTR(opened);
	return 0;
}

void loader_close(struct loader *l)
{
	if (l->cells)
		munmap((void *)l->cells, l->cells_len);
	if (l->meta)
		munmap((void *)l->meta, l->meta_len);
	if (l->pool)
		munmap((void *)l->pool, l->pool_len);
	for (unsigned i = 0; i < l->nlinks; i++)
		bpf_link__destroy(l->links[i]);
	if (l->threaded)
		threaded_bpf__destroy(l->threaded);
	if (l->vector)
		vector_bpf__destroy(l->vector);
	if (l->timer)
		timer_bpf__destroy(l->timer);
	if (l->softirq)
		softirq_bpf__destroy(l->softirq);
	if (l->skel)
		hardirq_bpf__destroy(l->skel);	/* detaches the links */
	if (l->stats_fd > 0)
		close(l->stats_fd);
	memset(l, 0, sizeof(*l));
	l->ringbuf_fd = l->drops_fd = -1;
}

int loader_enable_stats(struct loader *l)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		return -errno;
	l->stats_fd = fd;
	return 0;
}

/* kernel.bpf_stats_enabled is 1 while the sysctl is set; a bpf_enable_stats() fd turns the
 * counting on without showing there, so ours is checked first. */
static bool stats_enabled(const struct loader *l)
{
	_cleanup_fclose_ FILE *f = NULL;
	int v = 0;

	if (l && l->stats_fd > 0)
		return true;
	f = fopen("/proc/sys/kernel/bpf_stats_enabled", "re");
	if (!f || fscanf(f, "%d", &v) != 1)
		return false;
	return v != 0;
}

/* bpf_obj_get_info_by_fd: libbpf 1.1 has no bpf_prog_get_info_by_fd yet */
int loader_read_cost(const struct loader *l, struct loader_cost *cost)
{
	struct bpf_prog_info entry = { 0 }, exit_ = { 0 };
	__u32 len = sizeof(entry);

	memset(cost, 0, sizeof(*cost));
	cost->stats_enabled = stats_enabled(l);
	if (!l || l->entry_prog_fd <= 0 || l->exit_prog_fd <= 0)
		return -EBADF;	/* not loaded */
	if (bpf_obj_get_info_by_fd(l->entry_prog_fd, &entry, &len) < 0)
		return -errno;
	len = sizeof(exit_);
	if (bpf_obj_get_info_by_fd(l->exit_prog_fd, &exit_, &len) < 0)
		return -errno;
	cost->entry_id = entry.id;
	cost->exit_id = exit_.id;
	cost->run_time_ns = entry.run_time_ns + exit_.run_time_ns;
	cost->run_cnt = exit_.run_cnt;
	return 0;
}

uint32_t loader_cells_used(const struct loader *l)
{
	uint32_t n = __atomic_load_n(&l->pool->next, __ATOMIC_ACQUIRE);

	return n < l->max_cells ? n : l->max_cells;
}

/* Each cell carries its threshold beside its sums, so the exit program reads no other line
 * for it; new cells start from their program's global. 8-byte aligned stores: a running
 * program sees the old value or the new one. */
void loader_set_threshold(struct loader *l, enum lat_kind kind, uint64_t threshold_ns)
{
	volatile __u64 *global = NULL;
	uint64_t t = threshold_ns ? threshold_ns : UINT64_MAX;
	uint32_t used;

	if (kind >= KINDS)
		return;
	l->cell_threshold_ns[kind] = t;
	if (kind == KIND_HARDIRQ && l->skel && l->skel->data)
		global = &l->skel->data->threshold_ns;
	else if (kind == KIND_SOFTIRQ && l->softirq)
		global = &l->softirq->data->run_threshold_ns;
	else if (kind == KIND_SOFTIRQ_RAISE && l->softirq)
		global = &l->softirq->data->raise_threshold_ns;
	else if (kind == KIND_VECTOR && l->vector)
		global = &l->vector->data->threshold_ns;
	else if (kind == KIND_TIMER && l->timer)
		global = &l->timer->data->lateness_threshold_ns;
	else if (kind == KIND_WAKEUP && l->timer)
		global = &l->timer->data->wakeup_threshold_ns;
	else if (kind == KIND_THREADED && l->threaded)
		global = &l->threaded->data->wake_threshold_ns;
	else if (kind == KIND_THREADED_RUN && l->threaded)
		global = &l->threaded->data->run_threshold_ns;
	if (global)
		__atomic_store_n(global, t, __ATOMIC_RELAXED);
	used = loader_cells_used(l);
	for (uint32_t id = 0; id < used; id++)
		loader_apply_threshold(l, id);
}

void loader_apply_threshold(struct loader *l, uint32_t id)
{
	uint32_t kind;

	if (id >= l->max_cells || !__atomic_load_n(&l->meta[id].ready, __ATOMIC_ACQUIRE))
		return;	/* the collector applies it when it takes the cell */
	kind = l->meta[id].kind;
	if (kind < KINDS && l->cells[id].threshold_ns != l->cell_threshold_ns[kind])
		__atomic_store_n(&l->cells[id].threshold_ns, l->cell_threshold_ns[kind], __ATOMIC_RELAXED);
}

int loader_read_drop(int drops_fd, uint32_t kind, uint64_t *sum)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t vals[ncpu > 0 ? ncpu : 1];

	*sum = 0;
	if (bpf_map_lookup_elem(drops_fd, &kind, vals))
		return -errno;
	for (int c = 0; c < ncpu; c++)
		*sum += vals[c];
	return 0;
}

int loader_read_drops(const struct loader *l, uint64_t out[DROP_KINDS])
{
	for (uint32_t k = 0; k < DROP_KINDS; k++) {
		int r = loader_read_drop(l->drops_fd, k, &out[k]);

		if (r < 0)
			return r;
	}
	return 0;
}
