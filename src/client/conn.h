/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat's side of the socket: connect, send one request, read one answer line. */
#ifndef IRQLAT_CLIENT_H
#define IRQLAT_CLIENT_H

#include <json-c/json.h>

struct irqlat_conn {
	int fd;
	char *buf;
	size_t len, cap;
};

/* 0, or -errno with a one-line explanation printed to stderr (not running, permission). */
int conn_open(struct irqlat_conn *c, const char *path, int quiet);
void conn_close(struct irqlat_conn *c);
int conn_send(struct irqlat_conn *c, json_object *req);
/* Next line from the daemon, parsed; NULL on EOF or error (errno set). timeout_ms < 0 waits. */
json_object *conn_read(struct irqlat_conn *c, int timeout_ms);
/* send + read; also turns {"ok":false,"error":...} into NULL with the error printed. */
json_object *conn_request(struct irqlat_conn *c, json_object *req);

#endif
