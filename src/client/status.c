// SPDX-License-Identifier: GPL-2.0
/* `irqlat status` for a person (status.h). The answer's fields are docs/architecture.md's
 * section 4; the JSON itself is printed by main.c with --json. */
#include <stdio.h>
#include <string.h>
#include "cpuline.h"
#include "notes.h"
#include "status.h"
#include "common/json.h"
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
	if (!json_object_object_get_ex(shared, "programs", &progs) || !(n = json_object_array_length(progs))) {
		fprintf(out, "no other BPF program on irq:irq_handler_entry/exit\n");
		return;
	}
	fprintf(out, "%zu other BPF program%s on the IRQ tracepoints, whose cost is in every time measured:", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(progs, i);

		fprintf(out, "%s id %d %s (%s", i ? "," : "", (int)json_get_i64(p, "id", 0), json_get_str(p, "name", "?"),
		       json_get_str(p, "tracepoint", "?"));
		if (json_has(p, "comm"))
			fprintf(out, ", %s pid %d", json_get_str(p, "comm", "?"), (int)json_get_i64(p, "pid", 0));
		fprintf(out, ")");
	}
	fputc('\n', out);
}

void status_print(FILE *out, json_object *s)
{
	static const char *const known[] = { "ok", "version", "pid", "uptime_s", "attach", "programs", "handlers",
					     "cells_used", "drops", "bpf", "config", "tracepoints", "isolated_cpus",
					     "nohz_full_cpus", "storms", "threaded_run", "wakeup_cells" };
	json_object *v, *tv, *cfg = NULL, *bpf = NULL, *drops = NULL;
	char up[32], th[16];
	double secs = json_get_double(s, "uptime_s", 0);
	unsigned long u = (unsigned long)secs;

	snprintf(up, sizeof(up), "%lu:%02lu:%02lu", u / 3600, u % 3600 / 60, u % 60);
	json_object_object_get_ex(s, "config", &cfg);
	json_object_object_get_ex(s, "bpf", &bpf);
	json_object_object_get_ex(s, "drops", &drops);
	fprintf(out, "irqlatd %s, pid %d, up %s\n", json_get_str(s, "version", "?"), (int)json_get_double(s, "pid", 0), up);
	fprintf(out, "%-12s %s", "attach:", json_get_str(s, "attach", "?"));
	if (json_object_object_get_ex(s, "programs", &v) && json_object_is_type(v, json_type_array)) {
		fprintf(out, ", programs");
		for (size_t i = 0; i < json_object_array_length(v); i++)
			fprintf(out, "%s %s", i ? "," : "", json_object_get_string(json_object_array_get_idx(v, i)));
	}
	if (bpf && json_object_object_get_ex(bpf, "prog_ids", &v) && json_object_is_type(v, json_type_array)) {
		fprintf(out, " (BPF prog ids");
		for (size_t i = 0; i < json_object_array_length(v); i++)
			fprintf(out, "%s %d", i ? "," : "", json_object_get_int(json_object_array_get_idx(v, i)));
		fprintf(out, ")");
	}
	fprintf(out, "\n%-12s %d, in %llu histogram cells of %llu\n", "handlers:", (int)json_get_double(s, "handlers", 0),
	       (unsigned long long)json_get_double(s, "cells_used", 0),
	       (unsigned long long)json_get_double(cfg, "max_cells", 0));
	fprintf(out, "%-12s", "drops:");
	if (drops) {
		int first = 1;

		json_object_object_foreach(drops, k, dv) {
			fprintf(out, "%s %s %llu", first ? "" : ",", k, (unsigned long long)json_object_get_uint64(dv));
			first = 0;
		}
	}
	if (json_object_object_get_ex(s, "tracepoints", &v) && json_object_array_length(v)) {
		fprintf(out, "\n%-12s", "tracepoints:");
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *t = json_object_array_get_idx(v, i);

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
		if (json_object_array_length(v))
			fprintf(out, "\n%-12s %s", "", !strcmp(json_get_str(json_object_array_get_idx(v, 0), "watch", ""), "module_load")
				? "modules watched at load (module:module_load); tracefs checked every second too"
				: "no module:module_load tracepoint: tracefs checked every second");
	}
	fprintf(out, "\n%-12s ", "overhead:");
	if (json_get_double(bpf, "run_cnt", 0) > 0)
		fprintf(out, "%.0f ns/IRQ " COST_MEANING " (%llu IRQs timed while BPF stats were on)%s\n",
		       json_get_double(bpf, "ns_per_irq", 0), (unsigned long long)json_get_double(bpf, "run_cnt", 0),
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
	if (json_has(s, "threaded_run"))
		fprintf(out, "%-12s run time from %s\n", "threaded:",
			!strcmp(json_get_str(s, "threaded_run", "?"), "on-cpu") ? "the thread's on-CPU time (sched_switch; threaded-run = on-cpu)"
										 : "the thread handler (fentry/fexit; threaded-run = handler)");
	if (cfg) {
		fmt_duration(th, sizeof(th), (uint64_t)json_get_double(cfg, "threshold_ns", 0), "");
		fprintf(out, "%-12s threshold %s, interval %.0f ms, max cells %.0f, ring buffer %.0f KiB, socket %s%s\n", "config:",
		       json_get_double(cfg, "threshold_ns", 0) > 0 ? th : "off", json_get_double(cfg, "interval_ms", 0),
		       json_get_double(cfg, "max_cells", 0), json_get_double(cfg, "ringbuf_bytes", 0) / 1024,
		       json_get_str(cfg, "socket", "?"),
		       json_object_object_get_ex(cfg, "bpf_stats", &v) && json_object_get_boolean(v) ? ", --bpf-stats" : "");
		json_object_object_foreach(cfg, k, cv) {
			if (!strcmp(k, "threshold_ns") || !strcmp(k, "interval_ms") || !strcmp(k, "max_cells") ||
			    !strcmp(k, "ringbuf_bytes") || !strcmp(k, "socket") || !strcmp(k, "bpf_stats"))
				continue;
			fprintf(out, "%-12s %s: %s\n", "", k, json_object_to_json_string_ext(cv, JSON_C_TO_STRING_PLAIN));
		}
	}
	json_object_object_foreach(s, k, ov) {
		size_t i;

		for (i = 0; i < ELEMENTSOF(known); i++)
			if (!strcmp(k, known[i]))
				break;
		if (i == ELEMENTSOF(known))
			fprintf(out, "%-12s %s\n", k, json_object_to_json_string_ext(ov, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	}
}
