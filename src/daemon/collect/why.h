/* SPDX-License-Identifier: GPL-2.0 */
/* The explanations of late waits (struct why_event, bpf/why.bpf.h) in the daemon: each paired
 * with its outlier, named (tasks, IRQ handlers, vectors, softirqs, NMI handlers from their
 * cells), kept among the recent ones of its CPU for `irqlat why`, and counted per CPU, class
 * of wait and part as received (status and /metrics show the kernel's own counts,
 * why_counts.h, and the difference as the waits not received).
 *
 * The BPF side sends an outlier record and right after it, from the same program on the same
 * CPU, its explanation with the same cell and ts_ns; records of other CPUs may come between
 * them, and a full ring buffer may have taken either. So an outlier of a kind that is explained
 * waits here (parked) for its explanation, and goes on without one once it has waited
 * WHY_PARK_NS or the park is full. */
#ifndef IRQLAT_COLLECT_WHY_H
#define IRQLAT_COLLECT_WHY_H

#include <stdbool.h>
#include <stdint.h>
#include "irqlat_abi.h"
#include "common/why.h"

struct collector;
struct why_counts;

#define WHY_RECENT_PER_CPU 64	/* explained waits kept per CPU, at most */
/* and on every CPU together at most so many (an explained wait with its timeline and stacks is
 * some 5 KiB: 5 MiB), but 4 a CPU at least */
#define WHY_RECENT_TOTAL 1024
#define WHY_RECENT_MIN 4
#define WHY_PARK 256		/* outliers waiting for their explanation */
#define WHY_PARK_NS 100000000ull	/* how long one waits: far longer than two submits apart */

struct why_parked {
	struct outlier_event e;
	uint64_t since_ns;	/* CLOCK_MONOTONIC when it came */
};

/* What the late waits of one CPU and class spent in each part, since start */
struct why_total {
	uint64_t waits, total_ns;
	uint64_t part_ns[WHY_PARTS];
	uint64_t unsent;		/* of waits, counted and not sent (struct why_count) */
};

struct why_store {
	unsigned ncpus;
	unsigned per_cpu;		/* the waits kept per CPU (WHY_RECENT_*) */
	struct why_named *recent;	/* ncpus rings of per_cpu */
	unsigned *head, *len;
	struct why_total *totals;	/* cpu * WHY_CLASSES + class: of the explanations received */
	struct why_counts *kernel;	/* the kernel's counts, which status and /metrics show
					 * (why_counts.h); NULL: none, the totals stand in */
	uint64_t explained;		/* explanations received */
	uint64_t unpaired;		/* outliers that went on without one (lost to a full ring buffer) */
	uint64_t lone;			/* explanations whose outlier never came */
	struct why_parked park[WHY_PARK];
	unsigned nparked;
	/* per CPU, the last timeline (RB_TIMELINE, 3 KiB), until the explanation it came before */
	struct timeline_event *timeline;
};

/* 0 or -ENOMEM */
int why_store_init(struct why_store *s, unsigned ncpus);
void why_store_free(struct why_store *s);
/* Whether outliers of kind k come with an explanation */
bool why_kind_explained(enum lat_kind k);
/* Parks outlier e that came at now_ns. When the park is full, the oldest is pushed out into
 * *out and true returned: it goes on without its explanation. */
bool why_park(struct why_store *s, const struct outlier_event *e, uint64_t now_ns, struct outlier_event *out);
/* The parked outlier of (cell, ts_ns) into *out, taken out of the park; false: none */
bool why_unpark(struct why_store *s, uint32_t cell, uint64_t ts_ns, struct outlier_event *out);
/* One outlier parked since before before_ns into *out, taken out (counted unpaired); false:
 * none left */
bool why_expired(struct why_store *s, uint64_t before_ns, struct outlier_event *out);

/* Record e with its names: the waiter's class and comm from its cell's series (or /proc), the
 * interrupts of top[] from theirs */
void why_name(struct why_named *w, const struct why_event *e, struct collector *c);
/* A wait's timeline, which comes right before its explanation from the same CPU: kept until
 * that explanation (why_timeline_take()) */
void why_timeline_keep(struct why_store *s, const struct timeline_event *t);
/* The timeline of explanation e, kept by why_timeline_keep(), into w (named, its window only);
 * none kept of it: w is left without one */
void why_timeline_take(struct why_store *s, struct why_named *w, const struct why_event *e, struct collector *c);
/* An explained wait into its CPU's recent ones and the totals; paired: its outlier came */
void why_add(struct why_store *s, const struct why_named *w, bool paired);

/* The kept waits, oldest first: calls fn for each (across CPUs in time order) */
/* The kept wait of that CPU that ended at ts_ns; NULL: none (no longer) */
const struct why_named *why_find(const struct why_store *s, uint32_t cpu, uint64_t ts_ns);
typedef void (*why_visit_fn)(const struct why_named *w, void *userdata);
void why_walk(const struct why_store *s, why_visit_fn fn, void *userdata);

#endif
