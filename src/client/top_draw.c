// SPDX-License-Identifier: GPL-2.0
/* Drawing irqlat --top: the header, the handler table (cut to the terminal's width) with its
 * tracepoint section, the help; the histogram view is top_hist.c. Cells and units are
 * table.c's, shared with the batch output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>
#include "top_screen.h"
#include "tptable.h"
#include "common/json.h"
#include "common/util.h"

#define TP_LINES_MAX 4	/* tracepoint rows on the screen at most */
#define NAME_MIN 8
#define NAME_MAX_W 24

/* Which of the wanted columns fit in `width` (dropping them in their drop order), and how
 * wide NAME may be. */
static int fit_columns(const struct top *t, int width, enum column *cols, int *name_w)
{
	bool keep[COL_COUNT_] = { false };
	int n = 0, used;

	for (int i = 0; i < t->nwant; i++)
		keep[t->want[i]] = true;
	for (int rank = 1;; rank++) {
		bool dropped = false;

		used = -1;
		for (int i = 0; i < t->nwant; i++)
			if (keep[t->want[i]])
				used += 1 + (t->want[i] == COL_NAME ? NAME_MIN : column_defs[t->want[i]].width);
		if (used <= width)
			break;
		for (int c = 0; c < COL_COUNT_; c++)
			if (column_defs[c].drop == rank) {
				keep[c] = false;
				dropped = true;
			}
		if (!dropped)
			break;
	}
	*name_w = NAME_MIN + (width > used ? width - used : 0);
	if (*name_w > NAME_MAX_W)
		*name_w = NAME_MAX_W;
	for (int i = 0; i < t->nwant; i++)
		if (keep[t->want[i]])
			cols[n++] = t->want[i];
	return n;
}

static void put_cell(int y, int x, int w, bool left, const char *s)
{
	char buf[64];
	size_t len = strlen(s);

	if (w <= 0)
		return;
	if ((int)len > w) {	/* truncated, and says so */
		snprintf(buf, sizeof(buf), "%.*s~", w - 1, s);
		s = buf;
	}
	mvprintw(y, x, left ? "%-*s" : "%*s", w, s);
}

static void fmt_uptime(char *buf, size_t len, double s)
{
	unsigned long v = (unsigned long)s;

	if (v >= 86400)
		snprintf(buf, len, "%lud %02lu:%02lu", v / 86400, v % 86400 / 3600, v % 3600 / 60);
	else
		snprintf(buf, len, "%lu:%02lu:%02lu", v / 3600, v % 3600 / 60, v % 60);
}

int top_draw_header(struct top *t)
{
	json_object *b = NULL;
	char up[32], rate[32], cost[96];
	int handlers;

	fmt_uptime(up, sizeof(up), json_get_double(t->summary, "uptime_s", 0));
	fmt_count(rate, sizeof(rate), json_get_double(t->summary, "rate", 0));
	handlers = json_has(t->summary, "handlers") ? (int)json_get_i64(t->summary, "handlers", 0) : t->nrows;
	mvprintw(0, 0, "irqlat - up %s, %s IRQ/s, %d handlers, window %s", up, rate, handlers, window_name(t->window));
	if (t->summary)
		json_object_object_get_ex(t->summary, "bpf", &b);
	if (t->cost_ns >= 0 && b && json_get_u64(b, "run_cnt", 0))
		snprintf(cost, sizeof(cost), "cost: %.0f ns/IRQ", t->cost_ns);
	else
		snprintf(cost, sizeof(cost), "cost: n/a (sysctl kernel.bpf_stats_enabled=1)");
	mvprintw(1, 0, "%s, drops: %llu", cost, (unsigned long long)table_drops(t->summary));
	if (t->threshold_ns) {
		char th[16];

		fmt_duration(th, sizeof(th), t->threshold_ns, "");
		printw(", outlier threshold %s", th);
	}
	if (t->msg[0]) {
		if (t->color)
			attron(COLOR_PAIR(PAIR_WARN) | A_BOLD);
		else
			attron(A_BOLD);
		mvprintw(2, 0, "%.*s", COLS, t->msg);
		attroff(COLOR_PAIR(PAIR_WARN) | A_BOLD);
	} else if (t->filtering || t->filter[0]) {
		mvprintw(2, 0, "filter: %s%s", t->filter, t->filtering ? "_  (Enter keeps, Esc clears)" : "");
	}
	return 3;
}

