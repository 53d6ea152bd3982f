/* SPDX-License-Identifier: GPL-2.0 */
/* One ring-buffer record of a tracepoint or a module: counts, gaps, lateness, the journal, subscribers (tp_events.c). */
#ifndef IRQLAT_TP_EVENTS_H
#define IRQLAT_TP_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include "daemon/tracepoints/tp_set.h"

/* A RB_TRACEPOINT or RB_MODULE record from the ring buffer; -EBADMSG (and nothing counted)
 * for a record too short or of no tracepoint of the set. */
int tracepoints_handle(struct tp_set *s, const void *data, size_t size);
/* ftrace's line for one event: "  comm-pid  [cpu] sec.usec: event: a=1 b=2". */
void tp_format_line(char *buf, size_t len, const struct tracepoint *t, const struct tracepoint_event *e);
/* An argument's value as JSON, by its type. */
json_object *tp_arg_json(const struct tp_arg *a, uint64_t v);
/* LOG_* of t's event entries (its journal setting, else tracepoint-priority), -1: none. */
int tp_journal_priority(const struct tp_set *s, const struct tracepoint *t);
/* Says what the journal rate limit held back in seconds that are over (UINT64_MAX: all). */
void tp_journal_flush(struct tp_set *s, uint64_t now_ns);

#endif
