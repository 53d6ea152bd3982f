// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>
#include "conn.h"
#include "stop.h"
#include "common/json.h"

json_object *conn_new_request(const char *cmd, const char *window)
{
	json_object *req = json_object_new_object();

	json_object_object_add(req, "cmd", json_object_new_string(cmd));
	if (window)
		json_object_object_add(req, "window", json_object_new_string(window));
	return req;
}

void conn_add_cpus(json_object *req, const char *cpus)
{
	if (cpus && *cpus)
		json_object_object_add(req, "cpus", json_object_new_string(cpus));
}

int conn_open(struct irqlat_conn *c, const char *path, size_t max_answer)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_close_ int fd = -1;

	conn_close(c);
	c->path = path;
	c->max_answer = max_answer;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* A Unix socket's connect() waits while the daemon's listen queue is full, for as long
	 * as the send timeout says (forever by default): CONN_TIMEOUT_MS, then EAGAIN. Sends get
	 * the same bound. A signal (installed without SA_RESTART, stop.h) ends it with EINTR. */
	struct timeval tv = { .tv_sec = CONN_TIMEOUT_MS / 1000, .tv_usec = CONN_TIMEOUT_MS % 1000 * 1000 };
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return errno == EAGAIN ? -ETIMEDOUT : -errno;
	c->fd = TAKE_FD(fd);
	return 0;
}

void conn_close(struct irqlat_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	*c = (struct irqlat_conn){ .fd = -1, .path = c->path, .max_answer = c->max_answer };
}

int conn_send(struct irqlat_conn *c, json_object *req)
{
	const char *s = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	size_t len = strlen(s), off = 0;
	_cleanup_free_ char *line = malloc(len + 1);

	if (!line)
		return -ENOMEM;
	memcpy(line, s, len);
	line[len++] = '\n';
	while (off < len) {
		ssize_t n = send(c->fd, line + off, len - off, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR && !stop_requested())
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		off += (size_t)n;
	}
	return 0;
}

int conn_take_line(char *buf, size_t *len, json_object **ret)
{
	char *nl = *len ? memchr(buf, '\n', *len) : NULL;
	struct json_tokener *tok;
	size_t n;

	if (!nl)
		return 0;
	n = (size_t)(nl - buf);
	*ret = NULL;
	/* one object, the whole line: a NUL or anything after it is not the daemon's JSON */
	tok = n <= INT_MAX ? json_tokener_new() : NULL;
	if (tok) {
		*ret = json_tokener_parse_ex(tok, buf, (int)n);
		if (*ret && (json_tokener_get_error(tok) != json_tokener_success || json_tokener_get_parse_end(tok) != n ||
			     !json_object_is_type(*ret, json_type_object))) {
			json_object_put(*ret);
			*ret = NULL;
		}
		json_tokener_free(tok);
	}
	memmove(buf, nl + 1, *len - n - 1);
	*len -= n + 1;
	return *ret ? 1 : -EBADMSG;
}

int conn_read(struct irqlat_conn *c, int timeout_ms, json_object **ret)
{
	for (;;) {
		int r = conn_take_line(c->buf, &c->len, ret);

		if (r != 0)
			return r < 0 ? r : 0;
		/* no newline in max_answer bytes: whatever sends it, it is not read further */
		if (c->len > c->max_answer)
			return -EMSGSIZE;
		if (c->len + 65536 > c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 131072;
			char *p;

			if (cap > c->max_answer + 65536)
				cap = c->max_answer + 65536;
			p = realloc(c->buf, cap);
			if (!p)
				return -ENOMEM;
			c->buf = p;
			c->cap = cap;
		}
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };

		r = poll(&pfd, 1, timeout_ms);
		if (r == 0)
			return -ETIMEDOUT;
		if (r < 0) {
			if (errno == EINTR && !stop_requested())
				continue;
			return -errno;
		}
		ssize_t n = read(c->fd, c->buf + c->len, c->cap - c->len);

		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EINTR && !stop_requested())
				continue;
			return -errno;
		}
		c->len += (size_t)n;
	}
}

/* How long to wait for the line of a daemon that closed the connection: it is sent before the
 * close, so it is there already when it was sent at all */
#define CLOSING_LINE_MS 100

/* One request and its answer (or the daemon's closing line) in *ret */
static int request_once(struct irqlat_conn *c, json_object *req, int timeout_ms, json_object **ret)
{
	int r = conn_send(c, req);

	if (r == -EPIPE || r == -ECONNRESET) {
		/* closed by the daemon: it said why, before closing */
		if (conn_read(c, CLOSING_LINE_MS, ret) == 0)
			return 0;
		return r;
	}
	if (r < 0)
		return r;
	return conn_read(c, timeout_ms, ret);
}

int conn_request(struct irqlat_conn *c, json_object *req, int timeout_ms, json_object **ret)
{
	_cleanup_json_ json_object *resp = NULL;
	json_object *ok;
	int r;

	c->refusal[0] = 0;
	r = request_once(c, req, timeout_ms, &resp);
	if (r == 0 && json_object_object_get_ex(resp, JSON_CLOSED, NULL)) {
		const char *why = json_get_str(resp, JSON_CLOSED, "");

		/* this connection had waited too long for a request of ours: a new one is not idle */
		if (!strcmp(why, JSON_CLOSED_IDLE) || !strcmp(why, JSON_CLOSED_EVICTED)) {
			json_object_put(TAKE_PTR(resp));
			r = conn_open(c, c->path, c->max_answer);
			if (r < 0)
				return r;
			r = request_once(c, req, timeout_ms, &resp);
		}
	}
	if (r < 0)
		return r;
	if (json_object_object_get_ex(resp, "ok", &ok) && !json_object_get_boolean(ok)) {
		snprintf(c->refusal, sizeof(c->refusal), "%s", json_get_str(resp, "error", ""));
		return -EREMOTEIO;
	}
	*ret = TAKE_PTR(resp);
	return 0;
}
