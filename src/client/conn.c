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

int conn_open(struct irqlat_conn *c, const char *path, int quiet)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "irqlat: socket path %s is too long\n", path);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	if (connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int r = -errno;

		if (!quiet) {
			if (r == -ENOENT || r == -ECONNREFUSED)
				fprintf(stderr, "irqlat: irqlatd is not running (no daemon at %s): start it with 'systemctl start irqlatd' or 'sudo irqlatd'\n", path);
			else if (r == -EACCES)
				fprintf(stderr, "irqlat: no permission to connect to %s: run as root or ask for access to the socket\n", path);
			else
				fprintf(stderr, "irqlat: cannot connect to irqlatd at %s: %s\n", path, strerror(-r));
		}
		close(c->fd);
		c->fd = -1;
		return r;
	}
	return 0;
}

void conn_close(struct irqlat_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

int conn_send(struct irqlat_conn *c, json_object *req)
{
	const char *s = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	size_t len = strlen(s);
	char *line = malloc(len + 1);
	size_t off = 0;

	if (!line)
		return -ENOMEM;
	memcpy(line, s, len);
	line[len++] = '\n';
	while (off < len) {
		ssize_t n = send(c->fd, line + off, len - off, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(line);
			return -errno;
		}
		off += (size_t)n;
	}
	free(line);
	return 0;
}

json_object *conn_read(struct irqlat_conn *c, int timeout_ms)
{
	for (;;) {
		char *nl = c->len ? memchr(c->buf, '\n', c->len) : NULL;

		if (nl) {
			size_t n = (size_t)(nl - c->buf);
			json_object *o;

			*nl = 0;
			o = json_tokener_parse(c->buf);
			memmove(c->buf, nl + 1, c->len - n - 1);
			c->len -= n + 1;
			if (!o)
				errno = EBADMSG;
			return o;
		}
		if (c->len + 65536 > c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 131072;
			char *p = realloc(c->buf, cap);

			if (!p) {
				errno = ENOMEM;
				return NULL;
			}
			c->buf = p;
			c->cap = cap;
		}
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		int r = poll(&pfd, 1, timeout_ms);

		if (r == 0) {
			errno = ETIMEDOUT;
			return NULL;
		}
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		ssize_t n = read(c->fd, c->buf + c->len, c->cap - c->len - 1);

		if (n == 0) {
			errno = ECONNRESET;
			return NULL;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		c->len += (size_t)n;
	}
}

json_object *conn_request(struct irqlat_conn *c, json_object *req)
{
	json_object *resp, *v;
	int r = conn_send(c, req);

	if (r < 0) {
		errno = -r;
		return NULL;
	}
	resp = conn_read(c, 5000);
	if (!resp)
		return NULL;
	if (json_object_object_get_ex(resp, "ok", &v) && !json_object_get_boolean(v)) {
		if (json_object_object_get_ex(resp, "error", &v))
			fprintf(stderr, "irqlat: irqlatd says: %s\n", json_object_get_string(v));
		json_object_put(resp);
		errno = EINVAL;
		return NULL;
	}
	return resp;
}
