/* SPDX-License-Identifier: GPL-2.0 */
/* A /metrics page as a snapshot (docs/metrics.md, "How the page is made"): the page writer's
 * calls (metrics_page.h), recorded compactly while metrics.c walks the collector, and replayed
 * later into the writer of the format asked for, one call at a time, as the page is sent.
 *
 * Why: the page at 4096 handlers on 256 CPUs is 16 MB of text, which the daemon held whole
 * until libmicrohttpd had sent it; the recording of the same calls is 1.0 MiB (labels once
 * per series and family, histograms as the buckets that hold runs, numbers as LEB128), and
 * as it is made in one go from the collector, between two ticks, it is one tick's state
 * however slowly it is then sent. */
#ifndef IRQLAT_METRICS_SNAP_H
#define IRQLAT_METRICS_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include "daemon/sinks/metrics_page.h"

struct page_snap;

/* A writer that records what it is handed; end() closes the recording. NULL: out of memory.
 * The histograms keep their buckets and sum_ns only: what the page writers read of them.
 * size_hint: bytes to reserve at first (it grows by halves past them). */
struct page_writer *page_snap_recorder(size_t size_hint);
/* The recording of a recorder whose end() returned 0, which it gives up (the recorder is
 * then freed as usual); NULL after a failure (out of memory while recording). */
struct page_snap *page_snap_take(struct page_writer *recorder);
void page_snap_free(struct page_snap *s);
/* Its size in bytes */
size_t page_snap_size(const struct page_snap *s);

/* Replaying: a position in the recording, from 0. */
enum page_snap_item { PAGE_SNAP_END, PAGE_SNAP_FAMILY, PAGE_SNAP_SERIES };
/* What the item at *pos is */
enum page_snap_item page_snap_peek(const struct page_snap *s, size_t pos);
/* Hands the item at *pos to w and moves past it; what it was (PAGE_SNAP_END: nothing left,
 * w->end() is the caller's) */
enum page_snap_item page_snap_replay(const struct page_snap *s, size_t *pos, struct page_writer *w);

#endif
