// SPDX-License-Identifier: GPL-2.0
/* The client socket on the daemon's loop. Nothing a client does can make the daemon hold
 * more than the limits allow (server.h): a request line is read into a buffer of at most
 * max_request_bytes, answers wait in a queue of at most max_queue_bytes, and the clients and
 * subscribers are counted. A client over its queue is dropped (one line, a counter); an
 * over-long line is answered with an error and skipped to its newline. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "heap.h"
#include "listen_pause.h"
#include "log.h"
#include "request.h"
#include "server.h"
#include "common/json.h"

#define READ_CHUNK 4096			/* bytes read at a time, and what an idle client keeps */
#define LISTEN_BACKLOG 128		/* a burst of connects waits here, not in connect() */
#define REFUSAL_LOG_US 10000000ull	/* at most one line per 10 s about refused or dropped clients */

struct client {
	struct server *srv;
	struct client *next;
	int fd;
	sd_event_source *io;
	char *in;		/* a partial request line; NULL while there is none */
	size_t in_len, in_cap;
	bool skipping;		/* the rest of a line that was too long, up to its newline */
	bool eof;		/* the client shut its side: answer what it sent, then close */
	char *out;
	size_t out_len, out_cap;
	bool subscribed;
	uint64_t lost;
};

/* "refused" or "dropped" lines, rate limited: the first says what happened, the next one
 * (10 s later at the earliest) how many more there were */
struct event_log {
	uint64_t logged_us, unlogged;
};

struct server {
	sd_event *ev;
	sd_event_source *listen_io;
	struct listen_pause pause;
	int fd;
	char *path;
	dev_t dev;	/* of the socket file this server bound: removed at the end only if it is */
	ino_t ino;	/* still that file */
	struct server_limits limits;
	server_request_fn fn;
	void *userdata;
	struct client *clients;
	struct server_stats stats;
	struct event_log refusals, drops;
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
	if (cl->subscribed)
		srv->stats.subscribers--;
	sd_event_source_disable_unref(cl->io);
	close(cl->fd);
	free(cl->in);
	free(cl->out);
	free(cl);
	listen_pause_resume(&srv->pause);	/* a descriptor is free again */
}

/* A client that let its queue grow past the limit: it goes, with a line and a count. */
static void client_drop_slow(struct client *cl)
{
	struct server *srv = cl->srv;
	uint64_t more;

	srv->stats.dropped++;
	if (event_log_due(&srv->drops, now_us(srv), &more))
		log_warning("dropped a client of %s that did not read its answers (%zu bytes queued, limit %zu: client-queue-kb)%s",
			    srv->path, cl->out_len, srv->limits.max_queue_bytes,
			    more ? "; and others since the last such line (status: clients.dropped)" : "");
	client_free(cl);
}

static int client_watch(struct client *cl)
{
	uint32_t events = (cl->eof ? 0 : EPOLLIN) | (cl->out_len ? EPOLLOUT : 0);

	return sd_event_source_set_io_events(cl->io, events);
}

static int client_flush(struct client *cl)
{
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
	}
	if (!cl->out_len && cl->out_cap > 16 * READ_CHUNK) {
		/* a big answer went out: do not keep its buffer for an idle connection */
		free(cl->out);
		cl->out = NULL;
		cl->out_cap = 0;
	}
	if (cl->eof && !cl->out_len)
		return -ECONNRESET;	/* all answered */
	/* what is left is sent when the socket can take it */
	return client_watch(cl);
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

