// SPDX-License-Identifier: GPL-2.0
/* irqlatd: one sd_event loop owns the ring buffer, the map-reading timer, the signals and the
 * client socket. Nothing blocks and nothing polls in a sleep loop. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <systemd/sd-event.h>
#include "daemon/system/ksym_kernel.h"
#include "daemon/capture/actions.h"
#include "daemon/collect/collect.h"
#include "daemon/collect/stacks.h"
#include "daemon/config/config_build.h"
#include "daemon/sinks/journal.h"
#include "daemon/base/heap.h"
#include "daemon/base/log.h"
#include "daemon/sinks/metrics_http.h"
#include "daemon/base/notify.h"
#include "daemon/config/options.h"
#include "daemon/sinks/outlier.h"
#include "daemon/sinks/report.h"
#include "daemon/sinks/request.h"
#include "daemon/sinks/server.h"
#include "daemon/tracepoints/tracepoints.h"
#include "daemon/tracepoints/tp_events.h"
#include "daemon/tracepoints/tp_json.h"
#include "daemon/collect/wakeup_reclaim.h"
#include "daemon/collect/why.h"
#include "daemon/collect/why_counts.h"
#include "daemon/loader/timer.h"
#include "daemon/system/kernel_btf.h"
#include "daemon/sinks/why_report.h"
#include "common/json.h"

struct daemon {
	struct daemon_config cfg;
	sd_event *ev;
	struct loader bpf;
	struct collector col;
	struct wakeup_reclaim reclaim;	/* the wake-up cells of tasks that exited, or less busy */
	struct outlier_limiter outliers;
	struct why_store why;		/* the explained waits, and outliers waiting for theirs */
	struct why_counts why_counts;	/* the kernel's counts of them, which status and /metrics show */
	struct actions actions;		/* what outliers set off (KIND-on-threshold) */
	struct server *srv;
	struct tp_set tps;
	struct event_ring events;	/* the recent ones, for irqlat events */
	struct ring_buffer *rb;
	sd_event_source *tick_src, *rb_src, *rb_turn_src;
	bool rb_was_last;	/* the last source dispatched was the ring buffer's read */
	uint64_t next_tick_us;
	/* systemd integration: reload re-reads the file and this command line */
	int argc;
	char **argv;
	sd_event_source *summary_src;
	struct summary_state summary;
	uint64_t status_ns;	/* when STATUS= was last refreshed */
	int stop_signal;
	struct metrics *metrics;	/* --metrics or a socket from systemd; NULL: none */
	uint64_t rb_slice_ns, rb_last_ns;	/* the ring-buffer read going on: its start, its last record */
	uint64_t rb_slice_len_ns;	/* how long it may take */
	uint64_t rb_end_ns;	/* when the loop's last read of it ended, cut by its slice; 0: emptied it */
	uint64_t rb_read_end_ns, rb_read_len_ns;	/* the loop's last read: when it ended, how long it took */
};

/* One read of the ring buffer stops after a slice of time. libbpf 1.1's
 * ring_buffer__consume() reads until the ring is empty, and under a flood of tracepoint events
 * that it cannot keep up with (sched:sched_switch on a big machine, or a slow sanitized build)
 * it never is: the socket, the ticks and SIGTERM would wait for the flood to end. The rest is
 * read on the next turn of the loop: the ring buffer's fd stays readable. The slice is
 * RB_SLICE_NS, or, after a read its slice cut (the ring buffer is behind), as long as the loop
 * was away since, up to RB_SLICE_MAX_NS: a ring buffer that is behind gets at least half of
 * the loop's time, however long the clients' turns between its own were (16 clients pipelining hist requests to a sanitized build took
 * 200 ms a round, and at 10 ms a read it dropped 44,743 outliers in 8 s; none without them). */
#define RB_SLICE_NS 10000000ull
#define RB_SLICE_MAX_NS 250000000ull
#define RB_SLICE_GAP_NS 1000000ull	/* records further apart belong to another read */
#define RB_SLICE_OVER (-EAGAIN)	/* the record callback's "stop here", not an error */

/* Before each record: a read that did not say when it began (the tracepoints' drain timer
 * calls ring_buffer__consume() itself) begins at a record that follows the last one's end by
 * more than RB_SLICE_GAP_NS. The gap is taken before the record is handled: taken after it, a
 * record that took over 1 ms to hand to 400 subscribers on a loaded machine began a new read
 * every time, the slice never ended and the loop stalled (83-event-flood.t under CI's load). */
static void rb_slice_record(struct daemon *d)
{
	uint64_t now = now_ns();

	if (now - d->rb_last_ns > RB_SLICE_GAP_NS) {
		d->rb_slice_ns = now;
		d->rb_slice_len_ns = RB_SLICE_NS;
	}
}

