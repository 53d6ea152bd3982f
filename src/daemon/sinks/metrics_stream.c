// SPDX-License-Identifier: GPL-2.0
/* The page as it is sent (metrics.h): the snapshot metrics.c's walk makes at once, replayed
 * into the format's writer one family or series at a time, each time the scraper's connection
 * wants more, into a buffer that holds one series' text (a histogram: 30 lines, 200 at
 * metrics-le-factor 1).
 *
 * Why not the page whole: at 4096 handlers on 256 CPUs it is 16 MB of text, which on top of
 * the cells and the 60 ticks' store took the daemon past its 64 MiB bound (docs/bench.md,
 * "The daemon at scale"), and a page per scraper in flight. A stream holds its snapshot (1.0 MiB
 * there) and one series' text; a slow scraper holds that much while it reads, and it
 * writes nothing the scraper has not asked for, so a stalled one holds no more (and is closed
 * by http-timeout-s of silence, metrics_http.c). A piece costs the writing of one piece: the
 * daemon's loop is not held by a scrape, however slow. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/config/config.h"
#include "daemon/sinks/metrics_stream.h"
#include "daemon/sinks/metrics_pb.h"
#include "daemon/sinks/metrics_snap.h"
#include "daemon/sinks/metrics_text.h"

struct metrics_stream {
	struct page_snap *snap;
	size_t pos;		/* of the next item to write */
	struct page_writer *w;
	FILE *f;		/* the writer's output: into text */
	char *text;		/* written, not yet read: [off, len) */
	size_t off, len, cap;
	bool ended;		/* the writer's end() was called */
};

static ssize_t text_write(void *cookie, const char *data, size_t n)
{
	struct metrics_stream *s = cookie;

	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 16384;
		char *t;

		while (cap < s->len + n)
			cap *= 2;
		t = realloc(s->text, cap);
		if (!t)
			return -1;	/* stdio: a write error, seen by ferror() */
		s->text = t;
		s->cap = cap;
	}
	memcpy(s->text + s->len, data, n);
	s->len += n;
	return (ssize_t)n;
}

void metrics_stream_free(struct metrics_stream *s)
{
	if (!s)
		return;
	if (s->w)
		s->w->free(s->w);
	if (s->f)
		fclose(s->f);
	page_snap_free(s->snap);
	free(s->text);
	free(s);
}

int metrics_stream_new(const struct metrics_sources *src, enum metrics_format format, struct metrics_stream **out)
{
	unsigned le_factor = src->cfg ? src->cfg->metrics_le_factor : METRICS_LE_FACTOR_DEFAULT;
	struct metrics_stream *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	/* the writer first: the snapshot is the request's moment, the last thing done */
	s->f = fopencookie(s, "w", (cookie_io_functions_t){ .write = text_write });
	if (s->f)
		s->w = format == METRICS_PROTOBUF ? metrics_pb_writer(s->f, le_factor) : metrics_text_writer(s->f, le_factor);
	if (s->w)
		s->snap = metrics_snapshot(src, le_factor);
	if (!s->snap) {
		metrics_stream_free(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

/* The next item of the snapshot into text; at the end, the writer's end */
static int step(struct metrics_stream *s)
{
	enum page_snap_item item = page_snap_peek(s->snap, s->pos);

	if (item == PAGE_SNAP_END) {
		s->ended = true;
		int r = s->w->end(s->w);

		return fflush(s->f) != 0 || r < 0 ? -ENOMEM : 0;
	}
	if (item == PAGE_SNAP_FAMILY && s->w->measure) {
		/* a writer that must know the family's length first: the family, then its
		 * series, counted without a byte written */
		size_t pos = s->pos;

		s->w->measure(s->w, true);
		page_snap_replay(s->snap, &pos, s->w);
		while (page_snap_peek(s->snap, pos) == PAGE_SNAP_SERIES)
			page_snap_replay(s->snap, &pos, s->w);
		s->w->measure(s->w, false);
	}
	page_snap_replay(s->snap, &s->pos, s->w);
	return fflush(s->f) != 0 || ferror(s->f) ? -ENOMEM : 0;
}

ssize_t metrics_stream_read(struct metrics_stream *s, char *buf, size_t max)
{
	size_t n = 0;

	while (n < max) {
		if (s->off < s->len) {
			size_t k = s->len - s->off < max - n ? s->len - s->off : max - n;

			memcpy(buf + n, s->text + s->off, k);
			s->off += k;
			n += k;
			continue;
		}
		s->off = s->len = 0;
		if (s->ended)
			break;
		if (step(s) < 0)
			return -ENOMEM;
	}
	return (ssize_t)n;
}

size_t metrics_stream_held(const struct metrics_stream *s)
{
	return page_snap_size(s->snap) + s->cap;
}

char *metrics_render_as(const struct metrics_sources *src, enum metrics_format format, size_t *len)
{
	struct metrics_stream *s;
	size_t cap = 65536, n = 0;
	char *page;
	ssize_t r;

	if (metrics_stream_new(src, format, &s) < 0)
		return NULL;
	page = malloc(cap);
	while (page) {
		if (cap - n < METRICS_STREAM_BLOCK + 1) {
			char *p = realloc(page, cap * 2);

			if (!p)
				break;
			page = p;
			cap *= 2;
		}
		r = metrics_stream_read(s, page + n, METRICS_STREAM_BLOCK);
		if (r <= 0) {
			if (r < 0)
				break;
			metrics_stream_free(s);
			page[n] = 0;
			*len = n;
			return page;
		}
		n += (size_t)r;
	}
	free(page);
	metrics_stream_free(s);
	return NULL;
}

char *metrics_render(const struct metrics_sources *src, size_t *len)
{
	return metrics_render_as(src, METRICS_TEXT, len);
}
