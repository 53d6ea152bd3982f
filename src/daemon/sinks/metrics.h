/* SPDX-License-Identifier: GPL-2.0 */
/* GET /metrics (docs/metrics.md): what the page holds and which format a scraper gets: the
 * Prometheus text format 0.0.4, or the protobuf stream with native histograms when the scraper
 * asks for it. metrics_http.c serves it. */
#ifndef IRQLAT_METRICS_H
#define IRQLAT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "daemon/collect/collect.h"

struct daemon_config;

/* What the page shows of a consumed tracepoint. The tracepoints (src/daemon/tracepoints/) sit
 * above the sinks, so the page reaches them through the hooks of its sources. */
enum tp_counter { TP_COUNTER_EVENTS, TP_COUNTER_GAPS, TP_COUNTER_MISSED, TP_COUNTERS };
struct tp_info {
	const char *name;	/* as configured, at most TP_NAME_MAX bytes */
	bool attached;
	uint64_t counter[TP_COUNTERS];	/* cumulative since start */
};
struct tp_set;

struct why_store;

struct metrics_sources {
	const struct collector *col;
	const struct why_store *why;	/* the late waits' parts; NULL: no such family */
	const struct tp_set *tps;	/* NULL: no tracepoint families */
	unsigned (*tp_count)(const struct tp_set *s);
	struct tp_info (*tp_info)(const struct tp_set *s, unsigned i);
	const struct daemon_config *cfg;	/* read at each scrape (metrics-le-factor); NULL: defaults */
};

enum metrics_format { METRICS_TEXT, METRICS_PROTOBUF };

#define METRICS_PROTOBUF_TYPE \
	"application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"

/* The snapshot a stream is written from (metrics.c's walk), with the le bounds of le_factor;
 * NULL: out of memory */
struct page_snap *metrics_snapshot(const struct metrics_sources *src, unsigned le_factor);

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
	const char *body;		/* a fixed text; NULL with 200: the page, a metrics_stream */
	const char *content_type;
	const char *allow;		/* the Allow header of a 405, else NULL */
	enum metrics_format format;	/* of the page */
};
struct metrics_answer metrics_route(const char *method, const char *path, const char *accept);

#endif
