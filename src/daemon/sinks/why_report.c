// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/cpulist.h"
#include "common/json.h"
#include "common/macro.h"
#include "daemon/base/log.h"
#include "daemon/collect/why_counts.h"
#include "daemon/sinks/event_ring.h"
#include "daemon/sinks/why_report.h"

struct why_filter {
	int64_t pid, cpu;	/* -1: any */
	const char *comm;	/* NULL: any */
	const char *cpus;	/* a CPU list (-C); NULL: any */
	const struct why_named **waits;	/* the matching ones, oldest first: room for all kept */
	size_t n;
};

static void collect_wait(const struct why_named *w, void *userdata)
{
	struct why_filter *f = userdata;

	if (f->pid >= 0 && w->pid != (uint64_t)f->pid)
		return;
	if (f->cpu >= 0 && w->cpu != (uint64_t)f->cpu)
		return;
	if (f->cpus && !cpulist_has(f->cpus, (unsigned)w->cpu))
		return;
	if (f->comm && fnmatch(f->comm, w->comm, 0))
		return;
	f->waits[f->n++] = w;
}

json_object *why_request(const struct why_store *s, json_object *req)
{
	struct why_filter f = { .pid = json_get_i64(req, "pid", -1), .cpu = json_get_i64(req, "cpu", -1),
				.comm = json_has(req, "comm") ? json_get_str(req, "comm", NULL) : NULL,
				.cpus = json_has(req, "cpus") ? json_get_str(req, "cpus", NULL) : NULL };
	_cleanup_free_ const struct why_named **waits = NULL;
	int64_t n = json_get_i64(req, "n", 0);
	/* the stacks always (irqlat why prints them), the timelines when asked for */
	unsigned detail = WHY_DETAIL_STACKS | (json_get_i64(req, "timeline", 0) ? WHY_DETAIL_TIMELINE : 0);
	json_object *o, *last;

	if (n < 0)
		return json_error_reply("\"n\" takes 0 (all) or more waits");
	waits = calloc((size_t)s->ncpus * s->per_cpu + 1, sizeof(*waits));
	if (!waits)
		return json_error_reply("out of memory");
	f.waits = waits;
	why_walk(s, collect_wait, &f);
	last = json_object_new_array();
	for (size_t i = n && f.n > (size_t)n ? f.n - (size_t)n : 0; i < f.n; i++) {
		json_object *w = why_json(waits[i]);

		why_json_detail(w, waits[i], detail);
		event_add_clocks(w, waits[i]->ts_ns);
		json_object_array_add(last, w);
	}
	o = json_object_new_object();
	json_object_object_add(o, "waits", last);
	json_object_object_add(o, "kept_per_cpu", json_object_new_int((int32_t)s->per_cpu));
	json_object_object_add(o, "explained", json_object_new_uint64(s->explained));
	json_object_object_add(o, "unpaired", json_object_new_uint64(s->unpaired));
	json_object_object_add(o, "lone", json_object_new_uint64(s->lone));
	return json_ok_reply(o);
}

void why_detail_events(const struct why_store *s, json_object *answer)
{
	json_object *events, *why;

	if (!json_object_object_get_ex(answer, "events", &events))
		return;
	for (size_t i = 0; i < json_array_len(events); i++) {
		json_object *e = json_array_at(events, i);
		const struct why_named *w;

		if (!json_object_object_get_ex(e, "why", &why) || !json_is_object(why))
			continue;
		w = why_find(s, (uint32_t)json_get_u64(why, "cpu", UINT32_MAX), json_get_u64(why, "ts_ns", 0));
		if (w)
			why_json_detail(why, w, WHY_DETAIL_ALL);
		else
			json_object_object_add(why, "timeline_gone", json_object_new_boolean(true));
	}
}

static json_object *parts_json(const uint64_t *part_ns)
{
	json_object *p = json_object_new_object();
	char key[32];

	for (int i = 0; i < WHY_PARTS; i++) {
		snprintf(key, sizeof(key), "%s_ns", why_parts[i].key);
		json_object_object_add(p, key, json_object_new_uint64(part_ns[i]));
	}
	return p;
}

