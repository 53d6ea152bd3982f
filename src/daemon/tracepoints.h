/* SPDX-License-Identifier: GPL-2.0 */
/* Consuming module (or any) tracepoints: one raw_tp program instance per tracepoint, its
 * arguments named from BTF or the tracefs format, attached when the tracepoint appears,
 * detached on request so its module can be unloaded; per-tracepoint summaries. */
#ifndef IRQLAT_TRACEPOINTS_H
#define IRQLAT_TRACEPOINTS_H

#include <json-c/json.h>
#include <systemd/sd-event.h>
#include "hist.h"
#include "options.h"
#include "server.h"

#define TP_RATE_SECONDS 10

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
	char args_source[80];	/* "BTF (vmlinux)", "BTF (sillymod)", "tracefs format" */
	int counter_arg;	/* index of the counting argument, -1: none */
	struct tp_identity ident;
	struct tracepoint_bpf *skel;
	int link_fd;		/* the raw_tp link, -1 when not attached */
	unsigned attaches;
	char error[200];

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
	uint64_t intervals, early;
	struct hist lateness;	/* interval minus period, ns (early ones count as 0) */
};

struct tp_set {
	sd_event *ev;
	sd_event_source *timer, *sigusr1, *drain;
	struct ring_buffer *rb;
	struct server *srv;
	int ringbuf_fd, drops_fd;
	int tracefs_ok;
	struct tracepoint *tps;
	unsigned n;
	uint64_t tick;
	uint64_t dropped;	/* DROP_TRACEPOINT, summed over CPUs, at the last tick */
	const struct daemon_config *cfg;	/* the daemon's, kept current by reloads */
};

/* Starts consuming the configured tracepoints; a bad or missing tracepoint is logged, not an
 * error. Fails only when the event loop cannot take the timer. */
int tracepoints_start(struct tp_set *s, sd_event *ev, struct server *srv, const struct daemon_config *cfg,
		      struct ring_buffer *rb, int ringbuf_fd, int drops_fd);
void tracepoints_stop(struct tp_set *s);
/* A RB_TRACEPOINT record from the ring buffer. */
void tracepoints_handle(struct tp_set *s, const void *data, size_t size);
/* The "tracepoints" array of a summary. */
json_object *tracepoints_json(const struct tp_set *s);
/* {"cmd":"detach"|"attach","tracepoint":"SYSTEM:EVENT"|"all"} from a client with uid uid. */
json_object *tracepoints_request(struct tp_set *s, const char *cmd, json_object *req, long uid);

/* Parsing, exposed for unit tests. */
int tp_name_split(const char *name, char *system, size_t slen, char *event, size_t elen);
/* Reads the fields after the common_ ones of a tracefs format file's text. */
int tp_parse_format(const char *text, struct tp_arg *args, unsigned max);
/* ftrace's line for one event: "  comm-pid  [cpu] sec.usec: event: a=1 b=2". */
void tp_format_line(char *buf, size_t len, const struct tracepoint *t, const struct tracepoint_event *e);

#endif
