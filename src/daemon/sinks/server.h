/* SPDX-License-Identifier: GPL-2.0 */
/* The client socket: a Unix stream socket, one JSON request per line in, one JSON answer per
 * line out. Read-only for clients but for detach/attach of tracepoints (uid 0 only).
 * Subscribed clients also receive event lines as they come. Who may connect is the socket
 * file's owner, group and mode (socket_file.h); how much any client can make the daemon hold,
 * and for how long, is bounded by struct server_limits (irqlatd(8), LIMITS).
 *
 * Clients take turns on the loop: a turn answers at most one request line of a client, and a
 * client's next line is neither answered nor read while its last answer still waits to be
 * sent. So a client that pipelines requests gets one answer per turn of the loop, between the
 * ring buffer's, the tick's and every other client's, and one that does not read its answers
 * costs one answer, not a queue. */
#ifndef IRQLAT_SERVER_H
#define IRQLAT_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <json-c/json.h>
#include <systemd/sd-event.h>
#include "daemon/sinks/socket_file.h"

struct server;
struct client;

/* Answers one request; returns a new object (the server frees it). May call
 * client_subscribe(). */
typedef json_object *(*server_request_fn)(void *userdata, struct client *cl, json_object *req);

struct server_limits {
	unsigned max_clients;		/* connected at once; then the one waiting longest on its client gives way */
	unsigned max_clients_per_uid;	/* of them, of one uid (but root's and the daemon's own) */
	unsigned max_subscribers;	/* subscribed at once */
	size_t max_queue_bytes;		/* events queued for a subscriber that does not read */
	size_t max_request_bytes;	/* a request line, without its newline */
	unsigned idle_timeout_s;	/* to send a request and read its answer; subscribers wait freely */
};

/* What the server did since it started, for status and the tests. */
struct server_stats {
	unsigned clients, subscribers;	/* now */
	unsigned subscribers_detail;	/* of them, sent events in detail */
	uint64_t accepted;
	uint64_t refused;		/* no room, nobody to give way: told so and closed */
	uint64_t evicted;		/* gave way to a newcomer: told so and closed */
	uint64_t timed_out;		/* idle_timeout_s without an answer: told so and closed */
	uint64_t accept_pauses;		/* descriptor table full (listen_pause.h) */
};

/* Creates the socket at path (socket_file.h) and serves it on ev. 0, or a negative errno,
 * logged. */
int server_open(struct server **out, sd_event *ev, const char *path, const struct server_limits *limits,
		const struct server_access *access, server_request_fn fn, void *userdata);
/* Closes clients, removes the socket file if it is still the one this server created. */
void server_close(struct server *s);
/* The limits on reload: they apply to new lines and clients, the timeout to everyone from its
 * next check; nobody connected is dropped for a lower max_clients. */
void server_set_limits(struct server *s, const struct server_limits *limits);
/* Sends one line to every subscribed client; slow clients lose lines, and are told how many. */
void server_broadcast(struct server *s, json_object *o);
/* The same to those that asked for events in detail, or to the others only */
enum server_audience { SERVER_TO_ALL, SERVER_TO_PLAIN, SERVER_TO_DETAIL };
void server_broadcast_to(struct server *s, json_object *o, enum server_audience to);
/* 0, or -EBUSY when max_subscribers are subscribed already. detail: the client is sent events
 * in detail (server_broadcast_to()); a second subscribe changes only that. */
int client_subscribe(struct client *cl, bool detail);
void client_unsubscribe(struct client *cl);
unsigned server_clients(const struct server *s);
struct server_stats server_stats(const struct server *s);
/* The client's uid from SO_PEERCRED, taken when it connected, for the few requests that
 * change something; 0 or -ENODATA. */
int client_peer_uid(const struct client *cl, uid_t *ret);

#endif