/* After each record: RB_SLICE_OVER once this read has taken its time (the record is handled,
 * libbpf moves past it and returns), else 0 */
static int rb_slice_over(struct daemon *d)
{
	uint64_t now = now_ns();

	d->rb_last_ns = now;
	if (now - d->rb_slice_ns < d->rb_slice_len_ns)
		return 0;
	d->rb_last_ns = 0;	/* the next record starts the next read */
	return RB_SLICE_OVER;
}

/* A read of the ring buffer that says when it began, and may take, when the last one left it
 * behind, as long as the loop was away from it since (RB_SLICE_NS at least, RB_SLICE_MAX_NS
 * at most) */
static int rb_read(struct daemon *d)
{
	uint64_t now = now_ns(), away = d->rb_end_ns ? now - d->rb_end_ns : 0;
	int r;

	d->rb_slice_ns = d->rb_last_ns = now;
	d->rb_slice_len_ns = away < RB_SLICE_NS ? RB_SLICE_NS : away > RB_SLICE_MAX_NS ? RB_SLICE_MAX_NS : away;
	r = ring_buffer__consume(d->rb);
	d->rb_read_end_ns = now_ns();
	d->rb_read_len_ns = d->rb_read_end_ns - now;
	d->rb_end_ns = r == RB_SLICE_OVER ? d->rb_read_end_ns : 0;
	return r;
}

/* An outlier to the journal (within its limits), the ring of events and the subscribers;
 * why: its explanation, or NULL */
static void outlier_out(struct daemon *d, const struct outlier_event *e, const struct why_named *why)
{
	uint32_t cpu = 0;
	const struct series *s = collector_cell_series(&d->col, e->cell, &cpu);
	struct outlier out;

	char capture[512];

	outlier_from_event(&out, e, s, cpu);
	outlier_resolve(&out);
	/* a task that exited before it was asked (a real-time thread stopped right after its last
	 * late wake-up): its wait's record has the kernel's prio of it, enough for log-wakeups=rt */
	if (why && out.woken_pid && out.woken_pid == why->pid && out.woken.policy == TASK_POLICY_UNKNOWN)
		task_sched_from_prio(why->waiter_prio, &out.woken);
	out.why = why;
	/* every outlier over its threshold, whatever the journal's cap makes of its entry, and
	 * before that entry, which names the capture */
	actions_run(&d->actions, &out, capture, sizeof(capture));
	out.capture_file = capture;
	_cleanup_json_ json_object *o = outlier_json(&out);
	uint64_t wall_ns = event_add_clocks(o, out.ts_ns);

	outlier_handle(&d->outliers, &out);
	event_publish(&d->events, d->srv, o, wall_ns, why);
}

/* The outliers whose explanation did not come (the ring buffer was full), without it */
static void outliers_unexplained(struct daemon *d, uint64_t before_ns)
{
	struct outlier_event e;

	while (why_expired(&d->why, before_ns, &e))
		outlier_out(d, &e, NULL);
}

static int on_ringbuf_record(void *ctx, void *data, size_t size)
{
	struct daemon *d = ctx;
	const uint32_t *kind = data;

	if (size < sizeof(*kind))
		return 0;
	rb_slice_record(d);
	if (*kind == RB_OUTLIER && size >= sizeof(struct outlier_event)) {
		const struct outlier_event *e = data;
		uint32_t cpu = 0;
		const struct series *s = collector_cell_series(&d->col, e->cell, &cpu);
		struct outlier_event pushed;

		/* a wait's explanation follows its outlier: the journal entry and the event wait
		 * for it (collect/why.h) */
		if (s && why_kind_explained(s->kind)) {
			if (why_park(&d->why, e, now_ns(), &pushed))
				outlier_out(d, &pushed, NULL);
		} else {
			outlier_out(d, e, NULL);
		}
	} else if (*kind == RB_WHY && size >= sizeof(struct why_event)) {
		const struct why_event *e = data;
		struct outlier_event paired;
		struct why_named w;
		bool found;

		why_name(&w, e, &d->col);
		why_timeline_take(&d->why, &w, e, &d->col);
		found = why_unpark(&d->why, e->cell, e->ts_ns, &paired);
		why_add(&d->why, &w, found);
		if (found)
			outlier_out(d, &paired, &w);
	} else if (*kind == RB_TIMELINE && size >= sizeof(struct timeline_event)) {
		why_timeline_keep(&d->why, data);
	} else if (*kind == RB_TRACEPOINT || *kind == RB_MODULE) {
		tracepoints_handle(&d->tps, data, size);
	}
	return rb_slice_over(d);
}

static int on_ringbuf(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct daemon *d = userdata;
	int r = rb_read(d);
	(void)s;
	(void)fd;
	(void)revents;

	d->rb_was_last = true;
	if (r < 0 && r != RB_SLICE_OVER)
		log_error_errno(r, "cannot read the ring buffer: %m");
	return 0;
}

