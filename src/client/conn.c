// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "conn.h"
#include "common/json.h"

json_object *conn_new_request(const char *cmd, const char *window)
{
	json_object *req = json_object_new_object();

	json_object_object_add(req, "cmd", json_object_new_string(cmd));
	if (window)
		json_object_object_add(req, "window", json_object_new_string(window));
	return req;
}

int conn_open(struct irqlat_conn *c, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_close_ int fd = -1;

	*c = (struct irqlat_conn)IRQLAT_CONN_NULL;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	c->fd = TAKE_FD(fd);
	return 0;
}

void conn_close(struct irqlat_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	*c = (struct irqlat_conn)IRQLAT_CONN_NULL;
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
			if (errno == EINTR)
				continue;
			return -errno;
		}
		off += (size_t)n;
	}
	return 0;
}

/* Takes one whole line out of the buffer, if there is one: 1 when *ret was set */
static int take_line(struct irqlat_conn *c, json_object **ret)
{
	char *nl = c->len ? memchr(c->buf, '\n', c->len) : NULL;
	size_t n;

	if (!nl)
		return 0;
	n = (size_t)(nl - c->buf);
	*nl = 0;
	*ret = json_tokener_parse(c->buf);
	memmove(c->buf, nl + 1, c->len - n - 1);
	c->len -= n + 1;
	return *ret ? 1 : -EBADMSG;
}

int conn_read(struct irqlat_conn *c, int timeout_ms, json_object **ret)
{
	for (;;) {
		int r = take_line(c, ret);

		if (r != 0)
			return r < 0 ? r : 0;
		if (c->len + 65536 > c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 131072;
			char *p = realloc(c->buf, cap);

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
			if (errno == EINTR)
				continue;
			return -errno;
		}
		ssize_t n = read(c->fd, c->buf + c->len, c->cap - c->len - 1);

		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c->len += (size_t)n;
	}
}

int conn_request(struct irqlat_conn *c, json_object *req, int timeout_ms, json_object **ret)
{
	_cleanup_json_ json_object *resp = NULL;
	json_object *ok;
	int r;

	c->refusal[0] = 0;
	r = conn_send(c, req);
	if (r < 0)
		return r;
	r = conn_read(c, timeout_ms, &resp);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(resp, "ok", &ok) && !json_object_get_boolean(ok)) {
		snprintf(c->refusal, sizeof(c->refusal), "%s", json_get_str(resp, "error", ""));
		return -EREMOTEIO;
	}
	*ret = TAKE_PTR(resp);
	return 0;
}
