/* SPDX-License-Identifier: GPL-2.0 */
/* Consuming module (or any) tracepoints: one program instance per tracepoint (tp_btf where
 * BTF describes it, raw_tp otherwise), its arguments named from BTF or the tracefs format,
 * attached when its module loads, detached on request so its module can be unloaded;
 * per-tracepoint summaries.
 *
 * One header, six files, each one job (docs/tracepoints.md):
 *   tracepoints.c   the set: start, stop, its timers and SIGUSR1
 *   tp_resolve.c    names, tracefs, where a tracepoint is and what its arguments are (BTF, format)
 *   tp_attach.c     attaching and detaching one tracepoint, and noticing it appear or change
 *   tp_watch.c      module loads, frees and refused unloads (bpf/modwatch.bpf.c)
 *   tp_events.c     one ring-buffer record: counts, gaps, lateness, the journal, subscribers
 *   tp_json.c       the summary array, the detach/attach requests, what metrics.c reads */
#ifndef IRQLAT_TRACEPOINTS_H
#define IRQLAT_TRACEPOINTS_H

#include <stdbool.h>
#include <json-c/json.h>
#include <systemd/sd-event.h>
#include "event_ring.h"
#include "hist.h"
#include "options.h"
#include "ratelimit.h"
#include "server.h"

#define TP_RATE_SECONDS 10
/* intervals looked at before an unconfigured period is fixed (their minimum) */
#define TP_ESTIMATE_INTERVALS 16
#define TP_ERROR_MAX 200
#define TP_TRACEFS "/sys/kernel/tracing"

enum tp_state {
	TP_INVALID,	/* malformed name: never attached */
	TP_WAITING,	/* not in tracefs (yet): its module is not loaded */
	TP_ATTACHED,
	TP_DETACHED,	/* by request, until its module is reloaded (or an attach request) */
	TP_FAILED,	/* attach failed; retried when the tracepoint changes (module reload) */
};

enum tp_arg_kind { TP_ARG_UNSIGNED, TP_ARG_SIGNED, TP_ARG_POINTER };

struct tp_arg {
	char name[TP_ARG_NAME_MAX];
	enum tp_arg_kind kind;
	unsigned size;		/* bytes of the C type; the raw_tp slot is always 8 */
};

/* What tracefs shows of a tracepoint, to notice a module reload between two checks. */
struct tp_identity {
	int present;
	unsigned long long ino;
	long id;
};

struct tracepoint {
	struct tp_config cfg;
	char system[64], event[64];
	enum tp_state state;
	int warned;		/* the waiting / missing line was logged */
	unsigned nargs;
	struct tp_arg args[TP_MAX_ARGS];
	char args_source[80];	/* "BTF (vmlinux)", "BTF (module sillymod)", "tracefs format" */
	int counter_arg;	/* index of the counting argument, -1: none */
	struct tp_identity ident;
	/* the module that defines it, once known (its load event, its BTF, /proc/kallsyms);
	 * "" for the kernel's own or not known yet */
	char module[MODULE_NAME_LEN_ABI];
	int btf_type_id;	/* its btf_trace_EVENT in vmlinux's or module[]'s BTF, 0: none (raw_tp) */
	uint64_t loaded_ns;	/* CLOCK_MONOTONIC of its module's load event, 0: not seen */
	bool refusal_logged;	/* a refused unload of module[] was logged since this attach */
	const char *style;	/* of the attached program: "tp_btf" or "raw_tp" */
	struct tracepoint_bpf *skel;	/* raw_tp: the object; tp_btf: NULL once loaded */
	int prog_fd;		/* tp_btf: its program, -1 otherwise */
	int link_fd;		/* the link, -1 when not attached; holds the module while open */
	unsigned attaches;
	struct ratelimit journal_limit;	/* of its event entries */
	char error[TP_ERROR_MAX];	/* why it is not attached, for summaries (irqlat --top) */

	/* summary, cumulative over attaches */
	uint64_t events;
	uint64_t rate_ring[TP_RATE_SECONDS];	/* events per timer tick */
	unsigned rate_ticks;			/* ticks since attach, for the rate's window */
	uint64_t last_ts_ns;
	uint64_t last_args[TP_MAX_ARGS];
	unsigned last_nargs;
	uint64_t gaps, missed, counter_resets;
	int have_counter;
	uint64_t last_counter;
	uint64_t prev_ts_ns;	/* 0: the next event starts a new run of intervals */
	uint64_t period_ns;	/* configured, or estimated */
	unsigned estimate_left;	/* intervals still to look at before the estimate is fixed */
	uint64_t estimate_ns[TP_ESTIMATE_INTERVALS];	/* those seen so far, replayed once it is */
	uint64_t intervals, early;
	struct hist lateness;	/* interval minus period, ns (early ones count as 0) */
};

struct modwatch_bpf;
struct btf;

struct tp_set {
	sd_event *ev;
	sd_event_source *timer, *sigusr1, *drain;
	struct ring_buffer *rb;
	struct server *srv;
	int ringbuf_fd, drops_fd;
	/* why tracefs cannot be used, the error every tracepoint then shows; "" when it can */
	char tracefs_error[TP_ERROR_MAX];
	/* module:module_load/module_free watched (tp_watch.c); NULL: the tracefs check alone */
	struct modwatch_bpf *watch;
	/* vmlinux's BTF, kept parsed while the watcher may have to attach fast (a module's BTF is
	 * split on top of it; parsing it takes ~10 ms here, ~100 ms under emulation) */
	struct btf *vmlinux_btf;
	struct event_ring *ring;	/* where events are kept for irqlat events; NULL: nowhere */
	struct tracepoint *tps;
	unsigned n;
	uint64_t tick;
	uint64_t dropped;	/* DROP_TRACEPOINT, summed over CPUs, at the last tick */
	const struct daemon_config *cfg;	/* the daemon's, kept current by reloads */
};

