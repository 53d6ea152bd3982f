// SPDX-License-Identifier: GPL-2.0
/* How a kind's BPF object is opened on the hard-IRQ object's maps: the maps every kind shares,
 * which of its tp_btf/raw_tp twins load on this kernel, the attach order, the lines that say
 * what failed. loader.c and the program sets use it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "hardirq.skel.h"
#include "daemon/loader/object.h"
#include "daemon/base/log.h"
#include "common/macro.h"

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

void libbpf_set_quiet(bool quiet)
{
	libbpf_quiet = quiet;
}

void libbpf_log_setup(void)
{
	libbpf_set_print(libbpf_print);
}

/* Whether the kernel has tracepoint event: every tracepoint of a kernel with BTF has its
 * btf_trace_<event> type (both attach styles need the tracepoint; tp_btf needs the type). */
bool kernel_has_event(const struct btf *vmlinux, const char *event)
{
	char name[96];

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	return btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) > 0;
}

/* Every kind's object shares these with the hardirq object's (bpf/cell.bpf.h, ringbuf.bpf.h):
 * one pool of cells, one mmap, one ring buffer; and, with the objects that have them, the
 * CPUs' clock lines (bpf/clock.bpf.h), the late waits' counts (bpf/why.bpf.h) and the threaded
 * IRQs' state that the hard-IRQ exit stamps (bpf/threaded.bpf.h). */
static const char *const shared_maps[] = { "cells", "cell_meta", "cell_index", "cell_next", "events", "drops" };
static const char *const shared_if_used[] = { "clock_cpu", "why_counts", "threaded_tasks", "threaded_pids", "threaded_cpu" };

static int share_map(struct bpf_object *obj, struct bpf_object *owner, const char *name, bool required)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, name);
	struct bpf_map *o = bpf_object__find_map_by_name(owner, name);

	if (!m && !required)
		return 0;
	if (!m || !o)
		return -ENOENT;
	return bpf_map__reuse_fd(m, bpf_map__fd(o));
}

int share_maps(struct bpf_object *obj, const struct loader *l)
{
	int r;

	for (size_t i = 0; i < ELEMENTSOF(shared_maps); i++)
		if ((r = share_map(obj, l->skel->obj, shared_maps[i], true)) < 0)
			return r;
	for (size_t i = 0; i < ELEMENTSOF(shared_if_used); i++)
		if ((r = share_map(obj, l->skel->obj, shared_if_used[i], false)) < 0)
			return r;
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
unsigned choose_programs(struct bpf_object *obj, const struct btf *vmlinux, bool btf_style,
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
	return !strcmp(ev, "sched_switch") || !strcmp(ev, "sched_waking") ? "sched" : system;
}

/* Attaches the loaded programs of a kind's object: exits first, then entries, then the rest
 * (softirq_raise, sched_switch, sched_waking, in the object's order): an entry without its
 * exit is harmless, an exit paired with a stale entry is not (a timer callback's entry without
 * its exit would stamp every later wake-up on its CPU), a raise is only measured once its
 * entry is seen, and a stamp only once the switch-in that takes it is seen. */
int attach_kind(struct loader *l, struct bpf_object *obj, const char *system)
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

int attach_one(struct bpf_program *p, struct bpf_link **link, const char *tracepoint, const char *style)
{
	struct bpf_link *k = bpf_program__attach(p);

	if (!k)
		return log_error_errno(-errno, "cannot attach to tracepoint %s (%s): %m; the kernel needs CONFIG_TRACEPOINTS and CONFIG_BPF_EVENTS",
				       tracepoint, style);
	*link = k;
	return 0;
}

int share_error(int r, const char *what)
{
	/* a map's descriptor is duplicated to share it: out of descriptors is said as such */
	if (r == -EMFILE || r == -ENFILE)
		return load_error(r, what);
	return log_error_errno(r, "cannot share the cell pool with the %s programs: %m", what);
}

int load_error(int r, const char *what)
{
	if (r == -EMFILE || r == -ENFILE)
		return log_error_errno(r, "cannot load the %s BPF programs: out of file descriptors (%s: %m); raise LimitNOFILE= "
				       "or ulimit -n", what, r == -EMFILE ? "EMFILE" : "ENFILE");
	if (r == -EPERM)
		return log_error_errno(r, "the kernel refused to load BPF programs (%m): run as root with CAP_BPF and CAP_PERFMON, and check kernel.unprivileged_bpf_disabled and lockdown");
	return log_error_errno(r, "cannot load the %s BPF programs into the kernel: %m (libbpf's warnings above include the verifier's log; IRQLATD_LIBBPF_DEBUG=1 with --verbose shows every step)", what);
}

bool kernel_has_func(const struct btf *vmlinux, const char *func)
{
	return btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC) > 0;
}
