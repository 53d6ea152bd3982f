// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <string.h>
#include "table.h"
#include "tptable.h"
#include "common/json.h"
#include "common/util.h"

static bool waiting(json_object *t)
{
	return !strcmp(json_get_str(t, "state", ""), "waiting");
}

/* A tracepoint whose module is not loaded: one quiet line, not a row of zeros. */
static void print_waiting(FILE *f, json_object *t)
{
	const char *module = json_get_str(t, "module", NULL);
	uint64_t events = json_get_u64(t, "events", 0);

	fprintf(f, "  %-24s waiting for %s%s", json_get_str(t, "tracepoint", "?"), module ? "module " : "its module",
		module ? module : "");
	if (events)
		fprintf(f, " (%llu events before it went)", (unsigned long long)events);
	fputc('\n', f);
}

void tp_print_section(FILE *f, json_object *summary)
{
	json_object *tps, *v;
	bool header = false;
	size_t n;

	if (!json_object_object_get_ex(summary, "tracepoints", &tps) || !(n = json_object_array_length(tps)))
		return;
	for (size_t i = 0; i < n; i++)
		header |= !waiting(json_object_array_get_idx(tps, i));
	fputc('\n', f);
	if (header)
		fprintf(f, "  %-24s %-9s %9s %8s %6s %6s %8s %8s %8s %8s  %s\n", "TRACEPOINT", "STATE", "EVENTS", "RATE/s",
			"GAPS", "MISSED", "PERIOD", "LATE50", "LATE99", "LATEMAX", "LAST");
	for (size_t i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(tps, i), *last;
		char rate[16], period[16], p50[16], p99[16], max[16], lastbuf[256] = "";
		size_t off = 0;

		if (waiting(t)) {
			print_waiting(f, t);
			continue;
		}

		fmt_count(rate, sizeof(rate), json_get_double(t, "rate", 0));
		fmt_duration(period, sizeof(period), json_get_u64(t, "period_ns", 0), "");
		if (!json_get_u64(t, "period_ns", 0))
			snprintf(period, sizeof(period), "-");
		fmt_duration(p50, sizeof(p50), json_get_u64(t, "lateness_p50_ns", 0), "");
		fmt_duration(p99, sizeof(p99), json_get_u64(t, "lateness_p99_ns", 0), "");
		fmt_duration(max, sizeof(max), json_get_u64(t, "lateness_max_ns", 0), "");
		if (!json_get_u64(t, "intervals", 0)) {
			snprintf(p50, sizeof(p50), "-");
			snprintf(p99, sizeof(p99), "-");
			snprintf(max, sizeof(max), "-");
		}
		if (json_object_object_get_ex(t, "last", &last)) {
			json_object_object_foreach(last, k, lv) {
				if (off >= sizeof(lastbuf))
					break;
				off += (size_t)snprintf(lastbuf + off, sizeof(lastbuf) - off, "%s%s=%s", off ? " " : "", k,
							json_object_get_string(lv));
			}
		}
		if (json_object_object_get_ex(t, "error", &v) && strcmp(json_get_str(t, "state", ""), "attached"))
			snprintf(lastbuf, sizeof(lastbuf), "%s", json_object_get_string(v));
		char gaps[24] = "-", missed[24] = "-";

		if (json_object_object_get_ex(t, "gaps", &v)) {
			snprintf(gaps, sizeof(gaps), "%llu", (unsigned long long)json_get_u64(t, "gaps", 0));
			snprintf(missed, sizeof(missed), "%llu", (unsigned long long)json_get_u64(t, "missed", 0));
		}
		fprintf(f, "  %-24s %-9s %9llu %8s %6s %6s %8s %8s %8s %8s  %s\n", json_get_str(t, "tracepoint", "?"),
			json_get_str(t, "state", "?"), (unsigned long long)json_get_u64(t, "events", 0), rate, gaps, missed, period,
			p50, p99, max, lastbuf);
	}
}

void tp_print_result(FILE *f, json_object *answer, const char *cmd, const char *target)
{
	bool detach = !strcmp(cmd, "detach");
	json_object *done;
	size_t n;

	if (!json_object_object_get_ex(answer, detach ? "detached" : "attached", &done))
		return;
	n = json_object_array_length(done);
	if (!n)
		fprintf(f, "irqlat: nothing to %s: %s is not %s\n", cmd, target, detach ? "attached" : "detached");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %s%s\n", detach ? "detached from" : "attached to",
			json_object_get_string(json_object_array_get_idx(done, i)),
			detach ? ": its module can be unloaded now" : "");
}
