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

/* The page as it is sent (metrics_stream.c): a snapshot of the collector taken at once, in
 * the walk's one go (metrics_snap.h; 1 MiB for a 16 MB page), written out in the
 * format asked for a piece at a time as the scraper reads it, never whole. The pieces are
 * the page metrics_render_as() returns, byte for byte, whatever their sizes. */
struct metrics_stream;
#define METRICS_STREAM_BLOCK (32u << 10)	/* the piece libmicrohttpd asks for at most */

/* 0, or -ENOMEM */
int metrics_stream_new(const struct metrics_sources *src, enum metrics_format format, struct metrics_stream **out);
/* Up to max bytes of the page into buf: how many, 0 once it was all read, or -ENOMEM */
ssize_t metrics_stream_read(struct metrics_stream *s, char *buf, size_t max);
/* The bytes it holds: its snapshot and the piece being written */
size_t metrics_stream_held(const struct metrics_stream *s);
void metrics_stream_free(struct metrics_stream *s);

/* The page whole, for tests and fuzzers: the stream read into a malloc'ed buffer, its length
 * in *len; the text format is a NUL-terminated string, the protobuf stream binary. NULL: out of
 * memory. */
char *metrics_render_as(const struct metrics_sources *src, enum metrics_format format, size_t *len);
char *metrics_render(const struct metrics_sources *src, size_t *len);	/* the text format */

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
