/* SPDX-License-Identifier: GPL-2.0 */
/* The timers' programs (bpf/timer.bpf.c), the program set progset_timer: what the daemon
 * changes in them while they run. */
#ifndef IRQLAT_LOADER_TIMER_H
#define IRQLAT_LOADER_TIMER_H

#include <stdbool.h>
#include "daemon/loader/progset.h"

/* log-idle: whether a timer late on an idle CPU that woke no task is sent as an outlier, or
 * only counted (struct why_count.unsent); from the next such timer on. Nothing when the
 * timers are not loaded. */
void loader_set_log_idle(struct loader *l, bool on);

#endif