/* After every other source's dispatch (a post source): the ring buffer's read, if it has
 * records. sd-event dispatches every source that one epoll_wait() found ready before it
 * waits again, so without this the ring buffer waits a whole round of client turns, and
 * clients pipelining slow requests make that round long enough to fill it. It is read again
 * once the loop has been away from it half as long as its last read took: a ring buffer that
 * keeps up waits one turn, one that is behind gets about two thirds of the loop (one half
 * still lost outliers on a slow sanitized build beside CPU hogs), and the clients the rest.
 * Not after its own read: a read its slice cut leaves the rest to the next turn, as the slice
 * means. The ring buffer's io source keeps the default priority: made important, it went
 * first in every round of a sched_switch flood and new clients waited seconds. */
static int on_rb_turn(sd_event_source *s, void *userdata)
{
	struct daemon *d = userdata;
	struct pollfd p = { .fd = ring_buffer__epoll_fd(d->rb), .events = POLLIN };
	(void)s;

	if (d->rb_was_last) {
		d->rb_was_last = false;
		return 0;
	}
	if (2 * (now_ns() - d->rb_read_end_ns) < d->rb_read_len_ns)
		return 0;
	if (poll(&p, 1, 0) == 1) {
		int r = rb_read(d);

		if (r < 0 && r != RB_SLICE_OVER)
			log_error_errno(r, "cannot read the ring buffer: %m");
	}
	return 0;
}

/* A storm's start or end: an entry the journal's cap counts, or holds back (outlier.h) */
static void on_storm(void *userdata, const struct storm_handler *h, enum storm_kind k, bool started, uint64_t now)
{
	struct daemon *d = userdata;
	char what[96];

	snprintf(what, sizeof(what), "%s storm on IRQ %u (%s)", storm_kind_name(k), h->irq, h->name);
	if (outlier_storm_entry(&d->outliers, now, started, what))
		storm_journal(NULL, h, k, started, now);
}

static int on_tick(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct daemon *d = userdata;
	int r;

	r = collector_tick(&d->col);
	if (r < 0)
		log_warning_errno(r, "cannot read the drop counters: %m");
	wakeup_reclaim_tick(&d->reclaim, &d->col);
	outliers_unexplained(d, now_ns() - WHY_PARK_NS);
	{
		uint64_t worst, n = why_counts_take_unsent(&d->why_counts, &worst);

		outlier_idle_counted(&d->outliers, n, worst, now_ns());
	}
	outlier_flush(&d->outliers, now_ns());
	if (now_ns() - d->status_ns >= 1000000000ull) {	/* at most once a second, whatever the interval */
		char st[256];

		status_line(st, sizeof(st), &d->col);
		notify_status(st);
		d->status_ns = now_ns();
	}
	/* fixed cadence: the next tick is due one interval after the last one was due */
	d->next_tick_us += (uint64_t)d->cfg.interval_ms * 1000;
	if (d->next_tick_us < usec)
		d->next_tick_us = usec + (uint64_t)d->cfg.interval_ms * 1000;
	r = sd_event_source_set_time(s, d->next_tick_us);
	if (r >= 0)
		r = sd_event_source_set_enabled(s, SD_EVENT_ON);
	if (r < 0)
		return log_error_errno(r, "cannot re-arm the timer: %m");
	return 0;
}

/* The socket's limits and what they caught, in status */
static json_object *clients_json(const struct daemon *d)
{
	struct server_stats st = server_stats(d->srv);
	json_object *o = json_object_new_object();

	json_object_object_add(o, "connected", json_object_new_int((int)st.clients));
	json_object_object_add(o, "subscribers", json_object_new_int((int)st.subscribers));
	json_object_object_add(o, "accepted", json_object_new_uint64(st.accepted));
	json_object_object_add(o, "refused", json_object_new_uint64(st.refused));
	json_object_object_add(o, "evicted", json_object_new_uint64(st.evicted));
	json_object_object_add(o, "timed_out", json_object_new_uint64(st.timed_out));
	json_object_object_add(o, "accept_pauses", json_object_new_uint64(st.accept_pauses));
	json_object_object_add(o, "max_clients", json_object_new_int((int)d->cfg.max_clients));
	json_object_object_add(o, "max_clients_per_uid", json_object_new_int((int)d->cfg.max_clients_per_uid));
	json_object_object_add(o, "idle_timeout_s", json_object_new_int((int)d->cfg.client_idle_timeout_s));
	json_object_object_add(o, "max_subscribers", json_object_new_int((int)d->cfg.max_subscribers));
	json_object_object_add(o, "client_queue_bytes", json_object_new_uint64((uint64_t)d->cfg.client_queue_kb * 1024));
	json_object_object_add(o, "max_request_bytes", json_object_new_uint64((uint64_t)d->cfg.max_request_kb * 1024));
	return o;
}

