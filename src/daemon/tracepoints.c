// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collect.h"
#include "log.h"
#include "tracepoint.skel.h"
#include "journal.h"
#include "tracepoints.h"

#define TRACEFS "/sys/kernel/tracing"
#define TICK_US 1000000ull	/* presence check and rate cadence: attach within 2 s of a load */
#define PERIOD_ESTIMATE_INTERVALS 16
/* The programs wake the daemon at most once per WAKEUP_NS; DRAIN_US picks up what came after. */
#define WAKEUP_NS 10000000ull
#define DRAIN_US 100000ull

/* The intervals seen while the period is being estimated, replayed once it is fixed. */
static uint64_t est_buf[MAX_TRACEPOINTS][PERIOD_ESTIMATE_INTERVALS];

static const char *const state_names[] = {
	[TP_INVALID] = "invalid", [TP_WAITING] = "waiting", [TP_ATTACHED] = "attached",
	[TP_DETACHED] = "detached", [TP_FAILED] = "failed",
};

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

int tp_name_split(const char *name, char *system, size_t slen, char *event, size_t elen)
{
	const char *colon = strchr(name, ':');
	size_t sl, el;

	if (!colon)
		return -EINVAL;
	sl = (size_t)(colon - name);
	el = strlen(colon + 1);
	if (!sl || !el || sl >= slen || el >= elen)
		return -EINVAL;
	for (size_t i = 0; i < sl; i++)
		if (!ident_char(name[i]))
			return -EINVAL;
	for (size_t i = 0; i < el; i++)
		if (!ident_char(colon[1 + i]))
			return -EINVAL;
	memcpy(system, name, sl);
	system[sl] = 0;
	memcpy(event, colon + 1, el + 1);
	return 0;
}

int tp_parse_format(const char *text, struct tp_arg *args, unsigned max)
{
	unsigned n = 0;

	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *f = strstr(line, "field:"), *semi, *end, *p;
		const char *eol = strchr(line, '\n');
		char decl[160];
		size_t len;
		int size = 8, is_signed = 0;

		if (!f || (eol && f > eol))
			continue;
		f += strlen("field:");
		semi = strchr(f, ';');
		if (!semi || (eol && semi > eol) || (size_t)(semi - f) >= sizeof(decl))
			continue;
		len = (size_t)(semi - f);
		memcpy(decl, f, len);
		decl[len] = 0;
		/* "TYPE NAME", "TYPE NAME[N]" or "__data_loc char[] NAME": the name is the last
		 * identifier, once a trailing [N] is taken off */
		end = decl + len;
		while (end > decl && end[-1] == ' ')
			end--;
		if (end > decl && end[-1] == ']')
			while (end > decl && *--end != '[')
				;
		while (end > decl && !ident_char(end[-1]))
			end--;
		p = end;
		while (p > decl && ident_char(p[-1]))
			p--;
		if (p == end || !strncmp(p, "common_", 7))
			continue;
		if ((f = strstr(semi, "size:")) && (!eol || f < eol))
			size = atoi(f + 5);
		if ((f = strstr(semi, "signed:")) && (!eol || f < eol))
			is_signed = atoi(f + 7);
		if (n == max)
			return -E2BIG;
		memset(&args[n], 0, sizeof(args[n]));
		snprintf(args[n].name, sizeof(args[n].name), "%.*s", (int)(end - p), p);
		if (strchr(decl, '*') || strstr(decl, "__data_loc") || strchr(decl, '['))
			args[n].kind = TP_ARG_POINTER;	/* the argument behind a string or array field */
		else
			args[n].kind = is_signed ? TP_ARG_SIGNED : TP_ARG_UNSIGNED;
		args[n].size = size > 0 && size <= 8 ? (unsigned)size : 8;
		n++;
	}
	return (int)n;
}

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return (int)n;
}

static void identity_read(const struct tracepoint *t, struct tp_identity *id)
{
	char path[256], buf[32];
	struct stat st;

	memset(id, 0, sizeof(*id));
	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s", t->system, t->event);
	if (stat(path, &st) < 0)
		return;
	id->present = 1;
	id->ino = (unsigned long long)st.st_ino;
	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/id", t->system, t->event);
	if (read_file(path, buf, sizeof(buf)) > 0)
		id->id = strtol(buf, NULL, 10);
}

static int system_present(const struct tracepoint *t)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/events/%s", t->system);
	return access(path, F_OK) == 0;
}

/* ---- argument names and count ---- */

