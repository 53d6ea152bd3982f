// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <string.h>
#include "table.h"
#include "tptable.h"
#include "common/json.h"
#include "common/util.h"

/* The section's columns, with the order they go in when the width is short (LAST, the last
 * event's arguments, takes what is left) */
enum tp_col { TPC_NAME, TPC_STATE, TPC_EVENTS, TPC_RATE, TPC_GAPS, TPC_MISSED, TPC_PERIOD, TPC_LATE50, TPC_LATE99,
	      TPC_LATEMAX, TPC_COUNT_ };

static const struct {
	const char *header;
	int width;
	bool left;
	int drop;	/* dropped in this order from 1 on a narrow terminal; 0: never */
} tp_cols[TPC_COUNT_] = {
	[TPC_NAME] = { "TRACEPOINT", 10, true, 0 },	/* widened to the longest name */
	[TPC_STATE] = { "STATE", 9, true, 0 },
	[TPC_EVENTS] = { "EVENTS", 9, false, 0 },
	[TPC_RATE] = { "RATE/s", 8, false, 0 },
	[TPC_GAPS] = { "GAPS", 6, false, 5 },
	[TPC_MISSED] = { "MISSED", 6, false, 2 },
	[TPC_PERIOD] = { "PERIOD", 8, false, 3 },
	[TPC_LATE50] = { "LATE50", 8, false, 1 },
	[TPC_LATE99] = { "LATE99", 8, false, 6 },
	[TPC_LATEMAX] = { "LATEMAX", 8, false, 4 },
};

#define TP_LAST_MIN 12	/* what LAST keeps at least, on a narrow terminal */

/* Which columns fit in width (0: all), and their widths */
static void tp_fit(int width, int name_w, bool keep[TPC_COUNT_], int w[TPC_COUNT_])
{
	for (int c = 0; c < TPC_COUNT_; c++) {
		keep[c] = true;
		w[c] = c == TPC_NAME ? name_w : tp_cols[c].width;
	}
	for (int rank = 1; width > 0; rank++) {
		int used = 2 + 2 + TP_LAST_MIN, dropped = 0;

		for (int c = 0; c < TPC_COUNT_; c++)
			if (keep[c])
				used += w[c] + 1;
		if (used <= width)
			break;
		for (int c = 0; c < TPC_COUNT_; c++)
			if (tp_cols[c].drop == rank) {
				keep[c] = false;
				dropped++;
			}
		if (!dropped)
			break;
	}
}

static void tp_line(FILE *f, const bool keep[TPC_COUNT_], const int w[TPC_COUNT_], char cell[TPC_COUNT_][32],
		    const char *last)
{
	fputs("  ", f);
	for (int c = 0; c < TPC_COUNT_; c++)
		if (keep[c])
			fprintf(f, "%*s ", tp_cols[c].left ? -w[c] : w[c], cell[c]);
	fprintf(f, " %s\n", last);
}

static bool waiting(json_object *t)
{
	return !strcmp(json_get_str(t, "state", ""), "waiting");
}

/* The built-in default (silly:me_silly, a demonstration module's) waiting for a module that
 * never loaded: nothing to show on every screen; irqlat status still lists it */
