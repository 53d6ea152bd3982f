// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/macro.h"
#include "daemon/collect/collect.h"
#include "daemon/collect/stacks.h"
#include "daemon/collect/why.h"
#include "daemon/system/task_cache.h"

int why_store_init(struct why_store *s, unsigned ncpus)
{
	memset(s, 0, sizeof(*s));
	s->ncpus = ncpus ? ncpus : 1;
	s->per_cpu = WHY_RECENT_TOTAL / s->ncpus;
	s->per_cpu = s->per_cpu > WHY_RECENT_PER_CPU ? WHY_RECENT_PER_CPU : s->per_cpu < WHY_RECENT_MIN ? WHY_RECENT_MIN : s->per_cpu;
	s->recent = calloc((size_t)s->ncpus * s->per_cpu, sizeof(*s->recent));
	s->head = calloc(s->ncpus, sizeof(*s->head));
	s->len = calloc(s->ncpus, sizeof(*s->len));
	s->totals = calloc((size_t)s->ncpus * WHY_CLASSES, sizeof(*s->totals));
	s->timeline = calloc(s->ncpus, sizeof(*s->timeline));
	if (!s->recent || !s->head || !s->len || !s->totals || !s->timeline) {
		why_store_free(s);
		return -ENOMEM;
	}
	return 0;
}

void why_store_free(struct why_store *s)
{
	free(s->recent);
	free(s->head);
	free(s->len);
	free(s->totals);
	free(s->timeline);
	memset(s, 0, sizeof(*s));
}

bool why_kind_explained(enum lat_kind k)
{
	/* the threaded IRQ's handler run time (KIND_THREADED_RUN) is a run, not a wait */
	return k == KIND_WAKEUP || k == KIND_THREADED || k == KIND_TIMER;
}

bool why_park(struct why_store *s, const struct outlier_event *e, uint64_t now_ns, struct outlier_event *out)
{
	bool full = s->nparked == WHY_PARK;

	if (full) {	/* the oldest goes on unexplained; the park is in arrival order */
		*out = s->park[0].e;
		memmove(&s->park[0], &s->park[1], (WHY_PARK - 1) * sizeof(s->park[0]));
		s->nparked--;
		s->unpaired++;
	}
	s->park[s->nparked++] = (struct why_parked){ .e = *e, .since_ns = now_ns };
	return full;
}

static void park_remove(struct why_store *s, unsigned i)
{
	memmove(&s->park[i], &s->park[i + 1], (s->nparked - i - 1) * sizeof(s->park[0]));
	s->nparked--;
}

bool why_unpark(struct why_store *s, uint32_t cell, uint64_t ts_ns, struct outlier_event *out)
{
	for (unsigned i = 0; i < s->nparked; i++)
		if (s->park[i].e.cell == cell && s->park[i].e.ts_ns == ts_ns) {
			*out = s->park[i].e;
			park_remove(s, i);
			return true;
		}
	return false;
}

bool why_expired(struct why_store *s, uint64_t before_ns, struct outlier_event *out)
{
	if (!s->nparked || s->park[0].since_ns >= before_ns)
		return false;
	*out = s->park[0].e;
	park_remove(s, 0);
	s->unpaired++;
	return true;
}

/* "IRQ 36 virtio1-req.0", "vector LOC", "softirq NET_RX", "NMI perf_event_nmi_handler" */
static void interrupt_name(char *buf, size_t len, const struct series *s, enum recent_class c)
{
	switch (c) {
	case RECENT_IRQ:
		snprintf(buf, len, "IRQ %u %s", s->sub, s->name);
		break;
	case RECENT_VECTOR:
		snprintf(buf, len, "vector %s", s->name);
		break;
	case RECENT_SOFTIRQ:
		snprintf(buf, len, "softirq %s", s->name);
		break;
	default:
		snprintf(buf, len, "NMI %s", s->name);
	}
}

