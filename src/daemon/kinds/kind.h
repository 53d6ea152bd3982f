/* SPDX-License-Identifier: GPL-2.0 */
/* What irqlatd alone does with the kind table (src/common/kinds/kind.h): naming a series its
 * program does not name (kallsyms, "(other)", "cpu1"), and a series in log lines and journal
 * fields. */
#ifndef IRQLAT_KIND_H
#define IRQLAT_KIND_H

#include <stddef.h>
#include <stdint.h>
#include "common/kinds/kind.h"

struct jfields;

/* The name of a series its program does not name (sub_names, kallsyms, pooled_name,
 * sub_name_prefix); name is left alone when none of them applies. */
void kind_name_series(enum lat_kind k, uint64_t id, uint32_t sub, char *name, size_t len);
/* A timer function's class: "tick" (the scheduler tick), "sleep" (hrtimer_wakeup), "other" */
const char *timer_class(const char *function);
/* "IRQ 36 (virtio1-req.0)", "softirq NET_RX": a series in a log line */
void kind_describe(char *buf, size_t len, enum lat_kind k, uint32_t sub, const char *name);
/* The journal fields that name a series: IRQ=36 IRQ_NAME=virtio1-req.0, or SOFTIRQ=NET_RX */
void kind_journal_fields(struct jfields *f, enum lat_kind k, uint32_t sub, const char *name);

#endif
