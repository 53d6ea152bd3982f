// SPDX-License-Identifier: GPL-2.0
/* Drawing irqlat --top: the handler table (cut to the terminal's width) with its
 * tracepoint section, the help; the header is top_header.c, the histogram view top_hist.c. Cells and units are
 * table.c's, shared with the batch output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>
#include "cpulat.h"
#include "cpuload.h"
#include "irqthreads.h"
#include "top_columns.h"
#include "top_draw.h"
#include "top_header.h"
#include "top_hist.h"
#include "top_keys.h"
#include "cpuline.h"
#include "notes.h"
#include "tptable.h"
#include "common/json.h"
#include "common/util.h"

#define TP_LINES_MAX 4	/* tracepoint rows on the screen at most */
#define HELP_KEYS_WIDTH 99	/* the keys' lines of the help fit 100 columns */

static void put_cell(int y, int x, int w, bool left, const char *s)
{
	char buf[1024];	/* wider than any terminal line */

	if (w <= 0)
		return;
	if (strlen(s) > (size_t)w) {
		table_cut(buf, sizeof(buf), s, w);
		s = buf;
	}
	mvprintw(y, x, left ? "%-*s" : "%*s", w, s);
}

static int row_pair(const struct top *t, const struct row *r)
{
	if (!t->color || r->idle)
		return 0;
	if (strchr(r->flags, FLAG_STORM) || strchr(r->flags, FLAG_UNHANDLED))
		return PAIR_STORM;
	if (!top_threshold(t))
		return 0;
	/* a p99 of too few runs is their slowest run: only the maximum crossed */
	if (r->p99_ns >= top_threshold(t) && !table_few_runs(r, COL_P99))
		return PAIR_P99;
	if (r->max_ns >= top_threshold(t))
		return PAIR_MAX;
	return 0;
}

/* Under a row: its affinity and its CPUs (those of the CPU filter), cut to the width */
static void draw_cpus(struct top *t, int y, const struct row *r)
{
	char line[1024];

	if (cpuline_text(line, sizeof(line), t->summary, r, t->cpus[0] ? t->cpus : NULL) < 0)
		return;
	put_cell(y, 6, COLS - 6, true, line);
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
	tp_print_section(f, summary, COLS);
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

/* "v softirqs/vectors/load/timers/threaded": the views of the v key on the key line, after the
 * handlers', each kind's key_word and the CPU load's */
static void view_words(char *buf, size_t len)
{
	enum lat_kind load = top_load_after(), k = KIND_HARDIRQ;
	size_t off = (size_t)snprintf(buf, len, "v ");
	const char *sep = "";

	do {
		const char *word = kind_get(k)->table.key_word;

		if (word && off < len) {
			off += (size_t)snprintf(buf + off, len - off, "%s%s", sep, word);
			sep = "/";
		}
		if (k == load && off < len) {
			off += (size_t)snprintf(buf + off, len - off, "%sload", sep);
			sep = "/";
		}
		k = kind_next_table(k);
	} while (k != KIND_HARDIRQ);
}

/* The key line, as much of it as fits: the least needed keys go first (? lists them all);
 * v stays, as "v view" when its list of views does not fit: without it the other views are
 * out of reach */
static void draw_footer(int y)
{
	char keys[64], views[128], line[256];
	const struct {
		const char *text;
		int rank;	/* dropped from the highest */
	} items[] = {
		{ "q quit", 0 }, { "? help", 0 }, { keys, 2 }, { "R reverse", 8 }, { "w window", 3 },
		{ "c per-CPU", 5 }, { "C CPUs", 6 }, { "/ filter", 4 }, { views, 7 }, { "Enter histogram", 1 },
	};
	int drop_above = 9;

	view_words(views, sizeof(views));
	table_sort_keys(keys, sizeof(keys));
	strcat(keys, " sort");
	for (;; drop_above--) {
		size_t off = 0;

		line[0] = 0;
		for (unsigned i = 0; i < ELEMENTSOF(items); i++)
			if (items[i].rank <= drop_above || items[i].text == views)
				off += (size_t)snprintf(line + off, sizeof(line) - off, "%s%s", off ? "  " : "",
							items[i].rank <= drop_above ? items[i].text : "v view");
		if ((int)off <= COLS || drop_above == 0)
			break;
	}
	attron(A_DIM);
	mvprintw(y, 0, "%.*s", COLS, line);
	attroff(A_DIM);
}

static void draw_table(struct top *t)
{
	enum column cols[COL_COUNT_];
	int name_w, ncols, y = top_draw_header(t), bottom = LINES - 1, rows_h, widths[COL_COUNT_];
	json_object *tps = NULL;
	int tp_lines = 0;
	char cell[128], scope[512];

	ncols = top_fit_columns(t, COLS, cols, &name_w);
	if (t->summary && json_object_object_get_ex(t->summary, "tracepoints", &tps) && json_array_len(tps)) {
		tp_lines = 2 + (int)json_array_len(tps);	/* a blank line, the header, rows */
		if (tp_lines > TP_LINES_MAX + 2)
			tp_lines = TP_LINES_MAX + 2;
		if (bottom - tp_lines - y < 4)
			tp_lines = 0;	/* too short a terminal: the handlers come first */
	}
	for (int c = 0; c < ncols; c++)
		widths[c] = cols[c] == COL_NAME ? name_w : column_defs[cols[c]].width;
	table_scope_line(scope, sizeof(scope), cols, widths, ncols, window_name(t->window));
	mvprintw(y++, 0, "%.*s", COLS, scope);
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
			attr |= COLOR_PAIR(pair) | (pair == PAIR_P99 || pair == PAIR_STORM ? A_BOLD : 0);
		attron(attr);
		if (attr & A_REVERSE)
			mvhline(y, 0, ' ', COLS);
		for (int c = 0; c < ncols; c++) {
			table_cell(cell, sizeof(cell), r, cols[c]);
			put_cell(y, x, widths[c], column_defs[cols[c]].left, cell);
			x += widths[c] + 1;
		}
		attroff(attr);
		y++;
		if (t->percpu)
			draw_cpus(t, y++, r);
	}
	if (!t->nvis) {
		char empty[160];

		if (!t->summary)
			snprintf(empty, sizeof(empty), "waiting for irqlatd");
		else if (t->filter[0] || t->cpus[0])
			snprintf(empty, sizeof(empty), "no %s matches the filter", kind_get(t->source)->table.noun);
		else if (t->source == KIND_THREADED)	/* none yet, or none on this kernel */
			irqthreads_empty_line(empty, sizeof(empty), "/proc");
		else
			snprintf(empty, sizeof(empty), "no %s measured yet", kind_get(t->source)->table.noun);
		mvprintw(y, 0, "%.*s", COLS, empty);
	}
	if (tp_lines)
		draw_tracepoints(bottom - tp_lines + 1, t->summary, tp_lines - 1);
	draw_footer(bottom);
}

