// SPDX-License-Identifier: GPL-2.0
/* One tracepoint event from the ring buffer: its arguments read by their types, counted
 * (rate, gaps in a counting argument, lateness against the period), journaled, and streamed
 * to subscribers in ftrace's line format and as JSON. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "common/evline.h"
#include "common/json.h"
#include "daemon/sinks/journal.h"
#include "daemon/base/log.h"
#include "daemon/tracepoints/tp_events.h"
#include "daemon/tracepoints/tp_watch.h"

static uint64_t arg_unsigned(const struct tp_arg *a, uint64_t v)
{
	return a->size < 8 ? v & ((1ull << (8 * a->size)) - 1) : v;
}

static int64_t arg_signed(const struct tp_arg *a, uint64_t v)
{
	unsigned shift = a->size < 8 ? 64 - 8 * a->size : 0;

	return (int64_t)(v << shift) >> shift;
}

static int format_arg(char *buf, size_t len, const struct tp_arg *a, uint64_t v)
{
	switch (a->kind) {
	case TP_ARG_SIGNED:
		return snprintf(buf, len, "%lld", (long long)arg_signed(a, v));
	case TP_ARG_POINTER:
		return snprintf(buf, len, "0x%llx", (unsigned long long)v);
	default:
		return snprintf(buf, len, "%llu", (unsigned long long)arg_unsigned(a, v));
	}
}

json_object *tp_arg_json(const struct tp_arg *a, uint64_t v)
{
	char buf[32];

	switch (a->kind) {
	case TP_ARG_SIGNED:
		return json_object_new_int64(arg_signed(a, v));
	case TP_ARG_POINTER:
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
		return json_object_new_string(buf);
	default:
		return json_object_new_uint64(arg_unsigned(a, v));
	}
}

void tp_format_line(char *buf, size_t len, const struct tracepoint *t, const struct tracepoint_event *e)
{
	char comm[TASK_COMM_LEN_ABI + 1];
	unsigned n = e->nargs < t->nargs ? e->nargs : t->nargs;
	int off;

	memcpy(comm, e->comm, TASK_COMM_LEN_ABI);
	comm[TASK_COMM_LEN_ABI] = 0;
	/* ftrace's trace_print_context(): "%16s-%-7d [%03d] %5llu.%06lu: " */
	off = snprintf(buf, len, "%16s-%-7u [%03u] %5llu.%06llu: %s:", comm, e->pid, e->cpu,
		       (unsigned long long)(e->ts_ns / 1000000000ull),
		       (unsigned long long)(e->ts_ns % 1000000000ull / 1000), t->event);
	for (unsigned i = 0; i < n && off > 0 && (size_t)off < len; i++) {
		off += snprintf(buf + off, len - (size_t)off, " %s=", t->args[i].name);
		if ((size_t)off < len)
			off += format_arg(buf + off, len - (size_t)off, &t->args[i], e->args[i]);
	}
}

static void record_interval(struct tracepoint *t, uint64_t iv)
{
	uint64_t late = iv > t->period_ns ? iv - t->period_ns : 0;
	uint32_t b = hist_bucket(late);

	t->intervals++;
	if (iv < t->period_ns)
		t->early++;
	t->lateness.count++;
	t->lateness.sum_ns += late;
	if (late > t->lateness.max_ns)
		t->lateness.max_ns = late;
	t->lateness.bucket[b < HIST_BUCKETS ? b : HIST_BUCKETS - 1]++;
}

/* Without a configured period, the shortest of the first intervals is the period: the
 * event cannot come sooner than its period, and wake-up latency only adds, so the minimum of
 * a few is the best available estimate; lateness is then measured against it. */
static void add_interval(struct tracepoint *t, uint64_t iv)
{
	uint64_t *seen = t->estimate_ns;

	if (t->period_ns) {
		record_interval(t, iv);
		return;
	}
	seen[TP_ESTIMATE_INTERVALS - t->estimate_left] = iv;
	if (--t->estimate_left)
		return;
	t->period_ns = seen[0];
	for (unsigned i = 1; i < TP_ESTIMATE_INTERVALS; i++)
		if (seen[i] < t->period_ns)
			t->period_ns = seen[i];
	for (unsigned i = 0; i < TP_ESTIMATE_INTERVALS; i++)
		record_interval(t, seen[i]);
}

static json_object *event_json(const struct tracepoint *t, const struct tracepoint_event *e, uint64_t *wall_ns)
{
	json_object *o = json_object_new_object(), *args = json_object_new_object();
	unsigned n = e->nargs < t->nargs ? e->nargs : t->nargs;
	char line[512];

	json_object_object_add(o, "type", json_object_new_string("tracepoint"));
	json_object_object_add(o, "tracepoint", json_object_new_string(t->cfg.name));
	json_object_object_add(o, "ts_ns", json_object_new_uint64(e->ts_ns));
	*wall_ns = event_add_clocks(o, e->ts_ns);
	json_object_object_add(o, "cpu", json_object_new_int((int)e->cpu));
	json_object_object_add(o, "pid", json_object_new_int((int)e->pid));
	json_object_object_add(o, "tgid", json_object_new_int((int)e->tgid));
	json_object_object_add(o, "comm", json_object_new_string_len(e->comm, (int)strnlen(e->comm, TASK_COMM_LEN_ABI)));
	for (unsigned i = 0; i < n; i++)
		json_object_object_add(args, t->args[i].name, tp_arg_json(&t->args[i], e->args[i]));
	json_object_object_add(o, "args", args);
	tp_format_line(line, sizeof(line), t, e);
	json_object_object_add(o, "line", json_object_new_string(line));
	return o;
}

