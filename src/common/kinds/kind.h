/* SPDX-License-Identifier: GPL-2.0 */
/* The latency kinds (enum lat_kind, bpf/irqlat_abi.h), one descriptor each: everything irqlatd
 * and irqlat need to name a kind and show it. Nothing else keeps a list of kinds: the options,
 * --help, reload, status, the answers, /metrics, the journal and outlier lines, irqlat's
 * tables, views, event lines and histograms walk this table (docs/architecture.md, "The kind
 * table", says who reads which field). The descriptors live one file per BPF object
 * (kinds/softirq.c holds softirq and softirq_raise); kind.c indexes them by enum lat_kind.
 * How irqlatd loads each kind's programs is the loader's (src/daemon/loader/, one program set
 * per BPF object): this half is linked into the client too, so it names no libbpf type. */
#ifndef IRQLAT_COMMON_KIND_H
#define IRQLAT_COMMON_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "irqlat_abi.h"

#define KIND_BIT(k) (1u << (k))

/* The configuration keys of a kind are made from its name, dashes for underscores:
 * KIND-threshold-us and no-KIND (src/daemon/config/kind_keys.c). */
struct kind_threshold {
	const char *help;	/* "hard-IRQ handler runs": what the threshold applies to; NULL: no key,
				 * the kind logs no outliers of its own */
	unsigned default_us;
	const char *alias;	/* an older spelling still read and documented ("threshold-us"), or NULL */
	char short_opt;		/* its one-letter option ('t'), or 0 */
	const char *status_key;	/* status's config field when not KIND_threshold_ns (the first kind's
				 * predates the others' and keeps its name) */
};

struct kind_disable {
	const char *help;	/* "softirqs (nor their raise latency)": what no-KIND does not measure;
				 * NULL: the kind has no such key */
	const char *alias;	/* "no-softirqs", or NULL */
	uint32_t also;		/* KIND_BIT()s of the kinds it turns off besides its own */
};

/* Its share of the cell pool when max-cells is not set (default_max_cells): per_cpu cells a CPU,
 * and at least at_least in all: room for every series it can have on every CPU */
struct kind_cells {
	unsigned per_cpu;
	unsigned at_least;
};

/* The share of each CPU's time that the kind's runs take (summary's cpu_load, irqlat's CPU load
 * table); order 0: its values are latencies, not time taken from the CPU */
struct kind_cpu_load {
	unsigned order;		/* 1, 2, ...: its place among the classes, in the answer and the table */
	const char *header;	/* "HARDIRQ%": the table's column of its share */
	const char *worst;	/* "WORST HANDLER  %": the column of its worst source */
	int worst_width;
};

/* irqlat's table of the kind's series: rows, views, histograms. Text templates name an
 * element's fields: "IRQ {irq} ({name})" (src/common/template.h). */
struct kind_table {
	const char *parent;	/* "timers": the answer's object that holds the array; NULL: the answer */
	const char *array;	/* "softirqs": the array of elements; NULL: the kind has no table */
	const char *title;	/* above its batch section and after "showing" on the screen */
	const char *noun;	/* "softirq vector": what irqlat hist NAME finds of it */
	const char *view;	/* the screen's help, the list the v key goes through */
	const char *key_word;	/* "softirqs": the v key on the key line; NULL: none (the first table,
				 * or one the key line leaves out for room) */
	const char *row_name;	/* "{thread|name}": a row's NAME */
	const char *hide;	/* "irq,spurious": default columns the table leaves out */
	const char *add;	/* "raise99,raisemax": columns it adds before FLAGS */
	const char *select_key;	/* "irq": the hist request's field selecting a series by its sub,
				 * which the row keeps; NULL: by the row's name */
	const char *screen_hist;	/* "IRQ {irq} {name}": the screen's histogram title, of the selected
					 * row's irq and name */
};

