/* SPDX-License-Identifier: GPL-2.0 */
/* Attaching and detaching one tracepoint, and noticing it appear or change: tp_attach.c. */
#ifndef IRQLAT_TP_ATTACH_H
#define IRQLAT_TP_ATTACH_H

#include <stdbool.h>
#include "daemon/tracepoints/tp_set.h"

/* Loads and attaches t's program; on failure -errno, t->error says why, logged once here. */
int tp_attach(struct tp_set *s, struct tracepoint *t);
void tp_detach(struct tracepoint *t);
/* Detaches an attached t (journal entry, log line saying why); false when it was not. */
bool tp_detach_logged(struct tracepoint *t, const char *why);
/* What changed in tracefs since the last look, for a tracepoint that is not attached:
 * attaches it when it appeared or was reloaded (tp_attach's result), logs when it went. */
int tp_check(struct tp_set *s, struct tracepoint *t);
/* t holds its module (attached, module known). */
bool tp_holds_module(const struct tracepoint *t);

#endif
