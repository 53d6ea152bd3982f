// SPDX-License-Identifier: GPL-2.0
/* The tracepoints as others see them: the "tracepoints" array of a summary, the detach and
 * attach requests of irqlat (root only), and the counters metrics.c reads. */
#include <stdio.h>
#include <string.h>
#include "common/json.h"
#include "daemon/tracepoints/tp_json.h"
#include "daemon/tracepoints/tp_resolve.h"
#include "daemon/tracepoints/tp_attach.h"
#include "daemon/tracepoints/tp_events.h"

static const char *const state_names[] = {
	[TP_INVALID] = "invalid", [TP_WAITING] = "waiting", [TP_ATTACHED] = "attached",
	[TP_DETACHED] = "detached", [TP_FAILED] = "failed",
};

static json_object *tp_json(const struct tp_set *s, const struct tracepoint *t)
{
	json_object *o = json_object_new_object(), *args = json_object_new_array(), *last = json_object_new_object();
	unsigned secs = t->rate_ticks < TP_RATE_SECONDS ? t->rate_ticks : TP_RATE_SECONDS;
	uint64_t sum = 0;
	struct hist_summary hs;

	/* whole seconds only: the one being filled would dilute the rate */
	for (unsigned i = 1; i <= secs; i++)
		sum += t->rate_ring[(s->tick - i) % TP_RATE_SECONDS];
	json_object_object_add(o, "tracepoint", json_object_new_string(t->cfg.name));
	json_object_object_add(o, "state", json_object_new_string(state_names[t->state]));
	if (t->error[0] && t->state != TP_ATTACHED)
		json_object_object_add(o, "error", json_object_new_string(t->error));
	if (t->state == TP_ATTACHED)
		json_object_object_add(o, "attach", json_object_new_string(t->style));
	/* how a tracepoint that is not there yet is found */
	json_object_object_add(o, "watch", json_object_new_string(s->watch ? "module_load" : "tracefs"));
	if (t->module[0])
		json_object_object_add(o, "module", json_object_new_string(t->module));
	/* the built-in default, no one named it: the screens leave it out while it waits */
	json_object_object_add(o, "builtin", json_object_new_boolean(t->cfg.builtin));
	json_object_object_add(o, "holds_module", json_object_new_boolean(tp_holds_module(t)));
	if (t->args_source[0])
		json_object_object_add(o, "args_source", json_object_new_string(t->args_source));
	for (unsigned i = 0; i < t->nargs; i++)
		json_object_array_add(args, json_object_new_string(t->args[i].name));
	json_object_object_add(o, "args", args);
	json_object_object_add(o, "attaches", json_object_new_int((int)t->attaches));
	json_object_object_add(o, "events", json_object_new_uint64(t->events));
	json_object_object_add(o, "rate", json_object_new_double(secs ? (double)sum / secs : 0));
	for (unsigned i = 0; i < t->last_nargs; i++)
		json_object_object_add(last, t->args[i].name, tp_arg_json(&t->args[i], t->last_args[i]));
	json_object_object_add(o, "last", last);
	json_object_object_add(o, "last_ts_ns", json_object_new_uint64(t->last_ts_ns));
	if (t->counter_arg >= 0) {
		json_object_object_add(o, "counter", json_object_new_string(t->args[t->counter_arg].name));
		json_object_object_add(o, "gaps", json_object_new_uint64(t->gaps));
		json_object_object_add(o, "missed", json_object_new_uint64(t->missed));
		json_object_object_add(o, "counter_resets", json_object_new_uint64(t->counter_resets));
	}
	json_object_object_add(o, "period_ns", json_object_new_uint64(t->period_ns));
	json_object_object_add(o, "period_source", json_object_new_string(
		t->cfg.period_ns ? "configured" : t->period_ns ? "estimated" : "estimating"));
	hist_summarize(&t->lateness, &hs);
	json_object_object_add(o, "intervals", json_object_new_uint64(t->intervals));
	json_object_object_add(o, "early", json_object_new_uint64(t->early));
	json_object_object_add(o, "lateness_p50_ns", json_object_new_uint64(hs.p50_ns));
	json_object_object_add(o, "lateness_p99_ns", json_object_new_uint64(hs.p99_ns));
	json_object_object_add(o, "lateness_max_ns", json_object_new_uint64(hs.max_ns));
	json_object_object_add(o, "lateness_avg_ns", json_object_new_uint64(hs.avg_ns));
	return o;
}