/* The metrics endpoint's connections, in status */
static json_object *http_json(const struct daemon *d)
{
	struct metrics_stats st = metrics_stats(d->metrics);
	json_object *o = json_object_new_object();

	json_object_object_add(o, "address", json_object_new_string(d->cfg.metrics));
	json_object_object_add(o, "open", json_object_new_int((int)st.open));
	json_object_object_add(o, "accepted", json_object_new_uint64(st.accepted));
	json_object_object_add(o, "evicted", json_object_new_uint64(st.evicted));
	json_object_object_add(o, "timed_out", json_object_new_uint64(st.timed_out));
	json_object_object_add(o, "refused", json_object_new_uint64(st.refused));
	json_object_object_add(o, "bad_requests", json_object_new_uint64(st.bad_requests));
	json_object_object_add(o, "unauthorized", json_object_new_uint64(st.unauthorized));
	json_object_object_add(o, "accept_pauses", json_object_new_uint64(st.accept_pauses));
	json_object_object_add(o, "tls", json_object_new_boolean(*d->cfg.metrics_tls_cert));
	json_object_object_add(o, "auth", json_object_new_boolean(*d->cfg.metrics_auth_file));
	json_object_object_add(o, "max_connections", json_object_new_int((int)d->cfg.max_http_connections));
	json_object_object_add(o, "timeout_s", json_object_new_int((int)d->cfg.http_timeout_s));
	return o;
}

static json_object *on_request(void *userdata, struct client *cl, json_object *o)
{
	struct daemon *d = userdata;
	struct request req;
	_cleanup_(cpu_pick_free) struct cpu_pick pick = { 0 };
	char why[256];
	uid_t uid;

	if (request_parse(o, &req, why, sizeof(why)) < 0)
		return json_error_reply("%s", why);
	if (req.cpus) {
		unsigned missing = 0;
		int r = cpu_pick_init(&pick, req.cpus, d->col.ncpus, &missing);

		if (r == -ERANGE)
			return json_error_reply("CPU %u does not exist: this machine's CPUs are 0-%u", missing,
						d->col.ncpus ? d->col.ncpus - 1 : 0);
		if (r < 0)
			return json_error_reply("cannot take the CPU list '%s': %s", req.cpus, strerror(-r));
	}
	switch (req.cmd) {
	case REQ_SUMMARY: {
		json_object *s = report_summary_pick(&d->col, req.window, req.cpus ? &pick : NULL, req.cpus);

		json_object_object_add(s, "tracepoints", tracepoints_json(&d->tps));
		return json_ok_reply(s);
	}
	case REQ_DETACH:
	case REQ_ATTACH:
		/* -1: unknown, refused like any uid but root's */
		return tracepoints_request(&d->tps, req.cmd == REQ_DETACH ? "detach" : "attach", o,
					   client_peer_uid(cl, &uid) < 0 ? -1 : (long)uid);
	case REQ_HIST:
		return json_ok_reply(report_hist_pick(&d->col, req.window, req.irq, req.pid, req.name,
						      req.cpus ? &pick : NULL, req.cpus));
	case REQ_STATUS: {
		struct daemon_info info = {
			.version = IRQLAT_VERSION, .attach_style = d->bpf.attach_style,
			.interval_ms = d->cfg.interval_ms,
			.max_cells = d->bpf.max_cells, .ringbuf_bytes = d->cfg.ringbuf_kb * 1024,
			.socket_path = d->cfg.socket_path, .pid = (int)getpid(),
			.bpf_stats = d->bpf.stats_fd > 0,
		};
		json_object *w;

		memcpy(info.threshold_ns, d->cfg.threshold_ns, sizeof(info.threshold_ns));
		json_object *s = report_status(&d->col, &info);

		json_object_object_add(s, "tracepoints", tracepoints_json(&d->tps));
		json_object_object_add(s, "clients", clients_json(d));
		if ((w = wakeup_reclaim_status_json(&d->reclaim, &d->bpf)))
			json_object_object_add(s, "wakeup_cells", w);
		if (d->metrics)
			json_object_object_add(s, "http", http_json(d));
		json_object_object_add(s, "outliers", outlier_status_json(&d->outliers));
		json_object_object_add(s, "why", why_status_json(&d->why));
		json_object_object_add(s, "actions", actions_status_json(&d->actions));
		return json_ok_reply(s);
	}
	case REQ_WHY:
		return why_request(&d->why, o);
	case REQ_CAPTURES:
		return json_ok_reply(actions_captures_json(&d->actions));
	case REQ_EVENTS: {
		json_object *a = event_ring_request(&d->events, o);

		if (json_get_i64(o, "detail", 0))
			why_detail_events(&d->why, a);
		return a;
	}
	case REQ_SUBSCRIBE: {
		/* "since_wall_ns": the kept events since then in this answer, and the stream right
		 * after them, nothing lost or repeated in between */
		json_object *a;

		if (client_subscribe(cl, json_get_i64(o, "detail", 0) != 0) < 0)
			return json_error_reply("too many subscribers: irqlatd sends events to at most %u clients at once (max-subscribers)",
						d->cfg.max_subscribers);
		a = json_object_object_get_ex(o, "since_wall_ns", NULL) ? event_ring_request(&d->events, o)
								       : json_ok_reply(json_object_new_object());
		if (json_get_i64(o, "detail", 0))
			why_detail_events(&d->why, a);
		if (!json_get_i64(a, "ok", 0))
			client_unsubscribe(cl);
		return a;
	}
	}
	return json_error_reply("unknown cmd: use " REQUEST_CMDS);
}

