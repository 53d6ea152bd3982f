/* SPDX-License-Identifier: GPL-2.0 */
/* Why a wait was late, in words: an explained wait (struct why_event, bpf/irqlat_abi.h) with
 * its tasks and interrupts named, the names of its parts, each part's share and the one-line
 * summary the journal's MESSAGE and `irqlat events` carry ("cyclictest[1234] woke 1.7 ms late
 * on CPU 1: 71% blocking task stress-ng[99] (FIFO 99), 20% IRQ 36 virtio1-req.0, 9% other"),
 * and the wait as JSON, which irqlatd writes and irqlat reads back. Linked into both binaries:
 * no daemon state here. */
#ifndef IRQLAT_COMMON_WHY_H
#define IRQLAT_COMMON_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "irqlat_abi.h"

#define WHY_NAME_LEN 64	/* "IRQ 36 virtio1-req.0", "softirq NET_RX" */
#define WHY_KSTACK_TEXT 1024	/* 24 frames of 40 characters */
#define WHY_USTACK_TEXT 640	/* 8 of 80 */

/* A part: key is its word in JSON ("<key>_ns"), the metric's cause label and, upper-cased,
 * its journal field (WHY_<KEY>_NS); label what the breakdown calls it */
struct why_part_desc {
	const char *key;
	const char *label;
};
extern const struct why_part_desc why_parts[WHY_PARTS];
/* "wakeup", "threaded", "timer": the class of a wait (enum why_class) */
const char *why_class_name(enum why_class c);
int why_class_by_name(const char *s);

/* One event of a wait's timeline (the flight recorder's, struct flight_rec), named */
#define WHY_TIMELINE_MAX 48	/* events kept of a wait: its window, the newest if more */
#define WHY_TIMELINE_BEFORE 4	/* and so many before its start, what ran just before */
#define WHY_TL_NAME_LEN 32
struct why_tl {
	int64_t t_ns;		/* relative to the wait's start (the timer's expiry, the hard-IRQ exit) */
	uint32_t type;		/* enum flight_type */
	uint32_t a, b, c;	/* as in struct flight_rec */
	char name[WHY_TL_NAME_LEN];	/* the interrupt or the timer's function; "" unknown */
};

/* An explained wait with its names, everything a line or a screen says of it */
struct why_named {
	enum why_class cls;
	uint64_t ts_ns;			/* the wait's end, CLOCK_MONOTONIC */
	uint64_t total_ns;
	uint64_t part_ns[WHY_PARTS];	/* add up to total_ns */
	uint32_t cpu, wake_cpu;
	uint32_t flags;			/* WHY_F_* */
	uint32_t others;		/* other tasks switched in beside the blocking one */
	uint32_t pid;			/* the waiter (a late timer: the task it woke, 0: none) */
	char comm[TASK_COMM_LEN_ABI];	/* its comm ("" unknown) */
	int waiter_prio;		/* the kernel's prio: 0-99 real-time, 100-139 nice + 120 */
	uint32_t blocker_pid;		/* the task switched out for it (a late timer: the one interrupted) */
	int blocker_prio;
	int blocker_policy;		/* SCHED_* */
	char blocker_comm[TASK_COMM_LEN_ABI];
	char what[WHY_NAME_LEN];	/* a late timer's function; a threaded IRQ's "IRQ 36 name" */
	char top[RECENT_CLASSES][WHY_NAME_LEN];	/* the interrupt with most time in its part; "" none */
	uint64_t top_ns[RECENT_CLASSES];
	/* its timeline, oldest first (ntl 0: none came) */
	uint64_t start_ns;		/* the wait's start, CLOCK_MONOTONIC: the timeline's 0 */
	bool tl_partial;		/* the recorder's copy did not reach back to the start, or the window held more */
	bool tl_gone;			/* read back: irqlatd no longer kept the wait when asked */
	unsigned ntl;
	struct why_tl tl[WHY_TIMELINE_MAX];
	/* The stacks of the blocker at its switch-out (a late timer: of the context its interrupt
	 * found), when it was the task on the CPU: frames innermost first, joined by ';', kernel
	 * "function+0x1f", user "/usr/bin/dd+0x2010" (the mapping's file and the offset in it);
	 * "" none. Text, not addresses, so the client needs neither kallsyms nor the task. */
	uint32_t stack_pid;
	char kstack[WHY_KSTACK_TEXT];
	char ustack[WHY_USTACK_TEXT];
};

