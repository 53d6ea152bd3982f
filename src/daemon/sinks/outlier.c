// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/base/message_ids.h"
#include "daemon/collect/collect.h"
#include "daemon/kinds/kind.h"
#include "daemon/base/log.h"
#include "daemon/sinks/outlier.h"
#include "daemon/system/task_cache.h"
#include "daemon/sinks/why_report.h"
#include "common/macro.h"
#include "common/util.h"

/* A source of outliers seen in the minute being counted */
struct outlier_source {
	bool used;
	enum lat_kind kind;
	uint32_t sub;
	char name[IRQ_NAME_LEN];
	uint64_t second;	/* which second (monotonic) logged_in_second is for */
	unsigned logged_in_second;
	uint64_t held, worst_ns;	/* held back in the minute */
	uint32_t woken_pid;		/* the task it is about (wake-ups), 0: none */
	struct task_sched woken;	/* its policy at its last outlier */
};

void outlier_rules_from_config(struct outlier_rules *r, const struct daemon_config *c)
{
	memset(r, 0, sizeof(*r));
	r->per_second = c->outlier_rate;
	r->cap = c->outlier_cap;
	memcpy(r->threshold_ns, c->threshold_ns, sizeof(r->threshold_ns));
	r->log_wakeups = c->log_wakeups;
	r->log_idle = c->log_idle;
	r->ntasks = c->nlog_tasks;
	memcpy(r->tasks, c->log_tasks, sizeof(r->tasks));
}

/* The ring of the last cap entries' times, made anew for cap (0: none needed); -ENOMEM
 * leaves no cap at all rather than no entry */
static int recent_alloc(struct outlier_limiter *l, unsigned cap)
{
	free(l->recent);
	l->recent = NULL;
	l->recent_cap = l->recent_head = l->recent_len = 0;
	if (!cap)
		return 0;
	l->recent = calloc(cap, sizeof(*l->recent));
	if (!l->recent)
		return -ENOMEM;
	l->recent_cap = cap;
	return 0;
}

/* Whether an entry at t keeps every 60 s within the cap with keep entries of it left over:
 * fewer than cap - keep entries in the last 60 s, that is the (cap - keep)-th newest is a minute
 * old (the ring is in time order but for events of CPUs a little out of it) */
static bool cap_room(const struct outlier_limiter *l, uint64_t t, unsigned keep)
{
	unsigned k;

	if (!l->rules.cap || !l->recent_cap)
		return true;
	k = keep < l->recent_cap ? l->recent_cap - keep : 1;	/* an entry when none was written in 60 s */
	if (l->recent_len < k)
		return true;
	return t >= l->recent[(l->recent_head + l->recent_len - k) % l->recent_cap] + OUTLIER_WINDOW_NS;
}

/* The room an outlier leaves: a storm's start and end, and the end of each storm going on, so
 * that one storm's entries always find room (the cap's last entry is the outliers' all the
 * same, once the minute before wrote nothing) */
static unsigned storm_keep(const struct outlier_limiter *l)
{
	return 2 + l->storms_on;
}

static void cap_add(struct outlier_limiter *l, uint64_t t)
{
	if (!l->recent_cap)
		return;
	if (l->recent_len < l->recent_cap) {
		l->recent[(l->recent_head + l->recent_len++) % l->recent_cap] = t;
		return;
	}
	/* full: the oldest, a minute old (cap_room()), makes way */
	l->recent[l->recent_head] = t;
	l->recent_head = (l->recent_head + 1) % l->recent_cap;
}

int outlier_init(struct outlier_limiter *l, const struct outlier_rules *r)
{
	memset(l, 0, sizeof(*l));
	l->rules = *r;
	return recent_alloc(l, r->cap);
}

void outlier_free(struct outlier_limiter *l)
{
	free(l->sources);
	l->sources = NULL;
	l->nsources = l->cap_sources = 0;
}

void outlier_destroy(struct outlier_limiter *l)
{
	outlier_free(l);
	recent_alloc(l, 0);
}

