// SPDX-License-Identifier: GPL-2.0
/* irqlatd: one sd_event loop owns the ring buffer, the map-reading timer, the signals and the
 * client socket. Nothing blocks and nothing polls in a sleep loop. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <systemd/sd-event.h>
#include "collect.h"
#include "config_build.h"
#include "journal.h"
#include "kind.h"
#include "log.h"
#include "metrics.h"
#include "notify.h"
#include "options.h"
#include "outlier.h"
#include "report.h"
#include "server.h"
#include "tracepoints.h"
#include "common/json.h"

struct daemon {
	struct daemon_config cfg;
	sd_event *ev;
	struct loader bpf;
	struct collector col;
	struct outlier_limiter outliers;
	struct server *srv;
	struct tp_set tps;
	struct event_ring events;	/* the recent ones, for irqlat events */
	struct ring_buffer *rb;
	sd_event_source *tick_src, *rb_src;
	uint64_t next_tick_us;
	/* systemd integration: reload re-reads the file and this command line */
	int argc;
	char **argv;
	sd_event_source *summary_src;
	struct summary_state summary;
	uint64_t status_ns;	/* when STATUS= was last refreshed */
	int stop_signal;
	struct metrics *metrics;	/* --metrics or a socket from systemd; NULL: none */
};

static json_object *outlier_json(const struct outlier *e)
{
	const struct kind_desc *k = kind_get(e->kind);
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("outlier"));
	json_object_object_add(o, "kind", json_object_new_string(k->name));
	json_object_object_add(o, "ts_ns", json_object_new_uint64(e->ts_ns));
	json_object_object_add(o, "cpu", json_object_new_int((int)e->cpu));
	if (k->sub_key)
		json_object_object_add(o, k->sub_key, json_object_new_int((int)e->sub));
	json_object_object_add(o, k->name_key, json_object_new_string(e->name));
	json_object_object_add(o, k->value_key, json_object_new_uint64(e->value_ns));
	json_object_object_add(o, "pid", json_object_new_int((int)e->pid));
	json_object_object_add(o, "comm", json_object_new_string(e->comm));
	return o;
}

static int on_ringbuf_record(void *ctx, void *data, size_t size)
{
	struct daemon *d = ctx;
	const uint32_t *kind = data;

	if (size < sizeof(*kind))
		return 0;
	if (*kind == RB_OUTLIER && size >= sizeof(struct outlier_event)) {
		const struct outlier_event *e = data;
		uint32_t cpu = 0;
		const struct series *s = collector_cell_series(&d->col, e->cell, &cpu);
		struct outlier out;

		outlier_from_event(&out, e, s, cpu);
		_cleanup_json_ json_object *o = outlier_json(&out);
		uint64_t wall_ns = event_add_clocks(o, out.ts_ns);

		outlier_handle(&d->outliers, &out);
		event_publish(&d->events, d->srv, o, wall_ns);
	} else if (*kind == RB_TRACEPOINT || *kind == RB_MODULE) {
		tracepoints_handle(&d->tps, data, size);
	}
	return 0;
}

static int on_ringbuf(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct daemon *d = userdata;
	int r = ring_buffer__consume(d->rb);
	(void)s;
	(void)fd;
	(void)revents;

	if (r < 0)
		log_error_errno(r, "cannot read the ring buffer: %m");
	return 0;
}