static void help_line(int *y, const char *s)
{
	if (*y < LINES) {	/* cleared first: the last line may go over a longer one */
		move(*y, 0);
		clrtoeol();
		mvprintw(*y, 0, "%.*s", COLS, s);
	}
	(*y)++;
}

/* A paragraph, wrapped at the terminal's width at spaces; lines after the first indented by
 * `indent`. draw false: only counts the lines (*y moves as if drawn). */
static void help_para(int *y, const char *s, int indent, bool draw)
{
	int width = COLS > 20 ? COLS : 20, first = 1;

	while (*s) {
		int room = width - (first ? 0 : indent), len = (int)strlen(s), cut = len;

		if (len > room) {
			for (cut = room; cut > 0 && s[cut] != ' '; cut--)
				;
			if (!cut)
				cut = room;
		}
		if (draw && *y < LINES)
			mvprintw(*y, first ? 0 : indent, "%.*s", cut, s);
		(*y)++;
		s += cut;
		while (*s == ' ')
			s++;
		first = 0;
	}
}

/* "  v  show handlers, softirqs (...), vector interrupts, CPU load, ...": each kind's view in
 * the order of the v key, wrapped to fit 100 columns (as the other lines of the help), or the
 * terminal when it is narrower */
static void help_views(int *y)
{
	int width = COLS < HELP_KEYS_WIDTH + 1 ? COLS - 1 : HELP_KEYS_WIDTH;
	enum lat_kind load = top_load_after(), k = KIND_HARDIRQ;
	char text[512], line[128];
	size_t off = 0;
	const char *p;
	int n;

	do {
		off += (size_t)snprintf(text + off, sizeof(text) - off, "%s%s", off ? ", " : "", kind_get(k)->table.view);
		if (k == load)
			off += (size_t)snprintf(text + off, sizeof(text) - off, ", CPU load");
		k = kind_next_table(k);
	} while (k != KIND_HARDIRQ && off < sizeof(text));
	n = snprintf(line, sizeof(line), "  v  show");
	for (p = text; *p; p += strspn(p, " ")) {
		int w = (int)strcspn(p, " ");

		if (n + 1 + w > width && n > 4) {
			help_line(y, line);
			n = snprintf(line, sizeof(line), "    ");
		}
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %.*s", w, p);
		p += w;
	}
	help_line(y, line);
}