void outlier_from_event(struct outlier *o, const struct outlier_event *e, const struct series *s, uint32_t cpu)
{
	memset(o, 0, sizeof(*o));
	o->kind = s ? s->kind : KIND_HARDIRQ;
	o->sub = s ? s->sub : 0;
	snprintf(o->name, sizeof(o->name), "%s", s ? s->name : "?");
	o->cgroup = s ? s->cgroup : NULL;
	o->cpu = cpu;
	o->ts_ns = e->ts_ns;
	o->value_ns = e->value_ns;
	o->pid = e->pid;
	memcpy(o->comm, e->comm, sizeof(o->comm));
	o->comm[sizeof(o->comm) - 1] = 0;
	/* a timer's: the woken task's pid in the low half, TIMER_AUX_* flags above (not shown yet) */
	o->aux = o->kind == KIND_TIMER ? (uint32_t)e->aux : e->aux;
	/* a wake-up's record names its task in aux too: the series of pid 0 ("(other)") holds
	 * many tasks */
	if (o->kind == KIND_WAKEUP || (o->kind == KIND_TIMER && (uint32_t)e->aux))
		o->woken_pid = (uint32_t)e->aux;
	o->idle = (o->kind == KIND_TIMER && (e->aux & TIMER_AUX_IDLE) && !(uint32_t)e->aux) ||
		  (o->kind == KIND_VECTOR && !e->pid);
}

void outlier_resolve(struct outlier *o)
{
	if (o->woken_pid)
		(void)task_cache_sched(o->woken_pid, now_ns(), &o->woken);	/* exited: unknown */
}

json_object *outlier_json(const struct outlier *o)
{
	const struct kind_desc *k = kind_get(o->kind);
	const char *tp = k->event_task_prefix ? k->event_task_prefix : "";
	json_object *j = json_object_new_object();
	char key[32];

	json_object_object_add(j, "type", json_object_new_string("outlier"));
	json_object_object_add(j, "kind", json_object_new_string(k->name));
	json_object_object_add(j, "ts_ns", json_object_new_uint64(o->ts_ns));
	json_object_object_add(j, "cpu", json_object_new_int((int)o->cpu));
	if (k->sub_key)
		json_object_object_add(j, k->sub_key, json_object_new_int((int)o->sub));
	json_object_object_add(j, k->name_key, json_object_new_string(o->name));
	json_object_object_add(j, k->value_key, json_object_new_uint64(o->value_ns));
	/* the task on the CPU; a kind whose own fields are a task's names it under a prefix */
	snprintf(key, sizeof(key), "%spid", tp);
	json_object_object_add(j, key, json_object_new_int((int)o->pid));
	snprintf(key, sizeof(key), "%scomm", tp);
	json_object_object_add(j, key, json_object_new_string(o->comm));
	if (k->event_aux_key && o->aux)
		json_object_object_add(j, k->event_aux_key, json_object_new_int((int)o->aux));
	/* the same fields in every kind (docs/architecture.md section 4, "events"): "name" the
	 * series', "cpu_pid"/"cpu_comm" the task on the CPU, "woken_*" the task woken, if any; the
	 * kind's own fields above stay for the clients that read them */
	if (strcmp(k->name_key, "name"))
		json_object_object_add(j, "name", json_object_new_string(o->name));
	if (strcmp(tp, "cpu_")) {
		json_object_object_add(j, "cpu_pid", json_object_new_int((int)o->pid));
		json_object_object_add(j, "cpu_comm", json_object_new_string(o->comm));
	}
	if (o->woken_pid) {
		if (!json_object_object_get_ex(j, "woken_pid", NULL))
			json_object_object_add(j, "woken_pid", json_object_new_int((int)o->woken_pid));
		if (o->kind == KIND_WAKEUP && o->sub)	/* "(other)" holds many tasks */
			json_object_object_add(j, "woken_comm", json_object_new_string(o->name));
		json_object_object_add(j, "woken_policy", json_object_new_string(task_policy_name(o->woken.policy)));
		if (o->woken.priority)
			json_object_object_add(j, "woken_priority", json_object_new_int(o->woken.priority));
	}
	if (o->why)
		json_object_object_add(j, "why", why_json(o->why));
	if (o->capture_file && *o->capture_file)
		json_object_object_add(j, "capture_file", json_object_new_string(o->capture_file));
	return j;
}

