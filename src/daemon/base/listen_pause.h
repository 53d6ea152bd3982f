/* SPDX-License-Identifier: GPL-2.0 */
/* Accepting at the descriptor limit. accept4() then fails with EMFILE (or ENFILE, ENOBUFS,
 * ENOMEM) while the listening socket stays readable, so a level-triggered loop would call it
 * again at once, forever, at 100% CPU. Instead the listener's io source is turned off, one
 * line says why, and it is turned on again when a connection closes or after a pause. The
 * client socket (server.c) and the HTTP endpoint (metrics_http.c) both use it. */
#ifndef IRQLAT_LISTEN_PAUSE_H
#define IRQLAT_LISTEN_PAUSE_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#define LISTEN_PAUSE_US 250000	/* how long a full descriptor table stops accepting */
#define LISTEN_PAUSE_LOG_US 10000000	/* at most one line per 10 s of pauses */

struct listen_pause {
	sd_event_source *io;	/* the listener's; not owned */
	sd_event_source *timer;
	const char *what;	/* "the client socket /run/...", for the line */
	bool paused;
	uint64_t logged_us;	/* CLOCK_MONOTONIC of the last line, 0: none yet */
	uint64_t pauses;	/* since start: how often accepting stopped */
};

/* true for the accept4() errors that mean "no descriptor or memory now", not "this one
 * connection went wrong" */
bool accept_error_is_resource(int err);
void listen_pause_init(struct listen_pause *p, sd_event_source *io, const char *what);
/* Stops accepting after accept4() failed with err (-errno); logs once per pause, naming the
 * connections held. 0, or a negative errno when the io source cannot be switched off. */
int listen_pause_start(struct listen_pause *p, int err, unsigned connections);
/* Accepts again (a connection closed): no-op when not paused. */
void listen_pause_resume(struct listen_pause *p);
void listen_pause_free(struct listen_pause *p);

#endif