static void arg_from_btf(const struct btf *btf, __u32 type_id, struct tp_arg *a)
{
	int id = btf__resolve_type(btf, type_id);	/* through typedefs and qualifiers */
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (__u32)id) : NULL;

	a->kind = TP_ARG_UNSIGNED;
	a->size = 8;
	if (!t)
		return;
	if (btf_is_ptr(t)) {
		a->kind = TP_ARG_POINTER;
	} else if (btf_is_int(t)) {
		a->size = t->size;
		if (btf_int_encoding(t) & BTF_INT_SIGNED)
			a->kind = TP_ARG_SIGNED;
	} else if (btf_is_any_enum(t)) {
		a->size = t->size;
		a->kind = btf_kflag(t) ? TP_ARG_SIGNED : TP_ARG_UNSIGNED;
	}
}

/* The tracepoint's prototype is the typedef btf_trace_EVENT: a pointer to a function whose
 * first parameter is the probe's void *data, then the TP_PROTO arguments. Its parameters have
 * no names; __bpf_trace_EVENT (the probe of a TRACE_EVENT, or of the class of a DEFINE_EVENT
 * of the same name) has the same parameters with names. */
static int args_from_btf(struct tracepoint *t, const struct btf *btf)
{
	char name[128];
	const struct btf_type *td, *proto, *named = NULL;
	const struct btf_param *p, *np = NULL;
	int id;
	unsigned n;

	snprintf(name, sizeof(name), "btf_trace_%s", t->event);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -ENOENT;
	td = btf__type_by_id(btf, (__u32)id);
	td = td ? btf__type_by_id(btf, td->type) : NULL;	/* the pointer */
	proto = td && btf_is_ptr(td) ? btf__type_by_id(btf, td->type) : NULL;
	if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) < 1)
		return -EPROTO;
	n = btf_vlen(proto) - 1;
	if (n > TP_MAX_ARGS)
		return -E2BIG;
	snprintf(name, sizeof(name), "__bpf_trace_%s", t->event);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id > 0) {
		const struct btf_type *fn = btf__type_by_id(btf, (__u32)id);

		named = fn ? btf__type_by_id(btf, fn->type) : NULL;
		if (named && btf_is_func_proto(named) && btf_vlen(named) == n + 1)
			np = btf_params(named) + 1;
	}
	p = btf_params(proto) + 1;
	for (unsigned i = 0; i < n; i++) {
		memset(&t->args[i], 0, sizeof(t->args[i]));
		arg_from_btf(btf, p[i].type, &t->args[i]);
		const char *an = np ? btf__name_by_offset(btf, np[i].name_off) : NULL;

		if (an && *an)
			snprintf(t->args[i].name, sizeof(t->args[i].name), "%s", an);
		else
			snprintf(t->args[i].name, sizeof(t->args[i].name), "arg%u", i);
	}
	t->nargs = n;
	return 0;
}

static int resolve_btf(struct tracepoint *t)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	DIR *d;
	struct dirent *de;
	int r = -ENOENT;

	if (!vmlinux)
		return -errno;
	if (args_from_btf(t, vmlinux) == 0) {
		snprintf(t->args_source, sizeof(t->args_source), "BTF (vmlinux)");
		btf__free(vmlinux);
		return 0;
	}
	/* a module's tracepoint: its BTF is split on top of vmlinux's, one file per module */
	d = opendir("/sys/kernel/btf");
	while (d && (de = readdir(d))) {
		char path[300];
		struct btf *mod;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "vmlinux"))
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/btf/%s", de->d_name);
		mod = btf__parse_split(path, vmlinux);
		if (!mod)
			continue;
		r = args_from_btf(t, mod);
		btf__free(mod);
		if (r == 0) {
			snprintf(t->args_source, sizeof(t->args_source), "BTF (module %.60s)", de->d_name);
			break;
		}
	}
	if (d)
		closedir(d);
	btf__free(vmlinux);
	return r;
}

static int resolve_format(struct tracepoint *t)
{
	char path[256], buf[8192];
	int r;

	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/format", t->system, t->event);
	r = read_file(path, buf, sizeof(buf));
	if (r < 0)
		return r;
	r = tp_parse_format(buf, t->args, TP_MAX_ARGS);
	if (r < 0)
		return r;
	t->nargs = (unsigned)r;
	snprintf(t->args_source, sizeof(t->args_source), "tracefs format");
	return 0;
}