static int row_pair(const struct top *t, const struct row *r)
{
	if (!t->color || !t->threshold_ns)
		return 0;
	if (r->p99_ns >= t->threshold_ns)
		return PAIR_P99;
	if (r->max_ns >= t->threshold_ns)
		return PAIR_MAX;
	return 0;
}

static void draw_cpus(struct top *t, int y, const struct row *r, double wsecs)
{
	json_object *irqs, *h, *cpus;
	int x = 6;

	if (!json_object_object_get_ex(t->summary, "irqs", &irqs) || !(h = json_object_array_get_idx(irqs, (size_t)r->src)) ||
	    !json_object_object_get_ex(h, "cpus", &cpus))
		return;
	mvprintw(y, 2, "cpu:");
	for (size_t k = 0; k < json_object_array_length(cpus); k++) {
		json_object *co = json_object_array_get_idx(cpus, k);
		uint64_t wc = json_get_u64(co, "window_count", 0);
		char cnt[16], rate[16], cell[64];
		int n;

		fmt_count(cnt, sizeof(cnt), (double)json_get_u64(co, "count", 0));
		fmt_count(rate, sizeof(rate), wsecs > 0 ? (double)wc / wsecs : 0);
		n = snprintf(cell, sizeof(cell), " %d: %s (%s/s, %.0f%%)", (int)json_get_u64(co, "cpu", 0), cnt, rate,
			     r->rate > 0 && wsecs > 0 ? 100.0 * (double)wc / wsecs / r->rate : 0);
		if (x + n >= COLS)
			break;
		mvprintw(y, x, "%s", cell);
		x += n;
	}
}

/* The tracepoint section: the same table as the batch output (tptable.c), cut to the width. */
static void draw_tracepoints(int y, json_object *summary, int nlines)
{
	_cleanup_free_ char *text = NULL;
	char *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool first = true;

	if (!f)
		return;
	tp_print_section(f, summary);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line && nlines > 0; line = strtok_r(NULL, "\n", &save), nlines--) {
		if (first)
			attron(A_BOLD);
		mvprintw(y++, 0, "%.*s", COLS, line);
		if (first)
			attroff(A_BOLD);
		first = false;
	}
}

