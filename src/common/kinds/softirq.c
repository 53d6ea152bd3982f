// SPDX-License-Identifier: GPL-2.0
/* The softirq kinds (bpf/softirq.bpf.c): a vector's run time, and its raise-to-run latency
 * beside it in the same element. */
#include "common/kinds/kind.h"
#include "common/macro.h"

/* The rows of /proc/softirqs, in vector order (enum in include/linux/interrupt.h) */
static const char *const softirq_names[SOFTIRQ_VECTORS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

const struct kind_desc kind_softirq = {
	.name = "softirq",
	.noun = "softirq vector",
	.threshold = { .help = "softirq runs", .default_us = 500 },
	.disable = { .help = "softirqs (nor their raise latency)", .alias = "no-softirqs",
		     .also = KIND_BIT(KIND_SOFTIRQ_RAISE) },
	.series_key = "softirqs",
	.join = KIND_SOFTIRQ,
	.prefix = "run_",
	.name_key = "vector",
	.sub_names = softirq_names,
	.nsub_names = ELEMENTSOF(softirq_names),
	.value_key = "duration_ns",
	.cells = { .per_cpu = SOFTIRQ_VECTORS },
	.cpu_load = { .order = 3, .header = "SOFTIRQ%", .worst = "SOFTIRQ  %", .worst_width = 14 },
	.event_line = "softirq={vector} duration={duration_ns:duration}",
	.metric = "irqlat_softirq",
	.hist_suffix = "_duration_seconds",
	.counters = true,
	.name_label = "vector",
	.value_help = "Run time of a softirq vector (softirq_entry to softirq_exit; hard IRQs that interrupt it included)",
	.what = "softirq",
	.journal_sub = "SOFTIRQ",
	.journal_value = "DURATION_NS",
	.outlier_what = "ran",
	.outlier_task = "in",
	.outlier_mid = "f7f2f3acaedf480791bfdb5e03cfb218",
	.table = {
		.array = "softirqs",
		.title = "softirqs (run time; RAISE: raise-to-run latency)",
		.noun = "softirq vector",
		.view = "softirqs (RAISE99 RAISEMAX: raise-to-run latency)",
		.key_word = "softirqs",
		.row_name = "{vector}",
		.hide = "irq,spurious",
		.add = "raise99,raisemax",
		.screen_hist = "softirq {name} run time",
	},
	.hist_title = "softirq {vector}",
	.count_noun = "runs",
};

const struct kind_desc kind_softirq_raise = {
	.name = "softirq_raise",
	.noun = "softirq raise",
	.threshold = { .help = "softirq raise-to-run latencies", .default_us = 2000 },
	.series_key = "softirqs",
	.join = KIND_SOFTIRQ,
	.prefix = "raise_",
	.name_key = "vector",
	.sub_names = softirq_names,
	.nsub_names = ELEMENTSOF(softirq_names),
	.value_key = "latency_ns",
	.cells = { .per_cpu = SOFTIRQ_VECTORS },
	.event_line = "softirq={vector} raise_latency={latency_ns:duration}",
	.metric = "irqlat_softirq_raise",
	.hist_suffix = "_latency_seconds",
	.counters = false,
	.name_label = "vector",
	.value_help = "Raise-to-run latency of a softirq vector (its first raise while not pending to its softirq_entry, same CPU)",
	.what = "softirq",
	.series_suffix = " raise latency",
	.journal_sub = "SOFTIRQ",
	.journal_value = "LATENCY_NS",
	.outlier_what = "waited to run for",
	.outlier_task = "then ran in",
	.outlier_mid = "fc984fba5ba5471fbfaf3c2548420e0e",
	.hist_title = "softirq {vector} raise-to-run latency",
	.count_noun = "raises",
};
