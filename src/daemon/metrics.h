/* SPDX-License-Identifier: GPL-2.0 */
/* GET /metrics in the Prometheus text format 0.0.4 (docs/metrics.md), served by libmicrohttpd
 * from the daemon's sd_event loop: no thread. */
#ifndef IRQLAT_METRICS_H
#define IRQLAT_METRICS_H

#include <systemd/sd-event.h>
#include "collect.h"
#include "tracepoints.h"

struct metrics;

struct metrics_sources {
	const struct collector *col;
	const struct tp_set *tps;
};

/* Serves on the socket systemd passed under the name "metrics" if there is one, otherwise on
 * addr ("HOST:PORT", "[V6]:PORT"; NULL or "": no metrics unless systemd passed a socket).
 * *out stays NULL when there is nothing to serve. Logs and returns < 0 on failure. */
int metrics_open(struct metrics **out, sd_event *ev, const char *addr, const struct metrics_sources *src);
void metrics_close(struct metrics *m);

/* The page, for tests and the scrape benchmark: a malloc'ed string, its length in *len. */
char *metrics_render(const struct metrics_sources *src, size_t *len);

#endif