static void draw_help(void)
{
	static const char *const keys[] = {
		"  c  per-CPU lines: the IRQ's affinity, and each CPU's count, rate and share",
		"  C  only handlers that ran on these CPUs (1, 0-3,8), with those CPUs' lines",
		NULL,	/* v: the views (help_views) */
		"  up/down PgUp/PgDn Home/End  select;  Enter  histogram (Enter or Esc: back)",
		"  /  filter by name (Enter keeps it, Esc clears it);  ?  this help;  q  quit",
	};
	static const char *const paras[] = {
		"Default order %TIME: the share of time in the handler, so what costs the CPUs most comes first; "
		"a handler with a few runs rarely leads it. Sorted by P99, handlers with too few runs for a p99 "
		"come after those with enough.",
		"COUNT CPUS SPURIOUS: since irqlatd started; the others: the window. -: no run in the window. *: "
		"too few runs for that percentile (P50 2, P90 10, P99 100, P99.9 1000): their slowest run.",
		"FLAGS: S storm, U mostly unhandled (IRQ_NONE), I ran on an isolated or nohz_full CPU, A outside the "
		"IRQ's affinity (! marks those CPUs). Red: p99 over the outlier threshold; yellow: max only; "
		"magenta: storm.",
		"cost: irqlatd's BPF time per IRQ, entry+exit (sysctl kernel.bpf_stats_enabled=1 or irqlatd "
		"--bpf-stats); higher at low IRQ rates (cold caches). Other BPF programs on the IRQ tracepoints "
		"add their cost to every time shown: a line under the header names them.",
	};
	char line[160], item[SORT_COUNT_ + 1][40];
	size_t off = 0;
	int y = 0;

	help_line(&y, "irqlat --top: hard-IRQ handler latency, measured by irqlatd");
	/* the sort keys, three to a line, from the table that the keys themselves use */
	for (int i = 0; i < SORT_COUNT_; i++)
		snprintf(item[i], sizeof(item[i]), "%c  sort by %s%s", sort_defs[i].key, column_defs[sort_defs[i].column].header,
			 i == table_sort_key(SORT_DEFAULT) ? " *" : "");
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
	snprintf(line + off, sizeof(line) - off, " (rates, percentiles, FLAGS)");
	help_line(&y, line);
	for (unsigned i = 0; i < ELEMENTSOF(keys); i++)
		if (keys[i])
			help_line(&y, keys[i]);
		else
			help_views(&y);
	/* whole paragraphs only, above the last line: on a short terminal the rest is irqlat(1)'s */
	bool all = true;

	for (unsigned i = 0; i < ELEMENTSOF(paras) && all; i++) {
		int end = y;

		help_para(&end, paras[i], 2, false);
		if (end > LINES - 1)
			all = false;
		else
			help_para(&y, paras[i], 2, true);
	}
	y = y < LINES - 1 ? y : LINES - 1;
	help_line(&y, all ? "q quits; any other key goes back (* above: the default order)"
			  : "q quits; any other key goes back (* default order; more: man irqlat)");
}

/* The per-CPU latency (cpulat.c) and load (cpuload.c) under the header, the text the batch
 * output prints, cut to the screen; titles and column headers bold */
static void draw_load(struct top *t)
{
	_cleanup_free_ char *text = NULL;
	char *line, *save = NULL;
	size_t len = 0;
	int y = top_draw_header(t);
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	cpulat_print(f, t->summary, COLS);
	cpuload_print(f, t->summary, COLS);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line && y < LINES - 1; line = strtok_r(NULL, "\n", &save), y++) {
		bool row = !strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9';

		if (!row)
			attron(A_BOLD);
		mvprintw(y, 0, "%.*s", COLS, line);
		attroff(A_BOLD);
	}
	draw_footer(LINES - 1);
}

void top_draw(struct top *t)
{
	erase();
	if (t->view == VIEW_HELP)
		draw_help();
	else if (t->view == VIEW_HIST)
		top_draw_hist(t);
	else if (t->show_load)
		draw_load(t);
	else
		draw_table(t);
	refresh();
}
