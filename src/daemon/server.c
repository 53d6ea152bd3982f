// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "log.h"
#include "server.h"
#include "common/json.h"

#define CLIENT_IN_MAX (64 * 1024)	/* a request line longer than this is refused */
#define CLIENT_OUT_MAX (4 * 1024 * 1024)	/* a subscriber this far behind loses lines */

struct client {
	struct server *srv;
	struct client *next;
	int fd;
	sd_event_source *io;
	char in[CLIENT_IN_MAX];
	size_t in_len;
	char *out;
	size_t out_len, out_cap;
	int subscribed;
	uint64_t lost;
	int closing;
};

struct server {
	sd_event *ev;
	sd_event_source *listen_io;
	int fd;
	char *path;
	server_request_fn fn;
	void *userdata;
	struct client *clients;
	unsigned nclients;
};

static void client_free(struct client *cl)
{
	struct client **p;

	for (p = &cl->srv->clients; *p; p = &(*p)->next)
		if (*p == cl) {
			*p = cl->next;
			break;
		}
	cl->srv->nclients--;
	sd_event_source_disable_unref(cl->io);
	close(cl->fd);
	free(cl->out);
	free(cl);
}

static int client_flush(struct client *cl)
{
	while (cl->out_len) {
		/* MSG_NOSIGNAL: a client that closed its end must cost us EPIPE, not SIGPIPE */
		ssize_t n = send(cl->fd, cl->out, cl->out_len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			return -errno;
		}
		memmove(cl->out, cl->out + n, cl->out_len - (size_t)n);
		cl->out_len -= (size_t)n;
	}
	/* what is left is sent when the socket can take it */
	return sd_event_source_set_io_events(cl->io, EPOLLIN | (cl->out_len ? EPOLLOUT : 0));
}

