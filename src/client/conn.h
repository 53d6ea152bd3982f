/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat's side of the socket: connect, send one request, read one answer line. Nothing here
 * prints: the caller knows whether a message goes to stderr or onto the screen. */
#ifndef IRQLAT_CONN_H
#define IRQLAT_CONN_H

#include <json-c/json.h>

struct irqlat_conn {
	int fd;
	char *buf;
	size_t len, cap;
	char refusal[512];	/* the daemon's "error" of the last request it refused ("": none given) */
};

#define IRQLAT_CONN_NULL { .fd = -1 }

/* {"cmd": cmd, "window": window}, without the window when it is NULL; the caller puts it. */
json_object *conn_new_request(const char *cmd, const char *window);

/* 0, or -errno: -ENOENT/-ECONNREFUSED (no daemon), -EACCES, -ENAMETOOLONG (path), ... */
int conn_open(struct irqlat_conn *c, const char *path);
/* Closes and frees; c may be closed already (for _cleanup_(conn_close)). */
void conn_close(struct irqlat_conn *c);
int conn_send(struct irqlat_conn *c, json_object *req);
/* The next line from the daemon, parsed, in *ret: 0, or -ETIMEDOUT (timeout_ms < 0 waits),
 * -ECONNRESET (the daemon closed), -EBADMSG (not JSON), -errno. */
int conn_read(struct irqlat_conn *c, int timeout_ms, json_object **ret);
/* send + read: 0 with the answer in *ret; -EREMOTEIO when the daemon answered
 * {"ok":false,"error":...} (the error in c->refusal); or conn_send's and conn_read's errors. */
int conn_request(struct irqlat_conn *c, json_object *req, int timeout_ms, json_object **ret);

#endif