static const char *json_line(json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* An answer: queued and sent as far as the socket takes it; *len its length. */
static int client_answer(struct client *cl, json_object *o, size_t *len)
{
	const char *s = json_line(o);
	int r;

	*len = strlen(s);
	r = client_queue_line(cl, s, *len);
	return r < 0 ? r : client_flush(cl);
}

/* One request line: its answer queued. */
static int client_line_answer(struct client *cl, const char *line, size_t len, size_t *out_len)
{
	_cleanup_json_ json_object *req = request_json(line, len), *resp = NULL;

	if (!req)
		resp = json_error_reply("request is not one JSON object on one line; example: {\"cmd\":\"summary\"}");
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

/* Answers every whole line read so far; a line over the limit is refused and skipped. */
static int client_lines(struct client *cl, size_t limit)
{
	char *nl;
	int r;

	while ((nl = memchr(cl->in, '\n', cl->in_len))) {
		size_t len = (size_t)(nl - cl->in);

		if (!cl->skipping) {
			r = client_line(cl, cl->in, len);
			if (r < 0)
				return r;
		}
		cl->skipping = false;
		memmove(cl->in, nl + 1, cl->in_len - len - 1);
		cl->in_len -= len + 1;
	}
	if (cl->in_len >= limit || cl->skipping) {
		/* no newline in a whole line's worth: the line is too long, whatever follows */
		if (!cl->skipping) {
			_cleanup_json_ json_object *e = json_error_reply(
				"request line longer than %zu bytes (max-request-kb); it is skipped up to its newline",
				cl->srv->limits.max_request_bytes);

			size_t n;

			r = client_answer(cl, e, &n);
			if (r < 0)
				return r;
		}
		cl->skipping = true;
		cl->in_len = 0;
	}
	if (!cl->in_len && cl->in_cap > READ_CHUNK) {
		free(cl->in);	/* an idle client keeps no big buffer */
		cl->in = NULL;
		cl->in_cap = 0;
	}
	return 0;
}

/* Reads what the client sent and answers each complete line; < 0: the client is gone (or
 * cannot be served) and is to be dropped. */
static int client_process(struct client *cl, int fd, uint32_t revents)
{
	size_t limit = cl->srv->limits.max_request_bytes + 1;	/* the line and its newline */
	ssize_t n;
	int r;

	if (revents & EPOLLOUT) {
		r = client_flush(cl);
		if (r < 0)
			return r;
	}
	if (cl->eof || !(revents & (EPOLLIN | EPOLLHUP | EPOLLERR)))
		return client_flush(cl);
	r = client_in_room(cl, limit);
	if (r < 0)
		return r;
	n = read(fd, cl->in + cl->in_len, cl->in_cap - cl->in_len);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? client_flush(cl) : -errno;
	if (n == 0) {
		cl->eof = true;	/* what it sent is answered: the queue is sent, then it is closed */
		return client_flush(cl);
	}
	cl->in_len += (size_t)n;
	r = client_lines(cl, limit);
	if (r < 0)
		return r;
	return client_flush(cl);
}

static int client_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct client *cl = userdata;
	int r;
	(void)s;

	r = client_process(cl, fd, revents);
	if (r == -ENOBUFS)
		client_drop_slow(cl);
	else if (r < 0)
		client_free(cl);	/* the client sees its connection closed */
	return 0;
}

/* Over max_clients: one line tells the client why, then it is closed. */
static void refuse(struct server *srv, int fd)
{
	_cleanup_json_ json_object *e = json_error_reply(
		"too many clients: irqlatd serves at most %u at once (max-clients); try again later", srv->limits.max_clients);
	const char *s = json_line(e);
	char line[512];
	int n = snprintf(line, sizeof(line), "%s\n", s);
	uint64_t more;

	(void)!send(fd, line, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
	srv->stats.refused++;
	if (event_log_due(&srv->refusals, now_us(srv), &more))
		log_warning("refused a client on %s: %u clients connected already (max-clients)%s", srv->path,
			    srv->stats.clients, more ? "; and others since the last such line (status: clients.refused)" : "");
}

static int listen_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct server *srv = userdata;
	_cleanup_close_ int cfd = -1;
	_cleanup_free_ struct client *cl = NULL;
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
	if (srv->stats.clients >= srv->limits.max_clients) {
		refuse(srv, cfd);
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
	cl->fd = TAKE_FD(cfd);
	cl->next = srv->clients;
	srv->clients = TAKE_PTR(cl);
	srv->stats.clients++;
	srv->stats.accepted++;
	return 0;
}

static int mkdir_parents(const char *path)
{
	char buf[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

/* bind() found something at the path. A socket that nothing listens on is what a daemon
 * that died leaves: replaced. A live daemon, or anything but a socket, is left alone. */
static int replace_stale(const struct sockaddr_un *sa, const char *path)
{
	_cleanup_close_ int probe = -1;
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : log_error_errno(-errno, "cannot look at %s: %m", path);	/* gone: bind again */
	if (!S_ISSOCK(st.st_mode)) {
		log_error("%s exists and is not a socket: irqlatd replaces only a socket a dead daemon left there; "
			  "remove it or give --socket another path", path);
		return -EEXIST;
	}
	probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (probe < 0)
		return log_error_errno(-errno, "cannot create a Unix socket: %m");
	/* only "refused" says nobody listens: EAGAIN is a live daemon with a full queue */
	if (connect(probe, (const struct sockaddr *)sa, sizeof(*sa)) == 0 || errno != ECONNREFUSED) {
		log_error("another irqlatd is already serving %s: stop it first, or give this one --socket PATH", path);
		return -EADDRINUSE;
	}
	if (unlink(path) < 0 && errno != ENOENT)
		return log_error_errno(-errno, "cannot remove the stale socket %s: %m", path);
	return 0;
}

/* Owner, group and mode of the socket file we just bound (its dev/ino checked first). */
static int apply_access(const char *path, const struct server_access *a)
{
	if ((a->uid != (uid_t)-1 || a->gid != (gid_t)-1) && lchown(path, a->uid, a->gid) < 0)
		return log_error_errno(-errno, "cannot give socket %s to uid %d, gid %d: %m (irqlatd needs CAP_CHOWN, or to be a "
				       "member of the group: SupplementaryGroups= in its unit)", path,
				       a->uid == (uid_t)-1 ? -1 : (int)a->uid, a->gid == (gid_t)-1 ? -1 : (int)a->gid);
	if (chmod(path, a->mode) < 0)
		return log_error_errno(-errno, "cannot set mode %04o on socket %s: %m", (unsigned)a->mode, path);
	return 0;
}

static int bind_socket(struct server *srv, const char *path, const struct server_access *access)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_close_ int fd = -1;
	struct stat st;
	mode_t old;
	int r;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		log_error("socket path %s is too long (at most %zu bytes)", path, sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	r = mkdir_parents(path);
	if (r < 0)
		return log_error_errno(r, "cannot create the folder of socket %s: %m", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return log_error_errno(-errno, "cannot create a Unix socket: %m");
	/* created 0600: nobody may connect before its owner and mode are the configured ones */
	old = umask(0177);
	r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	if (r < 0 && errno == EADDRINUSE) {
		r = replace_stale(&sa, path);
		if (r < 0) {
			umask(old);
			return r;	/* said */
		}
		r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	}
	umask(old);
	/* r < 0: bind's own error (EACCES on the folder, ...), not listen's EINVAL on an unbound socket */
	if (r < 0 || listen(fd, LISTEN_BACKLOG) < 0)
		return log_error_errno(-errno, "cannot listen on %s: %m", path);
	if (lstat(path, &st) < 0)
		return log_error_errno(-errno, "cannot look at the socket %s just created: %m", path);
	srv->dev = st.st_dev;
	srv->ino = st.st_ino;
	srv->fd = TAKE_FD(fd);	/* from here on server_close closes it and removes the file */
	return apply_access(path, access);
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
	if (r < 0)
		return log_error_errno(r, "cannot watch socket %s: %m", path);
	listen_pause_init(&srv->pause, srv->listen_io, srv->what);
	*out = TAKE_PTR(srv);
	return 0;
}

void server_close(struct server *srv)
{
	struct stat st;

	if (!srv)
		return;
	while (srv->clients)
		client_free(srv->clients);
	listen_pause_free(&srv->pause);
	sd_event_source_disable_unref(srv->listen_io);
	if (srv->fd >= 0) {
		close(srv->fd);
		/* only our own socket: whatever took its place since is someone else's */
		if (lstat(srv->path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == srv->dev && st.st_ino == srv->ino)
			unlink(srv->path);
	}
	free(srv->path);
	free(srv);
}

void server_set_limits(struct server *srv, const struct server_limits *limits)
{
	srv->limits = *limits;
}

int client_subscribe(struct client *cl)
{
	if (cl->subscribed)
		return 0;
	if (cl->srv->stats.subscribers >= cl->srv->limits.max_subscribers)
		return -EBUSY;
	cl->subscribed = true;
	cl->srv->stats.subscribers++;
	return 0;
}

void client_unsubscribe(struct client *cl)
{
	if (!cl->subscribed)
		return;
	cl->subscribed = false;
	cl->srv->stats.subscribers--;
}

void server_broadcast(struct server *srv, json_object *o)
{
	const char *s = NULL;
	size_t len = 0;

	for (struct client *cl = srv->clients, *next; cl; cl = next) {
		next = cl->next;
		if (!cl->subscribed || cl->eof)
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
		if (client_flush(cl) < 0)
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
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(cl->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return -errno;
	*ret = cred.uid;
	return 0;
}