static bool quiet(json_object *t)
{
	json_object *b;

	return waiting(t) && json_object_object_get_ex(t, "builtin", &b) && json_object_get_boolean(b) &&
	       !json_get_u64(t, "events", 0) && !json_get_u64(t, "attaches", 0);
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

void tp_print_section(FILE *f, json_object *summary, int width)
{
	json_object *tps, *v;
	char cell[TPC_COUNT_][32];
	bool keep[TPC_COUNT_];
	int w[TPC_COUNT_], name_w = tp_cols[TPC_NAME].width;
	bool header = false;
	size_t n;

	if (!json_object_object_get_ex(summary, "tracepoints", &tps) || !(n = json_array_len(tps)))
		return;
	size_t shown = 0;

	for (size_t i = 0; i < n; i++)
		shown += !quiet(json_array_at(tps, i));
	if (!shown)
		return;
	for (size_t i = 0; i < n; i++) {
		int len = (int)strlen(json_get_str(json_array_at(tps, i), "tracepoint", "?"));

		if (len > name_w)
			name_w = len < 31 ? len : 31;
	}
	tp_fit(width, name_w, keep, w);
	for (int c = 0; c < TPC_COUNT_; c++)
		snprintf(cell[c], sizeof(cell[c]), "%s", tp_cols[c].header);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++)
		header |= !waiting(json_array_at(tps, i));
	if (header)
		tp_line(f, keep, w, cell, "LAST");
	for (size_t i = 0; i < n; i++) {
		json_object *t = json_array_at(tps, i), *last;
		char lastbuf[256] = "";
		size_t off = 0;

		if (quiet(t))
			continue;
		if (waiting(t)) {
			print_waiting(f, t);
			continue;
		}

		snprintf(cell[TPC_NAME], sizeof(cell[TPC_NAME]), "%s", json_get_str(t, "tracepoint", "?"));
		snprintf(cell[TPC_STATE], sizeof(cell[TPC_STATE]), "%s", json_get_str(t, "state", "?"));
		snprintf(cell[TPC_EVENTS], sizeof(cell[TPC_EVENTS]), "%llu", (unsigned long long)json_get_u64(t, "events", 0));
		fmt_rate(cell[TPC_RATE], sizeof(cell[TPC_RATE]), json_get_double(t, "rate", 0));
		if (json_get_u64(t, "period_ns", 0))
			fmt_duration(cell[TPC_PERIOD], sizeof(cell[TPC_PERIOD]), json_get_u64(t, "period_ns", 0), "");
		else
			snprintf(cell[TPC_PERIOD], sizeof(cell[TPC_PERIOD]), "-");
		fmt_duration(cell[TPC_LATE50], sizeof(cell[TPC_LATE50]), json_get_u64(t, "lateness_p50_ns", 0), "");
		fmt_duration(cell[TPC_LATE99], sizeof(cell[TPC_LATE99]), json_get_u64(t, "lateness_p99_ns", 0), "");
		fmt_duration(cell[TPC_LATEMAX], sizeof(cell[TPC_LATEMAX]), json_get_u64(t, "lateness_max_ns", 0), "");
		if (!json_get_u64(t, "intervals", 0))
			for (int c = TPC_LATE50; c <= TPC_LATEMAX; c++)
				snprintf(cell[c], sizeof(cell[c]), "-");
		if (json_object_object_get_ex(t, "last", &last) && json_is_object(last)) {
			json_object_object_foreach(last, k, lv) {
				if (off >= sizeof(lastbuf))
					break;
				off += (size_t)snprintf(lastbuf + off, sizeof(lastbuf) - off, "%s%s=%s", off ? " " : "", k,
							json_object_get_string(lv));
			}
		}
		if (json_object_object_get_ex(t, "error", &v) && strcmp(json_get_str(t, "state", ""), "attached"))
			snprintf(lastbuf, sizeof(lastbuf), "%s", json_object_get_string(v));
		snprintf(cell[TPC_GAPS], sizeof(cell[TPC_GAPS]), "-");
		snprintf(cell[TPC_MISSED], sizeof(cell[TPC_MISSED]), "-");
		if (json_object_object_get_ex(t, "gaps", &v)) {
			snprintf(cell[TPC_GAPS], sizeof(cell[TPC_GAPS]), "%llu", (unsigned long long)json_get_u64(t, "gaps", 0));
			snprintf(cell[TPC_MISSED], sizeof(cell[TPC_MISSED]), "%llu",
				 (unsigned long long)json_get_u64(t, "missed", 0));
		}
		tp_line(f, keep, w, cell, lastbuf);
	}
}

void tp_print_result(FILE *f, json_object *answer, const char *cmd, const char *target)
{
	bool detach = !strcmp(cmd, "detach");
	json_object *done;
	size_t n;

	if (!json_object_object_get_ex(answer, detach ? "detached" : "attached", &done))
		return;
	n = json_array_len(done);
	if (!n)
		fprintf(f, "irqlat: nothing to %s: %s is not %s\n", cmd, target, detach ? "attached" : "detached");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %s%s\n", detach ? "detached from" : "attached to",
			json_object_get_string(json_array_at(done, i)),
			detach ? ": its module can be unloaded now" : "");
}
