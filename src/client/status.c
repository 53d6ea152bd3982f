// SPDX-License-Identifier: GPL-2.0
/* `irqlat status` for a person (status.h). The answer's fields are docs/architecture.md's
 * section 4; the JSON itself is printed by main.c with --json. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpuline.h"
#include "notes.h"
#include "status.h"
#include "common/json.h"
#include "common/kinds/kind.h"
#include "common/macro.h"
#include "common/util.h"

/* status: the other BPF programs on the IRQ tracepoints, whose cost is in every time measured */
static void print_shared(FILE *out, json_object *bpf)
{
	json_object *shared, *progs, *v;
	size_t n;

	if (!bpf || !json_object_object_get_ex(bpf, "shared", &shared))
		return;
	fprintf(out, "%-12s ", "shared:");
	if (json_object_object_get_ex(shared, "known", &v) && !json_object_get_boolean(v)) {
		fprintf(out, "unknown: %s\n", json_get_str(shared, "error", "?"));
		return;
	}
	if (!json_object_object_get_ex(shared, "programs", &progs) || !(n = json_array_len(progs))) {
		fprintf(out, "no other BPF program on irq:irq_handler_entry/exit\n");
		return;
	}
	fprintf(out, "%zu other BPF program%s on the IRQ tracepoints, whose cost is in every time measured:", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_array_at(progs, i);

		fprintf(out, "%s id %d %s (%s", i ? "," : "", (int)json_get_i64(p, "id", 0), json_get_str(p, "name", "?"),
		       json_get_str(p, "tracepoint", "?"));
		if (json_has(p, "comm"))
			fprintf(out, ", %s pid %d", json_get_str(p, "comm", "?"), (int)json_get_i64(p, "pid", 0));
		fprintf(out, ")");
	}
	fputc('\n', out);
}

/* A value of the answer as words, never JSON: strings bare, arrays "a, b", objects
 * "key value, key value" (underscores as spaces), nested ones in parentheses */
static void print_words(FILE *out, json_object *v)
{
	bool first = true;

	switch (json_object_get_type(v)) {
	case json_type_null:
		fputs("none", out);
		break;
	case json_type_array:
		if (!json_array_len(v))
			fputs("none", out);
		for (size_t i = 0; i < json_array_len(v); i++) {
			fputs(i ? ", " : "", out);
			print_words(out, json_array_at(v, i));
		}
		break;
	case json_type_object: {	/* a block: the macro declares variables, not a statement */
		json_object_object_foreach(v, k, kv) {
			fputs(first ? "" : ", ", out);
			for (const char *p = k; *p; p++)
				fputc(*p == '_' ? ' ' : *p, out);
			fputc(' ', out);
			if (json_object_is_type(kv, json_type_object)) {
				fputc('(', out);
				print_words(out, kv);
				fputc(')', out);
			} else {
				print_words(out, kv);
			}
			first = false;
		}
		break;
	}
	case json_type_double:
		fprintf(out, "%g", json_object_get_double(v));
		break;
	default:
		fputs(json_object_get_string(v), out);
	}
}

/* A labelled line: the label and its colon in 12 columns, as every line of status */
static void print_field(FILE *out, const char *label, json_object *v)
{
	char l[64];
	size_t n = strlen(label);

	/* a long label is cut, and never inside a character: a lone lead byte would reach the
	 * terminal */
	if (n > sizeof(l) - 2) {
		n = sizeof(l) - 2;
		while (n && ((unsigned char)label[n] & 0xc0) == 0x80)
			n--;
	}
	snprintf(l, sizeof(l), "%.*s:", (int)n, label);
	fprintf(out, "%-12s ", l);
	print_words(out, v);
	fputc('\n', out);
}

/* The programs, one line per set (the tracepoints' system: irq, irq_vectors, timer, sched),
 * each tracepoint once */
static void print_programs(FILE *out, json_object *progs)
{
	size_t n = json_array_len(progs);
	bool *done = calloc(n ? n : 1, sizeof(*done));
	bool first_line = true;

	if (!done)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *tp = json_object_get_string(json_array_at(progs, i)), *colon;
		size_t sys;

		if (done[i] || !tp)
			continue;
		colon = strchr(tp, ':');
		sys = colon ? (size_t)(colon - tp) : strlen(tp);
		fprintf(out, "%-12s %.*s:", first_line ? "programs:" : "", (int)sys, tp);
		first_line = false;
		for (size_t j = i, k = 0; j < n; j++) {
			const char *o = json_object_get_string(json_array_at(progs, j));
			bool dup = false;

			if (done[j] || !o || strncmp(o, tp, sys) || (o[sys] != ':' && o[sys]))
				continue;
			done[j] = true;
			for (size_t m = i; m < j && !dup; m++)	/* the same tracepoint twice */
				dup = !strcmp(json_object_get_string(json_array_at(progs, m)), o);
			if (!dup)
				fprintf(out, "%s %s", k++ ? "," : "", o[sys] ? o + sys + 1 : o);
		}
		fputc('\n', out);
	}
	free(done);
}