/* Re-read on every attach: a reloaded module may have changed its tracepoint. */
static int resolve_args(struct tracepoint *t)
{
	int r = resolve_btf(t);

	if (r == 0)
		return 0;
	r = resolve_format(t);
	if (r == -E2BIG)
		snprintf(t->error, sizeof(t->error), "its format has more than %d fields", TP_MAX_ARGS);
	else if (r < 0)
		snprintf(t->error, sizeof(t->error), "neither BTF nor its tracefs format describes it (%s)", strerror(-r));
	return r;
}

/* ---- attach and detach ---- */

static void tp_detach(struct tracepoint *t)
{
	if (t->link_fd >= 0)
		close(t->link_fd);	/* drops the kernel's reference on the module */
	t->link_fd = -1;
	tracepoint_bpf__destroy(t->skel);
	t->skel = NULL;
}

static void args_list(const struct tracepoint *t, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < t->nargs && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", t->args[i].name);
}

static int tp_attach(struct tp_set *s, struct tracepoint *t)
{
	const char *counter = t->cfg.counter[0] ? t->cfg.counter : "count";
	struct tracepoint_bpf *skel;
	char names[200];
	int r;

	uint64_t t0 = now_ns();

	t->error[0] = 0;
	identity_read(t, &t->ident);
	r = resolve_args(t);
	if (r < 0)
		goto fail_logged;
	log_debug("tracepoint %s: arguments resolved in %llu ms", t->cfg.name,
		  (unsigned long long)((now_ns() - t0) / 1000000));

	skel = tracepoint_bpf__open();
	if (!skel) {
		r = -errno;
		snprintf(t->error, sizeof(t->error), "cannot open the BPF object: %s", strerror(-r));
		goto fail_logged;
	}
	t->skel = skel;
	skel->rodata->tp_id = (uint32_t)(t - s->tps);
	skel->rodata->nargs = t->nargs;
	skel->rodata->wakeup_interval_ns = WAKEUP_NS;
	/* one ring buffer and one drop counter for the whole daemon */
	if ((r = bpf_map__reuse_fd(skel->maps.events, s->ringbuf_fd)) < 0 ||
	    (r = bpf_map__reuse_fd(skel->maps.drops, s->drops_fd)) < 0) {
		snprintf(t->error, sizeof(t->error), "cannot share the ring buffer: %s", strerror(-r));
		goto fail;
	}
	r = tracepoint_bpf__load(skel);
	if (r) {
		r = -errno;
		snprintf(t->error, sizeof(t->error), "the kernel refused the program: %s (IRQLATD_LIBBPF_DEBUG=1 shows the verifier's log)", strerror(-r));
		goto fail;
	}
	/* the raw syscall, not bpf_program__attach_raw_tracepoint(): libbpf would log its own
	 * warning too, and a bad tracepoint gets one line */
	t->link_fd = bpf_raw_tracepoint_open(t->event, bpf_program__fd(skel->progs.tp_event));
	if (t->link_fd < 0) {
		r = -errno;
		t->link_fd = -1;
		if (r == -EINVAL)
			snprintf(t->error, sizeof(t->error), "the kernel refused to attach: the tracepoint has fewer than the %u arguments its %s lists", t->nargs, t->args_source);
		else if (r == -ENOENT)
			snprintf(t->error, sizeof(t->error), "the kernel has no raw tracepoint named %s%s", t->event,
				 !strcmp(t->system, "syscalls") ? " (syscalls:* events are not tracepoints: use raw_syscalls:sys_enter or sys_exit)" : "");
		else
			snprintf(t->error, sizeof(t->error), "cannot attach: %s", strerror(-r));
		goto fail;
	}

	t->counter_arg = -1;
	for (unsigned i = 0; i < t->nargs; i++)
		if (!strcmp(t->args[i].name, counter))
			t->counter_arg = (int)i;
	if (t->cfg.counter[0] && t->counter_arg < 0)
		log_warning("tracepoint %s has no argument named %s: no gap counting", t->cfg.name, counter);
	/* a new load of the module starts a new run: no gap, no interval across it */
	t->have_counter = 0;
	t->prev_ts_ns = 0;
	t->rate_ticks = 0;
	if (!t->cfg.period_ns) {
		t->period_ns = 0;
		t->estimate_left = PERIOD_ESTIMATE_INTERVALS;
	}
	t->attaches++;
	t->state = TP_ATTACHED;
	t->warned = 0;
	args_list(t, names, sizeof(names));
	log_info("attached to tracepoint %s (raw_tp): %u argument%s from %s: %s", t->cfg.name, t->nargs,
		 t->nargs == 1 ? "" : "s", t->args_source, t->nargs ? names : "none");
	journal_attached(t->cfg.name, "raw_tp", "tp_event");
	log_debug("tracepoint %s: attached in %llu ms", t->cfg.name, (unsigned long long)((now_ns() - t0) / 1000000));
	return 0;
fail:
	tp_detach(t);
fail_logged:
	t->state = TP_FAILED;
	log_error("cannot consume tracepoint %s: %s", t->cfg.name, t->error);
	return r;
}

