// SPDX-License-Identifier: GPL-2.0
/* Attaching and detaching one consumed tracepoint: its own instance of bpf/tracepoint.bpf.c
 * sharing the daemon's ring buffer, as a tp_btf program where BTF describes the tracepoint and
 * a raw_tp one otherwise; a link that holds its module while open; and the look at tracefs that
 * notices the tracepoint appear, go, or come back as a new one. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "daemon/collect/collect.h"
#include "common/macro.h"
#include "daemon/sinks/journal.h"
#include "daemon/base/log.h"
#include "tracepoint.skel.h"
#include "daemon/tracepoints/tp_attach.h"
#include "daemon/tracepoints/tp_resolve.h"

/* The programs wake the daemon at most once per WAKEUP_NS; tracepoints.c drains what came after. */
#define WAKEUP_NS 10000000ull

DEFINE_POINTER_CLEANUP(struct tracepoint_bpf, tracepoint_bpf__destroy)

void tp_detach(struct tracepoint *t)
{
	if (t->link_fd >= 0)
		close(t->link_fd);	/* drops the kernel's reference on the module */
	t->link_fd = -1;
	if (t->prog_fd >= 0)
		close(t->prog_fd);
	t->prog_fd = -1;
	tracepoint_bpf__destroy(t->skel);
	t->skel = NULL;
}

bool tp_holds_module(const struct tracepoint *t)
{
	return t->state == TP_ATTACHED && t->module[0];
}

bool tp_detach_logged(struct tracepoint *t, const char *why)
{
	if (t->state != TP_ATTACHED)
		return false;
	tp_detach(t);
	t->state = TP_DETACHED;
	journal_detached(t->cfg.name, t->style, "tp_event");
	log_info("detached from tracepoint %s (%s): %s%s can be unloaded now; irqlatd attaches again when it is reloaded",
		 t->cfg.name, why, t->module[0] ? "module " : "its module", t->module);
	return true;
}

static void args_list(const struct tracepoint *t, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < t->nargs && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", t->args[i].name);
}

/* t is not attached: says why in its summary and once in the log; returns r. */
static int __attribute__((format(printf, 3, 4))) attach_failed(struct tracepoint *t, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->error, sizeof(t->error), fmt, ap);
	va_end(ap);
	t->state = TP_FAILED;
	log_error("cannot consume tracepoint %s: %s", t->cfg.name, t->error);
	return r;
}

/* A new attach starts a new run: a module's new load counts from scratch, so no gap and no
 * interval across it; an unconfigured period is estimated again. */
static void start_run(struct tracepoint *t)
{
	const char *counter = t->cfg.counter[0] ? t->cfg.counter : "count";

	t->counter_arg = -1;
	for (unsigned i = 0; i < t->nargs; i++)
		if (!strcmp(t->args[i].name, counter))
			t->counter_arg = (int)i;
	if (t->cfg.counter[0] && t->counter_arg < 0)
		log_warning("tracepoint %s has no argument named %s: no gap counting", t->cfg.name, counter);
	t->have_counter = 0;
	t->prev_ts_ns = 0;
	t->rate_ticks = 0;
	t->refusal_logged = false;
	if (!t->cfg.period_ns) {
		t->period_ns = 0;
		t->estimate_left = TP_ESTIMATE_INTERVALS;
	}
}

/* The tp_btf program: the raw_tp instance's instructions, as libbpf relocated them (map fds,
 * constants), loaded once more as BPF_TRACE_RAW_TP against the BTF that describes the
 * tracepoint. libbpf's own tp_btf path would parse vmlinux's BTF and every module's on each
 * load (~100 ms under emulation, longer than a module's first period). The fd, or -errno. */
static int load_tp_btf(struct tracepoint *t, const struct tracepoint_bpf *skel)
{
	const struct bpf_program *p = skel->progs.tp_event;
	_cleanup_close_ int btf_fd = -1;
	int id, fd;

	if (t->module[0]) {	/* "": vmlinux's BTF */
		btf_fd = tp_module_btf_fd(t->module, &id);
		if (btf_fd < 0)
			return btf_fd;
	}
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_RAW_TP,
		    .attach_btf_id = (__u32)t->btf_type_id, .attach_btf_obj_fd = btf_fd > 0 ? (__u32)btf_fd : 0);
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "tp_event", "GPL", bpf_program__insns(p), bpf_program__insn_cnt(p), &o);
	return fd < 0 ? -errno : fd;
}

/* Which program: tp_btf where BTF has the tracepoint, unless --attach raw_tp said otherwise. */
static bool want_tp_btf(const struct tp_set *s, const struct tracepoint *t)
{
	return t->btf_type_id > 0 && !(s->cfg && s->cfg->attach == ATTACH_RAW_TP);
}

