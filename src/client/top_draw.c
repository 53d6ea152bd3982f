// SPDX-License-Identifier: GPL-2.0
/* Drawing irqlat --top: the header, the handler table (cut to the terminal's width) with its
 * tracepoint section, the help; the histogram view is top_hist.c. Cells and units are
 * table.c's, shared with the batch output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>
#include "cpuload.h"
#include "top_screen.h"
#include "cpuline.h"
#include "notes.h"
#include "tptable.h"
#include "common/json.h"
#include "common/util.h"

#define TP_LINES_MAX 4	/* tracepoint rows on the screen at most */
#define NAME_MIN 8	/* what NAME shrinks to when nothing else can go */
#define NAME_FIT 16	/* what NAME keeps while other columns can be dropped */
#define NAME_MAX_W 24

/* The width of the wanted columns that keep[] keeps, NAME counted as name_w */
static int columns_width(const struct top *t, const bool *keep, int name_w)
{
	int used = -1;

	for (int i = 0; i < t->nwant; i++)
		if (keep[t->want[i]])
			used += 1 + (t->want[i] == COL_NAME ? name_w : column_defs[t->want[i]].width);
	return used;
}

/* Which of the wanted columns fit in `width` (dropping them in their drop order, but never
 * the sort column, while NAME keeps NAME_FIT; then NAME shrinks), and how wide NAME may be. */
