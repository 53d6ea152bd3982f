/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat's side of the socket: connect, send one request, read one answer line. Nothing here
 * prints: the caller knows whether a message goes to stderr or onto the screen. */
#ifndef IRQLAT_CONN_H
#define IRQLAT_CONN_H

#include <json-c/json.h>

struct irqlat_conn {
	int fd;
	const char *path;	/* to connect again after the daemon closed an idle connection */
	size_t max_answer;	/* bytes of one answer line, at most */
	char *buf;
	size_t len, cap;
	char refusal[512];	/* the daemon's "error" of the last request it refused ("": none given) */
};

#define IRQLAT_CONN_NULL { .fd = -1 }

/* The longest answer read by default (--max-answer-mb): a summary of a big machine is a few
 * MiB; a daemon that sends more (or another program on the socket) is not followed further */
#define CONN_MAX_ANSWER_MB 64

/* {"cmd": cmd, "window": window}, without the window when it is NULL; the caller puts it. */
json_object *conn_new_request(const char *cmd, const char *window);
/* "cpus": the CPU list every figure of the answer is to be of (-C); nothing for NULL or "". */
void conn_add_cpus(json_object *req, const char *cpus);

/* How long connect() may wait for room in the daemon's listen queue (and a send for room in
 * its socket) */
#define CONN_TIMEOUT_MS 5000

/* 0, or -errno: -ENOENT/-ECONNREFUSED (no daemon), -EACCES, -ENAMETOOLONG (path), -ETIMEDOUT
 * (the daemon's queue stayed full for CONN_TIMEOUT_MS), -EINTR (SIGINT/SIGTERM), ...
 * max_answer: the longest answer line conn_read() takes. path must outlive c. */
int conn_open(struct irqlat_conn *c, const char *path, size_t max_answer);
/* Closes and frees; c may be closed already (for _cleanup_(conn_close)). */
void conn_close(struct irqlat_conn *c);
int conn_send(struct irqlat_conn *c, json_object *req);
/* The next line from the daemon, parsed, in *ret: 0, or -ETIMEDOUT (timeout_ms < 0 waits),
 * -ECONNRESET (the daemon closed), -EBADMSG (not one JSON object), -EMSGSIZE (longer than
 * max_answer: the connection cannot be read further), -errno. */
int conn_read(struct irqlat_conn *c, int timeout_ms, json_object **ret);
/* send + read: 0 with the answer in *ret; -EREMOTEIO when the daemon answered
 * {"ok":false,"error":...} (the error in c->refusal), also when it closed the connection and
 * said why (a refused connection's line is read after a failed send); or conn_send's and
 * conn_read's errors. A connection the daemon closed because it was idle, or to make room, is
 * opened again and the request sent once more. */
int conn_request(struct irqlat_conn *c, json_object *req, int timeout_ms, json_object **ret);
/* Takes one whole line out of buf[0..*len) (moving the rest to its start): 1 with the object
 * in *ret, 0 when there is no whole line, -EBADMSG when the line is not one JSON object. */
int conn_take_line(char *buf, size_t *len, json_object **ret);

#endif