static int on_summary(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct daemon *d = userdata;
	int r;

	journal_summary(&d->summary, &d->col, d->outliers.logged, d->outliers.held + d->outliers.not_logged);
	r = sd_event_source_set_time(s, usec + (uint64_t)d->cfg.summary_interval_s * 1000000);
	if (r >= 0)
		r = sd_event_source_set_enabled(s, SD_EVENT_ON);
	if (r < 0)
		return log_error_errno(r, "cannot re-arm the summary timer: %m");
	return 0;
}

static int arm_summary(struct daemon *d)
{
	uint64_t now;
	int r;

	sd_event_source_disable_unref(d->summary_src);
	d->summary_src = NULL;
	if (!d->cfg.summary_interval_s)
		return 0;
	r = sd_event_now(d->ev, CLOCK_MONOTONIC, &now);
	if (r >= 0)
		r = sd_event_add_time(d->ev, &d->summary_src, CLOCK_MONOTONIC,
				      now + (uint64_t)d->cfg.summary_interval_s * 1000000, 1000000, on_summary, d);
	if (r < 0)
		return log_error_errno(r, "cannot arm the summary timer: %m");
	return 0;
}

static void server_limits_of(const struct daemon_config *c, struct server_limits *l)
{
	*l = (struct server_limits){
		.max_clients = c->max_clients, .max_clients_per_uid = c->max_clients_per_uid,
		.max_subscribers = c->max_subscribers, .max_queue_bytes = (size_t)c->client_queue_kb * 1024,
		.max_request_bytes = (size_t)c->max_request_kb * 1024, .idle_timeout_s = c->client_idle_timeout_s,
	};
}

static int on_sighup(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	struct daemon *d = userdata;
	struct daemon_config n, *o = &d->cfg;
	struct config_error e;
	char st[256];
	(void)s;
	(void)si;

	notify_reloading();
	if (config_reload(o, d->argc, d->argv, &n, &e) < 0) {
		journal_reload_failed(o->config_path, e.text);
	} else {
		log_setup(n.log_target, n.verbose ? LOG_DEBUG : LOG_INFO);	/* its socket was checked */
		for (unsigned k = 0; k < KINDS; k++)
			loader_set_threshold(&d->bpf, k, n.threshold_ns[k]);
		loader_set_log_idle(&d->bpf, n.log_idle);
		struct outlier_rules rules;

		outlier_rules_from_config(&rules, &n);
		outlier_configure(&d->outliers, &rules);
		wakeup_reclaim_set_grace(&d->reclaim, n.exited_task_grace_s, n.interval_ms);
		struct server_limits limits;

		server_limits_of(&n, &limits);
		server_set_limits(d->srv, &limits);
		bool resummary = n.summary_interval_s != o->summary_interval_s;
		*o = n;	/* interval_ms applies from the next tick */
		actions_configure(&d->actions, o);
		if (resummary)
			(void)arm_summary(d);	/* logged; the reload itself stands */
		journal_reloaded(o);
	}
	status_line(st, sizeof(st), &d->col);
	notify_ready(st);
	return 0;
}

static int on_stop_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	struct daemon *d = userdata;

	d->stop_signal = (int)si->ssi_signo;
	notify_stopping();
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

/* SIGUSR1 detaches the tracepoints (tracepoints.c watches it when there are some); with none
 * it must not kill the daemon all the same: irqlatd(8) tells admins to send it before rmmod. */
static int on_sigusr1_none(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	(void)s;
	(void)si;
	(void)userdata;
	log_info("SIGUSR1: no tracepoint is consumed, nothing to detach");
	return 0;
}

/* The socket file's owner and group from the configuration. The default group (irqlat) may
 * not exist: the socket then stays root's, which *note says, once the daemon runs. */