json_object *why_status_json(const struct why_store *s)
{
	json_object *o = json_object_new_object(), *cpus = json_object_new_array();
	uint64_t causes[WHY_PARTS] = { 0 }, waits = 0, not_received = 0, not_sent = 0;

	if (s->kernel)
		why_counts_sync(s->kernel);

	json_object_object_add(o, "explained", json_object_new_uint64(s->explained));
	json_object_object_add(o, "unpaired", json_object_new_uint64(s->unpaired));
	json_object_object_add(o, "lone", json_object_new_uint64(s->lone));
	for (unsigned cpu = 0; cpu < s->ncpus; cpu++) {
		json_object *c = NULL;

		for (int k = 0; k < WHY_CLASSES; k++) {
			const struct why_total *t = why_counts_shown(s, cpu, (enum why_class)k);
			uint64_t got = s->totals[cpu * WHY_CLASSES + k].waits;
			/* a record counted in another class than its kernel count (its cell was gone
			 * when it came) would make more received than counted: none missing then */
			uint64_t missing = t->waits > got + t->unsent ? t->waits - got - t->unsent : 0;
			json_object *e;

			if (!t->waits && !got)
				continue;
			if (!c) {
				c = json_object_new_object();
				json_object_object_add(c, "cpu", json_object_new_int((int)cpu));
			}
			e = json_object_new_object();
			json_object_object_add(e, "waits", json_object_new_uint64(t->waits));
			json_object_object_add(e, "total_ns", json_object_new_uint64(t->total_ns));
			json_object_object_add(e, "parts", parts_json(t->part_ns));
			json_object_object_add(e, "received", json_object_new_uint64(got));
			json_object_object_add(e, "not_received", json_object_new_uint64(missing));
			json_object_object_add(e, "not_sent", json_object_new_uint64(t->unsent));
			json_object_object_add(c, why_class_name((enum why_class)k), e);
			for (int i = 0; i < WHY_PARTS; i++)
				causes[i] += t->part_ns[i];
			waits += t->waits;
			not_received += missing;
			not_sent += t->unsent;
		}
		if (c)
			json_object_array_add(cpus, c);
	}
	json_object_object_add(o, "counted_by", json_object_new_string(s->kernel ? "kernel" : "daemon"));
	json_object_object_add(o, "waits", json_object_new_uint64(waits));
	json_object_object_add(o, "not_received", json_object_new_uint64(not_received));
	json_object_object_add(o, "not_sent", json_object_new_uint64(not_sent));
	json_object_object_add(o, "stale_reads", json_object_new_uint64(s->kernel ? s->kernel->stale : 0));
	json_object_object_add(o, "causes", parts_json(causes));
	json_object_object_add(o, "cpus", cpus);
	return o;
}

void why_journal_fields(struct jfields *f, const struct why_named *w)
{
	char key[32], text[128];
	static const char *const top_fields[RECENT_CLASSES] = { "IRQ", "VECTOR", "SOFTIRQ", "NMI" };

	jf_add(f, "WHY_CLASS=%s", why_class_name(w->cls));
	jf_add(f, "WHY_TOTAL_NS=%llu", (unsigned long long)w->total_ns);
	for (int i = 0; i < WHY_PARTS; i++) {
		size_t k = 0;

		for (const char *p = why_parts[i].key; *p && k < sizeof(key) - 1; p++)
			key[k++] = (char)toupper((unsigned char)*p);
		key[k] = 0;
		jf_add(f, "WHY_%s_NS=%llu", key, (unsigned long long)w->part_ns[i]);
	}
	jf_add(f, "WHY_CAUSE=%s", why_parts[why_top_part(w)].key);
	jf_add(f, "WHY_CPU=%u", w->cpu);
	jf_add(f, "WHY_WAKE_CPU=%u", w->wake_cpu);
	if (w->pid) {
		jf_add(f, "WHY_PID=%u", w->pid);
		if (*w->comm)
			jf_add(f, "WHY_COMM=%s", w->comm);
	}
	if (w->blocker_pid || *w->blocker_comm) {
		why_policy_text(text, sizeof(text), w->blocker_policy, w->blocker_prio);
		jf_add(f, "WHY_BLOCKER_PID=%u", w->blocker_pid);
		jf_add(f, "WHY_BLOCKER_COMM=%s", w->blocker_comm);
		jf_add(f, "WHY_BLOCKER_SCHED=%s", text);
	}
	jf_add(f, "WHY_OTHERS=%u", w->others);
	for (int c = 0; c < RECENT_CLASSES; c++)
		if (*w->top[c]) {
			jf_add(f, "WHY_TOP_%s=%s", top_fields[c], w->top[c]);
			jf_add(f, "WHY_TOP_%s_NS=%llu", top_fields[c], (unsigned long long)w->top_ns[c]);
		}
	/* the stacks as one field each, frames joined by ';' (as the JSON's arrays hold them) */
	if (w->stack_pid) {
		jf_add(f, "WHY_STACK_PID=%u", w->stack_pid);
		if (*w->kstack)
			jf_add(f, "WHY_KSTACK=%s", w->kstack);
		if (*w->ustack)
			jf_add(f, "WHY_USTACK=%s", w->ustack);
	}
	if (w->flags) {
		json_object *a = why_flags_json(w->flags);
		size_t used = 0;

		text[0] = 0;
		for (size_t i = 0; i < json_object_array_length(a) && used < sizeof(text); i++)
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s", i ? "," : "",
						 json_object_get_string(json_object_array_get_idx(a, i)));
		json_object_put(a);
		jf_add(f, "WHY_FLAGS=%s", text);
	}
	why_journal_timeline(f, w);
}

void why_journal_timeline(struct jfields *f, const struct why_named *w)
{
	char text[4096], line[128];
	size_t used = 0;

	if (!w->ntl)
		return;
	/* one line an event, as `irqlat why --timeline` shows them; those that do not fit are
	 * left off at the end, said so */
	for (unsigned i = 0; i < w->ntl; i++) {
		int n = why_tl_line(line, sizeof(line), &w->tl[i], w->total_ns);

		if (n < 0 || used + (size_t)n + 16 >= sizeof(text)) {
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s(%u more)", used ? "\n" : "", w->ntl - i);
			break;
		}
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s", used ? "\n" : "", line);
	}
	jf_add(f, "WHY_TIMELINE=%s", text);
	jf_add(f, "WHY_TIMELINE_START_NS=%llu", (unsigned long long)w->start_ns);
	if (w->tl_partial)
		jf_add(f, "WHY_TIMELINE_PARTIAL=1");
}
