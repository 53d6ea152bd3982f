// SPDX-License-Identifier: GPL-2.0
/* The client socket on the daemon's loop. Nothing a client does can make the daemon hold
 * more than the limits allow (server.h), nor keep others out: a request line is read into a
 * buffer of at most max_request_bytes, one answer at a time waits for a client, subscribers'
 * events wait in a queue of at most max_queue_bytes (then they are lost, and counted), and the
 * table of clients makes room for a newcomer by closing the one that has waited longest on
 * its client; a client that goes idle_timeout_s without an answer is closed. An over-long line
 * is answered with an error and skipped to its newline.
 *
 * Turns: each dispatch of a client's io source sends what is queued for it, and only when
 * nothing is left answers one request line (reading first when no whole line is buffered).
 * A client with a whole line waiting watches EPOLLOUT, which a socket with room makes ready at
 * once: its next line gets the next turn of the loop, after every source that was ready
 * before it (sd-event dispatches one source per iteration, the longest pending first). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "daemon/base/heap.h"
#include "daemon/base/listen_pause.h"
#include "daemon/base/log.h"
#include "daemon/sinks/request.h"
#include "daemon/sinks/server.h"
#include "common/json.h"

#define READ_CHUNK 4096			/* bytes read at a time, and what an idle client keeps */
#define LISTEN_BACKLOG 128		/* a burst of connects waits here, not in connect() */
#define REFUSAL_LOG_US 10000000ull	/* at most one line per 10 s about refused or closed clients */
#define IDLE_CHECK_US 500000ull		/* how often connections are checked against idle_timeout_s */

struct client {
	struct server *srv;
	struct client *next;
	int fd;
	uid_t uid;		/* SO_PEERCRED when it connected; (uid_t)-1: unknown */
	sd_event_source *io;
	char *in;		/* a partial request line; NULL while there is none */
	size_t in_len, in_cap;
	bool skipping;		/* the rest of a line that was too long, up to its newline */
	bool eof;		/* the client shut its side: answer what it sent, then close */
	char *out;
	size_t out_len, out_cap;
	bool subscribed;
	bool detail;		/* subscribed to events in detail */
	uint64_t lost;
	uint64_t since_us;	/* connected, or its last answer went out whole: waiting on the client since */
};

/* "refused", "closed" lines, rate limited: the first says what happened, the next one (10 s
 * later at the earliest) how many more there were */
struct event_log {
	uint64_t logged_us, unlogged;
};

struct server {
	sd_event *ev;
	sd_event_source *listen_io, *idle_timer;
	struct listen_pause pause;
	int fd;
	char *path;	/* as the user gave it, for the lines */
	struct socket_file file;
	struct server_limits limits;
	server_request_fn fn;
	void *userdata;
	struct client *clients;
	struct server_stats stats;
	struct event_log refusals, evictions, timeouts;
	char what[160];	/* "the client socket PATH", for lines about it */
};

static uint64_t now_us(const struct server *srv)
{
	uint64_t t = 0;

	(void)sd_event_now(srv->ev, CLOCK_MONOTONIC, &t);
	return t;
}

/* Whether to log this one; counts it otherwise. *more: how many went unlogged before it. */
static bool event_log_due(struct event_log *l, uint64_t now, uint64_t *more)
{
	if (l->logged_us && now - l->logged_us < REFUSAL_LOG_US) {
		l->unlogged++;
		return false;
	}
	*more = l->unlogged;
	l->unlogged = 0;
	l->logged_us = now;
	return true;
}

static void client_free(struct client *cl)
{
	struct server *srv = cl->srv;

	for (struct client **p = &srv->clients; *p; p = &(*p)->next)
		if (*p == cl) {
			*p = cl->next;
			break;
		}
	srv->stats.clients--;
	client_unsubscribe(cl);
	sd_event_source_disable_unref(cl->io);
	close(cl->fd);
	free(cl->in);
	free(cl->out);
	free(cl);
	listen_pause_resume(&srv->pause);	/* a descriptor is free again */
}