static int socket_access(const struct daemon_config *c, struct server_access *a, const char **note)
{
	*a = (struct server_access){ .uid = (uid_t)-1, .gid = (gid_t)-1, .mode = c->socket_mode };
	*note = NULL;
	if (*c->socket_user && user_lookup(c->socket_user, &a->uid) < 0)
		return log_error_errno(-ENOENT, "socket-user %s: no such user", c->socket_user);
	if (*c->socket_group && group_lookup(c->socket_group, &a->gid) < 0) {
		if (c->socket_group_set)
			return log_error_errno(-ENOENT, "socket-group %s: no such group", c->socket_group);
		a->gid = (gid_t)-1;
		*note = c->socket_group;
	}
	return 0;
}

/* Enough descriptors for every connection the limits allow, and the daemon's own (maps,
 * programs, links, tracepoints, the journal): raise the soft limit towards the hard one. */
static void raise_fd_limit(const struct daemon_config *c)
{
	rlim_t own = 256 + 8 * (rlim_t)c->ntracepoints;
	rlim_t want = (rlim_t)c->max_clients + c->max_http_connections * 2 + own;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
	/* said before any program is loaded: a load that fails for want of a descriptor is
	 * then not taken for the kernel refusing a program */
	if (rl.rlim_cur < own)
		log_warning("the descriptor limit (RLIMIT_NOFILE %llu) is below the %llu irqlatd's own BPF maps, programs and links "
			    "may take: loading them may fail with EMFILE (Too many open files); raise LimitNOFILE= or ulimit -n",
			    (unsigned long long)rl.rlim_cur, (unsigned long long)own);
	else if (rl.rlim_cur < want)
		log_notice("the descriptor limit (RLIMIT_NOFILE %llu) is below what max-clients and max-http-connections may need "
			   "(%llu): at the limit irqlatd pauses accepting (irqlatd(8), LIMITS)",
			   (unsigned long long)rl.rlim_cur, (unsigned long long)want);
}

