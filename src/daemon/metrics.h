/* SPDX-License-Identifier: GPL-2.0 */
/* GET /metrics (docs/metrics.md): the page (metrics.c) in the Prometheus text format 0.0.4, or
 * as the protobuf stream with native histograms when the scraper asks for it, served by
 * libmicrohttpd from the daemon's sd_event loop, no thread (metrics_http.c). */
#ifndef IRQLAT_METRICS_H
#define IRQLAT_METRICS_H

#include <stdint.h>
#include <sys/socket.h>
#include <systemd/sd-event.h>
#include "collect.h"
#include "tracepoints.h"

struct metrics;

struct daemon_config;

struct metrics_sources {
	const struct collector *col;
	const struct tp_set *tps;
	const struct daemon_config *cfg;	/* read at each scrape (metrics-le-factor); NULL: defaults */
};

/* irqlatd(8), LIMITS */
struct metrics_limits {
	unsigned max_connections;	/* open at once; a new one shuts the longest waiting */
	unsigned timeout_s;		/* to send a whole request, and of silence while answered */
};

struct metrics_stats {
	unsigned open;			/* connections now */
	uint64_t accepted, evicted, timed_out, refused, accept_pauses;
};

/* Serves on the socket systemd passed under the name "metrics" if there is one, otherwise on
 * addr ("HOST:PORT", "[V6]:PORT"; NULL or "": no metrics unless systemd passed a socket).
 * *out stays NULL when there is nothing to serve. Logs and returns < 0 on failure. */
int metrics_open(struct metrics **out, sd_event *ev, const char *addr, const struct metrics_sources *src,
		 const struct metrics_limits *limits);
/* The same on a listening socket fd (taken, closed on failure); where names it in lines. */
int metrics_serve(struct metrics **out, sd_event *ev, int fd, const char *where, const struct metrics_sources *src,
		  const struct metrics_limits *limits);
/* One accepted connection (fd taken) as the listener hands it over: for the fuzzer. */
int metrics_http_add(struct metrics *m, int fd, const struct sockaddr *sa, socklen_t salen);
/* Shuts down the connections that have waited http-timeout-s for a whole request by now_us
 * (CLOCK_MONOTONIC, the loop's now); how many. The deadline timer calls it; so do the tests. */
unsigned metrics_http_expire(struct metrics *m, uint64_t now_us);
struct metrics_stats metrics_stats(const struct metrics *m);
void metrics_close(struct metrics *m);

enum metrics_format { METRICS_TEXT, METRICS_PROTOBUF };

#define METRICS_PROTOBUF_TYPE \
	"application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"

/* The page, for tests and the scrape benchmark: a malloc'ed buffer, its length in *len; the
 * text format is a NUL-terminated string, the protobuf stream binary. NULL: out of memory. */
char *metrics_render_as(const struct metrics_sources *src, enum metrics_format format, size_t *len);
char *metrics_render(const struct metrics_sources *src, size_t *len);	/* the text format */

/* Which format an Accept header asks for: the protobuf stream (a media range
 * application/vnd.google.protobuf with proto=io.prometheus.client.MetricFamily and
 * encoding=delimited) when its q is above that of every text range irqlatd serves (text/plain
 * of version 0.0.4 or none, or a wildcard), or equal and listed first; the text format for
 * anything else, a missing or unreadable header included (as every Prometheus takes it). */
enum metrics_format metrics_negotiate(const char *accept);

/* What the endpoint answers a request, from its method, path and Accept header (NULL: none)
 * alone (metrics_http.c sends it; the fuzzer calls it without a socket). */
struct metrics_answer {
	unsigned status;		/* 200, 404 or 405 */
	const char *body;		/* a fixed text; NULL with 200: the page, metrics_render_as() */
	const char *content_type;
	const char *allow;		/* the Allow header of a 405, else NULL */
	enum metrics_format format;	/* of the page */
};
struct metrics_answer metrics_route(const char *method, const char *path, const char *accept);

#endif
