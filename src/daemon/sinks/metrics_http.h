/* SPDX-License-Identifier: GPL-2.0 */
/* The /metrics endpoint's HTTP server: libmicrohttpd on the daemon's sd_event loop, no thread;
 * who gets in and for how long (irqlatd(8), LIMITS). The page is metrics.c's. */
#ifndef IRQLAT_METRICS_HTTP_H
#define IRQLAT_METRICS_HTTP_H

#include <stdint.h>
#include <sys/socket.h>
#include <systemd/sd-event.h>
#include "daemon/sinks/metrics.h"

struct metrics;

/* irqlatd(8), LIMITS */
struct metrics_limits {
	unsigned max_connections;	/* open at once; a new one shuts the longest waiting */
	unsigned timeout_s;		/* to send a whole request, and of silence while answered */
};

/* Who may read the page (irqlatd(8), ACCESS): files read at start */
struct metrics_access {
	const char *tls_cert, *tls_key;	/* PEM files: HTTPS; NULL or "": plain HTTP */
	const char *auth_file;		/* one line USER:PASSWORD: basic authentication; NULL or "": none */
};

struct metrics_stats {
	unsigned open;			/* connections now */
	uint64_t accepted, evicted, timed_out, refused, accept_pauses;
	uint64_t bad_requests;		/* bytes that were no HTTP request: 400 at once */
	uint64_t unauthorized;		/* requests without the user and password: 401 */
};

/* Serves on the socket systemd passed under the name "metrics" if there is one, otherwise on
 * addr ("HOST:PORT", "[V6]:PORT"; NULL or "": no metrics unless systemd passed a socket).
 * *out stays NULL when there is nothing to serve. Logs and returns < 0 on failure. */
int metrics_open(struct metrics **out, sd_event *ev, const char *addr, const struct metrics_sources *src,
		 const struct metrics_limits *limits, const struct metrics_access *access);
/* The same on a listening socket fd (taken, closed on failure); where names it in lines. */
int metrics_serve(struct metrics **out, sd_event *ev, int fd, const char *where, const struct metrics_sources *src,
		  const struct metrics_limits *limits, const struct metrics_access *access);
/* One accepted connection (fd taken) as the listener hands it over: for the fuzzer. */
int metrics_http_add(struct metrics *m, int fd, const struct sockaddr *sa, socklen_t salen);
/* Whether p[0..n), the first bytes of a connection, begin a request line: 1 a method (RFC
 * 9110 tchars, at most HTTP_METHOD_MAX) and a space, 0 a method so far, -1 no HTTP request. */
#define HTTP_METHOD_MAX 32
int http_request_start(const char *p, size_t n);
/* Shuts down the connections that have waited http-timeout-s for a whole request by now_us
 * (CLOCK_MONOTONIC, the loop's now); how many. The deadline timer calls it; so do the tests. */
unsigned metrics_http_expire(struct metrics *m, uint64_t now_us);
struct metrics_stats metrics_stats(const struct metrics *m);
void metrics_close(struct metrics *m);

#endif
