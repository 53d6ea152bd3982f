// SPDX-License-Identifier: GPL-2.0
/* irqlat --top's header: the two lines of figures over every view, and the message or prompt
 * line under them. */
#include <stdio.h>
#include <string.h>
#include <curses.h>
#include "cpuline.h"
#include "firstlines.h"
#include "notes.h"
#include "top_columns.h"
#include "top_header.h"
#include "common/json.h"
#include "common/util.h"

#define FIRST_CPUS_SCREEN 8	/* CPU lines under the header at most (3 lines in all below 30 rows) */

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

/* "10s", or "10s (1.0 s)" when the window's real length (window_s: its ticks, or the time
 * since start while fewer have run) is not what its name says: a window is a number of ticks */
static void fmt_window(char *buf, size_t len, enum window w, json_object *summary)
{
	static const double nominal[WINDOW_COUNT] = { 1, 10, 60, 0 };
	double real = json_get_double(summary, "window_s", 0);

	if (summary && nominal[w] > 0 && json_has(summary, "window_s") &&
	    (real < nominal[w] * 0.95 || real > nominal[w] * 1.05))
		snprintf(buf, len, "%s (%.1f s)", window_name(w), real);
	else
		snprintf(buf, len, "%s", window_name(w));
}

int top_draw_header(struct top *t)
{
	json_object *b = NULL;
	char up[32], rate[96], cost[160], th[16], win[32], line[512];
	enum column cols[COL_COUNT_];
	struct notes notes;
	int handlers, name_w, ncols, y = 2;

	fmt_uptime(up, sizeof(up), json_get_u64(t->summary, "uptime_s", 0));
	table_irq_rate(rate, sizeof(rate), t->summary);
	handlers = json_has(t->summary, "handlers") ? (int)json_get_i64(t->summary, "handlers", 0) : t->nrows;
	fmt_window(win, sizeof(win), t->window, t->summary);
	/* the rate's parts only when the line has room for them: at 80 columns the window and the
	 * view's name come first; cut to the width, as a wrapped line would run into the next */
	for (int pass = 0; pass < 2; pass++) {
		snprintf(line, sizeof(line), "irqlat - up %s, %s, %d handlers, window %s%s%s%s%s", up, rate, handlers,
			 win, t->cpus[0] ? ", CPUs " : "", t->cpus, t->source == KIND_HARDIRQ && !t->show_load ? "" : "; showing ",
			 t->show_load ? "CPU load" : t->source == KIND_HARDIRQ ? "" : kind_get(t->source)->table.title);
		if ((int)strlen(line) <= COLS)
			break;
		rate[strcspn(rate, "(") - (strchr(rate, '(') ? 1 : 0)] = 0;	/* "2.1k IRQ/s" */
	}
	mvprintw(0, 0, "%.*s", COLS, line);
	if (t->summary)
		json_object_object_get_ex(t->summary, "bpf", &b);
	/* the number first: on a narrow terminal the explanation is what gets cut */
	if (t->cost_ns >= 0 && b && json_get_u64(b, "run_cnt", 0))
		snprintf(cost, sizeof(cost), "cost: %.0f ns/IRQ " COST_MEANING, t->cost_ns);
	else
		snprintf(cost, sizeof(cost), "cost: n/a (sysctl kernel.bpf_stats_enabled=1)");
	/* the view's own kind's: 100us for handlers, 500us for timers, 1ms for wake-ups */
	fmt_duration(th, sizeof(th), top_threshold(t), "");
	mvprintw(1, 0, "%.*s", COLS, "");
	printw("drops: %llu, outlier threshold %s, ", (unsigned long long)table_drops(t->summary),
	       top_threshold(t) ? th : "off");
	printw("%.*s", COLS - getcurx(stdscr) > 0 ? COLS - getcurx(stdscr) : 0, cost);
	{	/* what answers first: the worst of every view, then each CPU (a few: the rows need
		 * the room; the load view and -C have the others) */
		char first[1 + FIRST_CPUS_SCREEN][FIRSTLINE_LEN];
		int nfirst = first_lines(t->summary, first, LINES >= 30 ? 1 + FIRST_CPUS_SCREEN : 3);

		for (int i = 0; i < nfirst; i++)
			mvprintw(y++, 0, "%.*s", COLS, first[i]);
	}
	if (draw_prompt(t, y))
		y++;
	ncols = top_fit_columns(t, COLS, cols, &name_w);
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