/* ---- the daemon's interface ---- */

/* Starts consuming the configured tracepoints, their events streamed to srv's subscribers and
 * kept in ring (either may be NULL); a bad or missing tracepoint is logged, not an error.
 * Fails only when the event loop cannot take the timer. */
int tracepoints_start(struct tp_set *s, sd_event *ev, struct server *srv, struct event_ring *ring,
		      const struct daemon_config *cfg, struct ring_buffer *rb, int ringbuf_fd, int drops_fd);
void tracepoints_stop(struct tp_set *s);
/* A RB_TRACEPOINT or RB_MODULE record from the ring buffer; -EBADMSG (and nothing counted)
 * for a record too short or of no tracepoint of the set. */
int tracepoints_handle(struct tp_set *s, const void *data, size_t size);
/* The "tracepoints" array of a summary. */
json_object *tracepoints_json(const struct tp_set *s);
/* {"cmd":"detach"|"attach","tracepoint":"SYSTEM:EVENT"|"all"} from a client with uid uid. */
json_object *tracepoints_request(struct tp_set *s, const char *cmd, json_object *req, long uid);

/* What other modules read of one tracepoint (metrics.c), without its insides. */
enum tp_counter { TP_COUNTER_EVENTS, TP_COUNTER_GAPS, TP_COUNTER_MISSED, TP_COUNTERS };
struct tp_info {
	const char *name;	/* as configured, at most TP_NAME_MAX bytes */
	bool attached;
	uint64_t counter[TP_COUNTERS];	/* cumulative since start */
};
unsigned tracepoints_count(const struct tp_set *s);
/* Tracepoint i (< tracepoints_count()) of the set. */
struct tp_info tracepoints_info(const struct tp_set *s, unsigned i);

/* ---- between the tp_*.c files (and their unit tests) ---- */

/* tp_resolve.c */
/* vmlinux's BTF: the set's kept copy, or a fresh one the caller frees (*owned set) */
struct btf *tp_vmlinux_btf(struct tp_set *s, bool *owned);
int tp_name_split(const char *name, char *system, size_t slen, char *event, size_t elen);
/* Reads the fields after the common_ ones of a tracefs format file's text: their count, or
 * -E2BIG when there are more than max. */
int tp_parse_format(const char *text, struct tp_arg *args, unsigned max);
struct btf;
/* The arguments of t->event from the btf_trace_EVENT typedef in btf (names from
 * __bpf_trace_EVENT when it has them), and the typedef's id: -ENOENT when btf has none. */
int tp_args_from_btf(struct tracepoint *t, const struct btf *btf);
/* BTF (vmlinux's, then t->module's or else each module's), else the tracefs format; sets
 * t->args_source and t->btf_type_id, and t->module when a module's BTF has it. */
int tp_resolve_args(struct tp_set *s, struct tracepoint *t);
/* The fd of the kernel BTF object of module name (-errno; -EPERM without CAP_SYS_ADMIN): what
 * a tp_btf program of one of its tracepoints is loaded against; *id its object id. */
int tp_module_btf_fd(const char *name, int *id);
/* The module that defines t's tracepoint, from /proc/kallsyms (__tracepoint_EVENT [module]):
 * 0 and name filled, -ENOENT for the kernel's own. For a module without BTF, seen loaded
 * before irqlatd watched. */
int tp_module_of(const struct tracepoint *t, char *name, size_t len);
/* 0 and *id filled when tracefs has the event; -errno (and *id zeroed) when not. */
int tp_identity_read(const struct tracepoint *t, struct tp_identity *id);
bool tp_system_present(const struct tracepoint *t);
/* Mounts tracefs when it is not mounted; on failure -errno, and the sentence to show in
 * s->tracefs_error. */
int tp_tracefs_ready(struct tp_set *s);

/* tp_attach.c */
/* Loads and attaches t's program; on failure -errno, t->error says why, logged once here. */
int tp_attach(struct tp_set *s, struct tracepoint *t);
void tp_detach(struct tracepoint *t);
/* Detaches an attached t (journal entry, log line saying why); false when it was not. */
bool tp_detach_logged(struct tracepoint *t, const char *why);
/* What changed in tracefs since the last look, for a tracepoint that is not attached:
 * attaches it when it appeared or was reloaded (tp_attach's result), logs when it went. */
int tp_check(struct tp_set *s, struct tracepoint *t);
/* t holds its module (attached, module known). */
bool tp_holds_module(const struct tracepoint *t);

/* tp_watch.c */
/* Loads bpf/modwatch.bpf.c and attaches module_load/module_free; on a kernel without them,
 * says so once and leaves s->watch NULL (the tracefs check alone). */
int tp_watch_start(struct tp_set *s);
void tp_watch_stop(struct tp_set *s);
/* A RB_MODULE record. */
int tp_watch_handle(struct tp_set *s, const struct module_event *e);

/* tp_events.c */
/* ftrace's line for one event: "  comm-pid  [cpu] sec.usec: event: a=1 b=2". */
void tp_format_line(char *buf, size_t len, const struct tracepoint *t, const struct tracepoint_event *e);
/* An argument's value as JSON, by its type. */
json_object *tp_arg_json(const struct tp_arg *a, uint64_t v);
/* LOG_* of t's event entries (its journal setting, else tracepoint-priority), -1: none. */
int tp_journal_priority(const struct tp_set *s, const struct tracepoint *t);
/* Says what the journal rate limit held back in seconds that are over (UINT64_MAX: all). */
void tp_journal_flush(struct tp_set *s, uint64_t now_ns);

#endif
