// SPDX-License-Identifier: GPL-2.0
/* The Prometheus endpoint's HTTP server. libmicrohttpd (MHD) runs in its "external select"
 * mode with its own epoll set (MHD_USE_EPOLL, no internal thread): that epoll fd is one
 * sd_event io source and MHD's timeout one sd_event timer, so a scrape runs on the daemon's
 * only thread, between ticks.
 *
 * The listening socket is made here (or taken from systemd, socket activation), and accepted
 * here too, each connection handed to MHD with MHD_add_connection(): MHD then parses HTTP and
 * answers, and this file decides who gets in. That is what keeps a handful of idle or slow
 * clients from locking the scraper out:
 * - MHD's own accepting leaves its listening socket out of its epoll set once it reached
 *   MHD_OPTION_CONNECTION_LIMIT and puts it back only at the start of a later MHD_run(),
 *   which nothing then wakes: /metrics stayed dead for good after 17 idle connections.
 * - MHD_OPTION_CONNECTION_TIMEOUT counts silence, so a client sending a byte a second is
 *   never timed out. Here each connection has http-timeout-s from its start (or from its
 *   last answer) to send a whole request, or it is shut down.
 * - At max-http-connections a new connection shuts down the one waiting longest for a
 *   request to come, rather than waiting behind it: a scraper always gets in.
 * - At the descriptor limit accepting pauses (listen_pause.h) instead of spinning. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include <systemd/sd-daemon.h>
#include "config.h"
#include "listen_pause.h"
#include "log.h"
#include "metrics.h"
#include "common/macro.h"

#define DEADLINE_CHECK_US 500000	/* how often connections are checked against their deadline */

/* One connection MHD serves, from its start to its close. */
struct http_conn {
	struct http_conn *prev, *next;
	int fd;
	uint64_t since_us;	/* connected, or answered its last request: waiting for one since */
	bool busy;		/* a request of it is being answered */
	bool shut;		/* shut down here; MHD closes it on its next run */
};

struct metrics {
	sd_event *ev;
	struct MHD_Daemon *mhd;
	sd_event_source *io, *timer, *listen_io, *deadline;
	struct listen_pause pause;
	struct metrics_sources src;
	struct metrics_limits limits;
	struct metrics_stats stats;
	struct http_conn *conns;
	unsigned open;	/* connections not shut down yet */
	int fd;
	char where[80], what[100];
};

static uint64_t now_us(const struct metrics *m)
{
	uint64_t t = 0;

	(void)sd_event_now(m->ev, CLOCK_MONOTONIC, &t);
	return t;
}

static struct http_conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/* MHD notices the shutdown on its next run (the socket reads EOF) and closes the connection. */
static void conn_shut(struct metrics *m, struct http_conn *hc)
{
	if (hc->shut)
		return;
	(void)shutdown(hc->fd, SHUT_RDWR);
	hc->shut = true;
	m->open--;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context, enum MHD_ConnectionNotificationCode code)
{
	struct metrics *m = cls;
	struct http_conn *hc = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

		hc = calloc(1, sizeof(*hc));
		if (!hc || !ci) {
			/* untracked, it would escape the deadline: refuse it */
			free(hc);
			if (ci)
				(void)shutdown(ci->connect_fd, SHUT_RDWR);
			return;
		}
		hc->fd = ci->connect_fd;
		hc->since_us = now_us(m);
		hc->next = m->conns;
		if (m->conns)
			m->conns->prev = hc;
		m->conns = hc;
		m->open++;
		*socket_context = hc;
		return;
	}
	if (!hc)
		return;
	if (!hc->shut)
		m->open--;
	if (hc->prev)
		hc->prev->next = hc->next;
	else
		m->conns = hc->next;
	if (hc->next)
		hc->next->prev = hc->prev;
	free(hc);
	*socket_context = NULL;
	listen_pause_resume(&m->pause);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	struct metrics *m = cls;
	struct http_conn *hc = conn_of(c);
	(void)con_cls;
	(void)toe;

	if (hc) {
		hc->busy = false;
		hc->since_us = now_us(m);	/* a keep-alive connection waits for its next request */
	}
}