struct kind_desc {
	const char *name;		/* "softirq_raise": events' "kind", status's "kinds", the keys' word */
	const char *noun;		/* "hard-IRQ handler": metric HELP texts */
	struct kind_threshold threshold;
	struct kind_disable disable;
	/* The answers: an array per series_key, one element per series. A kind whose join is
	 * another kind adds its figures to that kind's element of the same id and sub (softirq
	 * raise latency beside softirq run time), under its prefix, counts included. */
	const char *series_key;		/* "irqs" */
	enum lat_kind join;		/* itself, or the kind whose elements it joins */
	const char *prefix;		/* "", "run_", "raise_": before its value fields (avg_ns, p50_ns, ...) */
	const char *sub_key;		/* "irq": field (and metric label) of sub; NULL: sub indexes sub_names, not shown */
	bool sub_is_cpu;		/* sub is the CPU (timers: a series per function and CPU): not in log lines */
	bool own_object;		/* report.c shapes its answers itself (timers: per class and per CPU) */
	bool named_by_address;		/* id is a kernel function, named from /proc/kallsyms (ksym.c) */
	bool storms;			/* its series are IRQ lines' handlers: storms (storm.c) and the IRQ's affinity */
	const char *name_key;		/* "name", "vector": field of the series' name */
	const char *const *sub_names;	/* a kind named in user space: its names by sub (NULL: named by its program) */
	unsigned nsub_names;
	const char *pooled_name;	/* the name of its series of id 0, which pools what has no cell of its own */
	const char *sub_name_prefix;	/* "cpu": a series named by its sub ("cpu1") */
	const char *aux_key;		/* "spurious": the answers' field of aux; NULL: none */
	const char *value_key;		/* "duration_ns": an outlier event's value */
	struct kind_cells cells;
	struct kind_cpu_load cpu_load;
	/* outlier events (irqlat events): the task on the CPU is "pid" and "comm", after this
	 * prefix when the kind's own fields use them (a wake-up's are the woken task's) */
	const char *event_task_prefix;
	const char *event_aux_key;	/* "woken_pid": an event's field of its aux, when not 0 */
	const char *event_line;		/* "softirq={vector} duration={duration_ns:duration}": irqlat events */
	/* /metrics */
	const char *metric;		/* "irqlat_handler": prefix of its metric families */
	const char *hist_suffix;	/* "_duration_seconds": its histogram's name after the prefix */
	bool counters;			/* the runs, seconds and max families too (not for a joined kind) */
	const char *name_label;		/* "handler": metric label of the series' name */
	const char *value_help;		/* what a value is: "Run time of a hard-IRQ handler" */
	const char *aux_help;		/* what aux counts */
	/* the counters' HELP when "Runs of a <noun>", "Time spent in a <noun>", "Longest run of a
	 * <noun>" would be wrong (a latency, not a run time); NULL: those */
	const char *runs_help, *seconds_help, *max_help;
	/* the journal and log lines */
	const char *what;		/* "IRQ", "softirq", "vector": a series in a line, "IRQ 36 (name)", "softirq NET_RX" */
	const char *series_suffix;	/* " raise latency": after the series where its partner's is the same */
	const char *journal_sub;	/* "IRQ": field of sub (and IRQ_NAME of the name); of the name when sub is not shown */
	const char *journal_value;	/* "DURATION_NS": field of an outlier's value */
	const char *journal_aux;	/* "WOKEN_PID": field of its aux, when not 0 */
	const char *outlier_what;	/* "handler ran": "IRQ 36 (name) handler ran 120 us" */
	const char *outlier_task;	/* "interrupting": before the task that was on the CPU */
	const char *outlier_aux;	/* "waking pid": before its aux, when not 0 */
	const char *outlier_mid;	/* MESSAGE_ID of its outliers (docs/irqlatd.catalog) */
	/* irqlat */
	struct kind_table table;
	const char *hist_title;		/* "softirq {vector} raise-to-run latency": irqlat hist; NULL: none */
	const char *count_noun;		/* "runs", "expiries": what its histogram counts */
};

/* The kind's descriptor; kinds past KINDS get the first kind's (an answer from a newer daemon) */
const struct kind_desc *kind_get(enum lat_kind k);
/* The kind named name ("softirq_raise"), or -ENOENT */
int kind_by_name(const char *name);
/* The name of series sub of a kind named in user space; NULL for the others (and out of range). */
const char *kind_sub_name(enum lat_kind k, uint32_t sub);
/* Whether kind k is one of the kinds whose table is shown (kind_table.array), and the next
 * such kind after k, wrapping round to the first */
bool kind_has_table(enum lat_kind k);
enum lat_kind kind_next_table(enum lat_kind k);
/* The kinds whose runs take CPU time (kind_cpu_load), in their order: n of them into out */
unsigned kind_cpu_load_classes(enum lat_kind out[KINDS]);

#endif