void outlier_format(char *buf, size_t len, const struct outlier *o, uint64_t threshold_ns)
{
	const struct kind_desc *k = kind_get(o->kind);
	char d[32], t[32], who[IRQ_NAME_LEN + 32];

	fmt_duration(d, sizeof(d), o->value_ns, " ");
	fmt_duration(t, sizeof(t), threshold_ns, " ");
	kind_describe(who, sizeof(who), o->kind, o->sub, o->name);
	snprintf(buf, len, "%s %s %s on CPU %u (threshold %s), %s %s[%u]", who, k->outlier_what, d, o->cpu, t,
		 k->outlier_task, o->comm, o->pid);
	if (k->outlier_aux && o->aux) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ", %s %llu", k->outlier_aux, (unsigned long long)o->aux);
	}
}

/* "fifo 95", "deadline", "other" */
static void policy_text(char *buf, size_t len, const struct task_sched *ts)
{
	if (ts->policy == TASK_POLICY_FIFO || ts->policy == TASK_POLICY_RR || ts->policy == TASK_POLICY_RT)
		snprintf(buf, len, "%s %d", task_policy_name(ts->policy), ts->priority);
	else
		snprintf(buf, len, "%s", task_policy_name(ts->policy));
}

static void log_outlier(struct outlier_limiter *l, const struct outlier *o)
{
	const struct kind_desc *k = kind_get(o->kind);
	struct jfields f = { 0 };
	char msg[640], pol[32];
	size_t n;

	outlier_format(msg, sizeof(msg), o, l->rules.threshold_ns[o->kind]);
	kind_journal_fields(&f, o->kind, o->sub, o->name);
	jf_add(&f, "CPU=%u", o->cpu);
	jf_add(&f, "%s=%llu", k->journal_value, (unsigned long long)o->value_ns);
	jf_add(&f, "THRESHOLD_NS=%llu", (unsigned long long)l->rules.threshold_ns[o->kind]);
	jf_add(&f, "INTERRUPTED_PID=%u", o->pid);
	jf_add(&f, "INTERRUPTED_COMM=%s", o->comm);
	if (k->journal_aux && o->aux)
		jf_add(&f, "%s=%llu", k->journal_aux, (unsigned long long)o->aux);
	if (o->woken_pid) {
		policy_text(pol, sizeof(pol), &o->woken);
		jf_add(&f, "WOKEN_POLICY=%s", task_policy_name(o->woken.policy));
		if (o->woken.priority)
			jf_add(&f, "WOKEN_PRIORITY=%d", o->woken.priority);
		n = strlen(msg);
		snprintf(msg + n, sizeof(msg) - n, " (woken task: %s)", pol);
	}
	jf_add(&f, "EVENT_TS_NS=%llu", (unsigned long long)o->ts_ns);	/* CLOCK_MONOTONIC, as the limits count */
	if (o->why) {
		/* what someone can act on: the summary of why, rtla's words; the outlier's own line
		 * stays in OUTLIER= */
		jf_add(&f, "OUTLIER=%s", msg);
		why_journal_fields(&f, o->why);
		why_summary(msg, sizeof(msg), o->why);
	}
	if (o->capture_file && *o->capture_file) {
		jf_add(&f, "CAPTURE_FILE=%s", o->capture_file);
		n = strlen(msg);
		snprintf(msg + n, sizeof(msg) - n, "; captured in %s", o->capture_file);
	}
	log_struct(LOG_WARNING, k->outlier_mid, &f, "%s%s", log_to_journal() ? "" : "outlier: ", msg);
}

