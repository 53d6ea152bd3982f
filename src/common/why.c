// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "common/json.h"
#include "common/macro.h"
#include "common/util.h"
#include "common/why.h"

/* in the order the delay builds up, as rtla's auto-analysis prints it */
const struct why_part_desc why_parts[WHY_PARTS] = {
	[WHY_LATE_IDLE] = { "late_idle", "timer lateness (exit from idle)" },
	[WHY_LATE_BUSY] = { "late_busy", "timer lateness (IRQs off or hypervisor)" },
	[WHY_IRQ] = { "irq", "IRQ interference" },
	[WHY_VECTOR] = { "vector", "vector interference" },
	[WHY_SOFTIRQ] = { "softirq", "softirq interference" },
	[WHY_NMI] = { "nmi", "NMI interference" },
	[WHY_IDLE] = { "idle", "idle after the wake-up" },
	[WHY_BLOCKING] = { "blocking", "blocking task" },
	[WHY_OTHERS] = { "others", "other tasks" },
	[WHY_REMAINDER] = { "remainder", "remainder (scheduler, preemption off)" },
	[WHY_UNSPLIT] = { "unsplit", "not split" },
};

static const char *const class_names[WHY_CLASSES] = {
	[WHY_CLASS_WAKEUP] = "wakeup", [WHY_CLASS_THREADED] = "threaded", [WHY_CLASS_TIMER] = "timer",
};

static const struct {
	uint32_t flag;
	const char *name;
} flag_names[] = {
	{ WHY_F_IDLE_AT_EXPIRY, "idle_at_expiry" }, { WHY_F_MOVED, "moved" },
	{ WHY_F_NO_CLOCKS, "no_clocks" }, { WHY_F_BLOCKER_LOWER, "blocker_lower" },
	{ WHY_F_RECENT_PARTIAL, "recent_partial" }, { WHY_F_SOFT, "soft" },
	{ WHY_F_ON_CPU, "on_cpu" }, { WHY_F_WOKE, "woke" }, { WHY_F_RAN_ON, "ran_on" },
};

const char *why_class_name(enum why_class c)
{
	return (unsigned)c < WHY_CLASSES ? class_names[c] : "?";
}

int why_class_by_name(const char *s)
{
	for (int i = 0; i < WHY_CLASSES; i++)
		if (!strcmp(s, class_names[i]))
			return i;
	return -EINVAL;
}

enum why_part why_part_of_class(enum recent_class c)
{
	static const enum why_part part[RECENT_CLASSES] = {
		[RECENT_IRQ] = WHY_IRQ, [RECENT_VECTOR] = WHY_VECTOR, [RECENT_SOFTIRQ] = WHY_SOFTIRQ, [RECENT_NMI] = WHY_NMI,
	};

	return part[c & (RECENT_CLASSES - 1)];
}

void why_policy_text(char *buf, size_t len, int policy, int prio)
{
	switch (policy) {
	case 1:	/* SCHED_FIFO */
	case 2:	/* SCHED_RR */
		snprintf(buf, len, "%s %d", policy == 1 ? "FIFO" : "RR", 99 - prio);
		break;
	case 6:	/* SCHED_DEADLINE */
		snprintf(buf, len, "deadline");
		break;
	case 5:	/* SCHED_IDLE */
		snprintf(buf, len, "idle");
		break;
	case 3:	/* SCHED_BATCH */
		snprintf(buf, len, "batch nice %d", prio - 120);
		break;
	default:
		snprintf(buf, len, "nice %d", prio - 120);
	}
}

void why_shares(const uint64_t part_ns[WHY_PARTS], uint64_t total_ns, unsigned pct[WHY_PARTS])
{
	uint64_t rem[WHY_PARTS];
	unsigned given = 0;

	memset(pct, 0, WHY_PARTS * sizeof(*pct));
	if (!total_ns)
		return;
	for (int i = 0; i < WHY_PARTS; i++) {
		/* 128-bit: a part of seconds times 100 fits 64 bits, but be exact whatever it is */
		unsigned __int128 x = (unsigned __int128)part_ns[i] * 100;

		pct[i] = (unsigned)(x / total_ns);
		rem[i] = (uint64_t)(x % total_ns);
		given += pct[i];
	}
	/* the points left go to the largest remainders, the earlier part first among equals */
	while (given < 100) {
		int best = -1;

		for (int i = 0; i < WHY_PARTS; i++)
			if (rem[i] && (best < 0 || rem[i] > rem[best]))
				best = i;
		if (best < 0)
			break;	/* the parts do not add up to the total: leave it short */
		pct[best]++;
		rem[best] = 0;
		given++;
	}
}

