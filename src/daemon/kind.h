/* SPDX-License-Identifier: GPL-2.0 */
/* The latency kinds (enum lat_kind, irqlat_abi.h) by name: what the collector, the answers,
 * /metrics and the journal call each kind's series and fields. The sinks iterate kinds and
 * take every name from here, so a new kind is one entry (docs/architecture.md, "adding a
 * latency kind"). */
#ifndef IRQLAT_KIND_H
#define IRQLAT_KIND_H

#include "irqlat_abi.h"

struct kind_desc {
	const char *name;		/* "hardirq" */
	const char *noun;		/* "hard-IRQ handler": help texts and log lines */
	const char *series_key;		/* "irqs": the answers' array of its series */
	const char *sub_key;		/* "irq": the answers' field (and metric label) of a series' sub */
	const char *aux_key;		/* "spurious": the answers' field of aux */
	const char *value_key;		/* "duration_ns": an outlier event's value */
	const char *metric;		/* "irqlat_handler": prefix of its metric families */
	const char *name_label;		/* "handler": metric label of the series' name */
	const char *value_help;		/* what a value is: "Run time of a hard-IRQ handler" */
	const char *aux_help;		/* what aux counts */
	const char *journal_sub;	/* "IRQ": journal field of sub (and IRQ_NAME of the name) */
	const char *outlier_what;	/* "handler ran": an outlier's line, "IRQ 36 (name) handler ran 120 us" */
	const char *outlier_task;	/* "interrupting": before the task that was on the CPU */
	const char *outlier_mid;	/* MESSAGE_ID of its outliers (docs/irqlatd.catalog) */
	const char *tracepoints[2];	/* what its programs are attached to, for status */
};

const struct kind_desc *kind_get(enum lat_kind k);

#endif
