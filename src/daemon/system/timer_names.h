/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel functions that can run as hrtimer callbacks, named at start-up in one scan of
 * /proc/kallsyms, so that the timer series they name later cost the daemon's loop no scan. */
#ifndef IRQLAT_TIMER_NAMES_H
#define IRQLAT_TIMER_NAMES_H

#include <stdint.h>

struct btf;

/* Names every vmlinux function whose BTF prototype returns enum hrtimer_restart (ksym.c's
 * cache) and finds hrtimer_wakeup's address (*wakeup_fn; 0 when not found). Returns how many
 * were found, or ksym_prefill()'s error. */
int timer_names_prefill(const struct btf *vmlinux, uint64_t *wakeup_fn);

#endif
