// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "kind.h"
#include "ksym.h"
#include "log.h"
#include "outlier.h"
#include "common/macro.h"

/* The rows of /proc/softirqs, in vector order (enum in include/linux/interrupt.h) */
static const char *const softirq_names[SOFTIRQ_VECTORS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

/* The /proc/interrupts labels, by enum vector_label (arch/x86/kernel/irq.c) */
static const char *const vector_names[VECTOR_LABELS] = {
	[VEC_LOC] = "LOC", [VEC_SPU] = "SPU", [VEC_ERR] = "ERR", [VEC_PLT] = "PLT", [VEC_IWI] = "IWI",
	[VEC_RES] = "RES", [VEC_CAL] = "CAL", [VEC_THR] = "THR", [VEC_DFR] = "DFR", [VEC_TRM] = "TRM",
};

static const struct kind_desc kinds[KINDS] = {
	[KIND_HARDIRQ] = {
		.name = "hardirq",
		.noun = "hard-IRQ handler",
		.series_key = "irqs",
		.join = KIND_HARDIRQ,
		.prefix = "",
		.sub_key = "irq",
		.name_key = "name",
		.aux_key = "spurious",
		.value_key = "duration_ns",
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
		.outlier_mid = MID_OUTLIER,
	},
	[KIND_SOFTIRQ] = {
		.name = "softirq",
		.noun = "softirq vector",
		.series_key = "softirqs",
		.join = KIND_SOFTIRQ,
		.prefix = "run_",
		.name_key = "vector",
		.sub_names = softirq_names,
		.nsub_names = ELEMENTSOF(softirq_names),
		.value_key = "duration_ns",
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
		.outlier_mid = MID_OUTLIER_SOFTIRQ,
	},
	[KIND_SOFTIRQ_RAISE] = {
		.name = "softirq_raise",
		.noun = "softirq raise",
		.series_key = "softirqs",
		.join = KIND_SOFTIRQ,
		.prefix = "raise_",
		.name_key = "vector",
		.sub_names = softirq_names,
		.nsub_names = ELEMENTSOF(softirq_names),
		.value_key = "latency_ns",
		.metric = "irqlat_softirq_raise",
		.hist_suffix = "_latency_seconds",
		.counters = false,
		.name_label = "vector",
		.value_help = "Raise-to-run latency of a softirq vector (its first raise while not pending to its softirq_entry, same CPU)",
		.what = "softirq",
		.journal_sub = "SOFTIRQ",
		.journal_value = "LATENCY_NS",
		.outlier_what = "waited to run for",
		.outlier_task = "then ran in",
		.outlier_mid = MID_OUTLIER_SOFTIRQ_RAISE,
	},
	[KIND_VECTOR] = {
		.name = "vector",
		.noun = "vector interrupt",
		.series_key = "vectors",
		.join = KIND_VECTOR,
		.prefix = "",
		.name_key = "name",
		.sub_names = vector_names,
		.nsub_names = ELEMENTSOF(vector_names),
		.value_key = "duration_ns",
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
		.outlier_mid = MID_OUTLIER_VECTOR,
	},
	[KIND_TIMER] = {
		.name = "timer",
		.noun = "hrtimer function",
		.series_key = "timers",	/* report.c shapes its own object: per class and per CPU */
		.join = KIND_TIMER,
		.prefix = "lateness_",
		.sub_key = "cpu",
		.sub_is_cpu = true,
		.own_object = true,
		.name_key = "function",
		.named_by_address = true,
		.value_key = "lateness_ns",
		.metric = "irqlat_timer",
		.hist_suffix = "_lateness_seconds",
		.counters = false,
		.name_label = "function",
		.value_help = "Lateness of an hrtimer (hrtimer_expire_entry's now minus the timer's hard expiry, node.expires), by function and CPU",
		.what = "timer",
		.journal_sub = "TIMER_FUNCTION",
		.journal_value = "LATENESS_NS",
		.outlier_what = "fired late by",
		.outlier_task = "interrupting",
		.outlier_mid = MID_OUTLIER_TIMER,
	},
	[KIND_WAKEUP] = {
		.name = "wakeup",
		.noun = "task woken by its hrtimer",
		.series_key = "wakeups",
		.join = KIND_WAKEUP,
		.prefix = "latency_",
		.sub_key = "pid",
		.name_key = "comm",
		.value_key = "latency_ns",
		.metric = "irqlat_wakeup",
		.hist_suffix = "_latency_seconds",
		.counters = false,
		.name_label = "comm",
		.value_help = "Wake-up latency of a task woken by an hrtimer (hrtimer_wakeup): the timer's hard expiry to the task switched in, by task",
		.what = "task",
		.journal_sub = "WOKEN_PID",
		.journal_value = "LATENCY_NS",
		.outlier_what = "ran after its timer by",
		.outlier_task = "switching out",
		.outlier_mid = MID_OUTLIER_WAKEUP,
	},
	[KIND_WAKEUP_CPU] = {
		.name = "wakeup_cpu",
		.noun = "CPU's tasks woken by their hrtimer",
		.series_key = "wakeup_cpus",	/* report.c adds them to timers.cpus */
		.join = KIND_WAKEUP_CPU,
		.prefix = "wakeup_latency_",
		.sub_key = "cpu",
		.sub_is_cpu = true,
		.own_object = true,
		.name_key = "name",
		.value_key = "latency_ns",
		.metric = "irqlat_wakeup_cpu",
		.hist_suffix = "_latency_seconds",
		.counters = false,
		.name_label = NULL,	/* the CPU is the label */
		.value_help = "Wake-up latency of the tasks woken by an hrtimer (hrtimer_wakeup) on a CPU, every task together: the timer's hard expiry to the task switched in",
		.what = "wake-ups on CPU",
		.journal_sub = "CPU",
		.journal_value = "LATENCY_NS",
		.outlier_what = "ran after its timer by",
		.outlier_task = "switching out",
		.outlier_mid = MID_OUTLIER_WAKEUP,
	},
	[KIND_THREADED] = {
		.name = "threaded",
		.noun = "threaded IRQ",
		.series_key = "threaded",
		.join = KIND_THREADED,
		.prefix = "wakeup_",
		.sub_key = "irq",
		.name_key = "name",
		.value_key = "latency_ns",
		.metric = "irqlat_threaded_wakeup",
		.hist_suffix = "_latency_seconds",
		.counters = true,
		.name_label = "handler",
		.value_help = "Wake-to-run latency of an IRQ thread (the hard-IRQ exit that returned IRQ_WAKE_THREAD to the thread switched in)",
		.what = "IRQ",
		.journal_sub = "IRQ",
		.journal_value = "LATENCY_NS",
		.outlier_what = "thread woke and waited to run for",
		.outlier_task = "after",
		.outlier_mid = MID_OUTLIER_THREADED,
	},
	[KIND_THREADED_RUN] = {
		.name = "threaded_run",
		.noun = "IRQ thread handler",
		.series_key = "threaded",
		.join = KIND_THREADED,
		.prefix = "run_",
		.sub_key = "irq",
		.name_key = "thread",
		.value_key = "duration_ns",
		.metric = "irqlat_threaded_run",
		.hist_suffix = "_duration_seconds",
		.counters = false,
		.name_label = "thread",
		.value_help = "Run time of an IRQ thread's handler (irq_thread_fn or irq_forced_thread_fn, entry to return; preemption included)",
		.what = "IRQ",
		.journal_sub = "IRQ",
		.journal_value = "DURATION_NS",
		.outlier_what = "thread handler ran",
		.outlier_task = "in",
		.outlier_mid = MID_OUTLIER_THREADED_RUN,
	},
};

const struct kind_desc *kind_get(enum lat_kind k)
{
	return k < KINDS ? &kinds[k] : &kinds[0];
}

const char *kind_sub_name(enum lat_kind k, uint32_t sub)
{
	const struct kind_desc *d = kind_get(k);

	return d->sub_names && sub < d->nsub_names ? d->sub_names[sub] : NULL;
}

void kind_name_series(enum lat_kind k, uint64_t id, uint32_t sub, char *name, size_t len)
{
	const char *named = kind_sub_name(k, sub);

	if (named)
		snprintf(name, len, "%s", named);
	else if (kind_get(k)->named_by_address)
		ksym_name(id, name, len);
	else if (k == KIND_WAKEUP && id == 0)
		snprintf(name, len, "(other)");
	else if (k == KIND_WAKEUP_CPU)
		snprintf(name, len, "cpu%u", sub);
}

const char *timer_class(const char *function)
{
	if (!strcmp(function, "tick_nohz_handler") || !strcmp(function, "tick_sched_timer"))
		return "tick";
	if (!strcmp(function, "hrtimer_wakeup"))
		return "sleep";
	return "other";
}

void kind_describe(char *buf, size_t len, enum lat_kind k, uint32_t sub, const char *name)
{
	const struct kind_desc *d = kind_get(k);

	if (d->sub_key && !d->sub_is_cpu)
		snprintf(buf, len, "%s %u (%s)", d->what, sub, name);
	else
		snprintf(buf, len, "%s %s", d->what, name);
}

void kind_journal_fields(struct jfields *f, enum lat_kind k, uint32_t sub, const char *name)
{
	const struct kind_desc *d = kind_get(k);

	if (d->sub_key && !d->sub_is_cpu) {
		jf_add(f, "%s=%u", d->journal_sub, sub);
		jf_add(f, "%s_NAME=%s", d->journal_sub, name);
	} else {
		jf_add(f, "%s=%s", d->journal_sub, name);
	}
}
