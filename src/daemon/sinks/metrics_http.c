// SPDX-License-Identifier: GPL-2.0
/* The Prometheus endpoint's HTTP server. libmicrohttpd (MHD) runs in its "external select"
 * mode with its own epoll set (MHD_USE_EPOLL, no internal thread): that epoll fd is one
 * sd_event io source and MHD's timeout one sd_event timer, so a scrape runs on the daemon's
 * only thread, between ticks. MHD parses HTTP, keeps connections alive across requests
 * (the response is queued on the access handler's second call, as MHD wants for that), checks
 * basic authentication and speaks TLS (GnuTLS) when they are configured.
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
 * - At the descriptor limit accepting pauses (listen_pause.h) instead of spinning.
 * - Without TLS, a connection goes to MHD once its first bytes are the start of a request
 *   line (a method token and a space, RFC 9112 section 3): MHD 0.9.75 waits for a line's end
 *   before it judges one, and closes one without spaces without a word, so bytes that are no
 *   HTTP at all (a TLS handshake, binary) got nothing until http-timeout-s. They get a 400 at
 *   once instead, the one answer written here. */
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
#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include "daemon/config/config.h"
#include "daemon/base/listen_pause.h"
#include "daemon/base/log.h"
#include "daemon/sinks/metrics_http.h"
#include "daemon/sinks/metrics_stream.h"
#include "daemon/sinks/mhd_dlopen.h"
#include "common/macro.h"

#define DEADLINE_CHECK_US 500000	/* how often connections are checked against their deadline */

/* One connection, from its accept to its close: first its start looked at (not TLS), then
 * MHD's. */
struct http_conn {
	struct http_conn *prev, *next;
	struct metrics *m;
	int fd;
	sd_event_source *sniff;	/* before MHD has it: its first bytes awaited (EPOLLET) */
	struct sockaddr_storage sa;	/* the peer, for MHD */
	socklen_t salen;
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
	struct http_conn *adding;	/* the connection MHD_add_connection() is taking */
	unsigned open;	/* connections not shut down yet */
	int fd;
	bool tls;
	char *user, *password;	/* basic authentication; NULL: none */
	char *cert, *key;	/* PEM, for MHD's lifetime */
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
	const union MHD_ConnectionInfo *ci = sym_MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

static void conn_unlink(struct metrics *m, struct http_conn *hc)
{
	if (hc->prev)
		hc->prev->next = hc->next;
	else
		m->conns = hc->next;
	if (hc->next)
		hc->next->prev = hc->prev;
}

/* A connection MHD does not have (yet): closed here */
static void conn_drop(struct metrics *m, struct http_conn *hc)
{
	if (!hc->shut)
		m->open--;
	conn_unlink(m, hc);
	sd_event_source_disable_unref(hc->sniff);
	close(hc->fd);
	free(hc);
	listen_pause_resume(&m->pause);
}

/* MHD notices the shutdown on its next run (the socket reads EOF) and closes the connection;
 * one it does not have yet is closed now. */
static void conn_shut(struct metrics *m, struct http_conn *hc)
{
	if (hc->sniff) {
		conn_drop(m, hc);
		return;
	}
	if (hc->shut)
		return;
	(void)shutdown(hc->fd, SHUT_RDWR);
	hc->shut = true;
	m->open--;
}

static struct http_conn *conn_new(struct metrics *m, int fd)
{
	struct http_conn *hc = calloc(1, sizeof(*hc));

	if (!hc)
		return NULL;
	hc->m = m;
	hc->fd = fd;
	hc->since_us = now_us(m);
	hc->next = m->conns;
	if (m->conns)
		m->conns->prev = hc;
	m->conns = hc;
	m->open++;
	return hc;
}

static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context, enum MHD_ConnectionNotificationCode code)
{
	struct metrics *m = cls;
	struct http_conn *hc = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = sym_MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

		/* the one metrics_http_add() hands over (MHD tells of it before it returns) */
		hc = m->adding && ci && m->adding->fd == ci->connect_fd ? m->adding : ci ? conn_new(m, ci->connect_fd) : NULL;
		m->adding = NULL;
		if (!hc) {
			/* untracked, it would escape the deadline: refuse it */
			if (ci)
				(void)shutdown(ci->connect_fd, SHUT_RDWR);
			return;
		}
		*socket_context = hc;
		return;
	}
	if (!hc)
		return;
	if (!hc->shut)
		m->open--;
	conn_unlink(m, hc);
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
	ret = sym_MHD_queue_response(conn, status, r);
	sym_MHD_destroy_response(r);
	return ret;
}