/* What changed in tracefs since the last look, for a tracepoint that is not attached. */
static void tp_check(struct tp_set *s, struct tracepoint *t)
{
	struct tp_identity now;

	if (t->state == TP_INVALID || t->state == TP_ATTACHED || !s->tracefs_ok)
		return;
	identity_read(t, &now);
	if (!now.present) {
		if (t->state != TP_WAITING) {
			log_info("tracepoint %s is gone (its module was unloaded): waiting for it to come back", t->cfg.name);
			t->state = TP_WAITING;
			t->warned = 1;
		} else if (!t->warned) {
			if (system_present(t))
				log_error("no tracepoint %s: tracefs has events/%s but no %s in it; see 'ls " TRACEFS "/events/%s'; watching for it",
					  t->cfg.name, t->system, t->event, t->system);
			else
				log_info("waiting for tracepoint %s: not in tracefs yet (its module is not loaded); attaching when it appears",
					 t->cfg.name);
			t->warned = 1;
		}
		t->ident = now;
		return;
	}
	if (t->state == TP_WAITING ||
	    ((t->state == TP_DETACHED || t->state == TP_FAILED) && (now.ino != t->ident.ino || now.id != t->ident.id)))
		tp_attach(s, t);
}

static void tp_tick_rates(struct tp_set *s)
{
	unsigned slot = (unsigned)(s->tick % TP_RATE_SECONDS);

	for (unsigned i = 0; i < s->n; i++) {
		struct tracepoint *t = &s->tps[i];

		t->rate_ring[(slot + 1) % TP_RATE_SECONDS] = 0;	/* the slot the next second fills */
		if (t->state == TP_ATTACHED)
			t->rate_ticks++;
	}
	s->tick++;
}

/* The collector reads the shared drop counters for its own kinds; these are ours. */
static void check_drops(struct tp_set *s)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t vals[ncpu > 0 ? ncpu : 1], sum = 0;
	uint32_t k = DROP_TRACEPOINT;

	if (s->drops_fd < 0 || bpf_map_lookup_elem(s->drops_fd, &k, vals))
		return;
	for (int c = 0; c < ncpu; c++)
		sum += vals[c];
	if (sum > s->dropped)
		log_warning("%llu tracepoint events lost in the last second: the ring buffer was full (raise --ringbuf-kb; %llu since start)",
			    (unsigned long long)(sum - s->dropped), (unsigned long long)sum);
	s->dropped = sum;
}

static int on_timer(sd_event_source *src, uint64_t usec, void *userdata)
{
	struct tp_set *s = userdata;

	check_drops(s);
	tp_tick_rates(s);
	for (unsigned i = 0; i < s->n; i++)
		tp_check(s, &s->tps[i]);
	sd_event_source_set_time(src, usec + TICK_US);
	sd_event_source_set_enabled(src, SD_EVENT_ON);
	return 0;
}

static int on_drain(sd_event_source *src, uint64_t usec, void *userdata)
{
	struct tp_set *s = userdata;

	for (unsigned i = 0; i < s->n; i++)
		if (s->tps[i].state == TP_ATTACHED) {
			ring_buffer__consume(s->rb);
			break;
		}
	sd_event_source_set_time(src, usec + DRAIN_US);
	sd_event_source_set_enabled(src, SD_EVENT_ON);
	return 0;
}

static unsigned detach_all(struct tp_set *s, const char *why)
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->n; i++) {
		struct tracepoint *t = &s->tps[i];

		if (t->state != TP_ATTACHED)
			continue;
		tp_detach(t);
		t->state = TP_DETACHED;
		journal_detached(t->cfg.name, "raw_tp", "tp_event");
		n++;
		log_info("detached from tracepoint %s (%s): its module can be unloaded now; irqlatd attaches again when it is reloaded",
			 t->cfg.name, why);
	}
	return n;
}

static int on_sigusr1(sd_event_source *src, const struct signalfd_siginfo *si, void *userdata)
{
	(void)src;
	(void)si;
	detach_all(userdata, "SIGUSR1");
	return 0;
}

