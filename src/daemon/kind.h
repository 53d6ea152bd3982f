/* SPDX-License-Identifier: GPL-2.0 */
/* The latency kinds (enum lat_kind, irqlat_abi.h) by name: what the collector, the answers,
 * /metrics and the journal call each kind's series and fields. The sinks iterate kinds and
 * take every name from here, so a new kind is one entry (docs/architecture.md, "adding a
 * latency kind"). */
#ifndef IRQLAT_KIND_H
#define IRQLAT_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "irqlat_abi.h"

struct jfields;

struct kind_desc {
	const char *name;		/* "hardirq": events' "kind", and the option names */
	const char *noun;		/* "hard-IRQ handler": help texts and log lines */
	/* The answers: an array per series_key, one element per series. A kind whose join is
	 * another kind adds its figures to that kind's element of the same sub (softirq raise
	 * latency beside softirq run time), under its prefix, counts included. */
	const char *series_key;		/* "irqs" */
	enum lat_kind join;		/* itself, or the kind whose elements it joins */
	const char *prefix;		/* "", "run_", "raise_": before its value fields (avg_ns, p50_ns, ...) */
	const char *sub_key;		/* "irq": field (and metric label) of sub; NULL: sub indexes sub_names, not shown */
	bool sub_is_cpu;		/* sub is the CPU (timers: a series per function and CPU): not in log lines */
	bool own_object;		/* report.c shapes its answers itself (timers: per class and per CPU) */
	bool named_by_address;		/* id is a kernel function, named from /proc/kallsyms (ksym.c) */
	const char *name_key;		/* "name", "vector": field of the series' name */
	const char *const *sub_names;	/* a kind named in user space: its names by sub (NULL: named by its program) */
	unsigned nsub_names;
	const char *aux_key;		/* "spurious": the answers' field of aux; NULL: none */
	const char *value_key;		/* "duration_ns": an outlier event's value */
	/* /metrics */
	const char *metric;		/* "irqlat_handler": prefix of its metric families */
	const char *hist_suffix;	/* "_duration_seconds": its histogram's name after the prefix */
	bool counters;			/* the runs, seconds and max families too (not for a joined kind) */
	const char *name_label;		/* "handler": metric label of the series' name */
	const char *value_help;		/* what a value is: "Run time of a hard-IRQ handler" */
	const char *aux_help;		/* what aux counts */
	/* the journal and log lines */
	const char *what;		/* "IRQ", "softirq", "vector": a series in a line, "IRQ 36 (name)", "softirq NET_RX" */
	const char *journal_sub;	/* "IRQ": field of sub (and IRQ_NAME of the name); of the name when sub is not shown */
	const char *journal_value;	/* "DURATION_NS": field of an outlier's value */
	const char *outlier_what;	/* "handler ran": "IRQ 36 (name) handler ran 120 us" */
	const char *outlier_task;	/* "interrupting": before the task that was on the CPU */
	const char *outlier_mid;	/* MESSAGE_ID of its outliers (docs/irqlatd.catalog) */
};

const struct kind_desc *kind_get(enum lat_kind k);
/* The name of series sub of a kind named in user space; NULL for the others (and out of range). */
const char *kind_sub_name(enum lat_kind k, uint32_t sub);
/* The name of a series its program does not name (sub_names, kallsyms, "(other)"); name
 * is left alone when none of them applies. */
void kind_name_series(enum lat_kind k, uint64_t id, uint32_t sub, char *name, size_t len);
/* A timer function's class: "tick" (the scheduler tick), "sleep" (hrtimer_wakeup), "other" */
const char *timer_class(const char *function);
/* "IRQ 36 (virtio1-req.0)", "softirq NET_RX": a series in a log line */
void kind_describe(char *buf, size_t len, enum lat_kind k, uint32_t sub, const char *name);
/* The journal fields that name a series: IRQ=36 IRQ_NAME=virtio1-req.0, or SOFTIRQ=NET_RX */
void kind_journal_fields(struct jfields *f, enum lat_kind k, uint32_t sub, const char *name);

#endif