static bool task_named(const struct outlier_rules *r, uint32_t pid, const char *comm, const char *cgroup)
{
	for (unsigned i = 0; i < r->ntasks; i++) {
		const struct log_task *t = &r->tasks[i];

		if (t->pid ? t->pid == pid
			   : t->cgroup ? cgroup_under(cgroup, t->pattern) : comm && *comm && !fnmatch(t->pattern, comm, 0))
			return true;
	}
	return false;
}

bool outlier_wanted(const struct outlier_rules *r, const struct outlier *o)
{
	/* a wake-up's series is named by its task's comm, but for "(other)", many tasks */
	const char *comm = o->kind == KIND_WAKEUP && o->sub ? o->name : NULL;

	if (!o->woken_pid || r->log_wakeups == LOG_WAKEUPS_ALL)
		return true;
	if (task_named(r, o->woken_pid, comm, o->kind == KIND_WAKEUP && o->sub ? o->cgroup : NULL))
		return true;
	return r->log_wakeups == LOG_WAKEUPS_RT && task_sched_is_rt(&o->woken);
}

static uint64_t source_hash(enum lat_kind kind, uint32_t sub, const char *name)
{
	uint64_t h = 1469598103934665603ull ^ ((uint64_t)kind << 32 | sub);

	for (size_t i = 0; i < IRQ_NAME_LEN && name[i]; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
	return h;
}

static struct outlier_source *slot_of(struct outlier_source *tab, unsigned cap, enum lat_kind kind, uint32_t sub,
				      const char *name)
{
	for (unsigned i = (unsigned)source_hash(kind, sub, name) & (cap - 1);; i = (i + 1) & (cap - 1)) {
		struct outlier_source *s = &tab[i];

		if (!s->used || (s->kind == kind && s->sub == sub && !strncmp(s->name, name, IRQ_NAME_LEN)))
			return s;
	}
}

/* The source of o in this minute's table, NULL when it has none */
static struct outlier_source *source_find(const struct outlier_limiter *l, const struct outlier *o)
{
	struct outlier_source *s;

	if (!l->cap_sources)
		return NULL;
	s = slot_of(l->sources, l->cap_sources, o->kind, o->sub, o->name);
	return s->used ? s : NULL;
}

/* The source of o in this minute's table, made if new; NULL past OUTLIER_SOURCES_MAX or out
 * of memory (then it is counted with the overflow) */
static struct outlier_source *source_of(struct outlier_limiter *l, const struct outlier *o)
{
	struct outlier_source *s;

	if (l->nsources + 1 > l->cap_sources / 2) {	/* at most half full */
		unsigned cap = l->cap_sources ? l->cap_sources * 2 : 64;
		struct outlier_source *tab;

		if (l->nsources >= OUTLIER_SOURCES_MAX)
			goto find;
		tab = calloc(cap, sizeof(*tab));
		if (!tab)
			goto find;
		for (unsigned i = 0; i < l->cap_sources; i++)
			if (l->sources[i].used)
				*slot_of(tab, cap, l->sources[i].kind, l->sources[i].sub, l->sources[i].name) = l->sources[i];
		free(l->sources);
		l->sources = tab;
		l->cap_sources = cap;
	}
find:
	if (!l->cap_sources)
		return NULL;
	s = slot_of(l->sources, l->cap_sources, o->kind, o->sub, o->name);
	if (s->used)
		return s;
	if (l->nsources >= OUTLIER_SOURCES_MAX || l->nsources + 1 > l->cap_sources / 2)
		return NULL;
	memset(s, 0, sizeof(*s));
	s->used = true;
	s->kind = o->kind;
	s->sub = o->sub;
	memcpy(s->name, o->name, IRQ_NAME_LEN);
	s->name[IRQ_NAME_LEN - 1] = 0;
	l->nsources++;
	return s;
}

/* The held-back entry: sources about a task first (those the filter let through: real-time or
 * named), then the most held back */
static int by_task_then_held(const void *a, const void *b)
{
	const struct outlier_source *x = *(const struct outlier_source *const *)a, *y = *(const struct outlier_source *const *)b;

	if (!!x->woken_pid != !!y->woken_pid)
		return x->woken_pid ? -1 : 1;
	return x->held < y->held ? 1 : x->held > y->held ? -1 : 0;
}

/* "task 4242 (cyclictest, fifo 95)", "timer tick_nohz_handler on CPU 1", "IRQ 36 (virtio1-req.0)" */
static void source_text(char *buf, size_t len, const struct outlier_source *s)
{
	const struct kind_desc *k = kind_get(s->kind);
	char pol[32];

	if (s->kind == KIND_WAKEUP) {
		policy_text(pol, sizeof(pol), &s->woken);
		snprintf(buf, len, "task %u (%s, %s)", s->woken_pid, s->name, pol);
	} else if (k->sub_is_cpu) {
		snprintf(buf, len, "%s %s on CPU %u", k->what, s->name, s->sub);
	} else {
		kind_describe(buf, len, s->kind, s->sub, s->name);
		if (k->series_suffix)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s", k->series_suffix);
	}
}

static void window_reset(struct outlier_limiter *l)
{
	l->window_ns = 0;
	l->window_held = l->window_not_logged = l->window_not_logged_worst_ns = 0;
	l->window_idle = l->window_idle_worst_ns = 0;
	l->overflow_held = l->overflow_worst_ns = 0;
	l->overflow_sources = 0;
	l->window_storms = 0;
	if (l->cap_sources > 1024) {	/* a flood of sources: give its table back */
		outlier_free(l);
		return;
	}
	if (l->sources)
		memset(l->sources, 0, l->cap_sources * sizeof(*l->sources));
	l->nsources = 0;
}

static void log_held(struct outlier_limiter *l, uint64_t end_ns)
{
	_cleanup_free_ struct outlier_source **held = NULL;
	struct jfields f = { 0 };
	char msg[1024], worst[32], what[IRQ_NAME_LEN + 64];
	unsigned n = 0, named = 0, total;
	uint64_t other = l->overflow_held, other_worst = l->overflow_worst_ns;
	unsigned other_sources = l->overflow_sources;
	size_t used;
	double secs = (double)(end_ns - l->window_ns) / 1e9;

	if (!l->window_held && !l->window_storms)
		return;
	if (secs > 60)
		secs = 60;
	held = calloc(l->nsources ? l->nsources : 1, sizeof(*held));
	for (unsigned i = 0; held && i < l->cap_sources; i++)
		if (l->sources[i].used && l->sources[i].held)
			held[n++] = &l->sources[i];
	if (held)
		qsort(held, n, sizeof(*held), by_task_then_held);
	total = n + l->overflow_sources;
	if (l->window_held)
		used = (size_t)snprintf(msg, sizeof(msg), "%s%llu outlier%s of %s%u source%s held back in the last %.0f s (outlier-cap %u a minute, outlier-rate %u a second; irqlat events has them):",
					log_to_journal() ? "" : "outlier: ", (unsigned long long)l->window_held,
					l->window_held == 1 ? "" : "s", l->overflow_sources ? "over " : "", total, total == 1 ? "" : "s",
					secs, l->rules.cap, l->rules.per_second);
	else	/* storms only */
		used = (size_t)snprintf(msg, sizeof(msg), "%sstorm entries held back in the last %.0f s (outlier-cap %u a minute)",
					log_to_journal() ? "" : "outlier: ", secs, l->rules.cap);
	jf_add(&f, "PERIOD_S=%.0f", secs);
	jf_add(&f, "HELD_BACK=%llu", (unsigned long long)l->window_held);
	jf_add(&f, "SOURCES=%u", total);
	jf_add(&f, "OUTLIER_CAP=%u", l->rules.cap);
	jf_add(&f, "OUTLIER_RATE=%u", l->rules.per_second);
	jf_add(&f, "LOG_WAKEUPS=%s", log_wakeups_name(l->rules.log_wakeups));
	for (unsigned i = 0; i < n; i++) {
		const struct outlier_source *s = held[i];
		const struct kind_desc *k = kind_get(s->kind);

		if (i >= OUTLIER_SUMMARY_SOURCES) {
			other += s->held;
			other_sources++;
			if (s->worst_ns > other_worst)
				other_worst = s->worst_ns;
			continue;
		}
		source_text(what, sizeof(what), s);
		fmt_duration(worst, sizeof(worst), s->worst_ns, " ");
		jf_add(&f, "SOURCE%u=%s", i + 1, what);
		jf_add(&f, "SOURCE%u_KIND=%s", i + 1, k->name);
		jf_add(&f, "SOURCE%u_NAME=%s", i + 1, s->name);
		if (s->kind == KIND_WAKEUP)
			jf_add(&f, "SOURCE%u_PID=%u", i + 1, s->woken_pid);
		else if (k->sub_is_cpu)
			jf_add(&f, "SOURCE%u_CPU=%u", i + 1, s->sub);
		else if (k->sub_key)
			jf_add(&f, "SOURCE%u_IRQ=%u", i + 1, s->sub);
		if (s->woken_pid && s->kind == KIND_WAKEUP)
			jf_add(&f, "SOURCE%u_POLICY=%s", i + 1, task_policy_name(s->woken.policy));
		jf_add(&f, "SOURCE%u_COUNT=%llu", i + 1, (unsigned long long)s->held);
		jf_add(&f, "SOURCE%u_WORST_NS=%llu", i + 1, (unsigned long long)s->worst_ns);
		/* the message names what fits, the tasks first; the fields name them all */
		if (used < sizeof(msg) - 160) {
			used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s %s %llu (worst %s)", named ? ";" : "", what,
						 (unsigned long long)s->held, worst);
			named++;
		} else {
			continue;
		}
	}
	if (other) {
		jf_add(&f, "OTHER_SOURCES=%u", other_sources);
		jf_add(&f, "OTHER_COUNT=%llu", (unsigned long long)other);
		jf_add(&f, "OTHER_WORST_NS=%llu", (unsigned long long)other_worst);
	}
	if (named < total && used < sizeof(msg)) {
		uint64_t rest = l->window_held, rest_worst = 0;

		for (unsigned i = 0; i < named; i++)
			rest -= held[i]->held;
		for (unsigned i = named; i < n; i++)
			if (held[i]->worst_ns > rest_worst)
				rest_worst = held[i]->worst_ns;
		if (l->overflow_worst_ns > rest_worst)
			rest_worst = l->overflow_worst_ns;
		fmt_duration(worst, sizeof(worst), rest_worst, " ");
		used += (size_t)snprintf(msg + used, sizeof(msg) - used, "; and %s%u more source%s %llu (worst %s)",
					 l->overflow_sources ? "over " : "", total - named, total - named == 1 ? "" : "s",
					 (unsigned long long)rest, worst);
	}
	if (l->window_not_logged) {
		jf_add(&f, "NOT_LOGGED=%llu", (unsigned long long)l->window_not_logged);
		jf_add(&f, "NOT_LOGGED_WORST_NS=%llu", (unsigned long long)l->window_not_logged_worst_ns);
		fmt_duration(worst, sizeof(worst), l->window_not_logged_worst_ns, " ");
		if (used < sizeof(msg))
			snprintf(msg + used, sizeof(msg) - used, "; besides, %llu wake-up outlier%s of tasks log-wakeups=%s leaves out (worst %s)",
				 (unsigned long long)l->window_not_logged, l->window_not_logged == 1 ? "" : "s",
				 log_wakeups_name(l->rules.log_wakeups), worst);
	}
	if (l->window_idle) {
		jf_add(&f, "IDLE_NOT_LOGGED=%llu", (unsigned long long)l->window_idle);
		jf_add(&f, "IDLE_NOT_LOGGED_WORST_NS=%llu", (unsigned long long)l->window_idle_worst_ns);
		fmt_duration(worst, sizeof(worst), l->window_idle_worst_ns, " ");
		used = strlen(msg);
		if (used < sizeof(msg))
			snprintf(msg + used, sizeof(msg) - used, "; besides, %llu outlier%s on idle CPUs that delayed no task (log-idle=no; worst %s)",
				 (unsigned long long)l->window_idle, l->window_idle == 1 ? "" : "s", worst);
	}
	if (l->window_storms) {
		/* several storms at once filled the cap: status, irqlat top and /metrics have them */
		jf_add(&f, "STORMS_HELD=%u", l->window_storms);
		used = strlen(msg);
		if (used < sizeof(msg))
			used += (size_t)snprintf(msg + used, sizeof(msg) - used, "; %u storm entr%s held back (irqlat status has the storms):",
						 l->window_storms, l->window_storms == 1 ? "y" : "ies");
		for (unsigned i = 0; i < l->window_storms && i < OUTLIER_STORMS_NAMED; i++) {
			jf_add(&f, "STORM%u=%s", i + 1, l->window_storm[i]);
			if (used < sizeof(msg))
				used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s %s", i ? "," : "", l->window_storm[i]);
		}
	}
	log_struct(LOG_WARNING, MID_OUTLIERS_HELD, &f, "%s", msg);
	l->summaries++;
}

