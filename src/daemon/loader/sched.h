/* SPDX-License-Identifier: GPL-2.0 */
/* The scheduler's programs (bpf/sched.bpf.c), the program set progset_sched: wake-ups and
 * threaded IRQs' wake-to-run; the collector's wake-up cell reclaim (collect/wakeup_reclaim.c)
 * reads and writes its maps. */
#ifndef IRQLAT_LOADER_SCHED_H
#define IRQLAT_LOADER_SCHED_H

#include "daemon/loader/progset.h"

struct sched_bpf;

/* The scheduler object, NULL when it is not loaded */
struct sched_bpf *loader_sched(const struct loader *l);

#endif