static const char *json_line(json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* The line a connection ends with (common/json.h): sent on fd as far as its socket takes it
 * now, never waited for. */
static void send_closing_line(int fd, const char *closed, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void send_closing_line(int fd, const char *closed, const char *fmt, ...)
{
	_cleanup_json_ json_object *e = NULL;
	char why[400], line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	e = json_error_reply("%s", why);
	json_object_object_add(e, JSON_CLOSED, json_object_new_string(closed));
	n = snprintf(line, sizeof(line), "%s\n", json_line(e));
	if (n > 0 && (size_t)n < sizeof(line))
		(void)!send(fd, line, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* Whether cl has a whole request line read and waiting for its turn */
static bool client_has_line(const struct client *cl)
{
	return cl->in_len && memchr(cl->in, '\n', cl->in_len);
}

static int client_watch(struct client *cl)
{
	/* a line to answer or an answer to send: EPOLLOUT is this client's next turn; only
	 * with neither is more read */
	uint32_t events = cl->out_len || client_has_line(cl) ? EPOLLOUT : cl->eof ? 0 : EPOLLIN;

	return sd_event_source_set_io_events(cl->io, events);
}

/* Sends what is queued as far as the socket takes it. */
static int client_send(struct client *cl)
{
	bool sent = false;

	while (cl->out_len) {
		/* MSG_NOSIGNAL: a client that closed its end must cost us EPIPE, not SIGPIPE */
		ssize_t n = send(cl->fd, cl->out, cl->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			return -errno;
		}
		memmove(cl->out, cl->out + n, cl->out_len - (size_t)n);
		cl->out_len -= (size_t)n;
		sent = true;
	}
	if (sent && !cl->out_len)
		cl->since_us = now_us(cl->srv);	/* answered: the client's turn to ask */
	if (!cl->out_len && cl->out_cap > 16 * READ_CHUNK) {
		/* a big answer went out: do not keep its buffer for an idle connection */
		free(cl->out);
		cl->out = NULL;
		cl->out_cap = 0;
	}
	return 0;
}

/* Queues s and a newline, both or neither: -ENOBUFS when the client has more than its limit
 * waiting already (one line is always taken, however long, when nothing waits), -ENOMEM. */
static int client_queue_line(struct client *cl, const char *s, size_t len)
{
	if (cl->out_len && cl->out_len + len + 1 > cl->srv->limits.max_queue_bytes)
		return -ENOBUFS;
	if (cl->out_len + len + 1 > cl->out_cap) {
		size_t cap = cl->out_cap ? cl->out_cap : READ_CHUNK;
		char *p;

		while (cap < cl->out_len + len + 1)
			cap *= 2;
		p = realloc(cl->out, cap);
		if (!p)
			return -ENOMEM;
		cl->out = p;
		cl->out_cap = cap;
	}
	memcpy(cl->out + cl->out_len, s, len);
	cl->out[cl->out_len + len] = '\n';
	cl->out_len += len + 1;
	return 0;
}

/* An answer: queued (nothing else is, when a request is answered) and sent as far as the
 * socket takes it; *len its length. */
static int client_answer(struct client *cl, json_object *o, size_t *len)
{
	const char *s = json_line(o);
	int r;

	*len = strlen(s);
	r = client_queue_line(cl, s, *len);
	return r < 0 ? r : client_send(cl);
}

/* One request line: its answer queued. */
static int client_line_answer(struct client *cl, const char *line, size_t len, size_t *out_len)
{
	char why[256];
	_cleanup_json_ json_object *req = request_json(line, len, why, sizeof(why)), *resp = NULL;

	if (!req)
		resp = json_error_reply("%s", why);
	else
		resp = cl->srv->fn(cl->srv->userdata, cl, req);
	return resp ? client_answer(cl, resp, out_len) : 0;
}

static int client_line(struct client *cl, const char *line, size_t len)
{
	size_t out_len = 0;
	int r = client_line_answer(cl, line, len, &out_len);

	heap_after_answer(out_len);	/* the answer's objects are freed by now */
	return r;
}

/* Makes room to read into: the buffer grows up to one line of the limit and its newline. */
static int client_in_room(struct client *cl, size_t limit)
{
	size_t cap;
	char *p;

	if (cl->in_cap - cl->in_len >= READ_CHUNK || cl->in_cap >= limit)
		return 0;
	cap = cl->in_cap ? cl->in_cap * 2 : READ_CHUNK;
	if (cap > limit)
		cap = limit;
	p = realloc(cl->in, cap);
	if (!p)
		return -ENOMEM;
	cl->in = p;
	cl->in_cap = cap;
	return 0;
}

static void client_consume(struct client *cl, size_t n)
{
	memmove(cl->in, cl->in + n, cl->in_len - n);
	cl->in_len -= n;
}

/* The rest of an over-long line, up to its newline, is dropped as it comes. */
static void client_skip(struct client *cl)
{
	char *nl;

	if (!cl->skipping)
		return;
	nl = memchr(cl->in, '\n', cl->in_len);
	if (!nl) {
		cl->in_len = 0;
		return;
	}
	client_consume(cl, (size_t)(nl + 1 - cl->in));
	cl->skipping = false;
}

/* One read of what the client sent. */
static int client_read(struct client *cl, size_t limit)
{
	ssize_t n;
	int r = client_in_room(cl, limit);

	if (r < 0)
		return r;
	n = read(cl->fd, cl->in + cl->in_len, cl->in_cap - cl->in_len);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	if (n == 0)
		cl->eof = true;	/* what it sent is answered, then it is closed */
	cl->in_len += (size_t)n;
	client_skip(cl);
	return 0;
}

/* One turn: what is queued is sent; if nothing is left, one request line is answered (read
 * first when none is whole yet). < 0: the client is gone (or cannot be served) and is to be
 * closed. */
static int client_turn(struct client *cl, uint32_t revents)
{
	size_t limit = cl->srv->limits.max_request_bytes + 1;	/* the line and its newline */
	char *nl;
	int r;

	r = client_send(cl);
	if (r < 0)
		return r;
	if (cl->out_len)
		return client_watch(cl);	/* none read while its answer waits */
	if (!client_has_line(cl) && !cl->eof && (revents & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
		r = client_read(cl, limit);
		if (r < 0)
			return r;
	}
	nl = cl->in_len ? memchr(cl->in, '\n', cl->in_len) : NULL;
	if (nl) {
		r = client_line(cl, cl->in, (size_t)(nl - cl->in));
		client_consume(cl, (size_t)(nl + 1 - cl->in));
		if (r < 0)
			return r;
	} else if (cl->in_len >= limit) {
		/* no newline in a whole line's worth: the line is too long, whatever follows */
		_cleanup_json_ json_object *e = json_error_reply(
			"request line longer than %zu bytes (max-request-kb); it is skipped up to its newline",
			cl->srv->limits.max_request_bytes);
		size_t n;

		r = client_answer(cl, e, &n);
		if (r < 0)
			return r;
		cl->skipping = true;
		cl->in_len = 0;
	}
	if (!cl->in_len && cl->in_cap > READ_CHUNK) {
		free(cl->in);	/* an idle client keeps no big buffer */
		cl->in = NULL;
		cl->in_cap = 0;
	}
	if (cl->eof && !cl->out_len && !client_has_line(cl))
		return -ECONNRESET;	/* all answered */
	return client_watch(cl);
}

static int client_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct client *cl = userdata;
	(void)s;
	(void)fd;

	if (client_turn(cl, revents) < 0)
		client_free(cl);	/* the client sees its connection closed */
	return 0;
}

/* Waiting on its client: not subscribed (a subscriber waits for events, as it may), and not
 * a client whose next line waits for its turn, on us: one with a whole line read, nothing
 * queued and room in its socket. (With no room, it is the client that does not read.) */
static bool client_waits_on_client(const struct client *cl)
{
	struct pollfd p = { .fd = cl->fd, .events = POLLOUT };

	if (cl->subscribed)
		return false;
	if (cl->out_len || !client_has_line(cl))
		return true;
	return poll(&p, 1, 0) == 1 && !(p.revents & POLLOUT);
}

/* Closes the clients that waited idle_timeout_s on their client, each with a line saying so. */
static int on_idle_check(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct server *srv = userdata;
	uint64_t now = now_us(srv), limit = (uint64_t)srv->limits.idle_timeout_s * 1000000, more;
	unsigned n = 0;
	(void)usec;

	for (struct client *cl = srv->clients, *next; cl; cl = next) {
		next = cl->next;
		/* since + limit, not now - since: a client accepted after now is not overdue. A
		 * line that waits its turn is no reason to stay: turns take milliseconds */
		if (cl->subscribed || now < cl->since_us + limit)
			continue;
		if (!cl->out_len)
			send_closing_line(cl->fd, JSON_CLOSED_IDLE, "closing this connection: no request answered for %u s "
					  "(client-idle-timeout-s); connect again", srv->limits.idle_timeout_s);
		client_free(cl);
		srv->stats.timed_out++;
		n++;
	}
	if (n && event_log_due(&srv->timeouts, now, &more))
		log_info("closed %u client%s of %s idle for %u s (client-idle-timeout-s)%s", n, n == 1 ? "" : "s", srv->path,
			 srv->limits.idle_timeout_s, more ? "; and others since the last such line (status: clients.timed_out)" : "");
	if (sd_event_source_set_time(s, now + IDLE_CHECK_US) < 0 || sd_event_source_set_enabled(s, SD_EVENT_ON) < 0)
		log_error("cannot re-arm the idle check of %s: idle clients are not closed", srv->path);
	return 0;
}

/* Root's and the daemon's own connections count only against max_clients. */
static bool uid_limited(uid_t uid)
{
	return uid != 0 && uid != geteuid();
}

/* The client of uid (any uid: (uid_t)-1) that has waited longest on its client; NULL: none
 * does. *count: the clients of that uid. */
static struct client *oldest_waiting(struct server *srv, uid_t uid, unsigned *count)
{
	struct client *best = NULL;

	*count = 0;
	for (struct client *cl = srv->clients; cl; cl = cl->next) {
		if (uid != (uid_t)-1 && cl->uid != uid)
			continue;
		(*count)++;
		if (client_waits_on_client(cl) && (!best || cl->since_us < best->since_us))
			best = cl;
	}
	return best;
}

/* Room for a client of uid: 0, possibly having closed one that waited longest (of the same
 * uid when that uid is at its limit, else of any); -EBUSY when every candidate is busy, with
 * why[] for the newcomer. */
static int make_room(struct server *srv, uid_t uid, char *why, size_t len)
{
	const struct server_limits *l = &srv->limits;
	struct client *victim = NULL;
	unsigned n;
	uint64_t more;

	if (uid_limited(uid)) {
		victim = oldest_waiting(srv, uid, &n);
		if (n < l->max_clients_per_uid)
			victim = NULL;
		else if (!victim) {
			snprintf(why, len, "too many clients of uid %u: irqlatd serves at most %u of one user at once "
				 "(max-clients-per-uid), and each is busy; try again later", (unsigned)uid, l->max_clients_per_uid);
			return -EBUSY;
		}
	}
	if (!victim && srv->stats.clients >= l->max_clients) {
		victim = oldest_waiting(srv, (uid_t)-1, &n);
		if (!victim) {
			snprintf(why, len, "too many clients: irqlatd serves at most %u at once (max-clients), and each is busy; "
				 "try again later", l->max_clients);
			return -EBUSY;
		}
	}
	if (!victim)
		return 0;
	if (!victim->out_len)
		send_closing_line(victim->fd, JSON_CLOSED_EVICTED, "closing this connection to make room for a new client: it "
				  "had waited longest for a request (max-clients %u, max-clients-per-uid %u); connect again",
				  l->max_clients, l->max_clients_per_uid);
	srv->stats.evicted++;
	if (event_log_due(&srv->evictions, now_us(srv), &more))
		log_warning("closed a client of %s (uid %d) idle for %llu s to make room for one of uid %d (max-clients %u, "
			    "max-clients-per-uid %u)%s", srv->path, victim->uid == (uid_t)-1 ? -1 : (int)victim->uid,
			    (unsigned long long)((now_us(srv) - victim->since_us) / 1000000), uid == (uid_t)-1 ? -1 : (int)uid,
			    l->max_clients, l->max_clients_per_uid,
			    more ? "; and others since the last such line (status: clients.evicted)" : "");
	client_free(victim);
	return 0;
}

/* No room: one line tells the client why, then it is closed. */
static void refuse(struct server *srv, int fd, const char *why)
{
	uint64_t more;

	send_closing_line(fd, JSON_CLOSED_FULL, "%s", why);
	srv->stats.refused++;
	if (event_log_due(&srv->refusals, now_us(srv), &more))
		log_warning("refused a client on %s: %s%s", srv->path, why,
			    more ? "; and others since the last such line (status: clients.refused)" : "");
}

static uid_t peer_uid(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ? (uid_t)-1 : cred.uid;
}

static int listen_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct server *srv = userdata;
	_cleanup_close_ int cfd = -1;
	_cleanup_free_ struct client *cl = NULL;
	char why[300];
	uid_t uid;
	int r;
	(void)s;
	(void)revents;

	cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0) {
		r = -errno;
		if (accept_error_is_resource(r))
			return listen_pause_start(&srv->pause, r, srv->stats.clients);
		/* gone before we took it, or already taken: nothing to say */
		if (r != -EAGAIN && r != -EINTR && r != -ECONNABORTED)
			log_warning_errno(r, "cannot accept a client on %s: %m", srv->path);
		return 0;
	}
	uid = peer_uid(cfd);
	if (make_room(srv, uid, why, sizeof(why)) < 0) {
		refuse(srv, cfd, why);
		return 0;
	}
	cl = calloc(1, sizeof(*cl));
	if (!cl) {
		log_warning_errno(-ENOMEM, "cannot take a client on %s: %m", srv->path);
		return 0;
	}
	r = sd_event_add_io(srv->ev, &cl->io, cfd, EPOLLIN, client_io, cl);
	if (r < 0) {
		log_warning_errno(r, "cannot watch a client on %s: %m", srv->path);
		return 0;
	}
	cl->srv = srv;
	cl->uid = uid;
	cl->since_us = now_us(srv);
	cl->fd = TAKE_FD(cfd);
	cl->next = srv->clients;
	srv->clients = cl;
	srv->stats.clients++;
	srv->stats.accepted++;
	/* its first turn now: a client that connects to ask one thing (irqlat status) has sent
	 * it by the time it is accepted, and would otherwise wait a round of every other
	 * source for its first read, then another for its answer */
	struct client *c = TAKE_PTR(cl);

	(void)client_io(c->io, c->fd, EPOLLIN, c);
	return 0;
}

static int bind_socket(struct server *srv, const char *path, const struct server_access *access)
{
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int r;

	if (fd < 0)
		return log_error_errno(-errno, "cannot create a Unix socket: %m");
	r = socket_file_bind(fd, path, access, &srv->file);
	if (r < 0)
		return r;	/* said */
	srv->fd = TAKE_FD(fd);	/* from here on server_close closes it and removes the file */
	/* only now, its owner and mode set, may anybody connect */
	if (listen(srv->fd, LISTEN_BACKLOG) < 0)
		return log_error_errno(-errno, "cannot listen on %s: %m", path);
	return 0;
}

static void server_closep(struct server **srv)
{
	server_close(*srv);
}

int server_open(struct server **out, sd_event *ev, const char *path, const struct server_limits *limits,
		const struct server_access *access, server_request_fn fn, void *userdata)
{
	_cleanup_(server_closep) struct server *srv = calloc(1, sizeof(*srv));
	int r;

	if (!srv)
		return log_error_errno(-ENOMEM, "cannot serve %s: %m", path);
	srv->fd = -1;
	srv->ev = ev;
	srv->fn = fn;
	srv->userdata = userdata;
	srv->limits = *limits;
	snprintf(srv->what, sizeof(srv->what), "the client socket %s", path);
	srv->path = strdup(path);
	if (!srv->path)
		return log_error_errno(-ENOMEM, "cannot serve %s: %m", path);
	r = bind_socket(srv, path, access);
	if (r < 0)
		return r;
	r = sd_event_add_io(ev, &srv->listen_io, srv->fd, EPOLLIN, listen_io, srv);
	if (r >= 0)
		r = sd_event_add_time(ev, &srv->idle_timer, CLOCK_MONOTONIC, now_us(srv) + IDLE_CHECK_US, 100000, on_idle_check, srv);
	if (r < 0)
		return log_error_errno(r, "cannot watch socket %s: %m", path);
	listen_pause_init(&srv->pause, srv->listen_io, srv->what);
	*out = TAKE_PTR(srv);
	return 0;
}

void server_close(struct server *srv)
{
	if (!srv)
		return;
	while (srv->clients)
		client_free(srv->clients);
	listen_pause_free(&srv->pause);
	sd_event_source_disable_unref(srv->listen_io);
	sd_event_source_disable_unref(srv->idle_timer);
	if (srv->fd >= 0)
		close(srv->fd);
	socket_file_remove(&srv->file);
	free(srv->path);
	free(srv);
}

void server_set_limits(struct server *srv, const struct server_limits *limits)
{
	srv->limits = *limits;
}

int client_subscribe(struct client *cl, bool detail)
{
	if (!cl->subscribed) {
		if (cl->srv->stats.subscribers >= cl->srv->limits.max_subscribers)
			return -EBUSY;
		cl->subscribed = true;
		cl->srv->stats.subscribers++;
	} else if (cl->detail) {
		cl->srv->stats.subscribers_detail--;
	}
	cl->detail = detail;
	if (detail)
		cl->srv->stats.subscribers_detail++;
	return 0;
}

void client_unsubscribe(struct client *cl)
{
	if (!cl->subscribed)
		return;
	cl->subscribed = false;
	cl->srv->stats.subscribers--;
	if (cl->detail)
		cl->srv->stats.subscribers_detail--;
	cl->detail = false;
}

void server_broadcast(struct server *srv, json_object *o)
{
	server_broadcast_to(srv, o, SERVER_TO_ALL);
}

void server_broadcast_to(struct server *srv, json_object *o, enum server_audience to)
{
	const char *s = NULL;
	size_t len = 0;

	for (struct client *cl = srv->clients, *next; cl; cl = next) {
		next = cl->next;
		if (!cl->subscribed || cl->eof)
			continue;
		if ((to == SERVER_TO_PLAIN && cl->detail) || (to == SERVER_TO_DETAIL && !cl->detail))
			continue;
		if (!s) {
			s = json_line(o);
			len = strlen(s);
		}
		/* a subscriber this far behind (or no memory to queue for it) loses the line, and is
		 * told how many it lost before the next one it gets */
		if (cl->lost) {
			char note[64];
			int n = snprintf(note, sizeof(note), "{\"lost\":%llu}", (unsigned long long)cl->lost);

			if (client_queue_line(cl, note, (size_t)n) == 0)
				cl->lost = 0;
		}
		if (cl->lost || client_queue_line(cl, s, len) < 0)
			cl->lost++;
		if (client_send(cl) < 0 || client_watch(cl) < 0)
			client_free(cl);
	}
}

unsigned server_clients(const struct server *srv)
{
	return srv->stats.clients;
}

struct server_stats server_stats(const struct server *srv)
{
	struct server_stats st = srv->stats;

	st.accept_pauses = srv->pause.pauses;
	return st;
}

int client_peer_uid(const struct client *cl, uid_t *ret)
{
	if (cl->uid == (uid_t)-1)
		return -ENODATA;
	*ret = cl->uid;
	return 0;
}