static void task_text(char *buf, size_t len, const char *comm, uint32_t pid)
{
	if (*comm)
		snprintf(buf, len, "%s[%u]", comm, pid);
	else
		snprintf(buf, len, "task %u", pid);
}

void why_part_text(char *buf, size_t len, const struct why_named *w, enum why_part p)
{
	char task[48], pol[32];

	switch (p) {
	case WHY_LATE_IDLE:
		snprintf(buf, len, "exit from idle");
		return;
	case WHY_LATE_BUSY:
		snprintf(buf, len, "timer IRQ late (IRQs off or hypervisor)");
		return;
	case WHY_IRQ:
	case WHY_VECTOR:
	case WHY_SOFTIRQ:
	case WHY_NMI: {
		static const char *const plural[RECENT_CLASSES] = { "hard IRQs", "vector interrupts", "softirqs", "NMIs" };
		int c = p == WHY_IRQ ? RECENT_IRQ : p == WHY_VECTOR ? RECENT_VECTOR : p == WHY_SOFTIRQ ? RECENT_SOFTIRQ : RECENT_NMI;

		snprintf(buf, len, "%s", *w->top[c] ? w->top[c] : plural[c]);
		return;
	}
	case WHY_IDLE:
		snprintf(buf, len, "idle");
		return;
	case WHY_BLOCKING:
		if (!w->blocker_pid) {
			snprintf(buf, len, "blocking task");
			return;
		}
		task_text(task, sizeof(task), w->blocker_comm, w->blocker_pid);
		why_policy_text(pol, sizeof(pol), w->blocker_policy, w->blocker_prio);
		snprintf(buf, len, "blocking task %s (%s)", task, pol);
		return;
	case WHY_OTHERS:
		if (w->others)
			snprintf(buf, len, "%u other task%s", w->others, w->others == 1 ? "" : "s");
		else
			snprintf(buf, len, "other tasks");
		return;
	case WHY_REMAINDER:
		if (w->flags & WHY_F_BLOCKER_LOWER && w->blocker_pid) {
			task_text(task, sizeof(task), w->blocker_comm, w->blocker_pid);
			why_policy_text(pol, sizeof(pol), w->blocker_policy, w->blocker_prio);
			snprintf(buf, len, "preemption off in %s (%s)", task, pol);
		} else {
			snprintf(buf, len, "scheduler or preemption off");
		}
		return;
	case WHY_UNSPLIT:
		if (w->flags & WHY_F_MOVED)
			snprintf(buf, len, "not split: woken on CPU %u", w->wake_cpu);
		else
			snprintf(buf, len, "not split: no clocks");
		return;
	default:
		snprintf(buf, len, "?");
	}
}

void why_headline(char *buf, size_t len, const struct why_named *w)
{
	char task[48], d[32];

	fmt_duration(d, sizeof(d), w->total_ns, " ");
	task_text(task, sizeof(task), w->comm, w->pid);
	switch (w->cls) {
	case WHY_CLASS_THREADED:
		snprintf(buf, len, "%s waited %s to run on CPU %u", task, d, w->cpu);
		break;
	case WHY_CLASS_TIMER:
		snprintf(buf, len, "timer %s fired %s late on CPU %u", *w->what ? w->what : "?", d, w->cpu);
		break;
	default:
		snprintf(buf, len, "%s woke %s late on CPU %u", task, d, w->cpu);
	}
}