static int daemon_start(struct daemon *d)
{
	static const struct {
		int signo;
		sd_event_signal_handler_t handler;
	} signals[] = { { SIGTERM, on_stop_signal }, { SIGINT, on_stop_signal }, { SIGHUP, on_sighup } };
	struct server_limits limits;
	struct server_access access;
	const char *no_group;
	struct loader_opts lo = {
		.mode = d->cfg.attach,
		.max_cells = d->cfg.max_cells ? d->cfg.max_cells : default_max_cells((unsigned)libbpf_num_possible_cpus(), d->cfg.max_wakeup_cells),
		.ringbuf_bytes = d->cfg.ringbuf_kb * 1024,
		.max_wakeup_cells = d->cfg.max_wakeup_cells,
		.threaded_run = d->cfg.threaded_run,
		.log_idle = d->cfg.log_idle,
		.verbose = d->cfg.verbose,
	};
	int r;

	memcpy(lo.threshold_ns, d->cfg.threshold_ns, sizeof(lo.threshold_ns));
	for (unsigned k = 0; k < KINDS; k++)
		lo.on[k] = config_kind_on(&d->cfg, k);
	r = loader_check_privileges();
	if (r < 0)
		return r;
	r = sd_event_default(&d->ev);
	if (r < 0)
		return log_error_errno(r, "cannot create the event loop: %m");
	/* blocked since main() began (SIGUSR1 too: its watcher comes with the tracepoints) */
	for (size_t i = 0; i < ELEMENTSOF(signals); i++) {
		r = sd_event_add_signal(d->ev, NULL, signals[i].signo, signals[i].handler, d);
		if (r < 0)
			return log_error_errno(r, "cannot watch SIG%s: %m", sigabbrev_np(signals[i].signo));
	}
	raise_fd_limit(&d->cfg);

	/* the socket first: a second daemon must not replace the first one's programs */
	r = socket_access(&d->cfg, &access, &no_group);
	if (r < 0)
		return r;
	server_limits_of(&d->cfg, &limits);
	r = server_open(&d->srv, d->ev, d->cfg.socket_path, &limits, &access, on_request, d);
	if (r < 0)
		return r;
	/* the port too: "in use" is found before any program is loaded; pages are served only
	 * from the loop, when the collector below is ready */
	struct metrics_sources ms = { .col = &d->col, .why = &d->why, .tps = &d->tps, .tp_count = tracepoints_count,
				      .tp_info = tracepoints_info, .cfg = &d->cfg };
	struct metrics_limits ml = { .max_connections = d->cfg.max_http_connections, .timeout_s = d->cfg.http_timeout_s };
	struct metrics_access ma = { .tls_cert = d->cfg.metrics_tls_cert, .tls_key = d->cfg.metrics_tls_key,
				     .auth_file = d->cfg.metrics_auth_file };
	r = metrics_open(&d->metrics, d->ev, d->cfg.metrics, &ms, &ml, &ma);
	if (r < 0)
		return r;
	/* the trace action's instance records before the programs attach: a capture holds the
	 * events around any outlier, the first ones included */
	r = actions_start(&d->actions, d->ev, &d->cfg);
	if (r < 0)
		return r;
	/* one parse of the kernel's BTF for every object and tracepoint below (kernel_btf.c) */
	_cleanup_(kernel_btf_release) struct btf *btf = kernel_btf_hold();

	r = loader_open(&d->bpf, &lo);
	if (r < 0)
		return r;
	journal_links(&d->bpf, true);
	r = collector_init(&d->col, &d->bpf);
	if (r >= 0)
		r = wakeup_reclaim_init(&d->reclaim, d->bpf.max_cells);
	if (r >= 0)
		wakeup_reclaim_set_grace(&d->reclaim, d->cfg.exited_task_grace_s, d->cfg.interval_ms);
	if (r < 0)
		return log_error_errno(r, "cannot allocate the collector: %m");
	if (d->cfg.bpf_stats) {
		r = loader_enable_stats(&d->bpf);
		if (r < 0)
			return log_error_errno(r, "--bpf-stats: cannot turn on BPF run-time statistics: %m (kernel 5.8 or later needed; or drop the option and set sysctl kernel.bpf_stats_enabled=1)");
	}
	struct outlier_rules rules;

	outlier_rules_from_config(&rules, &d->cfg);
	r = outlier_init(&d->outliers, &rules);
	if (r < 0)
		return log_error_errno(r, "cannot allocate the outlier cap's %u entries: %m (lower outlier-cap)", rules.cap);
	r = why_store_init(&d->why, d->bpf.ncpus);
	if (r >= 0)
		r = why_counts_init(&d->why_counts, d->bpf.why_counts, d->bpf.ncpus);
	if (r < 0)
		return log_error_errno(r, "cannot allocate the recent explained waits: %m");
	d->why.kernel = &d->why_counts;
	/* storm entries count in the journal's cap with the outliers' */
	d->col.storm_report = on_storm;
	d->col.storm_userdata = d;

	d->rb = ring_buffer__new(d->bpf.ringbuf_fd, on_ringbuf_record, d, NULL);
	if (!d->rb)
		return log_error_errno(-errno, "cannot open the ring buffer: %m");
	r = sd_event_add_io(d->ev, &d->rb_src, ring_buffer__epoll_fd(d->rb), EPOLLIN, on_ringbuf, d);
	if (r >= 0)
		r = sd_event_add_post(d->ev, &d->rb_turn_src, on_rb_turn, d);
	if (r >= 0)
		r = sd_event_source_set_priority(d->rb_turn_src, SD_EVENT_PRIORITY_IMPORTANT);
	if (r < 0)
		return log_error_errno(r, "cannot watch the ring buffer: %m");
	r = event_ring_init(&d->events, d->cfg.event_history);
	if (r < 0)
		return log_error_errno(r, "cannot allocate the ring of %u recent events: %m (lower --event-history)", d->cfg.event_history);
	r = tracepoints_start(&d->tps, d->ev, d->srv, &d->events, &d->cfg, d->rb, d->bpf.ringbuf_fd, d->bpf.drops_fd);
	if (r < 0)
		return r;
	r = sd_event_add_signal(d->ev, NULL, SIGUSR1, on_sigusr1_none, d);
	if (r < 0 && r != -EBUSY)	/* EBUSY: the tracepoints watch it */
		return log_error_errno(r, "cannot watch SIGUSR1: %m");

	r = sd_event_now(d->ev, CLOCK_MONOTONIC, &d->next_tick_us);
	d->next_tick_us += (uint64_t)d->cfg.interval_ms * 1000;
	if (r >= 0)
		r = sd_event_add_time(d->ev, &d->tick_src, CLOCK_MONOTONIC, d->next_tick_us, 1000, on_tick, d);
	if (r < 0)
		return log_error_errno(r, "cannot arm the timer: %m");

	summary_init(&d->summary, now_ns());
	r = arm_summary(d);
	if (r < 0)
		return r;
	r = notify_watchdog(d->ev);
	if (r < 0)
		return r;

	journal_started(&d->cfg, d->bpf.attach_style, d->bpf.max_cells);
	if (no_group)
		log_notice("group %s does not exist: only root may connect to %s (mode %04o); create the group "
			   "(systemd-sysusers, or groupadd --system %s) and add its users, or set socket-group or socket-mode",
			   no_group, d->cfg.socket_path, (unsigned)d->cfg.socket_mode, no_group);
	r = ksym_kernel_open();
	if (r < 0)
		log_full_errno(LOG_NOTICE, r, "the kernel cannot name the stacks' frames (a syscall program with bpf_snprintf(), "
				    "Linux 5.14 and later): stacks show addresses: %m");
	kernel_btf_release(&btf);
	heap_after_start();
	/* programs attached, socket listening: only now may systemd order dependants after us */
	d->status_ns = now_ns();
	notify_ready("started, no IRQ seen yet");
	return 0;
}

