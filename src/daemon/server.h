/* SPDX-License-Identifier: GPL-2.0 */
/* The client socket: a Unix stream socket, one JSON request per line in, one JSON answer per
 * line out. Read-only for clients but for detach/attach of tracepoints (uid 0 only).
 * Subscribed clients also receive event lines as they come. */
#ifndef IRQLAT_SERVER_H
#define IRQLAT_SERVER_H

#include <sys/types.h>
#include <json-c/json.h>
#include <systemd/sd-event.h>

struct server;
struct client;

/* Answers one request; returns a new object (the server frees it). May call
 * client_subscribe(). */
typedef json_object *(*server_request_fn)(void *userdata, struct client *cl, json_object *req);

int server_open(struct server **out, sd_event *ev, const char *path, server_request_fn fn, void *userdata);
void server_close(struct server *s);	/* closes clients, removes the socket file */
/* Sends one line to every subscribed client; slow clients lose lines, and are told how many. */
void server_broadcast(struct server *s, json_object *o);
void client_subscribe(struct client *cl);
unsigned server_clients(const struct server *s);
/* The client's uid from SO_PEERCRED, for the few requests that change something; 0 or a
 * negative errno. */
int client_peer_uid(const struct client *cl, uid_t *ret);

#endif