/* The parts by size, largest first, rtla's order among equals */
static void by_size(const uint64_t *ns, int order[WHY_PARTS])
{
	for (int i = 0; i < WHY_PARTS; i++)
		order[i] = i;
	for (int i = 1; i < WHY_PARTS; i++)
		for (int j = i; j > 0 && ns[order[j]] > ns[order[j - 1]]; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

enum why_part why_top_part(const struct why_named *w)
{
	int order[WHY_PARTS];

	by_size(w->part_ns, order);
	return (enum why_part)order[0];
}

#define SUMMARY_PARTS 3		/* named one by one; the rest is "other" */
#define SUMMARY_MIN_PCT 5	/* a smaller part goes to "other" */

int why_summary(char *buf, size_t len, const struct why_named *w)
{
	unsigned pct[WHY_PARTS], named = 0, shown = 0;
	int order[WHY_PARTS];
	char part[128];
	size_t used;
	int n;

	why_headline(buf, len, w);
	used = strlen(buf);
	why_shares(w->part_ns, w->total_ns, pct);
	by_size(w->part_ns, order);
	for (int k = 0; k < WHY_PARTS && named < SUMMARY_PARTS; k++) {
		int p = order[k];

		if (!w->part_ns[p] || pct[p] < SUMMARY_MIN_PCT)
			break;
		why_part_text(part, sizeof(part), w, (enum why_part)p);
		n = snprintf(buf + used, used < len ? len - used : 0, "%s%u%% %s", named ? ", " : ": ", pct[p], part);
		used += n > 0 ? (size_t)n : 0;
		shown += pct[p];
		named++;
	}
	if (!named)
		n = snprintf(buf + used, used < len ? len - used : 0, ": no part of it took %d%%", SUMMARY_MIN_PCT);
	else if (shown < 100)
		n = snprintf(buf + used, used < len ? len - used : 0, ", %u%% other", 100 - shown);
	else
		n = 0;
	used += n > 0 ? (size_t)n : 0;
	return (int)used;
}

json_object *why_flags_json(uint32_t flags)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < ELEMENTSOF(flag_names); i++)
		if (flags & flag_names[i].flag)
			json_object_array_add(a, json_object_new_string(flag_names[i].name));
	return a;
}

static const char *const top_keys[RECENT_CLASSES] = { "irq", "vector", "softirq", "nmi" };

/* "a;b;c" as ["a","b","c"] */
static json_object *frames_json(const char *s)
{
	json_object *a = json_object_new_array();

	while (*s) {
		size_t n = strcspn(s, ";");

		json_object_array_add(a, json_object_new_string_len(s, (int)n));
		s += n + (s[n] == ';');
	}
	return a;
}

/* ["a","b","c"] back as "a;b;c" */
static void frames_from_json(json_object *a, char *buf, size_t len)
{
	size_t used = 0;

	*buf = 0;
	if (!a || !json_object_is_type(a, json_type_array))
		return;
	for (size_t i = 0; i < json_array_len(a) && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ";" : "",
				 json_object_get_string(json_array_at(a, i)));

		if (n > 0)
			used += (size_t)n;
	}
}

json_object *why_json(const struct why_named *w)
{
	json_object *o = json_object_new_object(), *parts = json_object_new_object(), *top = json_object_new_object();
	char key[32], pol[32], summary[512];

	json_object_object_add(o, "class", json_object_new_string(why_class_name(w->cls)));
	json_object_object_add(o, "ts_ns", json_object_new_uint64(w->ts_ns));
	json_object_object_add(o, "cpu", json_object_new_int((int)w->cpu));
	json_object_object_add(o, "wake_cpu", json_object_new_int((int)w->wake_cpu));
	json_object_object_add(o, "pid", json_object_new_int((int)w->pid));
	json_object_object_add(o, "comm", json_object_new_string(w->comm));
	json_object_object_add(o, "waiter_prio", json_object_new_int(w->waiter_prio));
	if (*w->what)
		json_object_object_add(o, "what", json_object_new_string(w->what));
	json_object_object_add(o, "total_ns", json_object_new_uint64(w->total_ns));
	for (int i = 0; i < WHY_PARTS; i++) {
		snprintf(key, sizeof(key), "%s_ns", why_parts[i].key);
		json_object_object_add(parts, key, json_object_new_uint64(w->part_ns[i]));
	}
	json_object_object_add(o, "parts", parts);
	if (w->blocker_pid || *w->blocker_comm) {
		json_object *b = json_object_new_object();

		json_object_object_add(b, "pid", json_object_new_int((int)w->blocker_pid));
		json_object_object_add(b, "comm", json_object_new_string(w->blocker_comm));
		json_object_object_add(b, "policy", json_object_new_int(w->blocker_policy));
		json_object_object_add(b, "prio", json_object_new_int(w->blocker_prio));
		why_policy_text(pol, sizeof(pol), w->blocker_policy, w->blocker_prio);
		json_object_object_add(b, "sched", json_object_new_string(pol));
		json_object_object_add(o, "blocker", b);
	}
	json_object_object_add(o, "others", json_object_new_int((int)w->others));
	for (int c = 0; c < RECENT_CLASSES; c++) {
		json_object *t;

		if (!*w->top[c])
			continue;
		t = json_object_new_object();
		json_object_object_add(t, "name", json_object_new_string(w->top[c]));
		json_object_object_add(t, "ns", json_object_new_uint64(w->top_ns[c]));
		json_object_object_add(top, top_keys[c], t);
	}
	json_object_object_add(o, "top", top);
	json_object_object_add(o, "flags", why_flags_json(w->flags));
	json_object_object_add(o, "cause", json_object_new_string(why_parts[why_top_part(w)].key));
	why_summary(summary, sizeof(summary), w);
	json_object_object_add(o, "summary", json_object_new_string(summary));
	return o;
}