int tp_attach(struct tp_set *s, struct tracepoint *t)
{
	_cleanup_(tracepoint_bpf__destroyp) struct tracepoint_bpf *skel = NULL;
	uint64_t t0 = now_ns();
	char names[200], after[128] = "";
	int r, link_fd, prog_fd = -1;

	t->error[0] = 0;
	tp_identity_read(t, &t->ident);	/* absent: the attach below says so */
	r = tp_resolve_args(s, t);
	if (r == -E2BIG)
		return attach_failed(t, r, "its format has more than %d fields", TP_MAX_ARGS);
	if (r < 0)
		return attach_failed(t, r, "neither BTF nor its tracefs format describes it (%s)", strerror(-r));
	if (!t->module[0] && strcmp(t->args_source, "BTF (vmlinux)"))
		tp_module_of(t, t->module, sizeof(t->module));	/* not known: "" (status says so) */
	log_debug("tracepoint %s: arguments resolved in %llu ms", t->cfg.name,
		  (unsigned long long)((now_ns() - t0) / 1000000));

	skel = tracepoint_bpf__open();
	if (!skel) {
		r = -errno;
		return attach_failed(t, r, "cannot open the BPF object: %s", strerror(-r));
	}
	skel->rodata->tp_id = (uint32_t)(t - s->tps);
	skel->rodata->nargs = t->nargs;
	skel->rodata->wakeup_interval_ns = WAKEUP_NS;
	/* one ring buffer and one drop counter for the whole daemon */
	if ((r = bpf_map__reuse_fd(skel->maps.events, s->ringbuf_fd)) < 0 ||
	    (r = bpf_map__reuse_fd(skel->maps.drops, s->drops_fd)) < 0)
		return attach_failed(t, r, "cannot share the ring buffer: %s", strerror(-r));
	if (tracepoint_bpf__load(skel)) {
		r = -errno;
		return attach_failed(t, r, "the kernel refused the program: %s (IRQLATD_LIBBPF_DEBUG=1 shows the verifier's log)",
				     strerror(-r));
	}
	t->style = "raw_tp";
	if (want_tp_btf(s, t)) {
		prog_fd = load_tp_btf(t, skel);
		if (prog_fd >= 0)
			t->style = "tp_btf";
		else if (prog_fd == -EPERM && t->module[0])
			/* BPF_BTF_GET_FD_BY_ID wants CAP_SYS_ADMIN: not the hardened unit's */
			log_info("tracepoint %s: attaching raw_tp: opening module %s's BTF object, which a tp_btf program is loaded against, needs CAP_SYS_ADMIN",
				 t->cfg.name, t->module);
		else
			log_warning("tracepoint %s: the kernel refused it as tp_btf (%s): attaching raw_tp instead",
				    t->cfg.name, strerror(-prog_fd));
	}
	/* the raw syscall, not bpf_program__attach_raw_tracepoint(): libbpf would log its own
	 * warning too, and a bad tracepoint gets one line */
	link_fd = prog_fd >= 0 ? bpf_raw_tracepoint_open(NULL, prog_fd)
			       : bpf_raw_tracepoint_open(t->event, bpf_program__fd(skel->progs.tp_event));
	if (link_fd < 0) {
		r = -errno;
		if (prog_fd >= 0)
			close(prog_fd);
		if (r == -EINVAL)
			return attach_failed(t, r, "the kernel refused to attach: the tracepoint has fewer than the %u arguments its %s lists",
					     t->nargs, t->args_source);
		if (r == -ENOENT)
			return attach_failed(t, r, "the kernel has no raw tracepoint named %s%s", t->event,
					     !strcmp(t->system, "syscalls") ? " (syscalls:* events are not tracepoints: use raw_syscalls:sys_enter or sys_exit)" : "");
		return attach_failed(t, r, "cannot attach: %s", strerror(-r));
	}
	/* a tp_btf program keeps the maps it uses: the raw_tp instance is not needed any more */
	t->skel = prog_fd >= 0 ? NULL : TAKE_PTR(skel);
	t->prog_fd = prog_fd;
	t->link_fd = link_fd;

	start_run(t);
	t->attaches++;
	t->state = TP_ATTACHED;
	t->warned = 0;
	args_list(t, names, sizeof(names));
	log_info("attached to tracepoint %s (%s): %u argument%s from %s: %s", t->cfg.name, t->style, t->nargs,
		 t->nargs == 1 ? "" : "s", t->args_source, t->nargs ? names : "none");
	journal_attached(t->cfg.name, t->style, "tp_event");
	if (t->loaded_ns)
		snprintf(after, sizeof(after), ", %llu ms after module %s's load event",
			 (unsigned long long)((now_ns() - t->loaded_ns) / 1000000), t->module);
	log_debug("tracepoint %s: attached in %llu ms%s", t->cfg.name, (unsigned long long)((now_ns() - t0) / 1000000), after);
	return 0;
}

int tp_check(struct tp_set *s, struct tracepoint *t)
{
	struct tp_identity now;

	if (t->state == TP_INVALID || t->state == TP_ATTACHED || s->tracefs_error[0])
		return 0;
	if (tp_identity_read(t, &now) < 0) {
		if (t->state != TP_WAITING) {
			log_info("tracepoint %s is gone (%s%s was unloaded): waiting for it to come back", t->cfg.name,
				 t->module[0] ? "module " : "its module", t->module);
			t->state = TP_WAITING;
			t->warned = 1;
		} else if (!t->warned) {
			if (tp_system_present(t))
				log_error("no tracepoint %s: tracefs has events/%s but no %s in it; see 'ls " TP_TRACEFS "/events/%s'; watching for it",
					  t->cfg.name, t->system, t->event, t->system);
			else
				log_info("waiting for tracepoint %s: not in tracefs yet (its module is not loaded); attaching when it appears",
					 t->cfg.name);
			t->warned = 1;
		}
		t->ident = now;
		t->loaded_ns = 0;
		return 0;
	}
	if (t->state == TP_WAITING ||
	    ((t->state == TP_DETACHED || t->state == TP_FAILED) && (now.ino != t->ident.ino || now.id != t->ident.id)))
		return tp_attach(s, t);
	return 0;
}