static enum MHD_Result answer(struct MHD_Response *r, struct MHD_Connection *conn, unsigned status)
{
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;	/* out of memory: MHD closes the connection */
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	struct metrics *m = cls;
	struct http_conn *hc = conn_of(conn);
	/* the first Accept header, if several came */
	struct metrics_answer a = metrics_route(method, url, MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	struct MHD_Response *r;
	size_t len = 0;
	char *page;
	(void)version;
	(void)upload;
	(void)con_cls;

	if (hc)
		hc->busy = true;	/* its request came whole: the deadline is met */
	if (*upload_size) {	/* a body on a GET: not ours to read */
		*upload_size = 0;
		return MHD_YES;
	}
	if (a.body) {
		r = MHD_create_response_from_buffer(strlen(a.body), (void *)a.body, MHD_RESPMEM_PERSISTENT);
	} else {
		page = metrics_render_as(&m->src, a.format, &len);
		if (!page)
			return MHD_NO;	/* out of memory: MHD closes the connection */
		r = MHD_create_response_from_buffer(len, page, MHD_RESPMEM_MUST_FREE);
		if (!r)
			free(page);
	}
	if (r && a.allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, a.allow);
	if (r) {
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, a.content_type);
		MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT);	/* the format follows it */
	}
	return answer(r, conn, a.status);
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[256];
	(void)cls;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	msg[strcspn(msg, "\n")] = 0;
	log_debug("metrics: %s", msg);
}

/* After every MHD_run: MHD's next timeout (idle connections to close) as the timer. */
static int rearm(struct metrics *m)
{
	MHD_UNSIGNED_LONG_LONG ms;
	uint64_t now;
	int r;

	if (MHD_get_timeout(m->mhd, &ms) != MHD_YES)
		return sd_event_source_set_enabled(m->timer, SD_EVENT_OFF);
	r = sd_event_now(sd_event_source_get_event(m->timer), CLOCK_MONOTONIC, &now);
	if (r >= 0)
		r = sd_event_source_set_time(m->timer, now + (uint64_t)ms * 1000);
	if (r >= 0)
		r = sd_event_source_set_enabled(m->timer, SD_EVENT_ONESHOT);
	return r;
}

/* What woke us (a connection, a request, a timeout), then the next timeout. */
static void serve(struct metrics *m)
{
	int r;

	MHD_run(m->mhd);	/* MHD_NO only without MHD_USE_EPOLL, which metrics_open sets */
	r = rearm(m);
	if (r < 0)
		log_error_errno(r, "metrics: cannot arm the HTTP server's timer: %m");
}

static int on_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	(void)s;
	(void)fd;
	(void)revents;

	serve(userdata);
	return 0;
}

static int on_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	(void)s;
	(void)usec;

	serve(userdata);
	return 0;
}

unsigned metrics_http_expire(struct metrics *m, uint64_t now_us)
{
	uint64_t limit_us = (uint64_t)m->limits.timeout_s * 1000000;
	unsigned n = 0;

	/* since + limit, not now - since: a connection made after now (see on_deadline) is not
	 * overdue, where the difference would wrap */
	for (struct http_conn *hc = m->conns; hc; hc = hc->next)
		if (!hc->busy && !hc->shut && now_us >= hc->since_us + limit_us) {
			conn_shut(m, hc);
			m->stats.timed_out++;
			n++;
		}
	if (n)
		serve(m);
	return n;
}

/* The deadline check, on the loop's now as since_us is: usec is when this timer was due, which
 * a connection accepted in the same iteration (the timer fires up to its accuracy late)
 * postdates; measured from usec it was shut at once (a GET in the systemd guest, about one
 * request a second here). */
static int on_deadline(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct metrics *m = userdata;
	uint64_t now = now_us(m);
	(void)usec;

	(void)metrics_http_expire(m, now);
	if (sd_event_source_set_time(s, now + DEADLINE_CHECK_US) < 0 || sd_event_source_set_enabled(s, SD_EVENT_ON) < 0)
		log_error("metrics: cannot re-arm the request deadline timer: connections are not timed out");
	return 0;
}