void why_json_detail(json_object *o, const struct why_named *w, unsigned what)
{
	if ((what & WHY_DETAIL_TIMELINE) && w->ntl)
		json_object_object_add(o, "timeline", why_timeline_json(w));
	if ((what & WHY_DETAIL_STACKS) && w->stack_pid) {
		json_object *st = json_object_new_object();

		json_object_object_add(st, "pid", json_object_new_int((int)w->stack_pid));
		json_object_object_add(st, "kernel", frames_json(w->kstack));
		json_object_object_add(st, "user", frames_json(w->ustack));
		json_object_object_add(o, "stacks", st);
	}
}

static void copy_str(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
}

/* The timeline's events back from why_timeline_json()'s object */
static void timeline_from_json(json_object *tl, struct why_named *w)
{
	json_object *evs;

	w->start_ns = json_get_u64(tl, "start_ns", 0);
	w->tl_partial = json_get_i64(tl, "partial", 0) != 0;
	if (!json_object_object_get_ex(tl, "events", &evs) || !json_object_is_type(evs, json_type_array))
		return;
	for (size_t i = 0; i < json_array_len(evs) && w->ntl < WHY_TIMELINE_MAX; i++) {
		json_object *e = json_array_at(evs, i);
		int type = why_tl_type_by_name(json_get_str(e, "what", ""));
		struct why_tl *t = &w->tl[w->ntl];

		if (type < 0)
			continue;
		memset(t, 0, sizeof(*t));
		t->type = (uint32_t)type;
		t->t_ns = json_get_i64(e, "t_ns", 0);
		copy_str(t->name, sizeof(t->name), json_get_str(e, "name", ""));
		switch (type) {
		case FL_SWITCH:
			t->a = (uint32_t)json_get_u64(e, "prev_pid", 0);
			t->b = (uint32_t)json_get_u64(e, "next_pid", 0);
			t->c = (uint32_t)json_get_u64(e, "prev_prio", 0) << 16 | ((uint32_t)json_get_u64(e, "next_prio", 0) & 0xffff);
			break;
		case FL_TIMER:
			t->a = (uint32_t)json_get_u64(e, "late_ns", 0);
			t->c = (uint32_t)(json_get_i64(e, "soft", 0) != 0);
			break;
		case FL_WAKE:
			t->a = (uint32_t)json_get_u64(e, "pid", 0);
			t->c = (uint32_t)(json_get_i64(e, "soft", 0) != 0);
			break;
		default:
			t->a = (uint32_t)json_get_u64(e, "ns", 0);
		}
		w->ntl++;
	}
}