static int fit_columns(const struct top *t, int width, enum column *cols, int *name_w)
{
	bool keep[COL_COUNT_] = { false };
	enum column sorted = sort_defs[t->sort].column;
	int n = 0, used;

	for (int i = 0; i < t->nwant; i++)
		keep[t->want[i]] = true;
	for (int rank = 1; rank <= COL_COUNT_ && columns_width(t, keep, NAME_FIT) > width; rank++)
		for (int c = 0; c < COL_COUNT_; c++)
			if (column_defs[c].drop == rank && c != (int)sorted)
				keep[c] = false;
	used = columns_width(t, keep, NAME_MIN);
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

/* The line under the header: what is being typed, a message, or the filters in force */
static bool draw_prompt(struct top *t, int y)
{
	if (t->prompt == PROMPT_NAME) {
		mvprintw(y, 0, "filter: %s_  (Enter keeps, Esc clears)", t->filter);
	} else if (t->prompt == PROMPT_CPUS) {
		mvprintw(y, 0, "CPUs: %s_  (a list like 1 or 0-3,8; Enter applies, Esc shows all)  %s", t->cpus_typed, t->msg);
	} else if (t->msg[0]) {
		attron((t->color ? COLOR_PAIR(PAIR_WARN) : 0) | A_BOLD);
		mvprintw(y, 0, "%.*s", COLS, t->msg);
		attroff(COLOR_PAIR(PAIR_WARN) | A_BOLD);
	} else if (t->filter[0]) {	/* the CPU filter is on the first line */
		mvprintw(y, 0, "filter: %s", t->filter);
	} else {
		return false;
	}
	return true;
}

int top_draw_header(struct top *t)
{
	json_object *b = NULL;
	char up[32], rate[32], cost[160], th[16];
	enum column cols[COL_COUNT_];
	struct notes notes;
	int handlers, name_w, ncols, y = 2;

	fmt_uptime(up, sizeof(up), json_get_double(t->summary, "uptime_s", 0));
	fmt_rate(rate, sizeof(rate), json_get_double(t->summary, "rate", 0));
	handlers = json_has(t->summary, "handlers") ? (int)json_get_i64(t->summary, "handlers", 0) : t->nrows;
	mvprintw(0, 0, "irqlat - up %s, %s IRQ/s, %d handlers, window %s%s%s%s%s", up, rate, handlers,
		 window_name(t->window), t->cpus[0] ? ", CPUs " : "", t->cpus, t->source == SRC_IRQS ? "" : "; showing ",
		 t->source == SRC_IRQS ? "" : source_defs[t->source].title);
	if (t->summary)
		json_object_object_get_ex(t->summary, "bpf", &b);
	/* the number first: on a narrow terminal the explanation is what gets cut */
	if (t->cost_ns >= 0 && b && json_get_u64(b, "run_cnt", 0))
		snprintf(cost, sizeof(cost), "cost: %.0f ns/IRQ " COST_MEANING, t->cost_ns);
	else
		snprintf(cost, sizeof(cost), "cost: n/a (sysctl kernel.bpf_stats_enabled=1)");
	fmt_duration(th, sizeof(th), t->threshold_ns, "");
	mvprintw(1, 0, "%.*s", COLS, "");
	printw("drops: %llu, outlier threshold %s, ", (unsigned long long)table_drops(t->summary),
	       t->threshold_ns ? th : "off");
	printw("%.*s", COLS - getcurx(stdscr) > 0 ? COLS - getcurx(stdscr) : 0, cost);
	if (draw_prompt(t, y))
		y++;
	ncols = fit_columns(t, COLS, cols, &name_w);
	{
		_cleanup_free_ struct row *shown = calloc((size_t)t->nvis + 1, sizeof(*shown));

		for (int i = 0; shown && i < t->nvis; i++)
			shown[i] = t->rows[t->vis[i]];
		notes_collect(&notes, t->summary, shown, shown ? t->nvis : 0, cols, ncols);
	}
	for (int i = 0; i < notes.n && y < LINES - 4; i++, y++) {
		int attr = i < notes.warnings ? (t->color ? COLOR_PAIR(PAIR_WARN) : 0) | A_BOLD : 0;

		attron(attr);
		mvprintw(y, 0, "%.*s", COLS, notes.line[i]);
		attroff(attr);
	}
	return y;
}

static int row_pair(const struct top *t, const struct row *r)
{
	if (!t->color || r->idle)
		return 0;
	if (strchr(r->flags, FLAG_STORM) || strchr(r->flags, FLAG_UNHANDLED))
		return PAIR_STORM;
	if (!t->threshold_ns)
		return 0;
	/* a p99 of too few runs is their slowest run: only the maximum crossed */
	if (r->p99_ns >= t->threshold_ns && !table_few_runs(r, COL_P99))
		return PAIR_P99;
	if (r->max_ns >= t->threshold_ns)
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

/* The key line, as much of it as fits: the least needed keys go first (? lists them all) */
static void draw_footer(int y)
{
	static const struct {
		const char *text;
		int rank;	/* dropped from the highest */
	} items[] = {
		{ "q quit", 0 }, { "? help", 0 }, { NULL, 2 } /* sort keys */, { "R reverse", 8 }, { "w window", 3 },
		{ "c per-CPU", 5 }, { "C CPUs", 6 }, { "/ filter", 4 }, { "v softirqs/vectors/load/timers/threaded", 7 },
		{ "Enter histogram", 1 },
	};
	char keys[64], line[256];
	int drop_above = 9;

	table_sort_keys(keys, sizeof(keys));
	strcat(keys, " sort");
	for (;; drop_above--) {
		size_t off = 0;

		line[0] = 0;
		for (unsigned i = 0; i < ELEMENTSOF(items); i++)
			if (items[i].rank <= drop_above)
				off += (size_t)snprintf(line + off, sizeof(line) - off, "%s%s", off ? "  " : "",
							items[i].text ? items[i].text : keys);
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
	char cell[64], scope[512];

	ncols = fit_columns(t, COLS, cols, &name_w);
	if (t->summary && json_object_object_get_ex(t->summary, "tracepoints", &tps) &&
	    json_object_is_type(tps, json_type_array) && json_object_array_length(tps)) {
		tp_lines = 2 + (int)json_object_array_length(tps);	/* a blank line, the header, rows */
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
	if (!t->nvis)
		mvprintw(y, 0, "%s", !t->summary ? "waiting for irqlatd"
				     : t->filter[0] || t->cpus[0] ? "no handler matches the filter"
								  : "no hard IRQ handled yet");
	if (tp_lines)
		draw_tracepoints(bottom - tp_lines + 1, t->summary, tp_lines - 1);
	draw_footer(bottom);
}

static void help_line(int *y, const char *s)
{
	if (*y < LINES)
		mvprintw(*y, 0, "%.*s", COLS, s);
	(*y)++;
}

/* A paragraph, wrapped at the terminal's width at spaces; lines after the first indented by
 * `indent` */
static void help_para(int *y, const char *s, int indent)
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
		if (*y < LINES)
			mvprintw(*y, first ? 0 : indent, "%.*s", cut, s);
		(*y)++;
		s += cut;
		while (*s == ' ')
			s++;
		first = 0;
	}
}

static void draw_help(void)
{
	static const char *const keys[] = {
		"  c  per-CPU lines: the IRQ's affinity, and each CPU's count, rate and share",
		"  C  only handlers that ran on these CPUs (1, 0-3,8), with those CPUs' lines",
		"  v  show handlers, softirqs (RAISE99 RAISEMAX: raise-to-run latency), vector interrupts, CPU load,",
		"     hrtimers (lateness), tasks woken by their hrtimer (wake-up latency), threaded IRQs",
		"     (wake-to-run latency)",
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
		help_line(&y, keys[i]);
	for (unsigned i = 0; i < ELEMENTSOF(paras); i++)
		help_para(&y, paras[i], 2);
	y = y < LINES - 1 ? y : LINES - 1;
	help_line(&y, "q quits; any other key goes back (* above: the default order)");
}

/* The per-CPU load (cpuload.c) under the header, the text the batch output prints, cut to
 * the screen */
static void draw_load(struct top *t)
{
	_cleanup_free_ char *text = NULL;
	char *line, *save = NULL;
	size_t len = 0;
	int y = top_draw_header(t);
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	cpuload_print(f, t->summary, COLS);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line && y < LINES - 1; line = strtok_r(NULL, "\n", &save), y++) {
		if (y <= 4)
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