/* Equal, in a time that does not depend on where they differ */
static bool secret_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;

	for (size_t i = 0; i < la; i++)
		d |= (unsigned char)a[i] ^ (unsigned char)b[i % (lb ? lb : 1)];
	return !d;
}

/* With metrics-auth-file: whether the request carries its user and password */
static bool authorized(const struct metrics *m, struct MHD_Connection *conn)
{
	char *pass = NULL, *user;
	bool ok;

	if (!m->user)
		return true;
	user = sym_MHD_basic_auth_get_username_password(conn, &pass);
	/* both compared whatever the first gives: & of ints, not && */
	ok = user && pass && ((int)secret_equal(user, m->user) & (int)secret_equal(pass, m->password));
	sym_MHD_free(user);
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		sym_MHD_free(pass);
	}
	return ok;
}

/* libmicrohttpd asks for the page a piece at a time, as the connection can take it: the page
 * is never held whole (metrics_stream.c says why), and the pieces come from the snapshot the
 * request took, so a tick while a slow scraper reads does not mix two ticks into its page.
 * pos is where MHD is: the stream knows it already (MHD asks in order, from 0). */
static ssize_t page_piece(void *cls, uint64_t pos, char *buf, size_t max)
{
	ssize_t n = metrics_stream_read(cls, buf, max);
	(void)pos;

	if (n < 0)
		return MHD_CONTENT_READER_END_WITH_ERROR;	/* out of memory: MHD closes the connection */
	return n ? n : MHD_CONTENT_READER_END_OF_STREAM;
}