/* Each kind's threshold as its option says it: KIND-threshold-us in microseconds */
static void print_thresholds(FILE *out, json_object *cfg)
{
	bool first = true;

	fprintf(out, "%-12s", "thresholds:");
	for (unsigned k = 0; k < KINDS; k++) {
		const struct kind_desc *d = kind_get(k);
		char key[64], opt[64];
		uint64_t ns;

		if (!d->threshold.help)
			continue;
		if (d->threshold.status_key)
			snprintf(key, sizeof(key), "%s", d->threshold.status_key);
		else
			snprintf(key, sizeof(key), "%s_threshold_ns", d->name);
		if (!json_has(cfg, key))
			continue;
		snprintf(opt, sizeof(opt), "%s-threshold-us", d->name);
		for (char *p = opt; *p; p++)
			if (*p == '_')
				*p = '-';
		ns = json_get_u64(cfg, key, 0);
		if (ns)
			fprintf(out, "%s %s %g", first ? "" : ",", opt, (double)ns / 1000);
		else
			fprintf(out, "%s %s off", first ? "" : ",", opt);
		first = false;
	}
	fputc('\n', out);
}

void status_print(FILE *out, json_object *s)
{
	static const char *const known[] = { "ok", "version", "pid", "uptime_s", "attach", "programs", "handlers",
					     "cells_used", "drops", "bpf", "config", "tracepoints", "isolated_cpus",
					     "nohz_full_cpus", "storms", "threaded_run", "wakeup_cells", "outliers", "kinds",
					     "http" };
	json_object *v, *tv, *cfg = NULL, *bpf = NULL, *drops = NULL;
	char up[32], th[16];
	unsigned long long u = json_get_u64(s, "uptime_s", 0);

	snprintf(up, sizeof(up), "%llu:%02llu:%02llu", u / 3600, u % 3600 / 60, u % 60);
	json_object_object_get_ex(s, "config", &cfg);
	json_object_object_get_ex(s, "bpf", &bpf);
	json_object_object_get_ex(s, "drops", &drops);
	fprintf(out, "irqlatd %s, pid %d, up %s\n", json_get_str(s, "version", "?"), (int)json_get_i64(s, "pid", 0), up);
	fprintf(out, "%-12s %s", "attach:", json_get_str(s, "attach", "?"));
	if (bpf && json_object_object_get_ex(bpf, "prog_ids", &v) && json_object_is_type(v, json_type_array)) {
		fprintf(out, " (BPF prog ids");
		for (size_t i = 0; i < json_array_len(v); i++)
			fprintf(out, "%s %d", i ? "," : "", json_object_get_int(json_array_at(v, i)));
		fprintf(out, ")");
	}
	fputc('\n', out);
	if (json_object_object_get_ex(s, "programs", &v) && json_object_is_type(v, json_type_array))
		print_programs(out, v);
	if (json_object_object_get_ex(s, "kinds", &v))
		print_field(out, "kinds", v);
	fprintf(out, "%-12s %d, in %llu histogram cells of %llu\n", "handlers:", (int)json_get_i64(s, "handlers", 0),
	       (unsigned long long)json_get_u64(s, "cells_used", 0),
	       (unsigned long long)json_get_u64(cfg, "max_cells", 0));
	fprintf(out, "%-12s", "drops:");
	if (json_object_is_type(drops, json_type_object)) {
		int first = 1;

		json_object_object_foreach(drops, k, dv) {
			fprintf(out, "%s %s %llu", first ? "" : ",", k, (unsigned long long)json_object_get_uint64(dv));
			first = 0;
		}
	}
	if (json_object_object_get_ex(s, "tracepoints", &v) && json_array_len(v)) {
		fprintf(out, "\n%-12s", "tracepoints:");
		for (size_t i = 0; i < json_array_len(v); i++) {
			json_object *t = json_array_at(v, i);

			fprintf(out, "%s %s %s", i ? "," : "", json_get_str(t, "tracepoint", "?"), json_get_str(t, "state", "?"));
			if (!strcmp(json_get_str(t, "state", "?"), "attached"))
				fprintf(out, " (%s, arguments from %s, %.0f events)", json_get_str(t, "attach", "?"),
				       json_get_str(t, "args_source", "?"), json_get_double(t, "events", 0));
			else if (!strcmp(json_get_str(t, "state", "?"), "waiting"))
				fprintf(out, " for %s%s", json_object_object_get_ex(t, "module", NULL) ? "module " : "its module",
				       json_get_str(t, "module", ""));
			if (json_object_object_get_ex(t, "holds_module", &tv) && json_object_get_boolean(tv))
				fprintf(out, "; holding module %s: 'irqlat detach %s' before rmmod", json_get_str(t, "module", "?"),
				       json_get_str(t, "tracepoint", "?"));
		}
		if (json_array_len(v))
			fprintf(out, "\n%-12s %s", "", !strcmp(json_get_str(json_array_at(v, 0), "watch", ""), "module_load")
				? "modules watched at load (module:module_load); tracefs checked every second too"
				: "no module:module_load tracepoint: tracefs checked every second");
	}
	fprintf(out, "\n%-12s ", "overhead:");
	if (json_get_double(bpf, "run_cnt", 0) > 0)
		fprintf(out, "%.0f ns/IRQ " COST_MEANING " (%llu IRQs timed while BPF stats were on)%s\n",
		       json_get_double(bpf, "ns_per_irq", 0), (unsigned long long)json_get_u64(bpf, "run_cnt", 0),
		       json_object_object_get_ex(bpf, "stats_enabled", &v) && json_object_get_boolean(v) ? "" : "; stats are off now");
	else
		fprintf(out, "n/a (sysctl kernel.bpf_stats_enabled=1, or run irqlatd --bpf-stats)\n");
	print_shared(out, bpf);
	if (json_has(s, "isolated_cpus")) {
		char sets[256];

		cpuline_sets(sets, sizeof(sets), s);
		fprintf(out, "%-12s %s\n", "cpus:", sets[0] ? sets : "none isolated, none nohz_full");
	}
	if (json_object_object_get_ex(s, "storms", &v))
		fprintf(out, "%-12s %llu now, %llu since start\n", "storms:", (unsigned long long)json_get_u64(v, "active", 0),
		       (unsigned long long)json_get_u64(v, "since_start", 0));
	if (json_object_object_get_ex(s, "wakeup_cells", &v))
		fprintf(out, "%-12s %llu of %llu cells held by tasks of their own; given back: %llu tasks exited, %llu for busier ones\n",
			"wake-ups:", (unsigned long long)json_get_u64(v, "held", 0), (unsigned long long)json_get_u64(v, "max", 0),
			(unsigned long long)json_get_u64(v, "tasks_exited", 0), (unsigned long long)json_get_u64(v, "tasks_evicted", 0));
	if (json_object_object_get_ex(s, "outliers", &v))
		fprintf(out, "%-12s %llu outliers logged, %llu held back (outlier-cap %lld a minute, outlier-rate %lld a second), "
			"%llu not logged (log-wakeups %s)\n", "journal:", (unsigned long long)json_get_u64(v, "logged", 0),
			(unsigned long long)json_get_u64(v, "held_back", 0), (long long)json_get_i64(v, "outlier_cap", 0),
			(long long)json_get_i64(v, "outlier_rate", 0), (unsigned long long)json_get_u64(v, "not_logged", 0),
			json_get_str(v, "log_wakeups", "?"));
	if (json_has(s, "threaded_run"))
		fprintf(out, "%-12s run time from %s\n", "threaded:",
			!strcmp(json_get_str(s, "threaded_run", "?"), "on-cpu") ? "the thread's on-CPU time (sched_switch; threaded-run = on-cpu)"
										 : "the thread handler (fentry/fexit; threaded-run = handler)");
	if (json_object_object_get_ex(s, "http", &v) && json_object_is_type(v, json_type_object)) {
		fprintf(out, "%-12s http://%s/metrics; ", "metrics:", json_get_str(v, "address", "?"));
		json_object_object_del(v, "address");
		print_words(out, v);
		fputc('\n', out);
	}
	if (json_object_is_type(cfg, json_type_object)) {
		fmt_duration(th, sizeof(th), json_get_u64(cfg, "threshold_ns", 0), "");
		fprintf(out, "%-12s threshold %s, interval %.0f ms, max cells %.0f, ring buffer %.0f KiB, socket %s%s\n", "config:",
		       json_get_double(cfg, "threshold_ns", 0) > 0 ? th : "off", json_get_double(cfg, "interval_ms", 0),
		       json_get_double(cfg, "max_cells", 0), json_get_double(cfg, "ringbuf_bytes", 0) / 1024,
		       json_get_str(cfg, "socket", "?"),
		       json_object_object_get_ex(cfg, "bpf_stats", &v) && json_object_get_boolean(v) ? ", --bpf-stats" : "");
		print_thresholds(out, cfg);
		json_object_object_foreach(cfg, k, cv) {
			bool threshold = strlen(k) > 13 && !strcmp(k + strlen(k) - 13, "_threshold_ns");

			if (threshold || !strcmp(k, "threshold_ns") || !strcmp(k, "interval_ms") || !strcmp(k, "max_cells") ||
			    !strcmp(k, "ringbuf_bytes") || !strcmp(k, "socket") || !strcmp(k, "bpf_stats"))
				continue;
			fprintf(out, "%-12s %s ", "", k);
			print_words(out, cv);
			fputc('\n', out);
		}
	}
	json_object_object_foreach(s, k, ov) {
		size_t i;

		for (i = 0; i < ELEMENTSOF(known); i++)
			if (!strcmp(k, known[i]))
				break;
		if (i == ELEMENTSOF(known))
			print_field(out, k, ov);	/* clients, a kind's source, a newer daemon's fields */
	}
}
