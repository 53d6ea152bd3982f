/* SPDX-License-Identifier: GPL-2.0 */
/* CPUs in irqlat's table: the isolated and nohz_full CPUs (the summary's isolated_cpus and
 * nohz_full_cpus), each IRQ's affinity (its handler's affinity and effective_affinity, as in
 * /proc/irq/N/), the per-CPU lines under a row, and the -C filter. CPU lists are the kernel's
 * text form (common/cpulist.h). */
#ifndef IRQLAT_CPULINE_H
#define IRQLAT_CPULINE_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "rows.h"

/* Fills r->cpus ("0,1!") and adds FLAG_ISOLATED / FLAG_AFFINITY to r->flags, from the
 * handler object h of the summary. */
void cpuline_mark_row(json_object *summary, json_object *h, struct row *r);
/* Whether handler h (an element of the summary's "irqs") ran on a CPU of list since the
 * daemon started. */
bool cpuline_ran_on(json_object *h, const char *list);
/* The per-CPU line of r, for example
 * "affinity 0-1, effective 1 | cpu 0: 12, idle | cpu 1 (isolated)!: 129.0k, 12901/s, 100%":
 * every CPU it ran on, or those of list when list is not NULL. The number of CPUs written. */
int cpuline_text(char *buf, size_t len, json_object *summary, const struct row *r, const char *list);
/* "isolated CPUs 1, nohz_full 1", or "" when the machine has neither. */
void cpuline_sets(char *buf, size_t len, json_object *summary);

#endif