/* A jump of the counting argument is a gap (events the program did not see), a fall is the
 * counter starting over; true for either: the interval across it is no lateness sample. */
static bool count_gap(struct tracepoint *t, const struct tracepoint_event *e)
{
	uint64_t v;
	bool gap = false;

	if (t->counter_arg < 0 || (unsigned)t->counter_arg >= t->last_nargs)
		return false;
	v = e->args[t->counter_arg];
	if (t->have_counter && v > t->last_counter + 1) {
		t->gaps++;
		t->missed += v - t->last_counter - 1;
		gap = true;
	} else if (t->have_counter && v <= t->last_counter) {
		t->counter_resets++;	/* the counter started again: not a gap */
		gap = true;
	}
	t->have_counter = 1;
	t->last_counter = v;
	return gap;
}

int tp_journal_priority(const struct tp_set *s, const struct tracepoint *t)
{
	switch (t->cfg.journal) {
	case TP_JOURNAL_OFF:
		return -1;
	case TP_JOURNAL_DEBUG:
		return LOG_DEBUG;
	case TP_JOURNAL_INFO:
		return LOG_INFO;
	default:	/* read at each event: a reload changes it */
		return s->cfg ? s->cfg->tracepoint_priority : LOG_DEBUG;
	}
}

static unsigned journal_rate(const struct tp_set *s)
{
	return s->cfg ? s->cfg->tracepoint_rate : TRACEPOINT_RATE_DEFAULT;
}

static void journal_suppressed(const struct tp_set *s, const struct tracepoint *t, uint64_t n)
{
	int prio = tp_journal_priority(s, t);

	journal_tracepoint_suppressed(t->cfg.name, n, journal_rate(s), prio < 0 ? LOG_DEBUG : prio);
}

void tp_journal_flush(struct tp_set *s, uint64_t now_ns)
{
	for (unsigned i = 0; i < s->n; i++) {
		uint64_t n = ratelimit_flush(&s->tps[i].journal_limit, now_ns);

		if (n)
			journal_suppressed(s, &s->tps[i], n);
	}
}

/* One entry per event, at the tracepoint's priority, up to the rate limit a second; what is
 * over it is counted and said in one entry when its second is over. */
static void journal_event(struct tp_set *s, struct tracepoint *t, const struct tracepoint_event *e)
{
	const char *names[TP_MAX_ARGS] = { 0 };
	int prio = tp_journal_priority(s, t);
	uint64_t ended;
	bool pass;

	if (prio < 0 || (!log_to_journal() && prio > log_max_priority()))
		return;
	pass = ratelimit_pass(&t->journal_limit, journal_rate(s), e->ts_ns, &ended);
	if (ended)
		journal_suppressed(s, t, ended);
	if (!pass)
		return;
	for (unsigned i = 0; i < t->nargs && i < TP_MAX_ARGS; i++)
		names[i] = t->args[i].name;
	journal_tracepoint_event(t->system, t->event, names, e, prio);
}

int tracepoints_handle(struct tp_set *s, const void *data, size_t size)
{
	const struct tracepoint_event *e = data;
	struct tracepoint *t;
	bool gap;

	if (size >= sizeof(struct module_event) && e->kind == RB_MODULE)
		return tp_watch_handle(s, data);
	/* only the set's own programs write RB_TRACEPOINT records, each with its index */
	if (size < sizeof(*e) || e->kind != RB_TRACEPOINT || e->tp_id >= s->n)
		return -EBADMSG;
	t = &s->tps[e->tp_id];
	t->events++;
	t->rate_ring[s->tick % TP_RATE_SECONDS]++;
	t->last_ts_ns = e->ts_ns;
	t->last_nargs = e->nargs < t->nargs ? e->nargs : t->nargs;
	memcpy(t->last_args, e->args, sizeof(t->last_args));

	gap = count_gap(t, e);
	if (t->prev_ts_ns && !gap && e->ts_ns > t->prev_ts_ns)
		add_interval(t, e->ts_ns - t->prev_ts_ns);
	t->prev_ts_ns = e->ts_ns;

	journal_event(s, t, e);
	if (s->ring || (s->srv && server_clients(s->srv))) {
		uint64_t wall_ns;
		_cleanup_json_ json_object *o = event_json(t, e, &wall_ns);

		event_publish(s->ring, s->srv, o, wall_ns, NULL);
	}
	return 0;
}