static void page_done(void *cls)
{
	metrics_stream_free(cls);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	static const char unauthorized[] = "401 Unauthorized: this endpoint wants a user and password\n";
	static int headers_seen;
	struct metrics *m = cls;
	struct http_conn *hc = conn_of(conn);
	struct metrics_answer a;
	struct MHD_Response *r;
	struct metrics_stream *page;
	(void)version;
	(void)upload;

	if (!*con_cls) {
		/* the first call, on the headers: answering now would make MHD close the connection
		 * after the answer (it cannot know the request's body was read); the next call is
		 * the one after the body, or at once without one */
		*con_cls = &headers_seen;
		if (hc)
			hc->busy = true;	/* its request came whole: the deadline is met */
		return MHD_YES;
	}
	if (*upload_size) {	/* a body on a GET: not ours to read */
		*upload_size = 0;
		return MHD_YES;
	}
	if (!authorized(m, conn)) {
		m->stats.unauthorized++;
		r = sym_MHD_create_response_from_buffer(strlen(unauthorized), (void *)unauthorized, MHD_RESPMEM_PERSISTENT);
		if (!r)
			return MHD_NO;
		sym_MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
		enum MHD_Result ret = sym_MHD_queue_basic_auth_fail_response(conn, "irqlatd", r);

		sym_MHD_destroy_response(r);
		return ret;
	}
	/* the first Accept header, if several came */
	a = metrics_route(method, url, sym_MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	if (a.body) {
		r = sym_MHD_create_response_from_buffer(strlen(a.body), (void *)a.body, MHD_RESPMEM_PERSISTENT);
	} else {
		/* the snapshot is taken now, whole, between two ticks */
		if (metrics_stream_new(&m->src, a.format, &page) < 0)
			return MHD_NO;	/* out of memory: MHD closes the connection */
		/* its length is known only once written: chunked (HTTP/1.1), or to the close */
		r = sym_MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, METRICS_STREAM_BLOCK, page_piece, page, page_done);
		if (!r)
			metrics_stream_free(page);
	}
	if (r && a.allow)
		sym_MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, a.allow);
	if (r) {
		sym_MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, a.content_type);
		sym_MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT);	/* the format follows it */
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

	if (sym_MHD_get_timeout(m->mhd, &ms) != MHD_YES)
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

	sym_MHD_run(m->mhd);	/* MHD_NO only without MHD_USE_EPOLL, which metrics_open sets */
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
	for (struct http_conn *hc = m->conns, *next; hc; hc = next) {
		next = hc->next;	/* one MHD does not have yet is freed at once */
		if (!hc->busy && !hc->shut && now_us >= hc->since_us + limit_us) {
			conn_shut(m, hc);
			m->stats.timed_out++;
			n++;
		}
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

/* MHD takes the connection (and closes fd when it cannot) */
static int hand_over(struct metrics *m, struct http_conn *hc)
{
	int r = 0;

	hc->sniff = sd_event_source_disable_unref(hc->sniff);
	m->adding = hc;
	if (sym_MHD_add_connection(m->mhd, hc->fd, (struct sockaddr *)&hc->sa, hc->salen) != MHD_YES) {
		r = -errno;
		m->stats.refused++;
	}
	if (m->adding == hc) {
		/* MHD never told of it: closed by MHD, or it would escape the deadline */
		m->adding = NULL;
		if (!r)
			(void)shutdown(hc->fd, SHUT_RDWR);
		if (!hc->shut)
			m->open--;
		conn_unlink(m, hc);
		free(hc);
		return r ? r : -EIO;
	}
	serve(m);	/* it may have sent its request already */
	return r;
}

int http_request_start(const char *p, size_t n)
{
	/* RFC 9110 section 5.6.2: tchar */
	static const char tchar[] = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	size_t i = 0;

	while (i < n && p[i] && strchr(tchar, p[i]))
		i++;
	if (i == n)
		return i <= HTTP_METHOD_MAX ? 0 : -1;
	return i && i <= HTTP_METHOD_MAX && p[i] == ' ' ? 1 : -1;
}

static const char bad_request[] = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
				  "Content-Length: 30\r\n\r\nthat is not an HTTP request\r\n\r\n";

/* Bytes that are no HTTP request: the 400, then closed without a reset (what was sent is read
 * off first, so that the 400 is not discarded by the client's kernel) */
static void refuse_bad(struct metrics *m, struct http_conn *hc)
{
	char junk[4096];

	(void)!send(hc->fd, bad_request, sizeof(bad_request) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	while (recv(hc->fd, junk, sizeof(junk), MSG_DONTWAIT) > 0)
		;
	(void)shutdown(hc->fd, SHUT_RDWR);
	m->stats.bad_requests++;
	conn_drop(m, hc);
}

/* New bytes on a connection MHD does not have yet (EPOLLET: only when more arrive) */
static int on_sniff(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct http_conn *hc = userdata;
	struct metrics *m = hc->m;
	char buf[HTTP_METHOD_MAX + 2];
	ssize_t n;
	(void)s;
	(void)revents;

	/* the empty lines a request line may follow (RFC 9112 section 2.2) are read off: MHD
	 * would skip them anyway */
	while ((n = recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT)) > 0 && (buf[0] == '\r' || buf[0] == '\n')) {
		size_t k = strspn(buf, "\r\n");

		if (k > (size_t)n)
			k = (size_t)n;
		if (recv(fd, buf, k, MSG_DONTWAIT) < 0)
			break;
	}
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		conn_drop(m, hc);	/* gone */
		return 0;
	}
	if (n < 0)
		return 0;
	switch (http_request_start(buf, (size_t)n)) {
	case 0:
		return 0;	/* more to come */
	case 1:
		(void)hand_over(m, hc);
		return 0;
	default:
		refuse_bad(m, hc);
		return 0;
	}
}