/* Ends the minute going on when t is past it (or always: t UINT64_MAX), saying what it held
 * back; then opens one at t when asked */
static void window_roll(struct outlier_limiter *l, uint64_t t, bool open)
{
	if (l->window_ns && (t == UINT64_MAX || t >= l->window_ns + OUTLIER_WINDOW_NS)) {
		log_held(l, t == UINT64_MAX ? l->window_ns + OUTLIER_WINDOW_NS : t);
		window_reset(l);
	}
	if (open && !l->window_ns)
		l->window_ns = t ? t : 1;
}

static void hold(struct outlier_limiter *l, struct outlier_source *s, const struct outlier *o)
{
	l->held++;
	l->window_held++;
	if (!s) {
		l->overflow_held++;
		if (o->value_ns > l->overflow_worst_ns)
			l->overflow_worst_ns = o->value_ns;
		if (!l->overflow_sources)
			l->overflow_sources = 1;	/* at least one; they are not told apart */
		return;
	}
	s->held++;
	if (o->value_ns > s->worst_ns)
		s->worst_ns = o->value_ns;
}

static void idle_add(struct outlier_limiter *l, uint64_t n, uint64_t worst_ns)
{
	l->not_logged += n;
	l->idle += n;
	l->window_idle += n;
	if (worst_ns > l->window_idle_worst_ns)
		l->window_idle_worst_ns = worst_ns;
}