/* tracefs must be mounted on TRACEFS and readable. It is mounted only when statfs() says it is
 * not there: a tracefs that is mounted but unreadable (mode 0700, root's, seen by another
 * uid) fails access() with EACCES, and mounting it again would not help; under the unit's
 * SystemCallFilter= mount(2) is denied anyway. On failure, why holds the line to log. */
static int tracefs_ready(char *why, size_t len)
{
	struct statfs sf;
	int r;

	if (statfs(TRACEFS, &sf) < 0) {
		r = -errno;
		snprintf(why, len, "cannot find " TRACEFS " (%s): this kernel has no tracefs", strerror(-r));
		return r;
	}
	if (sf.f_type != TRACEFS_MAGIC) {
		if (mount("nodev", TRACEFS, "tracefs", 0, NULL) < 0) {
			r = -errno;
			snprintf(why, len, "tracefs is not mounted on " TRACEFS " and mounting it failed (%s): "
				 "mount it first (mount -t tracefs nodev " TRACEFS "; systemd does at boot)", strerror(-r));
			return r;
		}
		log_info("mounted tracefs on " TRACEFS);
	}
	if (access(TRACEFS "/events", R_OK | X_OK) < 0) {
		r = -errno;
		snprintf(why, len, "tracefs (" TRACEFS ") is not readable by uid %u (%s): it is root's, mode 0700; "
			 "run irqlatd as uid 0 (it needs no more capabilities for this, see docs/systemd.md)",
			 (unsigned)geteuid(), strerror(-r));
		return r;
	}
	return 0;
}

int tracepoints_start(struct tp_set *s, sd_event *ev, struct server *srv, const struct daemon_config *cfg,
		      struct ring_buffer *rb, int ringbuf_fd, int drops_fd)
{
	char why[sizeof(((struct tracepoint *)0)->error)];
	uint64_t now;
	sigset_t mask;
	int r;

	memset(s, 0, sizeof(*s));
	s->ev = ev;
	s->srv = srv;
	s->rb = rb;
	s->ringbuf_fd = ringbuf_fd;
	s->drops_fd = drops_fd;
	s->cfg = cfg;
	if (!cfg->ntracepoints)
		return 0;
	s->tps = calloc(cfg->ntracepoints, sizeof(*s->tps));
	if (!s->tps)
		return -ENOMEM;
	s->n = cfg->ntracepoints;

	r = tracefs_ready(why, sizeof(why));
	if (r < 0)
		log_error("%s; tracepoints are not consumed", why);
	s->tracefs_ok = r == 0;
	for (unsigned i = 0; i < s->n; i++) {
		struct tracepoint *t = &s->tps[i];

		t->cfg = cfg->tracepoints[i];
		t->counter_arg = -1;
		t->link_fd = -1;
		t->period_ns = t->cfg.period_ns;
		if (tp_name_split(t->cfg.name, t->system, sizeof(t->system), t->event, sizeof(t->event)) < 0) {
			t->state = TP_INVALID;
			snprintf(t->error, sizeof(t->error), "not SYSTEM:EVENT (letters, digits and _ on both sides of one ':')");
			log_error("tracepoint '%s' is malformed: give SYSTEM:EVENT, e.g. " DEFAULT_TRACEPOINT "; the others are consumed", t->cfg.name);
			continue;
		}
		if (!s->tracefs_ok) {
			/* said once above; irqlat --top shows it per tracepoint */
			t->state = TP_FAILED;
			snprintf(t->error, sizeof(t->error), "%s", why);
			continue;
		}
		t->state = TP_WAITING;
		tp_check(s, t);
	}

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	r = sd_event_add_signal(ev, &s->sigusr1, SIGUSR1, on_sigusr1, s);
	if (r < 0)
		return log_error_errno(r, "cannot watch SIGUSR1: %m");
	sd_event_now(ev, CLOCK_MONOTONIC, &now);
	r = sd_event_add_time(ev, &s->timer, CLOCK_MONOTONIC, now + TICK_US, 10000, on_timer, s);
	if (r < 0)
		return log_error_errno(r, "cannot arm the tracepoint timer: %m");
	r = sd_event_add_time(ev, &s->drain, CLOCK_MONOTONIC, now + DRAIN_US, 10000, on_drain, s);
	if (r < 0)
		return log_error_errno(r, "cannot arm the tracepoint timer: %m");
	return 0;
}

void tracepoints_stop(struct tp_set *s)
{
	sd_event_source_disable_unref(s->timer);
	sd_event_source_disable_unref(s->sigusr1);
	sd_event_source_disable_unref(s->drain);
	for (unsigned i = 0; i < s->n; i++)
		tp_detach(&s->tps[i]);
	free(s->tps);
	memset(s, 0, sizeof(*s));
}

