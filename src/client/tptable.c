// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "table.h"
#include "tptable.h"

static uint64_t get_u(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_uint64(v) : 0;
}

static const char *get_s(json_object *o, const char *k, const char *dflt)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : dflt;
}

void tp_print_section(FILE *f, json_object *summary)
{
	json_object *tps, *v;
	size_t n;

	if (!json_object_object_get_ex(summary, "tracepoints", &tps) || !(n = json_object_array_length(tps)))
		return;
	fprintf(f, "\n  %-24s %-9s %9s %8s %6s %6s %8s %8s %8s %8s  %s\n", "TRACEPOINT", "STATE", "EVENTS", "RATE/s",
		"GAPS", "MISSED", "PERIOD", "LATE50", "LATE99", "LATEMAX", "LAST");
	for (size_t i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(tps, i), *last;
		char rate[16], period[16], p50[16], p99[16], max[16], lastbuf[256] = "";
		size_t off = 0;

		fmt_count(rate, sizeof(rate), json_object_object_get_ex(t, "rate", &v) ? json_object_get_double(v) : 0);
		fmt_ns(period, sizeof(period), get_u(t, "period_ns"));
		if (!get_u(t, "period_ns"))
			snprintf(period, sizeof(period), "-");
		fmt_ns(p50, sizeof(p50), get_u(t, "lateness_p50_ns"));
		fmt_ns(p99, sizeof(p99), get_u(t, "lateness_p99_ns"));
		fmt_ns(max, sizeof(max), get_u(t, "lateness_max_ns"));
		if (!get_u(t, "intervals")) {
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
		if (json_object_object_get_ex(t, "error", &v) && strcmp(get_s(t, "state", ""), "attached"))
			snprintf(lastbuf, sizeof(lastbuf), "%s", json_object_get_string(v));
		char gaps[24] = "-", missed[24] = "-";

		if (json_object_object_get_ex(t, "gaps", &v)) {
			snprintf(gaps, sizeof(gaps), "%llu", (unsigned long long)get_u(t, "gaps"));
			snprintf(missed, sizeof(missed), "%llu", (unsigned long long)get_u(t, "missed"));
		}
		fprintf(f, "  %-24s %-9s %9llu %8s %6s %6s %8s %8s %8s %8s  %s\n", get_s(t, "tracepoint", "?"),
			get_s(t, "state", "?"), (unsigned long long)get_u(t, "events"), rate, gaps, missed, period,
			p50, p99, max, lastbuf);
	}
}

int tp_request(struct irqlat_conn *conn, const char *cmd, const char *target, int json)
{
	json_object *req = json_object_new_object(), *s, *done;

	json_object_object_add(req, "cmd", json_object_new_string(cmd));
	json_object_object_add(req, "tracepoint", json_object_new_string(target));
	s = conn_request(conn, req);	/* prints the daemon's reason on refusal */
	json_object_put(req);
	if (!s)
		return 1;
	if (json) {
		json_object_object_del(s, "ok");
		puts(json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	} else if (json_object_object_get_ex(s, !strcmp(cmd, "detach") ? "detached" : "attached", &done)) {
		size_t n = json_object_array_length(done);

		if (!n)
			printf("irqlat: nothing to %s: %s is not %s\n", cmd, target,
			       !strcmp(cmd, "detach") ? "attached" : "detached");
		for (size_t i = 0; i < n; i++)
			printf("%s %s%s\n", !strcmp(cmd, "detach") ? "detached from" : "attached to",
			       json_object_get_string(json_object_array_get_idx(done, i)),
			       !strcmp(cmd, "detach") ? ": its module can be unloaded now" : "");
	}
	json_object_put(s);
	return 0;
}
