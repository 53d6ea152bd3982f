/* SPDX-License-Identifier: GPL-2.0 */
/* The client socket: a Unix stream socket, one JSON request per line in, one JSON answer per
 * line out. Read-only for clients but for detach/attach of tracepoints (uid 0 only).
 * Subscribed clients also receive event lines as they come. Who may connect is the socket
 * file's owner, group and mode; how much any client can make the daemon hold is bounded by
 * struct server_limits (irqlatd(8), LIMITS). */
#ifndef IRQLAT_SERVER_H
#define IRQLAT_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <json-c/json.h>
#include <systemd/sd-event.h>

struct server;
struct client;

/* Answers one request; returns a new object (the server frees it). May call
 * client_subscribe(). */
typedef json_object *(*server_request_fn)(void *userdata, struct client *cl, json_object *req);

struct server_limits {
	unsigned max_clients;		/* connected at once; more are told so and closed */
	unsigned max_subscribers;	/* of those, subscribed at once */
	size_t max_queue_bytes;		/* answers queued for one client that does not read */
	size_t max_request_bytes;	/* a request line, without its newline */
};

/* The socket file's owner, group and mode; (uid_t)-1 / (gid_t)-1 leave the daemon's. */
struct server_access {
	uid_t uid;
	gid_t gid;
	mode_t mode;
};

/* What the server did since it started, for status and the tests. */
struct server_stats {
	unsigned clients, subscribers;	/* now */
	uint64_t accepted;
	uint64_t refused;		/* over max_clients: told so and closed */
	uint64_t dropped;		/* did not read: queue over max_queue_bytes */
	uint64_t accept_pauses;		/* descriptor table full (listen_pause.h) */
};

/* Creates the socket at path (its parent folders too) and serves it on ev. A socket file
 * there that nothing answers on (left by a daemon that died) is replaced; any other file is
 * left alone and refused. 0, or a negative errno, logged. */
int server_open(struct server **out, sd_event *ev, const char *path, const struct server_limits *limits,
		const struct server_access *access, server_request_fn fn, void *userdata);
/* Closes clients, removes the socket file if it is still the one this server created. */
void server_close(struct server *s);
/* The limits on reload: they apply to new lines and clients; nobody connected is dropped. */
void server_set_limits(struct server *s, const struct server_limits *limits);
/* Sends one line to every subscribed client; slow clients lose lines, and are told how many. */
void server_broadcast(struct server *s, json_object *o);
/* 0, or -EBUSY when max_subscribers are subscribed already. */
int client_subscribe(struct client *cl);
void client_unsubscribe(struct client *cl);
unsigned server_clients(const struct server *s);
struct server_stats server_stats(const struct server *s);
/* The client's uid from SO_PEERCRED, for the few requests that change something; 0 or a
 * negative errno. */
int client_peer_uid(const struct client *cl, uid_t *ret);

#endif
