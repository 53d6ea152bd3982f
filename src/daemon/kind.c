// SPDX-License-Identifier: GPL-2.0
#include "kind.h"
#include "outlier.h"

static const struct kind_desc kinds[KINDS] = {
	[KIND_HARDIRQ] = {
		.name = "hardirq",
		.noun = "hard-IRQ handler",
		.series_key = "irqs",
		.sub_key = "irq",
		.aux_key = "spurious",
		.value_key = "duration_ns",
		.metric = "irqlat_handler",
		.name_label = "handler",
		.value_help = "Run time of a hard-IRQ handler",
		.aux_help = "Runs of a hard-IRQ handler that returned IRQ_NONE (not its device's interrupt).",
		.journal_sub = "IRQ",
		.outlier_what = "handler ran",
		.outlier_task = "interrupting",
		.outlier_mid = MID_OUTLIER,
		.tracepoints = { "irq:irq_handler_entry", "irq:irq_handler_exit" },
	},
};

const struct kind_desc *kind_get(enum lat_kind k)
{
	return k < KINDS ? &kinds[k] : &kinds[0];
}