void why_name(struct why_named *w, const struct why_event *e, struct collector *c)
{
	uint32_t cpu = 0;
	const struct series *s = c ? collector_cell_series(c, e->cell, &cpu) : NULL;

	memset(w, 0, sizeof(*w));
	w->cls = WHY_CLASS_WAKEUP;
	if (s && s->kind == KIND_THREADED)
		w->cls = WHY_CLASS_THREADED;
	else if (s && s->kind == KIND_TIMER)
		w->cls = WHY_CLASS_TIMER;
	w->ts_ns = e->ts_ns;
	w->total_ns = e->total_ns;
	memcpy(w->part_ns, e->part_ns, sizeof(w->part_ns));
	w->cpu = e->cpu;
	w->wake_cpu = e->wake_cpu;
	w->flags = e->flags;
	w->others = e->others;
	w->pid = e->pid;
	w->waiter_prio = e->waiter_prio;
	w->blocker_pid = e->blocker_pid;
	w->blocker_prio = e->blocker_prio;
	w->blocker_policy = e->blocker_policy;
	memcpy(w->blocker_comm, e->blocker_comm, sizeof(w->blocker_comm));
	w->blocker_comm[sizeof(w->blocker_comm) - 1] = 0;
	/* the waiter: a wake-up series of its own is named by its comm; the others ask /proc */
	if (s && s->kind == KIND_WAKEUP && s->sub == e->pid && e->pid)
		snprintf(w->comm, sizeof(w->comm), "%.*s", (int)sizeof(w->comm) - 1, s->name);
	else
		task_cache_comm(e->pid, now_ns(), w->comm, sizeof(w->comm));
	if (s && s->kind == KIND_THREADED)
		snprintf(w->what, sizeof(w->what), "IRQ %u %s", s->sub, s->name);
	else if (s && s->kind == KIND_TIMER)
		snprintf(w->what, sizeof(w->what), "%s", s->name);
	for (int k = 0; k < RECENT_CLASSES; k++) {
		const struct series *t;

		if (!e->top[k].cell)
			continue;
		w->top_ns[k] = e->top[k].ns;
		t = c ? collector_cell_series(c, e->top[k].cell - 1, &cpu) : NULL;
		if (t)
			interrupt_name(w->top[k], sizeof(w->top[k]), t, (enum recent_class)k);
	}
	/* now, while the task's mappings are those it had (it may exit or exec soon) */
	w->stack_pid = e->stack_pid;
	stacks_text(e, w->kstack, sizeof(w->kstack), w->ustack, sizeof(w->ustack));
}

void why_timeline_keep(struct why_store *s, const struct timeline_event *t)
{
	if (t->cpu < s->ncpus)
		s->timeline[t->cpu] = *t;
}

/* A timeline event's cell named: an interrupt's as the explanation's top[], a timer's function */
static void timeline_name(void *ctx, unsigned type, uint32_t cell, char *buf, size_t len)
{
	uint32_t cpu = 0;
	const struct series *s = collector_cell_series(ctx, cell - 1, &cpu);

	if (!s)
		return;
	if (type < RECENT_CLASSES)
		interrupt_name(buf, len, s, (enum recent_class)type);
	else
		snprintf(buf, len, "%s", s->name);
}

void why_timeline_take(struct why_store *s, struct why_named *w, const struct why_event *e, struct collector *c)
{
	struct timeline_event *t;

	if (e->cpu >= s->ncpus)
		return;
	t = &s->timeline[e->cpu];
	if (t->type != RB_TIMELINE || t->cell != e->cell || t->ts_ns != e->ts_ns)
		return;
	why_timeline_pick(w, t, c ? timeline_name : NULL, c);
	t->type = 0;	/* taken */
}

void why_add(struct why_store *s, const struct why_named *w, bool paired)
{
	unsigned cpu = w->cpu < s->ncpus ? w->cpu : s->ncpus - 1;
	struct why_total *t = &s->totals[cpu * WHY_CLASSES + (w->cls < WHY_CLASSES ? w->cls : 0)];
	unsigned slot;

	s->explained++;
	if (!paired)
		s->lone++;
	t->waits++;
	t->total_ns += w->total_ns;
	for (int i = 0; i < WHY_PARTS; i++)
		t->part_ns[i] += w->part_ns[i];
	if (s->len[cpu] < s->per_cpu) {
		slot = (s->head[cpu] + s->len[cpu]++) % s->per_cpu;
	} else {	/* full: the oldest goes */
		slot = s->head[cpu];
		s->head[cpu] = (s->head[cpu] + 1) % s->per_cpu;
	}
	s->recent[cpu * s->per_cpu + slot] = *w;
}

/* The i-th oldest wait kept of that CPU */
static const struct why_named *kept_at(const struct why_store *s, unsigned cpu, unsigned i)
{
	return &s->recent[cpu * s->per_cpu + (s->head[cpu] + i) % s->per_cpu];
}

const struct why_named *why_find(const struct why_store *s, uint32_t cpu, uint64_t ts_ns)
{
	if (cpu >= s->ncpus)
		return NULL;
	/* newest first: a detail asked for is most often of a recent outlier */
	for (unsigned i = s->len[cpu]; i-- > 0;) {
		if (kept_at(s, cpu, i)->ts_ns == ts_ns)
			return kept_at(s, cpu, i);
	}
	return NULL;
}

static int by_time(const void *a, const void *b)
{
	const struct why_named *x = *(const struct why_named *const *)a, *y = *(const struct why_named *const *)b;

	return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

void why_walk(const struct why_store *s, why_visit_fn fn, void *userdata)
{
	_cleanup_free_ const struct why_named **all = NULL;
	size_t n = 0;

	all = calloc((size_t)s->ncpus * s->per_cpu, sizeof(*all));
	if (!all)
		return;
	for (unsigned cpu = 0; cpu < s->ncpus; cpu++)
		for (unsigned i = 0; i < s->len[cpu]; i++)
			all[n++] = kept_at(s, cpu, i);
	qsort(all, n, sizeof(*all), by_time);
	for (size_t i = 0; i < n; i++)
		fn(all[i], userdata);
}
