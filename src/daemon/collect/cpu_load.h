/* SPDX-License-Identifier: GPL-2.0 */
/* Each CPU's interrupt load over a window: the share of its time spent in hard-IRQ handlers,
 * in the CPU's own interrupts (vectors) and in softirqs, and the source of each class that
 * took the most, with the CPU's isolated and nohz_full marks: the summary's "cpu_load"
 * (docs/architecture.md, section 11). */
#ifndef IRQLAT_CPU_LOAD_H
#define IRQLAT_CPU_LOAD_H

#include <json-c/json.h>
#include "daemon/collect/collect.h"

/* [{"cpu", "isolated", "nohz_full", "hardirq_share", "vector_share", "softirq_share",
 *   "total_share", "hardirq_worst", "vector_worst", "softirq_worst"}], one per possible CPU,
 * or per CPU of pick (-C) when it is not NULL */
json_object *cpu_load_json(const struct collector *c, enum window w, const struct cpu_pick *pick);

#endif
