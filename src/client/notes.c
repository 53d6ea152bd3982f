// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "cpuline.h"
#include "notes.h"
#include "common/json.h"

static char *next_line(struct notes *out)
{
	return out->n < NOTES_MAX ? out->line[out->n++] : NULL;
}

/* The daemon's bpf.shared: {"known": bool, "programs": [{"id", "name", "tracepoint", "comm"}],
 * "error"}. The cost first, then who: each owner once (a program without one by its id) */
static void note_shared(struct notes *out, json_object *summary)
{
	json_object *bpf, *shared, *progs;
	size_t n, off;
	char *l;

	if (!json_object_object_get_ex(summary, "bpf", &bpf) || !json_object_object_get_ex(bpf, "shared", &shared) ||
	    !json_object_object_get_ex(shared, "programs", &progs) || !json_object_is_type(progs, json_type_array) ||
	    !(n = json_array_len(progs)) || !(l = next_line(out)))
		return;
	off = (size_t)snprintf(l, NOTE_LEN, "! every time shown includes the cost of %zu other BPF program%s on the IRQ "
			       "tracepoints:", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n && off < NOTE_LEN; i++) {
		json_object *p = json_array_at(progs, i);
		const char *comm = json_get_str(p, "comm", NULL);
		bool again = false;

		for (size_t k = 0; k < i && comm && !again; k++)
			again = !strcmp(json_get_str(json_array_at(progs, k), "comm", ""), comm);
		if (again)
			continue;
		if (comm)
			off += (size_t)snprintf(l + off, NOTE_LEN - off, " %s,", comm);
		else
			off += (size_t)snprintf(l + off, NOTE_LEN - off, " id %d,", (int)json_get_i64(p, "id", 0));
	}
	if (off < NOTE_LEN)
		l[off - 1] = 0;	/* the last comma */
}

/* Each handler's "storm": null, or {"kind": "rate", "rate", "baseline_rate"} or
 * {"kind": "unhandled", "rate", "unhandled_share"} */
static void note_storms(struct notes *out, json_object *summary)
{
	json_object *irqs, *st;
	size_t off = 0;
	char *l = NULL;

	if (!json_object_object_get_ex(summary, "irqs", &irqs) || !json_object_is_type(irqs, json_type_array))
		return;
	for (size_t i = 0; i < json_array_len(irqs); i++) {
		json_object *h = json_array_at(irqs, i);
		char rate[16], base[16];

		if (!json_object_object_get_ex(h, "storm", &st) || !st)
			continue;
		if (!l && !(l = next_line(out)))
			return;
		if (off >= NOTE_LEN)
			break;
		fmt_rate(rate, sizeof(rate), json_get_double(st, "rate", 0));
		off += (size_t)snprintf(l + off, NOTE_LEN - off, "%sIRQ %d %s ", off ? "; " : "! storm: ",
					(int)json_get_i64(h, "irq", -1), json_get_str(h, "name", "?"));
		if (off >= NOTE_LEN)
			break;
		if (!strcmp(json_get_str(st, "kind", ""), "unhandled")) {
			off += (size_t)snprintf(l + off, NOTE_LEN - off, "%.0f%% of %s/s unhandled (IRQ_NONE)",
						100 * json_get_double(st, "unhandled_share", 0), rate);
		} else {
			double b = json_get_double(st, "baseline_rate", 0);

			fmt_rate(base, sizeof(base), b);
			if (b > 0)
				off += (size_t)snprintf(l + off, NOTE_LEN - off, "%s/s, %.0fx its recent %s/s", rate,
							json_get_double(st, "rate", 0) / b, base);
			else	/* silent since the daemon started (docs/storms.md) */
				off += (size_t)snprintf(l + off, NOTE_LEN - off, "%s/s, up from none", rate);
		}
	}
}

static void note_cpus(struct notes *out, json_object *summary)
{
	char sets[NOTE_LEN - 64], *l;

	cpuline_sets(sets, sizeof(sets), summary);
	if (sets[0] && (l = next_line(out)))
		snprintf(l, NOTE_LEN, "%s: a handler that runs there is marked ! (FLAGS I)", sets);
}

/* Only when a '*' is on the page: then it says which percentile wants how many runs */
static void note_few_runs(struct notes *out, const struct row *rows, int n, const enum column *cols, int ncols)
{
	char need[128] = "";
	size_t off = 0;
	char *l;

	for (int c = 0; c < ncols; c++) {
		bool marked = false;

		for (int i = 0; i < n && !marked; i++)
			marked = table_few_runs(&rows[i], cols[c]);
		if (marked)
			off += (size_t)snprintf(need + off, sizeof(need) - off, off ? ", %s %llu" : "%s needs %llu",
						column_defs[cols[c]].header,
						(unsigned long long)table_quantile_min_runs(column_defs[cols[c]].quantile));
	}
	if (need[0] && (l = next_line(out)))
		snprintf(l, NOTE_LEN, "*: too few runs in the window for that percentile (%s), so it is their slowest run",
			 need);
}

void notes_collect(struct notes *out, json_object *summary, const struct row *rows, int n, const enum column *cols,
		   int ncols)
{
	out->n = 0;
	note_shared(out, summary);
	note_storms(out, summary);
	out->warnings = out->n;
	note_cpus(out, summary);
	note_few_runs(out, rows, n, cols, ncols);
}