json_object *tracepoints_json(const struct tp_set *s)
{
	json_object *arr = json_object_new_array();

	for (unsigned i = 0; i < s->n; i++)
		json_object_array_add(arr, tp_json(s, &s->tps[i]));
	return arr;
}

/* " a b c", or " none": the names an unknown one is told about */
static void consumed_names(const struct tp_set *s, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < s->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " %s", s->tps[i].cfg.name);
	if (!s->n)
		snprintf(buf, len, " none");
}

json_object *tracepoints_request(struct tp_set *s, const char *cmd, json_object *req, long uid)
{
	bool detach = !strcmp(cmd, "detach");
	const char *name = json_get_str(req, "tracepoint", NULL);
	_cleanup_json_ json_object *done = NULL;
	struct tracepoint *t = NULL;
	json_object *o;

	if (uid != 0)
		return json_error_reply("%s changes what irqlatd traces: only root (uid 0) may ask it", cmd);
	if (!name || !*name)
		return json_error_reply("give \"tracepoint\": \"SYSTEM:EVENT\" or \"all\"");
	if (strcmp(name, "all")) {
		for (unsigned i = 0; i < s->n; i++)
			if (!strcmp(s->tps[i].cfg.name, name))
				t = &s->tps[i];
		if (!t) {
			char names[512];

			char asked[TP_NAME_MAX];

			consumed_names(s, names, sizeof(names));
			/* the client's words, quoted back on one line */
			text_escape(asked, sizeof(asked), name, strlen(name));
			return json_error_reply("irqlatd does not consume tracepoint %s; it consumes:%s", asked, names);
		}
	}
	done = json_object_new_array();
	for (unsigned i = 0; i < s->n; i++) {
		struct tracepoint *c = &s->tps[i];

		if (t && c != t)
			continue;
		if (detach) {
			if (tp_detach_logged(c, "client request"))
				json_object_array_add(done, json_object_new_string(c->cfg.name));
		} else if (c->state == TP_DETACHED || c->state == TP_FAILED) {
			/* a failed attach is logged there, and said below for a named one */
			if (tp_identity_read(c, &c->ident) == 0 && tp_attach(s, c) == 0)
				json_object_array_add(done, json_object_new_string(c->cfg.name));
		}
	}
	/* detach of a tracepoint that is not attached has nothing to do, and is fine; an attach
	 * that leaves it unattached says why */
	if (t && !detach && t->state != TP_ATTACHED)
		return json_error_reply("tracepoint %s is %s%s%s", name, state_names[t->state],
					t->error[0] ? ": " : "", t->error);
	o = json_object_new_object();
	json_object_object_add(o, detach ? "detached" : "attached", TAKE_PTR(done));
	json_object_object_add(o, "tracepoints", tracepoints_json(s));
	return json_ok_reply(o);
}

unsigned tracepoints_count(const struct tp_set *s)
{
	return s ? s->n : 0;
}

struct tp_info tracepoints_info(const struct tp_set *s, unsigned i)
{
	const struct tracepoint *t = &s->tps[i];

	return (struct tp_info){
		.name = t->cfg.name,
		.attached = t->state == TP_ATTACHED,
		.counter = {
			[TP_COUNTER_EVENTS] = t->events,
			[TP_COUNTER_GAPS] = t->gaps,
			[TP_COUNTER_MISSED] = t->missed,
		},
	};
}
