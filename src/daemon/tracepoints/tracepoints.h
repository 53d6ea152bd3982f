/* SPDX-License-Identifier: GPL-2.0 */
/* The tracepoint set as the daemon starts and stops it (tracepoints.c): its timers and SIGUSR1. */
#ifndef IRQLAT_TRACEPOINTS_H
#define IRQLAT_TRACEPOINTS_H

#include "daemon/tracepoints/tp_set.h"

/* Starts consuming the configured tracepoints, their events streamed to srv's subscribers and
 * kept in ring (either may be NULL); a bad or missing tracepoint is logged, not an error.
 * Fails only when the event loop cannot take the timer. */
int tracepoints_start(struct tp_set *s, sd_event *ev, struct server *srv, struct event_ring *ring,
		      const struct daemon_config *cfg, struct ring_buffer *rb, int ringbuf_fd, int drops_fd);
void tracepoints_stop(struct tp_set *s);

#endif