void outlier_idle_counted(struct outlier_limiter *l, uint64_t n, uint64_t worst_ns, uint64_t now_ns)
{
	if (!n && !worst_ns)
		return;
	window_roll(l, now_ns, true);
	idle_add(l, n, worst_ns);
}

enum outlier_fate outlier_handle(struct outlier_limiter *l, const struct outlier *in)
{
	const struct outlier_rules *r = &l->rules;
	uint64_t second = in->ts_ns / 1000000000ull;
	struct outlier_source *s;
	struct outlier known = *in, *o = &known;

	window_roll(l, o->ts_ns, true);
	/* a task that exited before its last outliers were handled (a real-time task killed
	 * right after being late) is the task its earlier outliers of this minute found */
	if (o->kind == KIND_WAKEUP && o->sub && o->woken.policy == TASK_POLICY_UNKNOWN) {
		const struct outlier_source *p = source_find(l, o);

		if (p && p->woken.policy != TASK_POLICY_UNKNOWN)
			o->woken = p->woken;
	}
	if (o->idle && !r->log_idle) {
		idle_add(l, 1, o->value_ns);
		return OUTLIER_NOT_LOGGED;
	}
	if (!outlier_wanted(r, o)) {
		l->not_logged++;
		l->window_not_logged++;
		if (o->value_ns > l->window_not_logged_worst_ns)
			l->window_not_logged_worst_ns = o->value_ns;
		return OUTLIER_NOT_LOGGED;
	}
	s = source_of(l, o);
	if (s) {
		/* the series' task: for pid 0, "(other)", many tasks, each asked for its policy */
		s->woken_pid = o->kind == KIND_WAKEUP ? o->sub : 0;
		if (o->woken.policy != TASK_POLICY_UNKNOWN || s->woken.policy == TASK_POLICY_UNKNOWN)
			s->woken = o->woken;
		if (second > s->second) {	/* events from CPUs can arrive slightly out of order */
			s->second = second;
			s->logged_in_second = 0;
		}
	}
	if ((r->per_second && s && s->logged_in_second >= r->per_second) || !cap_room(l, o->ts_ns, storm_keep(l))) {
		hold(l, s, o);
		return OUTLIER_HELD;
	}
	if (s)
		s->logged_in_second++;
	cap_add(l, o->ts_ns);
	l->logged++;
	log_outlier(l, o);
	return OUTLIER_LOGGED;
}