int metrics_http_add(struct metrics *m, int fd, const struct sockaddr *sa, socklen_t salen)
{
	struct http_conn *hc;
	int r;

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
	hc = conn_new(m, fd);
	if (!hc || salen > sizeof(hc->sa)) {
		if (hc)
			conn_drop(m, hc);
		else
			close(fd);
		m->stats.refused++;
		return -ENOMEM;
	}
	memcpy(&hc->sa, sa, salen);
	hc->salen = salen;
	m->stats.accepted++;
	if (m->tls)
		return hand_over(m, hc);	/* its first bytes are a TLS handshake: GnuTLS judges them */
	r = sd_event_add_io(m->ev, &hc->sniff, fd, EPOLLIN | EPOLLRDHUP | EPOLLET, on_sniff, hc);
	if (r < 0) {
		conn_drop(m, hc);
		m->stats.refused++;
	}
	return r;
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

#define ACCESS_FILE_MAX (1 << 20)

/* A file whole, as a string (key: metrics-tls-key ...): refused, in one line naming it, when
 * it is not a regular file of at most 1 MiB without NUL, or, holding a secret, when every user
 * may read it */
static int read_access_file(const char *path, const char *key, bool secret, char **out)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	size_t len = 0;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0)
		return log_error_errno(-errno, "%s %s: cannot read it: %m", key, path);
	if (!S_ISREG(st.st_mode) || st.st_size > ACCESS_FILE_MAX)
		return log_error_errno(-EINVAL, "%s %s: not a regular file of at most 1 MiB", key, path);
	if (secret && (st.st_mode & S_IROTH))
		return log_error_errno(-EPERM, "%s %s: every user may read it (mode %04o): chmod o-r it", key, path,
				       (unsigned)(st.st_mode & 07777));
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return log_error_errno(-ENOMEM, "%s %s: %m", key, path);
	while (len < (size_t)st.st_size && (n = read(fd, buf + len, (size_t)st.st_size - len)) > 0)
		len += (size_t)n;
	buf[len] = 0;
	if (strlen(buf) != len)
		return log_error_errno(-EINVAL, "%s %s: holds a NUL byte", key, path);
	*out = TAKE_PTR(buf);
	return 0;
}

/* metrics-auth-file: its first line, USER:PASSWORD */
static int read_auth(struct metrics *m, const char *path)
{
	_cleanup_free_ char *text = NULL;
	char *colon, *end;
	int r = read_access_file(path, "metrics-auth-file", true, &text);

	if (r < 0)
		return r;
	end = text + strcspn(text, "\r\n");
	*end = 0;
	colon = strchr(text, ':');
	if (!colon || colon == text || !colon[1]) {
		explicit_bzero(text, (size_t)(end - text));
		return log_error_errno(-EINVAL, "metrics-auth-file %s: its first line is not USER:PASSWORD", path);
	}
	*colon = 0;
	m->user = strdup(text);
	m->password = strdup(colon + 1);
	explicit_bzero(text, (size_t)(end - text));
	if (!m->user || !m->password)
		return log_error_errno(-ENOMEM, "metrics-auth-file %s: %m", path);
	return 0;
}