int why_from_json(json_object *o, struct why_named *w)
{
	json_object *parts, *b, *top, *flags, *t;
	char key[32];
	int c;

	memset(w, 0, sizeof(*w));
	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "parts", &parts) ||
	    !json_object_is_type(parts, json_type_object))
		return -EINVAL;
	c = why_class_by_name(json_get_str(o, "class", ""));
	w->cls = c < 0 ? WHY_CLASS_WAKEUP : (enum why_class)c;
	w->ts_ns = json_get_u64(o, "ts_ns", 0);
	w->cpu = (uint32_t)json_get_u64(o, "cpu", 0);
	w->wake_cpu = (uint32_t)json_get_u64(o, "wake_cpu", w->cpu);
	w->pid = (uint32_t)json_get_u64(o, "pid", 0);
	copy_str(w->comm, sizeof(w->comm), json_get_str(o, "comm", ""));
	w->waiter_prio = (int)json_get_i64(o, "waiter_prio", 120);
	copy_str(w->what, sizeof(w->what), json_get_str(o, "what", ""));
	w->total_ns = json_get_u64(o, "total_ns", 0);
	for (int i = 0; i < WHY_PARTS; i++) {
		snprintf(key, sizeof(key), "%s_ns", why_parts[i].key);
		w->part_ns[i] = json_get_u64(parts, key, 0);
	}
	if (json_object_object_get_ex(o, "blocker", &b)) {
		w->blocker_pid = (uint32_t)json_get_u64(b, "pid", 0);
		copy_str(w->blocker_comm, sizeof(w->blocker_comm), json_get_str(b, "comm", ""));
		w->blocker_policy = (int)json_get_i64(b, "policy", 0);
		w->blocker_prio = (int)json_get_i64(b, "prio", 120);
	}
	w->others = (uint32_t)json_get_u64(o, "others", 0);
	if (json_object_object_get_ex(o, "top", &top))
		for (c = 0; c < RECENT_CLASSES; c++)
			if (json_object_object_get_ex(top, top_keys[c], &t)) {
				copy_str(w->top[c], sizeof(w->top[c]), json_get_str(t, "name", ""));
				w->top_ns[c] = json_get_u64(t, "ns", 0);
			}
	if (json_object_object_get_ex(o, "stacks", &t) && json_object_is_type(t, json_type_object)) {
		json_object *a;

		w->stack_pid = (uint32_t)json_get_u64(t, "pid", 0);
		if (json_object_object_get_ex(t, "kernel", &a))
			frames_from_json(a, w->kstack, sizeof(w->kstack));
		if (json_object_object_get_ex(t, "user", &a))
			frames_from_json(a, w->ustack, sizeof(w->ustack));
	}
	if (json_object_object_get_ex(o, "flags", &flags) && json_object_is_type(flags, json_type_array))
		for (size_t i = 0; i < json_array_len(flags); i++) {
			const char *f = json_object_get_string(json_array_at(flags, i));

			for (size_t k = 0; f && k < ELEMENTSOF(flag_names); k++)
				if (!strcmp(f, flag_names[k].name))
					w->flags |= flag_names[k].flag;
		}
	if (json_object_object_get_ex(o, "timeline", &t) && json_object_is_type(t, json_type_object))
		timeline_from_json(t, w);
	w->tl_gone = json_get_i64(o, "timeline_gone", 0) != 0;
	return 0;
}

static const char *const tl_types[FL_TYPES] = {
	[FL_IRQ] = "irq", [FL_VECTOR] = "vector", [FL_SOFTIRQ] = "softirq", [FL_NMI] = "nmi",
	[FL_SWITCH] = "switch", [FL_TIMER] = "timer", [FL_WAKE] = "wake",
};

const char *why_tl_type_name(unsigned type)
{
	return type < FL_TYPES ? tl_types[type] : NULL;
}

int why_tl_type_by_name(const char *s)
{
	for (int i = 0; i < FL_TYPES; i++)
		if (s && !strcmp(s, tl_types[i]))
			return i;
	return -1;
}

json_object *why_timeline_json(const struct why_named *w)
{
	json_object *o = json_object_new_object(), *evs = json_object_new_array();

	json_object_object_add(o, "start_ns", json_object_new_uint64(w->start_ns));
	json_object_object_add(o, "partial", json_object_new_boolean(w->tl_partial));
	for (unsigned i = 0; i < w->ntl && i < WHY_TIMELINE_MAX; i++) {
		const struct why_tl *t = &w->tl[i];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "t_ns", json_object_new_int64(t->t_ns));
		/* the absolute time too, CLOCK_MONOTONIC, for a comparison with a tracer's */
		json_object_object_add(e, "ts_ns", json_object_new_int64((int64_t)w->start_ns + t->t_ns));
		json_object_object_add(e, "what", json_object_new_string(why_tl_type_name(t->type) ?: "?"));
		if (*t->name)
			json_object_object_add(e, "name", json_object_new_string(t->name));
		switch (t->type) {
		case FL_SWITCH:
			json_object_object_add(e, "prev_pid", json_object_new_int64(t->a));
			json_object_object_add(e, "next_pid", json_object_new_int64(t->b));
			json_object_object_add(e, "prev_prio", json_object_new_int((int)(t->c >> 16)));
			json_object_object_add(e, "next_prio", json_object_new_int((int)(t->c & 0xffff)));
			break;
		case FL_TIMER:
			json_object_object_add(e, "late_ns", json_object_new_int64(t->a));
			json_object_object_add(e, "soft", json_object_new_boolean(t->c != 0));
			break;
		case FL_WAKE:
			json_object_object_add(e, "pid", json_object_new_int64(t->a));
			json_object_object_add(e, "soft", json_object_new_boolean(t->c != 0));
			break;
		default:	/* an interrupt: t_ns is its end, ns its time net of what nested in it */
			json_object_object_add(e, "ns", json_object_new_int64(t->a));
		}
		json_object_array_add(evs, e);
	}
	json_object_object_add(o, "events", evs);
	return o;
}