bool outlier_storm_entry(struct outlier_limiter *l, uint64_t now_ns, bool started, const char *what)
{
	bool room;

	window_roll(l, now_ns, true);
	if (started)
		l->storms_on++;
	else if (l->storms_on)
		l->storms_on--;
	room = cap_room(l, now_ns, 0);
	if (room) {
		cap_add(l, now_ns);
		return true;
	}
	if (l->window_storms < OUTLIER_STORMS_NAMED)
		snprintf(l->window_storm[l->window_storms], sizeof(l->window_storm[0]), "%s %s", what,
			 started ? "started" : "ended");
	l->window_storms++;
	l->storms_held++;
	return false;
}

void outlier_flush(struct outlier_limiter *l, uint64_t now_ns)
{
	window_roll(l, now_ns, false);
}

void outlier_flush_all(struct outlier_limiter *l)
{
	window_roll(l, UINT64_MAX, false);
}

void outlier_configure(struct outlier_limiter *l, const struct outlier_rules *r)
{
	unsigned old_cap = l->rules.cap;

	/* what was held back under the old rules is said under them */
	outlier_flush_all(l);
	l->rules = *r;
	if (r->cap != old_cap && recent_alloc(l, r->cap) < 0)
		l->rules.cap = 0;	/* out of memory: rather every entry than none */
}

