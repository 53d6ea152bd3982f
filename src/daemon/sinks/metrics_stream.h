/* SPDX-License-Identifier: GPL-2.0 */
#ifndef IRQLAT_METRICS_STREAM_H
#define IRQLAT_METRICS_STREAM_H

#include <stddef.h>
#include <sys/types.h>
#include "daemon/sinks/metrics.h"

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

#endif