int metrics_serve(struct metrics **out, sd_event *ev, int fd, const char *where, const struct metrics_sources *src,
		  const struct metrics_limits *limits, const struct metrics_access *access)
{
	_cleanup_(metrics_closep) struct metrics *m = calloc(1, sizeof(*m));
	const union MHD_DaemonInfo *info;
	unsigned flags = MHD_USE_EPOLL | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ERROR_LOG;
	uint64_t now;
	int r;

	*out = NULL;
	if (!m) {
		close(fd);
		return log_error_errno(-ENOMEM, "metrics: %m");
	}
	m->fd = fd;
	r = mhd_dlopen();
	if (r < 0)
		return r;
	m->ev = ev;
	m->src = *src;
	m->limits = *limits;
	snprintf(m->where, sizeof(m->where), "%s", where);
	snprintf(m->what, sizeof(m->what), "the metrics endpoint %s", where);
	if (access && access->auth_file && *access->auth_file) {
		r = read_auth(m, access->auth_file);
		if (r < 0)
			return r;
	}
	m->tls = access && access->tls_cert && *access->tls_cert;
	if (access && m->tls != (access->tls_key && *access->tls_key))
		return log_error_errno(-EINVAL, "metrics: metrics-tls-cert and metrics-tls-key go together: set both, or neither");
	if (m->tls) {
		if (sym_MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
			return log_error_errno(-EOPNOTSUPP, "metrics-tls-cert: this libmicrohttpd was built without TLS");
		r = read_access_file(access->tls_cert, "metrics-tls-cert", false, &m->cert);
		if (r >= 0)
			r = read_access_file(access->tls_key, "metrics-tls-key", true, &m->key);
		if (r < 0)
			return r;
		flags |= MHD_USE_TLS;
	}
	struct MHD_OptionItem tls[] = {
		{ m->tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, m->cert },
		{ MHD_OPTION_HTTPS_MEM_KEY, 0, m->key },
		{ MHD_OPTION_END, 0, NULL },
	};
	/* MHD's own limit is a backstop only: shut down connections linger until its next run */
	m->mhd = sym_MHD_start_daemon(flags, 0, NULL, NULL, on_request, m,
				  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				  MHD_OPTION_CONNECTION_LIMIT, limits->max_connections * 2 + 4,
				  MHD_OPTION_CONNECTION_TIMEOUT, limits->timeout_s,
				  MHD_OPTION_NOTIFY_CONNECTION, on_connection, m,
				  MHD_OPTION_NOTIFY_COMPLETED, on_completed, m,
				  MHD_OPTION_ARRAY, tls,
				  MHD_OPTION_END);
	if (!m->mhd)
		return log_error_errno(-EINVAL, "metrics: libmicrohttpd cannot serve on %s%s", where,
				       m->tls ? " (are metrics-tls-cert and metrics-tls-key a PEM certificate and its key?)" : "");
	info = sym_MHD_get_daemon_info(m->mhd, MHD_DAEMON_INFO_EPOLL_FD);
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

/* Whether the listening socket fd takes connections from loopback only */
static bool loopback_only(int fd)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *)&sa, &len) < 0)
		return false;
	if (sa.ss_family == AF_INET)
		return (ntohl(((struct sockaddr_in *)&sa)->sin_addr.s_addr) >> 24) == 127;
	if (sa.ss_family == AF_INET6) {
		const struct in6_addr *a = &((struct sockaddr_in6 *)&sa)->sin6_addr;

		return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
	}
	return sa.ss_family == AF_UNIX;
}

int metrics_open(struct metrics **out, sd_event *ev, const char *addr, const struct metrics_sources *src,
		 const struct metrics_limits *limits, const struct metrics_access *access)
{
	char where[80];
	int fd = inherited_socket(), r;
	bool auth, tls, local;

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
	local = loopback_only(fd);
	r = metrics_serve(out, ev, fd, where, src, limits, access);
	if (r < 0)
		return r;
	auth = access && access->auth_file && *access->auth_file;
	tls = access && access->tls_cert && *access->tls_cert;
	log_info("metrics: serving /metrics on %s%s%s", where, tls ? " over TLS" : "", auth ? " to its user only" : "");
	/* the page tells of every device's interrupts and their timing (irqlatd(8), ACCESS) */
	if (!local && (!auth || !tls))
		log_warning("metrics: %s takes connections from other hosts, and the page is served %s: anyone who reaches the "
			    "port reads every interrupt's name, rate and latency; bind it to 127.0.0.1, or set %s (irqlatd(8), ACCESS)",
			    where, !auth && !tls ? "without a password, in clear" : !auth ? "without a password" : "in clear, password too",
			    !auth && !tls ? "metrics-auth-file, metrics-tls-cert and metrics-tls-key" : !auth ? "metrics-auth-file" :
			    "metrics-tls-cert and metrics-tls-key");
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
	/* the connections MHD does not have yet are ours to close */
	for (struct http_conn *hc = m->conns, *next; hc; hc = next) {
		next = hc->next;
		if (hc->sniff)
			conn_drop(m, hc);
	}
	if (m->mhd)
		sym_MHD_stop_daemon(m->mhd);	/* closes its connections, telling on_connection */
	listen_pause_free(&m->pause);
	sd_event_source_disable_unref(m->listen_io);
	sd_event_source_disable_unref(m->deadline);
	sd_event_source_disable_unref(m->io);
	sd_event_source_disable_unref(m->timer);
	closep(&m->fd);
	if (m->password)
		explicit_bzero(m->password, strlen(m->password));
	if (m->key)
		explicit_bzero(m->key, strlen(m->key));
	free(m->user);
	free(m->password);
	free(m->cert);
	free(m->key);
	free(m);
}
