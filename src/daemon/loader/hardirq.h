/* SPDX-License-Identifier: GPL-2.0 */
/* The hard-IRQ object (bpf/hardirq.bpf.c), which owns the maps every kind shares (the cell
 * pool, the ring buffer, the drop counters, the threaded IRQs' state): loaded by the loader
 * before any program set, its two programs attached as the set progset_hardirq. */
#ifndef IRQLAT_LOADER_HARDIRQ_H
#define IRQLAT_LOADER_HARDIRQ_H

#include "daemon/loader/progset.h"

/* Opens the object into l->skel, sizes its maps for o, keeps the twin of each program that
 * env's attach style uses, and loads it. 0 or a negative errno, said. */
int hardirq_object_load(struct loader *l, const struct loader_opts *o, const struct progset_env *env);
void hardirq_object_close(struct loader *l);

#endif
