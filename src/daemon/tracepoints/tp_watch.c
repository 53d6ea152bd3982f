// SPDX-License-Identifier: GPL-2.0
/* The module watcher: bpf/modwatch.bpf.c on module:module_load and module:module_free, so a
 * tracepoint waiting for its module is attached while the module's init function is still to
 * run, and goes back to waiting when the module is freed; and at delete_module(2)'s return,
 * so the first unload the kernel refuses because of irqlatd is said in the log. Kernels
 * without the module tracepoints keep the tracefs check alone. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "common/macro.h"
#include "daemon/sinks/journal.h"
#include "daemon/base/log.h"
#include "modwatch.skel.h"
#include "daemon/tracepoints/tp_watch.h"
#include "daemon/tracepoints/tp_resolve.h"
#include "daemon/tracepoints/tp_attach.h"

DEFINE_POINTER_CLEANUP(struct modwatch_bpf, modwatch_bpf__destroy)

/* The kernel's BTF says whether it has the module tracepoints (no libbpf warning on a kernel
 * without them, CONFIG_MODULES off like the development machine's), and the function the
 * unload program traces. */
static bool kernel_has(struct tp_set *s, const char *unload_fn, bool *unload)
{
	bool owned, found;
	struct btf *btf = tp_vmlinux_btf(s, &owned);

	*unload = false;
	if (!btf)
		return false;
	found = btf__find_by_name_kind(btf, "btf_trace_module_load", BTF_KIND_TYPEDEF) > 0 &&
		btf__find_by_name_kind(btf, "btf_trace_module_free", BTF_KIND_TYPEDEF) > 0;
	*unload = btf__find_by_name_kind(btf, unload_fn, BTF_KIND_FUNC) > 0;
	if (owned)
		btf__free(btf);
	return found;
}

int tp_watch_start(struct tp_set *s)
{
	_cleanup_(modwatch_bpf__destroyp) struct modwatch_bpf *w = NULL;
	bool unload;
	int r;

	w = modwatch_bpf__open();
	if (!w)
		return log_warning_errno(-errno, "cannot open the module watcher (%m): tracepoints are looked for in tracefs every second");
	/* "fexit/__x64_sys_delete_module": the function after the '/' */
	if (!kernel_has(s, strchr(bpf_program__section_name(w->progs.unload_exit), '/') + 1, &unload)) {
		log_info("this kernel has no module:module_load tracepoint (no loadable modules): a tracepoint that is not there yet is looked for in tracefs every second");
		return 0;
	}
	bpf_program__set_autoload(w->progs.unload_exit, unload);
	if ((r = bpf_map__reuse_fd(w->maps.events, s->ringbuf_fd)) < 0 ||
	    (r = bpf_map__reuse_fd(w->maps.drops, s->drops_fd)) < 0 ||
	    (r = modwatch_bpf__load(w)) < 0)
		return log_warning_errno(r, "cannot load the module watcher (%m): tracepoints are looked for in tracefs every second");
	w->links.module_load = bpf_program__attach(w->progs.module_load);
	w->links.module_free = bpf_program__attach(w->progs.module_free);
	if (!w->links.module_load || !w->links.module_free)
		return log_warning_errno(-errno, "cannot attach to module:module_load and module_free (%m): tracepoints are looked for in tracefs every second");
	/* without it (no BPF trampolines), irqlat status still names the modules held */
	if (unload && !(w->links.unload_exit = bpf_program__attach(w->progs.unload_exit)))
		log_warning_errno(-errno, "cannot trace delete_module(2) (%m): a refused rmmod of a module irqlatd holds is not logged");
	else if (!unload)
		log_info("no %s in the kernel's BTF: a refused rmmod of a module irqlatd holds is not logged ('irqlat status' names the modules held)",
			 strchr(bpf_program__section_name(w->progs.unload_exit), '/') + 1);
	s->watch = TAKE_PTR(w);
	log_debug("watching module:module_load and module:module_free");
	return 0;
}

void tp_watch_stop(struct tp_set *s)
{
	modwatch_bpf__destroy(s->watch);
	s->watch = NULL;
}

/* a tracepoint that is not attached, present in tracefs now and new there: it came with this load */
static bool appeared(const struct tracepoint *t)
{
	struct tp_identity now;

	if (t->state == TP_INVALID || t->state == TP_ATTACHED || tp_identity_read(t, &now) < 0)
		return false;
	return t->state == TP_WAITING || now.ino != t->ident.ino || now.id != t->ident.id;
}

static void module_loaded(struct tp_set *s, const char *name, uint64_t ts_ns)
{
	if (s->tracefs_error[0])
		return;
	for (unsigned i = 0; i < s->n; i++) {
		struct tracepoint *t = &s->tps[i];

		if (!appeared(t))
			continue;
		snprintf(t->module, sizeof(t->module), "%s", name);
		t->loaded_ns = ts_ns;
		tp_check(s, t);	/* attaches it, or says why not */
	}
}

static void module_freed(struct tp_set *s, const char *name)
{
	for (unsigned i = 0; i < s->n; i++) {
		struct tracepoint *t = &s->tps[i];

		if (strcmp(t->module, name) || t->state == TP_WAITING || t->state == TP_INVALID)
			continue;
		if (t->state == TP_ATTACHED) {
			/* only a failed init frees a module irqlatd holds (do_init_module's error path) */
			tp_detach(t);
			log_warning("module %s was freed while irqlatd was attached to its tracepoint %s (its init function failed?): detached; waiting for it to come back",
				    name, t->cfg.name);
		} else {
			log_info("tracepoint %s is gone (module %s was unloaded): waiting for it to come back", t->cfg.name, name);
		}
		t->state = TP_WAITING;
		t->warned = 1;
		t->loaded_ns = 0;
		memset(&t->ident, 0, sizeof(t->ident));
	}
}

/* The first unload of a held module that the kernel refused for its references: one line,
 * naming what holds it and how to let go. */
static void unload_refused(struct tp_set *s, const struct module_event *e, const char *name)
{
	char held[512] = "";
	size_t off = 0;
	bool first = true;

	if (e->ret != -EWOULDBLOCK)
		return;	/* not a reference count: not irqlatd's doing */
	for (unsigned i = 0; i < s->n; i++) {
		struct tracepoint *t = &s->tps[i];

		if (!tp_holds_module(t) || strcmp(t->module, name))
			continue;
		if (t->refusal_logged)
			first = false;
		t->refusal_logged = true;
		if (off < sizeof(held))
			off += (size_t)snprintf(held + off, sizeof(held) - off, "%s%s", off ? " " : "", t->cfg.name);
	}
	if (!off || !first)
		return;
	journal_module_held(name, held, e->tgid, e->comm);
}

int tp_watch_handle(struct tp_set *s, const struct module_event *e)
{
	char name[MODULE_NAME_LEN_ABI];

	snprintf(name, sizeof(name), "%.*s", MODULE_NAME_LEN_ABI - 1, e->name);
	switch (e->what) {
	case MODULE_LOADED:
		module_loaded(s, name, e->ts_ns);
		return 0;
	case MODULE_FREED:
		module_freed(s, name);
		return 0;
	case MODULE_UNLOAD_REFUSED:
		unload_refused(s, e, name);
		return 0;
	default:
		return -EBADMSG;
	}
}