/* ---- events ---- */

static uint64_t arg_unsigned(const struct tp_arg *a, uint64_t v)
{
	return a->size < 8 ? v & ((1ull << (8 * a->size)) - 1) : v;
}

static int64_t arg_signed(const struct tp_arg *a, uint64_t v)
{
	unsigned shift = a->size < 8 ? 64 - 8 * a->size : 0;

	return (int64_t)(v << shift) >> shift;
}

static int format_arg(char *buf, size_t len, const struct tp_arg *a, uint64_t v)
{
	switch (a->kind) {
	case TP_ARG_SIGNED:
		return snprintf(buf, len, "%lld", (long long)arg_signed(a, v));
	case TP_ARG_POINTER:
		return snprintf(buf, len, "0x%llx", (unsigned long long)v);
	default:
		return snprintf(buf, len, "%llu", (unsigned long long)arg_unsigned(a, v));
	}
}

static json_object *arg_json(const struct tp_arg *a, uint64_t v)
{
	char buf[32];

	switch (a->kind) {
	case TP_ARG_SIGNED:
		return json_object_new_int64(arg_signed(a, v));
	case TP_ARG_POINTER:
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
		return json_object_new_string(buf);
	default:
		return json_object_new_uint64(arg_unsigned(a, v));
	}
}

void tp_format_line(char *buf, size_t len, const struct tracepoint *t, const struct tracepoint_event *e)
{
	char comm[TASK_COMM_LEN_ABI + 1];
	unsigned n = e->nargs < t->nargs ? e->nargs : t->nargs;
	int off;

	memcpy(comm, e->comm, TASK_COMM_LEN_ABI);
	comm[TASK_COMM_LEN_ABI] = 0;
	/* ftrace's trace_print_context(): "%16s-%-7d [%03d] %5llu.%06lu: " */
	off = snprintf(buf, len, "%16s-%-7u [%03u] %5llu.%06llu: %s:", comm, e->pid, e->cpu,
		       (unsigned long long)(e->ts_ns / 1000000000ull),
		       (unsigned long long)(e->ts_ns % 1000000000ull / 1000), t->event);
	for (unsigned i = 0; i < n && off > 0 && (size_t)off < len; i++) {
		off += snprintf(buf + off, len - (size_t)off, " %s=", t->args[i].name);
		if ((size_t)off < len)
			off += format_arg(buf + off, len - (size_t)off, &t->args[i], e->args[i]);
	}
}

static void record_interval(struct tracepoint *t, uint64_t iv)
{
	uint64_t late = iv > t->period_ns ? iv - t->period_ns : 0;
	uint32_t b = hist_bucket(late);

	t->intervals++;
	if (iv < t->period_ns)
		t->early++;
	t->lateness.count++;
	t->lateness.sum_ns += late;
	if (late > t->lateness.max_ns)
		t->lateness.max_ns = late;
	t->lateness.bucket[b < HIST_BUCKETS ? b : HIST_BUCKETS - 1]++;
}

/* Without a configured period, the shortest of the first intervals is the period: the
 * event cannot come sooner than its period, and wake-up latency only adds, so the minimum of
 * a few is the best available estimate; lateness is then measured against it. */
static void add_interval(struct tp_set *s, struct tracepoint *t, uint64_t iv)
{
	uint64_t *buf = est_buf[t - s->tps];

	if (t->period_ns) {
		record_interval(t, iv);
		return;
	}
	buf[PERIOD_ESTIMATE_INTERVALS - t->estimate_left] = iv;
	if (--t->estimate_left)
		return;
	t->period_ns = buf[0];
	for (unsigned i = 1; i < PERIOD_ESTIMATE_INTERVALS; i++)
		if (buf[i] < t->period_ns)
			t->period_ns = buf[i];
	for (unsigned i = 0; i < PERIOD_ESTIMATE_INTERVALS; i++)
		record_interval(t, buf[i]);
}

