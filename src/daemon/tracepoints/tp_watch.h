/* SPDX-License-Identifier: GPL-2.0 */
/* Module loads, frees and refused unloads (bpf/modwatch.bpf.c): tp_watch.c. */
#ifndef IRQLAT_TP_WATCH_H
#define IRQLAT_TP_WATCH_H

#include "daemon/tracepoints/tp_set.h"

/* Loads bpf/modwatch.bpf.c and attaches module_load/module_free; on a kernel without them,
 * says so once and leaves s->watch NULL (the tracefs check alone). */
int tp_watch_start(struct tp_set *s);
void tp_watch_stop(struct tp_set *s);
/* A RB_MODULE record. */
int tp_watch_handle(struct tp_set *s, const struct module_event *e);

#endif