static void daemon_stop(struct daemon *d, bool started)
{
	bool attached = d->bpf.skel != NULL;

	/* first what others see of the daemon outside what it owns: the tracefs instance goes
	 * before the last drain and the detach, which a loaded machine may make longer than
	 * the unit's TimeoutStopSec (a SIGKILL would leave the instance recording) */
	actions_stop(&d->actions);
	metrics_close(d->metrics);
	sd_event_source_disable_unref(d->rb_turn_src);
	sd_event_source_disable_unref(d->rb_src);
	sd_event_source_disable_unref(d->tick_src);
	sd_event_source_disable_unref(d->summary_src);
	if (started) {
		rb_read(d);	/* what is still in the ring buffer, then the counts */
		outliers_unexplained(d, UINT64_MAX);
		outlier_flush_all(&d->outliers);
		journal_stopped(d->stop_signal, now_ns() - d->col.start_ns, collector_count_kind(&d->col, KIND_HARDIRQ),
				d->outliers.logged, d->outliers.held, d->outliers.not_logged,
				d->col.drops[0] + d->col.drops[1] + d->col.drops[2]);
	}
	tracepoints_stop(&d->tps);	/* before the ring buffer they write to */
	ring_buffer__free(d->rb);
	/* last of the sinks: the drain above still hands events to subscribers */
	server_close(d->srv);	/* removes the socket */
	d->srv = NULL;
	event_ring_free(&d->events);
	outlier_destroy(&d->outliers);
	why_store_free(&d->why);
	stacks_free();
	ksym_kernel_close();
	why_counts_free(&d->why_counts);	/* before the loader unmaps what it reads */
	summary_free(&d->summary);
	if (attached)
		journal_links(&d->bpf, false);
	wakeup_reclaim_free(&d->reclaim);
	collector_free(&d->col);
	loader_close(&d->bpf);	/* detaches the programs, ends --bpf-stats */
	sd_event_unref(d->ev);
}

int main(int argc, char **argv)
{
	struct daemon d = { 0 };
	struct config_error e;
	int r;

	/* Every other signal a daemon may be sent whose default would end or stop it is ignored
	 * (irqlatd(8), SIGNALS): SIGPIPE and SIGXFSZ, so that a reader of stderr or of a client
	 * socket that went away, or a log file at RLIMIT_FSIZE, costs a failed write (EPIPE,
	 * EFBIG), not the daemon; SIGTTOU and SIGTTIN, so that logging to a terminal it runs in
	 * the background of does not stop it; the ones nothing here uses (SIGUSR2, timers, I/O,
	 * power, SIGXCPU: LimitCPU='s hard limit still ends it) and the real-time ones. The
	 * program-error signals (SIGSEGV, SIGABRT, ...) and SIGQUIT keep their core dump. */
	static const int ignored[] = { SIGPIPE, SIGXFSZ, SIGTTOU, SIGTTIN, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
				       SIGIO, SIGPWR, SIGSTKFLT, SIGXCPU };

	for (size_t i = 0; i < ELEMENTSOF(ignored); i++)
		signal(ignored[i], SIG_IGN);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		signal(sig, SIG_IGN);
	/* the signals irqlatd(8) documents wait (blocked) until the loop watches them: none may
	 * kill it while it parses its configuration or loads its programs; SIGCHLD is taken by
	 * sd_event_add_child() (src/daemon/capture/actions.c) */
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGCHLD);	/* the shell action's children, reaped by the loop */
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0) {
		fprintf(stderr, "irqlatd: cannot block the signals the event loop takes: %s\n", strerror(errno));
		return EXIT_FAILURE;
	}
	/* defaults, then the configuration file, then the command line (config_build.h) */
	r = config_build(&d.cfg, argc, argv, stdout, &e);
	if (r > 0)
		return EXIT_SUCCESS;	/* --help, --version */
	if (r < 0) {
		fprintf(stderr, "irqlatd: %s\n", e.text);
		return e.source == CONFIG_FILE ? EXIT_CONFIG : EXIT_USAGE;
	}
	if (log_setup(d.cfg.log_target, d.cfg.verbose ? LOG_DEBUG : LOG_INFO) < 0)
		return EXIT_FAILURE;	/* it said why on stderr */
	d.argc = argc;
	d.argv = argv;

	r = daemon_start(&d);
	bool started = r >= 0;
	if (started)
		r = sd_event_loop(d.ev);
	daemon_stop(&d, started);
	return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