/* Queues s and a newline, both or (out of memory) neither. */
static int client_queue_line(struct client *cl, const char *s, size_t len)
{
	if (cl->out_len + len + 1 > cl->out_cap) {
		size_t cap = cl->out_cap ? cl->out_cap : 4096;
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

static int client_send(struct client *cl, json_object *o)
{
	const char *s = json_line(o);

	return client_queue_line(cl, s, strlen(s));
}

/* One request line: its answer queued. */
static int client_line(struct client *cl, const char *line, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	_cleanup_json_ json_object *req = NULL, *resp = NULL;

	if (!tok)
		return -ENOMEM;
	req = json_tokener_parse_ex(tok, line, (int)len);
	if (!req || json_tokener_get_error(tok) != json_tokener_success || !json_object_is_type(req, json_type_object))
		resp = json_error_reply("request is not a JSON object on one line; example: {\"cmd\":\"summary\"}");
	else
		resp = cl->srv->fn(cl->srv->userdata, cl, req);
	json_tokener_free(tok);
	return resp ? client_send(cl, resp) : 0;
}

/* Reads what the client sent and answers each complete line; < 0: the client is gone (or
 * cannot be served) and is to be dropped. */
static int client_process(struct client *cl, int fd, uint32_t revents)
{
	int r;

	if (revents & EPOLLOUT) {
		r = client_flush(cl);
		if (r < 0)
			return r;
	}
	if (revents & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
		ssize_t n = read(fd, cl->in + cl->in_len, sizeof(cl->in) - cl->in_len);
		char *nl;

		if (n == 0)
			return -ECONNRESET;	/* closed by the client */
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (n > 0)
			cl->in_len += (size_t)n;
		while ((nl = memchr(cl->in, '\n', cl->in_len))) {
			size_t len = (size_t)(nl - cl->in);

			r = client_line(cl, cl->in, len);
			if (r < 0)
				return r;
			memmove(cl->in, nl + 1, cl->in_len - len - 1);
			cl->in_len -= len + 1;
		}
		if (cl->in_len == sizeof(cl->in)) {
			_cleanup_json_ json_object *e = json_error_reply("request line longer than 64 KiB");

			r = client_send(cl, e);
			if (r < 0)
				return r;
			cl->in_len = 0;
		}
	}
	return client_flush(cl);
}

static int client_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct client *cl = userdata;
	(void)s;

	if (client_process(cl, fd, revents) < 0)
		client_free(cl);	/* the client sees its connection closed */
	return 0;
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
		/* gone before we took it, or already taken: nothing to say */
		if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED)
			return 0;
		log_warning_errno(-errno, "cannot accept a client on %s: %m", srv->path);
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
	srv->nclients++;
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

static void server_closep(struct server **srv)
{
	server_close(*srv);
}

int server_open(struct server **out, sd_event *ev, const char *path, server_request_fn fn, void *userdata)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_(server_closep) struct server *srv = NULL;
	_cleanup_close_ int fd = -1;
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
	r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	if (r < 0 && errno == EADDRINUSE) {
		/* A live daemon answers connect(); a stale file from a crash does not. */
		_cleanup_close_ int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			log_error("another irqlatd is already serving %s: stop it first, or give this one --socket PATH", path);
			return -EADDRINUSE;
		}
		unlink(path);
		r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	}
	/* r < 0: bind's own error (EACCES on the folder, ...), not listen's EINVAL on an unbound socket */
	if (r < 0 || listen(fd, 16) < 0)
		return log_error_errno(-errno, "cannot listen on %s: %m", path);
	/* Anyone may read the summaries; the few requests that change something (detach, attach)
	 * check the caller's uid with SO_PEERCRED. */
	if (chmod(path, 0666) < 0)
		log_warning_errno(-errno, "cannot let every user connect to %s (only root can now): %m", path);

	srv = calloc(1, sizeof(*srv));
	if (!srv) {
		unlink(path);
		return log_error_errno(-ENOMEM, "cannot serve %s: %m", path);
	}
	srv->ev = ev;
	srv->fd = TAKE_FD(fd);	/* from here on server_close closes it and removes the file */
	srv->path = strdup(path);
	srv->fn = fn;
	srv->userdata = userdata;
	if (!srv->path) {
		unlink(path);
		return log_error_errno(-ENOMEM, "cannot serve %s: %m", path);
	}
	r = sd_event_add_io(ev, &srv->listen_io, srv->fd, EPOLLIN, listen_io, srv);
	if (r < 0)
		return log_error_errno(r, "cannot watch socket %s: %m", path);
	*out = TAKE_PTR(srv);
	return 0;
}

void server_close(struct server *srv)
{
	if (!srv)
		return;
	while (srv->clients)
		client_free(srv->clients);
	sd_event_source_disable_unref(srv->listen_io);
	close(srv->fd);
	if (srv->path)
		unlink(srv->path);
	free(srv->path);
	free(srv);
}

void client_subscribe(struct client *cl)
{
	cl->subscribed = 1;
}

void server_broadcast(struct server *srv, json_object *o)
{
	const char *s = NULL;
	size_t len = 0;

	for (struct client *cl = srv->clients, *next; cl; cl = next) {
		next = cl->next;
		if (!cl->subscribed)
			continue;
		if (!s) {
			s = json_line(o);
			len = strlen(s);
		}
		/* a subscriber this far behind (or no memory to queue for it) loses the line, and is
		 * told how many it lost before the next one it gets */
		if (cl->out_len + len + 1 > CLIENT_OUT_MAX) {
			cl->lost++;
			continue;
		}
		if (cl->lost) {
			char note[64];
			int n = snprintf(note, sizeof(note), "{\"lost\":%llu}", (unsigned long long)cl->lost);

			if (client_queue_line(cl, note, (size_t)n) == 0)
				cl->lost = 0;
		}
		if (client_queue_line(cl, s, len) < 0)
			cl->lost++;
		if (client_flush(cl) < 0)
			client_free(cl);
	}
}

unsigned server_clients(const struct server *srv)
{
	return srv->nclients;
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
