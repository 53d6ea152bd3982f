// SPDX-License-Identifier: GPL-2.0
/* The NMI kind (bpf/nmi.bpf.c): each NMI handler's run time as nmi:nmi_handler gives it (the
 * kernel times the handler itself: delta_ns), by handler, named from /proc/kallsyms, and CPU. */
#include "common/kinds/kind.h"

const struct kind_desc kind_nmi = {
	.name = "nmi",
	.noun = "NMI handler",
	.threshold = { .help = "NMI handler runs", .default_us = 100 },
	.disable = { .help = "NMI handlers (nmi:nmi_handler)" },
	.series_key = "nmis",
	.join = KIND_NMI,
	.prefix = "",
	.named_by_address = true,
	.name_key = "handler",
	.aux_key = "unhandled",
	.value_key = "duration_ns",
	.cells = { .per_cpu = 2 },	/* the handlers registered for local NMIs: perf and the backtrace's */
	/* no CPU load class yet: as the last kind with one and a table, irqlat's v would show the
	 * CPU load table after the NMI view instead of after the vectors' (top_load_after()) */
	.event_line = "nmi={handler} duration={duration_ns:duration}",
	.metric = "irqlat_nmi",
	.hist_suffix = "_duration_seconds",
	.counters = true,
	.name_label = "handler",
	.value_help = "Run time of an NMI handler (nmi:nmi_handler's delta_ns, timed by the kernel around the call), by handler and CPU",
	.aux_help = "Runs of an NMI handler that handled no event (not its NMI).",
	.what = "NMI handler",
	.journal_sub = "NMI_HANDLER",
	.journal_value = "DURATION_NS",
	.outlier_what = "ran",
	.outlier_task = "interrupting",
	.outlier_mid = "8055c376461e4215bc8967b12a6da21a",
	.table = {
		.array = "nmis",
		.title = "NMI handlers",
		.noun = "NMI handler",
		.view = "NMI handlers",
		.key_word = "nmis",
		.row_name = "{handler}",
		.hide = "irq,spurious",
		.screen_hist = "NMI handler {handler}",
	},
	.hist_title = "NMI handler {handler}",
	.count_noun = "runs",
};
