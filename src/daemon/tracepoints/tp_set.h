/* SPDX-License-Identifier: GPL-2.0 */
/* Consuming module (or any) tracepoints: one program instance per tracepoint (tp_btf where
 * BTF describes it, raw_tp otherwise), its arguments named from BTF or the tracefs format,
 * attached when its module loads, detached on request so its module can be unloaded;
 * per-tracepoint summaries. This header holds what the files share, the set and its
 * tracepoints; each file's functions are in its own header (docs/tracepoints.md):
 *   tracepoints.c   the set: start, stop, its timers and SIGUSR1
 *   tp_resolve.c    names, tracefs, where a tracepoint is and what its arguments are (BTF, format)
 *   tp_attach.c     attaching and detaching one tracepoint, and noticing it appear or change
 *   tp_watch.c      module loads, frees and refused unloads (bpf/modwatch.bpf.c)
 *   tp_events.c     one ring-buffer record: counts, gaps, lateness, the journal, subscribers
 *   tp_json.c       the summary array, the detach/attach requests, what metrics.c reads */
#ifndef IRQLAT_TP_SET_H
#define IRQLAT_TP_SET_H

#include <stdbool.h>
#include <json-c/json.h>
#include <systemd/sd-event.h>
#include "daemon/sinks/event_ring.h"
#include "daemon/collect/hist.h"
#include "daemon/config/options.h"
#include "daemon/base/ratelimit.h"
#include "daemon/sinks/metrics.h"
#include "daemon/sinks/server.h"

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

#endif