static json_object *event_json(const struct tracepoint *t, const struct tracepoint_event *e)
{
	json_object *o = json_object_new_object(), *args = json_object_new_object();
	unsigned n = e->nargs < t->nargs ? e->nargs : t->nargs;
	char line[512];

	json_object_object_add(o, "type", json_object_new_string("tracepoint"));
	json_object_object_add(o, "tracepoint", json_object_new_string(t->cfg.name));
	json_object_object_add(o, "ts_ns", json_object_new_uint64(e->ts_ns));
	json_object_object_add(o, "cpu", json_object_new_int((int)e->cpu));
	json_object_object_add(o, "pid", json_object_new_int((int)e->pid));
	json_object_object_add(o, "tgid", json_object_new_int((int)e->tgid));
	json_object_object_add(o, "comm", json_object_new_string_len(e->comm, (int)strnlen(e->comm, TASK_COMM_LEN_ABI)));
	for (unsigned i = 0; i < n; i++)
		json_object_object_add(args, t->args[i].name, arg_json(&t->args[i], e->args[i]));
	json_object_object_add(o, "args", args);
	tp_format_line(line, sizeof(line), t, e);
	json_object_object_add(o, "line", json_object_new_string(line));
	return o;
}

void tracepoints_handle(struct tp_set *s, const void *data, size_t size)
{
	const struct tracepoint_event *e = data;
	struct tracepoint *t;
	int gap = 0;

	if (size < sizeof(*e) || e->tp_id >= s->n)
		return;
	t = &s->tps[e->tp_id];
	t->events++;
	t->rate_ring[s->tick % TP_RATE_SECONDS]++;
	t->last_ts_ns = e->ts_ns;
	t->last_nargs = e->nargs < t->nargs ? e->nargs : t->nargs;
	memcpy(t->last_args, e->args, sizeof(t->last_args));

	if (t->counter_arg >= 0 && (unsigned)t->counter_arg < t->last_nargs) {
		uint64_t v = e->args[t->counter_arg];

		if (t->have_counter && v > t->last_counter + 1) {
			t->gaps++;
			t->missed += v - t->last_counter - 1;
			gap = 1;
		} else if (t->have_counter && v <= t->last_counter) {
			t->counter_resets++;	/* the counter started again: not a gap */
			gap = 1;
		}
		t->have_counter = 1;
		t->last_counter = v;
	}
	/* an interval that spans missed events is several periods long: not a lateness sample */
	if (t->prev_ts_ns && !gap && e->ts_ns > t->prev_ts_ns)
		add_interval(s, t, e->ts_ns - t->prev_ts_ns);
	t->prev_ts_ns = e->ts_ns;

	if (s->cfg && (log_to_journal() || s->cfg->tracepoint_priority <= log_max_priority())) {
		const char *names[TP_MAX_ARGS] = { 0 };

		for (unsigned i = 0; i < t->nargs && i < TP_MAX_ARGS; i++)
			names[i] = t->args[i].name;
		journal_tracepoint_event(t->system, t->event, names, e, s->cfg->tracepoint_priority);
	}
	if (s->srv && server_clients(s->srv)) {
		json_object *o = event_json(t, e);

		server_broadcast(s->srv, o);
		json_object_put(o);
	}
}

/* ---- summaries and requests ---- */

static json_object *tp_json(const struct tp_set *s, const struct tracepoint *t)
{
	json_object *o = json_object_new_object(), *args = json_object_new_array(), *last = json_object_new_object();
	unsigned secs = t->rate_ticks < TP_RATE_SECONDS ? t->rate_ticks : TP_RATE_SECONDS;
	uint64_t sum = 0;
	struct hist_summary hs;

	(void)s;
	/* whole seconds only: the one being filled would dilute the rate */
	for (unsigned i = 1; i <= secs; i++)
		sum += t->rate_ring[(s->tick - i) % TP_RATE_SECONDS];
	json_object_object_add(o, "tracepoint", json_object_new_string(t->cfg.name));
	json_object_object_add(o, "state", json_object_new_string(state_names[t->state]));
	if (t->error[0] && t->state != TP_ATTACHED)
		json_object_object_add(o, "error", json_object_new_string(t->error));
	if (t->args_source[0])
		json_object_object_add(o, "args_source", json_object_new_string(t->args_source));
	for (unsigned i = 0; i < t->nargs; i++)
		json_object_array_add(args, json_object_new_string(t->args[i].name));
	json_object_object_add(o, "args", args);
	json_object_object_add(o, "attaches", json_object_new_int((int)t->attaches));
	json_object_object_add(o, "events", json_object_new_uint64(t->events));
	json_object_object_add(o, "rate", json_object_new_double(secs ? (double)sum / secs : 0));
	for (unsigned i = 0; i < t->last_nargs; i++)
		json_object_object_add(last, t->args[i].name, arg_json(&t->args[i], t->last_args[i]));
	json_object_object_add(o, "last", last);
	json_object_object_add(o, "last_ts_ns", json_object_new_uint64(t->last_ts_ns));
	if (t->counter_arg >= 0) {
		json_object_object_add(o, "counter", json_object_new_string(t->args[t->counter_arg].name));
		json_object_object_add(o, "gaps", json_object_new_uint64(t->gaps));
		json_object_object_add(o, "missed", json_object_new_uint64(t->missed));
		json_object_object_add(o, "counter_resets", json_object_new_uint64(t->counter_resets));
	}
	json_object_object_add(o, "period_ns", json_object_new_uint64(t->period_ns));
	json_object_object_add(o, "period_source", json_object_new_string(
		t->cfg.period_ns ? "configured" : t->period_ns ? "estimated" : "estimating"));
	hist_summarize(&t->lateness, &hs);
	json_object_object_add(o, "intervals", json_object_new_uint64(t->intervals));
	json_object_object_add(o, "early", json_object_new_uint64(t->early));
	json_object_object_add(o, "lateness_p50_ns", json_object_new_uint64(hs.p50_ns));
	json_object_object_add(o, "lateness_p99_ns", json_object_new_uint64(hs.p99_ns));
	json_object_object_add(o, "lateness_max_ns", json_object_new_uint64(hs.max_ns));
	json_object_object_add(o, "lateness_avg_ns", json_object_new_uint64(hs.avg_ns));
	return o;
}