json_object *outlier_status_json(const struct outlier_limiter *l)
{
	json_object *o = json_object_new_object(), *tasks = json_object_new_array();

	json_object_object_add(o, "logged", json_object_new_uint64(l->logged));
	json_object_object_add(o, "held_back", json_object_new_uint64(l->held));
	json_object_object_add(o, "not_logged", json_object_new_uint64(l->not_logged));
	json_object_object_add(o, "idle_not_logged", json_object_new_uint64(l->idle));
	json_object_object_add(o, "held_back_entries", json_object_new_uint64(l->summaries));
	json_object_object_add(o, "storm_entries_held_back", json_object_new_uint64(l->storms_held));
	json_object_object_add(o, "outlier_cap", json_object_new_int((int)l->rules.cap));
	json_object_object_add(o, "outlier_rate", json_object_new_int((int)l->rules.per_second));
	json_object_object_add(o, "log_wakeups", json_object_new_string(log_wakeups_name(l->rules.log_wakeups)));
	json_object_object_add(o, "log_idle", json_object_new_boolean(l->rules.log_idle));
	for (unsigned i = 0; i < l->rules.ntasks; i++) {
		const struct log_task *t = &l->rules.tasks[i];
		char pid[16];

		snprintf(pid, sizeof(pid), "%u", t->pid);
		json_object_array_add(tasks, json_object_new_string(t->pid ? pid : t->pattern));
	}
	json_object_object_add(o, "log_tasks", tasks);
	return o;
}