int why_tl_line(char *buf, size_t len, const struct why_tl *e, uint64_t end_ns)
{
	char mark = e->t_ns < 0 ? '<' : (uint64_t)e->t_ns > end_ns ? '>' : '|';
	double t = (double)e->t_ns / 1e3;
	const char *name = *e->name ? e->name : why_tl_type_name(e->type) ?: "?";

	switch (e->type) {
	case FL_SWITCH:
		return snprintf(buf, len, "%c %+11.2f us  switch %u (prio %u) -> %u (prio %u)", mark, t, e->a, e->c >> 16, e->b,
				e->c & 0xffff);
	case FL_TIMER:
		return snprintf(buf, len, "%c %+11.2f us  timer %s starts, %.2f us late%s", mark, t, name, (double)e->a / 1e3,
				e->c ? " (softirq)" : "");
	case FL_WAKE:
		return snprintf(buf, len, "%c %+11.2f us  wakes %u%s", mark, t, e->a, e->c ? " (softirq)" : "");
	default:
		return snprintf(buf, len, "%c %+11.2f us  %s ends, %.2f us", mark, t, name, (double)e->a / 1e3);
	}
}

void why_timeline_pick(struct why_named *w, const struct timeline_event *t, why_tl_name_fn name, void *ctx)
{
	/* the copy holds the block of the newest record (up to it) and the whole block before */
	unsigned valid = t->head ? TIMELINE_BLOCK + ((t->head - 1) & (TIMELINE_BLOCK - 1)) + 1 : 0;
	unsigned first = 0, from, in = 0;

	w->ntl = 0;
	w->tl_partial = false;
	w->start_ns = t->start_ns;
	/* records never written (the ring not yet round once) are the oldest, all zero */
	while (first < valid && !t->rec[first].ts_ns)
		first++;
	if (first == valid)
		return;
	/* the window: after the last record before the start (nested interrupts end out of order) */
	for (unsigned i = first; i < valid; i++)
		if (t->rec[i].ts_ns < t->start_ns)
			in = i + 1;
	if (in == first && first == 0 && t->rec[0].ts_ns > t->start_ns)
		w->tl_partial = true;	/* the copy does not reach back to the start */
	from = in > first + WHY_TIMELINE_BEFORE ? in - WHY_TIMELINE_BEFORE : first;
	if (valid - from > WHY_TIMELINE_MAX) {
		from = valid - WHY_TIMELINE_MAX;
		if (from > in)
			w->tl_partial = true;
	}
	for (unsigned i = from; i < valid; i++) {
		const struct flight_rec *r = &t->rec[i];
		struct why_tl *e = &w->tl[w->ntl];

		if (r->type >= FL_TYPES || !r->ts_ns)
			continue;
		memset(e, 0, sizeof(*e));
		e->t_ns = (int64_t)(r->ts_ns - t->start_ns);
		e->type = r->type;
		e->a = r->a;
		e->b = r->b;
		e->c = r->c;
		if (name && r->type != FL_SWITCH && r->type != FL_WAKE && r->b)
			name(ctx, r->type, r->b, e->name, sizeof(e->name));
		w->ntl++;
	}
	/* in time order: a program that sends a record to the ring buffer raises the irq_work
	 * interrupt that wakes the reader, and that interrupt's record goes in before the
	 * program's own (a NET_RX end after the IWI that came 18 us later). Few and nearly in
	 * order already: an insertion sort, which keeps equal times in their order. */
	for (unsigned i = 1; i < w->ntl; i++) {
		struct why_tl t = w->tl[i];
		unsigned j = i;

		for (; j > 0 && w->tl[j - 1].t_ns > t.t_ns; j--)
			w->tl[j] = w->tl[j - 1];
		w->tl[j] = t;
	}
}