json_object *tracepoints_json(const struct tp_set *s)
{
	json_object *arr = json_object_new_array();

	for (unsigned i = 0; i < s->n; i++)
		json_object_array_add(arr, tp_json(s, &s->tps[i]));
	return arr;
}

static json_object *reply_error(const char *msg)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "ok", json_object_new_boolean(0));
	json_object_object_add(o, "error", json_object_new_string(msg));
	return o;
}

json_object *tracepoints_request(struct tp_set *s, const char *cmd, json_object *req, long uid)
{
	int detach = !strcmp(cmd, "detach");
	const char *name = NULL;
	json_object *v, *o, *done;
	char msg[512];
	struct tracepoint *t = NULL;

	if (uid != 0) {
		snprintf(msg, sizeof(msg), "%s changes what irqlatd traces: only root (uid 0) may ask it", cmd);
		return reply_error(msg);
	}
	if (json_object_object_get_ex(req, "tracepoint", &v))
		name = json_object_get_string(v);
	if (!name || !*name)
		return reply_error("give \"tracepoint\": \"SYSTEM:EVENT\" or \"all\"");
	if (strcmp(name, "all")) {
		for (unsigned i = 0; i < s->n; i++)
			if (!strcmp(s->tps[i].cfg.name, name))
				t = &s->tps[i];
		if (!t) {
			size_t off = (size_t)snprintf(msg, sizeof(msg), "irqlatd does not consume tracepoint %s; it consumes:", name);
			for (unsigned i = 0; i < s->n && off < sizeof(msg); i++)
				off += (size_t)snprintf(msg + off, sizeof(msg) - off, " %s", s->tps[i].cfg.name);
			if (!s->n && off < sizeof(msg))
				snprintf(msg + off, sizeof(msg) - off, " none");
			return reply_error(msg);
		}
	}
	o = json_object_new_object();
	done = json_object_new_array();
	for (unsigned i = 0; i < s->n; i++) {
		struct tracepoint *c = &s->tps[i];

		if (t && c != t)
			continue;
		if (detach && c->state == TP_ATTACHED) {
			tp_detach(c);
			c->state = TP_DETACHED;
			journal_detached(c->cfg.name, "raw_tp", "tp_event");
			log_info("detached from tracepoint %s (client request): its module can be unloaded now; irqlatd attaches again when it is reloaded",
				 c->cfg.name);
			json_object_array_add(done, json_object_new_string(c->cfg.name));
		} else if (!detach && (c->state == TP_DETACHED || c->state == TP_FAILED)) {
			identity_read(c, &c->ident);
			if (c->ident.present && tp_attach(s, c) == 0)
				json_object_array_add(done, json_object_new_string(c->cfg.name));
		}
	}
	/* detach of a tracepoint that is not attached has nothing to do, and is fine; an attach
	 * that leaves it unattached says why */
	if (t && !detach && t->state != TP_ATTACHED) {
		json_object_put(o);
		json_object_put(done);
		snprintf(msg, sizeof(msg), "tracepoint %s is %s%s%s", name, state_names[t->state],
			 t->error[0] ? ": " : "", t->error);
		return reply_error(msg);
	}
	json_object_object_add(o, detach ? "detached" : "attached", done);
	json_object_object_add(o, "tracepoints", tracepoints_json(s));
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	return o;
}