/* The column header line, in reverse video like top's; the sort column is marked with an arrow */
static void draw_column_header(struct top *t, int y, const enum column *cols, int ncols, int name_w)
{
	int x = 0;

	attron(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	for (int c = 0; c < ncols; c++) {
		const struct column_def *d = &column_defs[cols[c]];
		int w = cols[c] == COL_NAME ? name_w : d->width;

		if (cols[c] == sort_defs[t->sort].column) {
			bool down = sort_defs[t->sort].lowest_first == t->reverse;
			int len = 1 + (int)strlen(d->header);	/* the arrow is one column wide */

			attron(A_BOLD);
			mvprintw(y, d->left || len > w ? x : x + w - len, "%s%s", down ? t->arrow_down : t->arrow_up, d->header);
			attroff(A_BOLD);
		} else {
			put_cell(y, x, w, d->left, d->header);
		}
		x += w + 1;
	}
	attroff(A_REVERSE);
}

static void draw_table(struct top *t)
{
	enum column cols[COL_COUNT_];
	int name_w, ncols, y = top_draw_header(t), bottom = LINES - 1, rows_h;
	json_object *tps = NULL;
	int tp_lines = 0;
	char cell[64], keys[64], line[160];
	double wsecs = json_get_double(t->summary, "window_s", 0);

	ncols = fit_columns(t, COLS, cols, &name_w);
	if (t->summary && json_object_object_get_ex(t->summary, "tracepoints", &tps) &&
	    json_object_is_type(tps, json_type_array) && json_object_array_length(tps)) {
		tp_lines = 2 + (int)json_object_array_length(tps);	/* a blank line, the header, rows */
		if (tp_lines > TP_LINES_MAX + 2)
			tp_lines = TP_LINES_MAX + 2;
		if (bottom - tp_lines - y < 3)
			tp_lines = 0;	/* too short a terminal: the handlers come first */
	}
	draw_column_header(t, y++, cols, ncols, name_w);
	rows_h = bottom - y - tp_lines;
	if (rows_h < 1)
		rows_h = 1;
	/* keep the selection in view; with per-CPU lines every handler takes two */
	int per = t->percpu ? 2 : 1, fit = rows_h / per;

	if (fit < 1)
		fit = 1;
	if (t->sel < t->scroll)
		t->scroll = t->sel;
	if (t->sel >= t->scroll + fit)
		t->scroll = t->sel - fit + 1;
	for (int i = t->scroll; i < t->nvis && y + per - 1 < bottom - tp_lines; i++) {
		const struct row *r = &t->rows[t->vis[i]];
		int pair = row_pair(t, r), attr = (i == t->sel && t->view == VIEW_TABLE) ? A_REVERSE : 0, x = 0;

		if (pair)
			attr |= COLOR_PAIR(pair) | (pair == PAIR_P99 ? A_BOLD : 0);
		attron(attr);
		if (attr & A_REVERSE)
			mvhline(y, 0, ' ', COLS);
		for (int c = 0; c < ncols; c++) {
			const struct column_def *d = &column_defs[cols[c]];
			int w = cols[c] == COL_NAME ? name_w : d->width;

			table_cell(cell, sizeof(cell), r, cols[c]);
			put_cell(y, x, w, d->left, cell);
			x += w + 1;
		}
		attroff(attr);
		y++;
		if (t->percpu)
			draw_cpus(t, y++, r, wsecs);
	}
	if (!t->nvis)
		mvprintw(y, 0, t->summary ? (t->filter[0] ? "no handler matches '%s'" : "no hard IRQ handled yet")
					  : "waiting for irqlatd", t->filter);
	if (tp_lines)
		draw_tracepoints(bottom - tp_lines + 1, t->summary, tp_lines - 1);
	table_sort_keys(keys, sizeof(keys));
	snprintf(line, sizeof(line), "q quit  ? help  %s sort  R reverse  w window  c CPUs  / filter  Enter histogram", keys);
	attron(A_DIM);
	mvprintw(bottom, 0, "%.*s", COLS, line);
	attroff(A_DIM);
}

static void help_line(int *y, const char *s)
{
	if (*y < LINES)
		mvprintw(*y, 0, "%.*s", COLS, s);
	(*y)++;
}

static void draw_help(void)
{
	static const char *const after[] = {
		"  c  per-CPU breakdown under each handler",
		"  up/down PgUp/PgDn Home/End  move the selection",
		"  Enter  histogram of the selected handler (Enter or Esc: back)",
		"  /  filter by name (Enter keeps it, Esc clears it)",
		"  ?  this help         q  quit",
		"",
		"Rows in red: p99 at or above the daemon's outlier threshold; yellow: max only.",
		"NO_COLOR or a terminal without colours turns colours off.",
		"AVG P50 P99 P99.9 MAX: time in the handler; %TIME: share of wall time in it.",
		"cost: ns of BPF run time per IRQ (needs sysctl kernel.bpf_stats_enabled=1",
		"or irqlatd --bpf-stats).",
		"",
		"Any key: back",
	};
	char line[160], item[SORT_COUNT_ + 1][40];
	size_t off = 0;
	int y = 0;

	help_line(&y, "irqlat --top: hard-IRQ handler latency, measured by irqlatd");
	help_line(&y, "");
	/* the sort keys, three to a line, from the table that the keys themselves use */
	for (int i = 0; i < SORT_COUNT_; i++)
		snprintf(item[i], sizeof(item[i]), "%c  sort by %s", sort_defs[i].key, column_defs[sort_defs[i].column].header);
	snprintf(item[SORT_COUNT_], sizeof(item[SORT_COUNT_]), "R  reverse the sort");
	for (int i = 0; i <= SORT_COUNT_; i++) {
		bool last = i % 3 == 2 || i == SORT_COUNT_;

		off += (size_t)snprintf(line + off, sizeof(line) - off, last ? "%s" : "%-24s", item[i]);
		if (last) {
			char full[sizeof(line) + 2];

			snprintf(full, sizeof(full), "  %s", line);
			help_line(&y, full);
			off = 0;
		}
	}
	off = (size_t)snprintf(line, sizeof(line), "  w  window: ");
	for (int w = 0; w < WINDOW_COUNT; w++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, "%s%s", w ? ", " : "", window_name((enum window)w));
	snprintf(line + off, sizeof(line) - off, " (rates and percentiles)");
	help_line(&y, line);
	for (unsigned i = 0; i < ELEMENTSOF(after); i++)
		help_line(&y, after[i]);
}

void top_draw(struct top *t)
{
	erase();
	if (t->view == VIEW_HELP)
		draw_help();
	else if (t->view == VIEW_HIST)
		top_draw_hist(t);
	else
		draw_table(t);
	refresh();
}