static int on_tick(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct daemon *d = userdata;
	int r;

	r = collector_tick(&d->col);
	if (r < 0)
		log_warning_errno(r, "cannot read the drop counters: %m");
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

#define REQUESTS "summary, hist, status, events, subscribe, detach or attach"

static json_object *on_request(void *userdata, struct client *cl, json_object *req)
{
	struct daemon *d = userdata;
	json_object *v;
	const char *cmd = json_object_object_get_ex(req, "cmd", &v) ? json_object_get_string(v) : NULL;
	enum window w = WINDOW_10S;

	if (json_object_object_get_ex(req, "window", &v) && window_parse(json_object_get_string(v), &w) < 0)
		return json_error_reply("unknown window '%s': use " WINDOW_CHOICES, json_object_get_string(v));
	if (!cmd)
		return json_error_reply("request has no \"cmd\"; use " REQUESTS);
	if (!strcmp(cmd, "summary")) {
		json_object *o = report_summary(&d->col, w);

		json_object_object_add(o, "tracepoints", tracepoints_json(&d->tps));
		return json_ok_reply(o);
	}
	if (!strcmp(cmd, "detach") || !strcmp(cmd, "attach")) {
		uid_t uid;

		/* -1: unknown, refused like any uid but root's */
		return tracepoints_request(&d->tps, cmd, req, client_peer_uid(cl, &uid) < 0 ? -1 : (long)uid);
	}
	if (!strcmp(cmd, "hist")) {
		int irq = -1;
		const char *name = NULL;

		if (json_object_object_get_ex(req, "irq", &v))
			irq = json_object_get_int(v);
		if (json_object_object_get_ex(req, "name", &v))
			name = json_object_get_string(v);
		return json_ok_reply(report_hist(&d->col, w, irq, name));
	}
	if (!strcmp(cmd, "status")) {
		struct daemon_info info = {
			.version = IRQLAT_VERSION, .attach_style = d->bpf.attach_style,
			.interval_ms = d->cfg.interval_ms,
			.max_cells = d->bpf.max_cells, .ringbuf_bytes = d->cfg.ringbuf_kb * 1024,
			.socket_path = d->cfg.socket_path, .pid = (int)getpid(),
			.bpf_stats = d->bpf.stats_fd > 0,
		};
		config_thresholds(&d->cfg, info.threshold_ns);
		json_object *o = report_status(&d->col, &info);

		json_object_object_add(o, "tracepoints", tracepoints_json(&d->tps));
		return json_ok_reply(o);
	}
	if (!strcmp(cmd, "events"))
		return event_ring_request(&d->events, req);
	if (!strcmp(cmd, "subscribe")) {
		/* "since_wall_ns": the kept events since then in this answer, and the stream right
		 * after them, nothing lost or repeated in between */
		json_object *o = json_object_object_get_ex(req, "since_wall_ns", NULL) ? event_ring_request(&d->events, req)
										    : json_ok_reply(json_object_new_object());

		if (json_get_i64(o, "ok", 0))
			client_subscribe(cl);
		return o;
	}
	return json_error_reply("unknown cmd '%s': use " REQUESTS, cmd);
}

static int on_summary(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct daemon *d = userdata;
	int r;

	journal_summary(&d->summary, &d->col, d->outliers.logged, d->outliers.suppressed);
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
		uint64_t th[KINDS];

		config_thresholds(&n, th);
		for (unsigned k = 0; k < KINDS; k++)
			loader_set_threshold(&d->bpf, k, th[k]);
		outlier_configure(&d->outliers, n.outlier_rate, th);
		bool resummary = n.summary_interval_s != o->summary_interval_s;
		*o = n;	/* interval_ms applies from the next tick */
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

static int daemon_start(struct daemon *d)
{
	static const struct {
		int signo;
		sd_event_signal_handler_t handler;
	} signals[] = { { SIGTERM, on_stop_signal }, { SIGINT, on_stop_signal }, { SIGHUP, on_sighup } };
	struct loader_opts lo = {
		.mode = d->cfg.attach,
		.max_cells = d->cfg.max_cells ? d->cfg.max_cells : default_max_cells((unsigned)libbpf_num_possible_cpus()),
		.ringbuf_bytes = d->cfg.ringbuf_kb * 1024,
		.softirqs = !d->cfg.no_softirqs,
		.vectors = !d->cfg.no_vectors,
		.verbose = d->cfg.verbose,
	};
	sigset_t mask;
	int r;

	config_thresholds(&d->cfg, lo.threshold_ns);
	r = loader_check_privileges();
	if (r < 0)
		return r;
	r = sd_event_default(&d->ev);
	if (r < 0)
		return log_error_errno(r, "cannot create the event loop: %m");
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return log_error_errno(-errno, "cannot block the signals the event loop takes: %m");
	for (size_t i = 0; i < ELEMENTSOF(signals); i++) {
		r = sd_event_add_signal(d->ev, NULL, signals[i].signo, signals[i].handler, d);
		if (r < 0)
			return log_error_errno(r, "cannot watch SIG%s: %m", sigabbrev_np(signals[i].signo));
	}

	/* the socket first: a second daemon must not replace the first one's programs */
	r = server_open(&d->srv, d->ev, d->cfg.socket_path, on_request, d);
	if (r < 0)
		return r;
	/* the port too: "in use" is found before any program is loaded; pages are served only
	 * from the loop, when the collector below is ready */
	struct metrics_sources ms = { .col = &d->col, .tps = &d->tps };
	r = metrics_open(&d->metrics, d->ev, d->cfg.metrics, &ms);
	if (r < 0)
		return r;
	r = loader_open(&d->bpf, &lo);
	if (r < 0)
		return r;
	journal_links(&d->bpf, true);
	r = collector_init(&d->col, &d->bpf);
	if (r < 0)
		return log_error_errno(r, "cannot allocate the collector: %m");
	if (d->cfg.bpf_stats) {
		r = loader_enable_stats(&d->bpf);
		if (r < 0)
			return log_error_errno(r, "--bpf-stats: cannot turn on BPF run-time statistics: %m (kernel 5.8 or later needed; or drop the option and set sysctl kernel.bpf_stats_enabled=1)");
	}
	outlier_init(&d->outliers, d->cfg.outlier_rate, lo.threshold_ns);

	d->rb = ring_buffer__new(d->bpf.ringbuf_fd, on_ringbuf_record, d, NULL);
	if (!d->rb)
		return log_error_errno(-errno, "cannot open the ring buffer: %m");
	r = sd_event_add_io(d->ev, &d->rb_src, ring_buffer__epoll_fd(d->rb), EPOLLIN, on_ringbuf, d);
	if (r < 0)
		return log_error_errno(r, "cannot watch the ring buffer: %m");
	r = event_ring_init(&d->events, d->cfg.event_history);
	if (r < 0)
		return log_error_errno(r, "cannot allocate the ring of %u recent events: %m (lower --event-history)", d->cfg.event_history);
	r = tracepoints_start(&d->tps, d->ev, d->srv, &d->events, &d->cfg, d->rb, d->bpf.ringbuf_fd, d->bpf.drops_fd);
	if (r < 0)
		return r;

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
	/* programs attached, socket listening: only now may systemd order dependants after us */
	d->status_ns = now_ns();
	notify_ready("started, no IRQ seen yet");
	return 0;
}

static void daemon_stop(struct daemon *d, bool started)
{
	bool attached = d->bpf.skel != NULL;

	metrics_close(d->metrics);
	sd_event_source_disable_unref(d->rb_src);
	sd_event_source_disable_unref(d->tick_src);
	sd_event_source_disable_unref(d->summary_src);
	if (started) {
		ring_buffer__consume(d->rb);	/* what is still in the ring buffer, then the counts */
		outlier_flush_all(&d->outliers);
		journal_stopped(d->stop_signal, now_ns() - d->col.start_ns, d->col.nseries, d->outliers.logged,
				d->outliers.suppressed, d->col.drops[0] + d->col.drops[1] + d->col.drops[2]);
	}
	tracepoints_stop(&d->tps);	/* before the ring buffer they write to */
	ring_buffer__free(d->rb);
	/* last of the sinks: the drain above still hands events to subscribers */
	server_close(d->srv);	/* removes the socket */
	d->srv = NULL;
	event_ring_free(&d->events);
	outlier_free(&d->outliers);
	summary_free(&d->summary);
	if (attached)
		journal_links(&d->bpf, false);
	collector_free(&d->col);
	loader_close(&d->bpf);	/* detaches the programs, ends --bpf-stats */
	sd_event_unref(d->ev);
}

int main(int argc, char **argv)
{
	struct daemon d = { 0 };
	struct config_error e;
	int r;

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
