// SPDX-License-Identifier: GPL-2.0
/* The CPU's own interrupts (bpf/vector.bpf.c, x86's irq_vectors), by /proc/interrupts label. */
#include "common/kinds/kind.h"
#include "common/macro.h"

/* The /proc/interrupts labels, by enum vector_label (arch/x86/kernel/irq.c) */
static const char *const vector_names[VECTOR_LABELS] = {
	[VEC_LOC] = "LOC", [VEC_SPU] = "SPU", [VEC_ERR] = "ERR", [VEC_PLT] = "PLT", [VEC_IWI] = "IWI",
	[VEC_RES] = "RES", [VEC_CAL] = "CAL", [VEC_THR] = "THR", [VEC_DFR] = "DFR", [VEC_TRM] = "TRM",
};

const struct kind_desc kind_vector = {
	.name = "vector",
	.noun = "vector interrupt",
	.threshold = { .help = "vector interrupt runs", .default_us = 100 },
	.disable = { .help = "vector interrupts (irq_vectors:*, x86)", .alias = "no-vectors" },
	.series_key = "vectors",
	.join = KIND_VECTOR,
	.prefix = "",
	.name_key = "name",
	.sub_names = vector_names,
	.nsub_names = ELEMENTSOF(vector_names),
	.value_key = "duration_ns",
	.cells = { .per_cpu = VECTOR_LABELS },
	.cpu_load = { .order = 2, .header = "VECTOR%", .worst = "VECTOR  %", .worst_width = 12 },
	.event_line = "vector={name} duration={duration_ns:duration}",
	.metric = "irqlat_vector",
	.hist_suffix = "_duration_seconds",
	.counters = true,
	.name_label = "vector",
	.value_help = "Run time of one of the CPU's own interrupts (x86 irq_vectors entry to exit), by /proc/interrupts label",
	.what = "vector",
	.journal_sub = "VECTOR",
	.journal_value = "DURATION_NS",
	.outlier_what = "ran",
	.outlier_task = "interrupting",
	.outlier_mid = "5bb45ecec2b64bebb89ea48e85b1541b",
	.table = {
		.array = "vectors",
		.title = "vector interrupts (the CPU's own: local timer, IPIs)",
		.noun = "vector interrupt",
		.view = "vector interrupts",
		.key_word = "vectors",
		.row_name = "{name}",
		.hide = "irq,spurious",
		.screen_hist = "vector {name} run time",
	},
	.hist_title = "vector {name}",
	.count_noun = "runs",
};
