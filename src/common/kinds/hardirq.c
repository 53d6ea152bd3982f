// SPDX-License-Identifier: GPL-2.0
/* The hard-IRQ kind (bpf/hardirq.bpf.c): every handler run, irq_handler_entry to _exit. */
#include "common/kinds/kind.h"

const struct kind_desc kind_hardirq = {
	.name = "hardirq",
	.noun = "hard-IRQ handler",
	.threshold = { .help = "hard-IRQ handler runs", .default_us = 100, .alias = "threshold-us", .short_opt = 't',
		       .status_key = "threshold_ns" },
	.series_key = "irqs",
	.join = KIND_HARDIRQ,
	.prefix = "",
	.sub_key = "irq",
	.storms = true,
	.name_key = "name",
	.aux_key = "spurious",
	.value_key = "duration_ns",
	.cells = { .per_cpu = 32, .at_least = 1024 },	/* most handlers fire on one CPU: 32 a CPU covers a busy server, 1024 a small one */
	.cpu_load = { .order = 1, .header = "HARDIRQ%", .worst = "WORST HANDLER  %", .worst_width = 26 },
	.event_line = "irq={irq} name={name} duration={duration_ns:duration}",
	.metric = "irqlat_handler",
	.hist_suffix = "_duration_seconds",
	.counters = true,
	.name_label = "handler",
	.value_help = "Run time of a hard-IRQ handler",
	.aux_help = "Runs of a hard-IRQ handler that returned IRQ_NONE (not its device's interrupt).",
	.what = "IRQ",
	.journal_sub = "IRQ",
	.journal_value = "DURATION_NS",
	.outlier_what = "handler ran",
	.outlier_task = "interrupting",
	.outlier_mid = "3f0c6d0e2b1a4f7e9a51c2d8e4b7a901",
	.table = {
		.array = "irqs",
		.title = "hard-IRQ handlers",
		.noun = "handler",
		.view = "handlers",
		.row_name = "{name}",
		.select_key = "irq",
		.screen_hist = "IRQ {irq} {name}",
	},
	.hist_title = "IRQ {irq} ({name})",
	.count_noun = "runs",
};