/* The connection waiting longest for its request, to make room; NULL: all are answering. */
static struct http_conn *oldest_waiting(struct metrics *m)
{
	struct http_conn *best = NULL;

	for (struct http_conn *hc = m->conns; hc; hc = hc->next)
		if (!hc->busy && !hc->shut && (!best || hc->since_us < best->since_us))
			best = hc;
	return best;
}

int metrics_http_add(struct metrics *m, int fd, const struct sockaddr *sa, socklen_t salen)
{
	if (m->open >= m->limits.max_connections) {
		/* first let libmicrohttpd read what has arrived: a scraper whose request is in is
		 * busy then, not a victim (81-limits.t saw a scrape shut, under a sanitizer's pace,
		 * by the slow clients that connected just after it) */
		serve(m);
		struct http_conn *victim = oldest_waiting(m);

		if (!victim) {
			close(fd);
			m->stats.refused++;
			return -EBUSY;
		}
		conn_shut(m, victim);
		m->stats.evicted++;
	}
	/* MHD closes fd when it cannot take it */
	if (MHD_add_connection(m->mhd, fd, sa, salen) != MHD_YES) {
		m->stats.refused++;
		return -errno;
	}
	m->stats.accepted++;
	serve(m);	/* it may have sent its request already */
	return 0;
}

static int on_listen(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct metrics *m = userdata;
	struct sockaddr_storage sa;
	socklen_t salen = sizeof(sa);
	int cfd, r;
	(void)s;
	(void)revents;

	cfd = accept4(fd, (struct sockaddr *)&sa, &salen, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0) {
		r = -errno;
		if (accept_error_is_resource(r))
			return listen_pause_start(&m->pause, r, m->open);
		if (r != -EAGAIN && r != -EINTR && r != -ECONNABORTED)
			log_warning_errno(r, "metrics: cannot accept a connection on %s: %m", m->where);
		return 0;
	}
	(void)metrics_http_add(m, cfd, (struct sockaddr *)&sa, salen);
	return 0;
}

/* The socket systemd passed as FileDescriptorName=metrics, or -1. */
static int inherited_socket(void)
{
	char **names = NULL;
	int n = sd_listen_fds_with_names(1, &names), fd = -1;

	for (int i = 0; i < n; i++) {
		if (fd < 0 && names && !strcmp(names[i], "metrics"))
			fd = SD_LISTEN_FDS_START + i;
		free(names ? names[i] : NULL);
	}
	free(names);
	return fd;
}

/* A listening TCP socket on addr ("HOST:PORT", checked by config_set already), or a negative
 * errno, logged. */
static int listen_on(const char *addr)
{
	struct sockaddr_storage sa;
	unsigned salen;
	int one = 1;

	if (metrics_addr_parse(addr, &sa, &salen) < 0)
		return log_error_errno(-EINVAL, "--metrics: '%s' is not ADDRESS:PORT", addr);
	_cleanup_close_ int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return log_error_errno(-errno, "--metrics %s: cannot create the socket: %m", addr);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sa.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, salen) < 0 || listen(fd, 64) < 0) {
		int r = -errno;

		if (r == -EADDRINUSE)
			return log_error_errno(r, "--metrics %s: the port is in use (%m): stop what listens there (ss -ltnp) or choose another port", addr);
		if (r == -EADDRNOTAVAIL)
			return log_error_errno(r, "--metrics %s: no interface has this address (%m)", addr);
		return log_error_errno(r, "--metrics %s: cannot listen: %m", addr);
	}
	return TAKE_FD(fd);
}

static void metrics_closep(struct metrics **m)
{
	metrics_close(*m);
}