/* "irq", "vector", "softirq", "nmi", "switch", "timer", "wake" (enum flight_type); NULL: none */
const char *why_tl_type_name(unsigned type);
int why_tl_type_by_name(const char *s);
/* One timeline event as a line: "  +12.34 us  softirq NET_RX 40.10 us" (the wait's part
 * in the first column: '<' before its start, '|' in it, '>' after its end). end_ns: the wait's
 * length. Returns snprintf's length. */
int why_tl_line(char *buf, size_t len, const struct why_tl *e, uint64_t end_ns);

/* The part each class of recent interference events falls in (enum recent_class) */
enum why_part why_part_of_class(enum recent_class c);
/* "FIFO 99", "RR 5", "deadline", "nice 0", "batch nice 5", "idle" from the kernel's policy and prio */
void why_policy_text(char *buf, size_t len, int policy, int prio);
/* pct[i]: part i's share of total in whole percent, adding up to 100 (largest remainders);
 * all 0 when total is 0 */
void why_shares(const uint64_t part_ns[WHY_PARTS], uint64_t total_ns, unsigned pct[WHY_PARTS]);
/* What part p was, named: "blocking task stress-ng[99] (FIFO 99)", "IRQ 36 virtio1-req.0" */
void why_part_text(char *buf, size_t len, const struct why_named *w, enum why_part p);
/* Who waited, how long and where: "cyclictest[1234] woke 1.7 ms late on CPU 1" */
void why_headline(char *buf, size_t len, const struct why_named *w);
/* The headline and the biggest parts with their shares, the rest together as "other":
 * "cyclictest[1234] woke 1.7 ms late on CPU 1: 71% blocking task stress-ng[99] (FIFO 99),
 * 20% IRQ 36 virtio1-req.0, 9% other". Returns the length (snprintf's). */
int why_summary(char *buf, size_t len, const struct why_named *w);
/* The part that took most of the wait (the first of equals in rtla's order) */
enum why_part why_top_part(const struct why_named *w);
/* The flags as words ("idle_at_expiry", "moved", ...) into a JSON array */
json_object *why_flags_json(uint32_t flags);

/* {"class", "ts_ns", "cpu", "wake_cpu", "pid", "comm", "total_ns", "parts": {"<key>_ns"...},
 *  "blocker": {...}, "others", "top": {"irq": {"name","ns"}...}, "flags": [...], "cause",
 *  "summary"}: every outlier's event carries it, a few hundred bytes */
json_object *why_json(const struct why_named *w);
/* The rest, into why_json()'s object o, only where asked for: the timeline (some 50 objects,
 * several times the cost of all the rest: an event stream carrying it for every outlier fell
 * behind its ring buffer under emulation) as "timeline", the stacks as "stacks":
 * {"pid", "kernel": [frames], "user": [frames]} */
#define WHY_DETAIL_TIMELINE 1u
#define WHY_DETAIL_STACKS 2u
#define WHY_DETAIL_ALL (WHY_DETAIL_TIMELINE | WHY_DETAIL_STACKS)
void why_json_detail(json_object *o, const struct why_named *w, unsigned what);
/* Its timeline: {"start_ns", "partial", "events": [{"t_ns", "ts_ns", "what", "name", ...}]}; in
 * why_json()'s object as "timeline" when it has one and it was asked for (why_json_detail());
 * "timeline_gone": true there when irqlatd no longer kept the wait */
json_object *why_timeline_json(const struct why_named *w);
/* The wait's window out of its CPU's flight recorder (struct timeline_event, which must be of
 * the same wait): the records from its start on, and WHY_TIMELINE_BEFORE before it, oldest
 * first, at most WHY_TIMELINE_MAX (the newest), into w->tl, relative to t->start_ns. name
 * names an interrupt's or a timer's cell (cell index + 1) into buf ("" unknown); may be NULL. */
typedef void (*why_tl_name_fn)(void *ctx, unsigned type, uint32_t cell, char *buf, size_t len);
void why_timeline_pick(struct why_named *w, const struct timeline_event *t, why_tl_name_fn name, void *ctx);
/* The wait back from why_json()'s object: 0, or -EINVAL when it is not one */
int why_from_json(json_object *o, struct why_named *w);

#endif