int metrics_serve(struct metrics **out, sd_event *ev, int fd, const char *where, const struct metrics_sources *src,
		  const struct metrics_limits *limits)
{
	_cleanup_(metrics_closep) struct metrics *m = calloc(1, sizeof(*m));
	const union MHD_DaemonInfo *info;
	uint64_t now;
	int r;

	*out = NULL;
	if (!m) {
		close(fd);
		return log_error_errno(-ENOMEM, "metrics: %m");
	}
	m->ev = ev;
	m->fd = fd;
	m->src = *src;
	m->limits = *limits;
	snprintf(m->where, sizeof(m->where), "%s", where);
	snprintf(m->what, sizeof(m->what), "the metrics endpoint %s", where);
	/* MHD's own limit is a backstop only: shut down connections linger until its next run */
	m->mhd = MHD_start_daemon(MHD_USE_EPOLL | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ERROR_LOG, 0, NULL, NULL, on_request, m,
				  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				  MHD_OPTION_CONNECTION_LIMIT, limits->max_connections * 2 + 4,
				  MHD_OPTION_CONNECTION_TIMEOUT, limits->timeout_s,
				  MHD_OPTION_NOTIFY_CONNECTION, on_connection, m,
				  MHD_OPTION_NOTIFY_COMPLETED, on_completed, m,
				  MHD_OPTION_END);
	if (!m->mhd)
		return log_error_errno(-EINVAL, "metrics: libmicrohttpd cannot serve on %s", where);
	info = MHD_get_daemon_info(m->mhd, MHD_DAEMON_INFO_EPOLL_FD);
	if (!info)
		return log_error_errno(-EINVAL, "metrics: libmicrohttpd was built without epoll");
	r = sd_event_now(ev, CLOCK_MONOTONIC, &now);
	if (r >= 0)
		r = sd_event_add_io(ev, &m->io, info->epoll_fd, EPOLLIN, on_io, m);
	if (r >= 0)
		r = sd_event_add_time(ev, &m->timer, CLOCK_MONOTONIC, 0, 1000, on_timer, m);
	if (r >= 0)
		r = sd_event_add_time(ev, &m->deadline, CLOCK_MONOTONIC, now + DEADLINE_CHECK_US, 100000, on_deadline, m);
	if (r >= 0)
		r = sd_event_add_io(ev, &m->listen_io, fd, EPOLLIN, on_listen, m);
	if (r < 0)
		return log_error_errno(r, "metrics: cannot watch the HTTP server: %m");
	listen_pause_init(&m->pause, m->listen_io, m->what);
	r = rearm(m);
	if (r < 0)
		return log_error_errno(r, "metrics: cannot arm the HTTP server's timer: %m");
	*out = TAKE_PTR(m);
	return 0;
}

int metrics_open(struct metrics **out, sd_event *ev, const char *addr, const struct metrics_sources *src,
		 const struct metrics_limits *limits)
{
	char where[80];
	int fd = inherited_socket(), r;

	*out = NULL;
	if (fd < 0 && (!addr || !*addr))
		return 0;
	if (fd >= 0) {
		/* socket activation: the unit's ListenStream= wins over --metrics */
		if (sd_is_socket(fd, AF_UNSPEC, SOCK_STREAM, 1) <= 0)
			return log_error_errno(-EINVAL, "metrics: the socket systemd passed as \"metrics\" is not a listening stream socket: fix the .socket unit (ListenStream=)");
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		snprintf(where, sizeof(where), "the socket from systemd (fd %d)", fd);
		if (addr && *addr)
			log_info("metrics: serving on the socket systemd passed; --metrics %s is not used", addr);
	} else {
		fd = listen_on(addr);
		if (fd < 0)
			return fd;
		snprintf(where, sizeof(where), "%s", addr);
	}
	r = metrics_serve(out, ev, fd, where, src, limits);
	if (r < 0)
		return r;
	log_info("metrics: serving /metrics on %s", where);
	return 0;
}

struct metrics_stats metrics_stats(const struct metrics *m)
{
	struct metrics_stats st = m ? m->stats : (struct metrics_stats){ 0 };

	if (m) {
		st.open = m->open;
		st.accept_pauses = m->pause.pauses;
	}
	return st;
}

void metrics_close(struct metrics *m)
{
	if (!m)
		return;
	if (m->mhd)
		MHD_stop_daemon(m->mhd);	/* closes its connections, telling on_connection */
	listen_pause_free(&m->pause);
	sd_event_source_disable_unref(m->listen_io);
	sd_event_source_disable_unref(m->deadline);
	sd_event_source_disable_unref(m->io);
	sd_event_source_disable_unref(m->timer);
	closep(&m->fd);
	free(m);
}
