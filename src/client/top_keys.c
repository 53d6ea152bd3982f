// SPDX-License-Identifier: GPL-2.0
/* irqlat --top's keys and the state they change: the sort, the window, the filter, the
 * selection (which follows its handler across refreshes) and the view. */
#include <stdlib.h>
#include <string.h>
#include <curses.h>
#include "top_screen.h"

static bool matches_filter(const struct top *t, const struct row *r)
{
	return !t->filter[0] || strcasestr(r->name, t->filter);
}

static void keep_selection(struct top *t, int i)
{
	t->sel = i;
	t->sel_irq = t->rows[t->vis[i]].irq;
	snprintf(t->sel_name, sizeof(t->sel_name), "%s", t->rows[t->vis[i]].name);
}

void top_rebuild(struct top *t)
{
	free(t->rows);
	free(t->vis);
	t->nrows = table_rows(t->summary, &t->rows);
	t->vis = calloc((size_t)(t->nrows > 0 ? t->nrows : 0) + 1, sizeof(*t->vis));
	t->nvis = 0;
	if (!t->rows || !t->vis) {
		t->nrows = 0;
		return;
	}
	table_sort(t->rows, t->nrows, t->sort, t->reverse);
	for (int i = 0; i < t->nrows; i++)
		if (matches_filter(t, &t->rows[i]))
			t->vis[t->nvis++] = i;
	for (int i = 0; i < t->nvis; i++) {
		const struct row *r = &t->rows[t->vis[i]];

		if (r->irq == t->sel_irq && !strcmp(r->name, t->sel_name)) {
			t->sel = i;
			return;
		}
	}
	if (t->sel >= t->nvis)
		t->sel = t->nvis - 1;
	if (t->sel < 0)
		t->sel = 0;
	if (t->nvis)
		keep_selection(t, t->sel);
}

static void select_row(struct top *t, int i)
{
	if (!t->nvis)
		return;
	if (i < 0)
		i = 0;
	if (i >= t->nvis)
		i = t->nvis - 1;
	keep_selection(t, i);
}

static enum key_action filter_key(struct top *t, int ch)
{
	size_t len = strlen(t->filter);

	if (ch == 27) {		/* Esc */
		t->filter[0] = 0;
		t->filtering = false;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		t->filtering = false;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (len)
			t->filter[len - 1] = 0;
	} else if (ch >= 32 && ch < 127 && len + 1 < sizeof(t->filter)) {
		t->filter[len] = (char)ch;
		t->filter[len + 1] = 0;
	}
	top_rebuild(t);
	return KEY_REDRAW;
}

enum key_action top_key(struct top *t, int ch)
{
	int sort;

	if (ch == KEY_RESIZE || ch == 12 /* ^L */) {
		clearok(curscr, TRUE);
		return KEY_REDRAW;
	}
	if (t->filtering)
		return filter_key(t, ch);
	if (t->view == VIEW_HELP) {
		t->view = VIEW_TABLE;
		return ch == 'q' ? KEY_QUIT : KEY_REDRAW;
	}
	if (ch == 'q')
		return KEY_QUIT;
	if ((sort = table_sort_of_key(ch)) >= 0) {
		t->sort = (enum sort_key)sort;
		top_rebuild(t);
		return KEY_REDRAW;
	}
	switch (ch) {
	case 'R':
		t->reverse = !t->reverse;
		top_rebuild(t);
		return KEY_REDRAW;
	case 'w':
		t->window = (enum window)((t->window + 1) % WINDOW_COUNT);
		return KEY_FETCH;
	case 'c':
		t->percpu = !t->percpu;
		return KEY_REDRAW;
	case '?':
	case 'h':
		t->view = VIEW_HELP;
		return KEY_REDRAW;
	case '/':
		if (t->view == VIEW_TABLE) {
			t->filtering = true;
			t->msg[0] = t->connected ? 0 : t->msg[0];
		}
		return KEY_REDRAW;
	case KEY_UP:
	case 'k':
		select_row(t, t->sel - 1);
		return t->view == VIEW_HIST ? KEY_FETCH : KEY_REDRAW;
	case KEY_DOWN:
	case 'j':
		select_row(t, t->sel + 1);
		return t->view == VIEW_HIST ? KEY_FETCH : KEY_REDRAW;
	case KEY_PPAGE:
		select_row(t, t->sel - (LINES - 6));
		return KEY_REDRAW;
	case KEY_NPAGE:
		select_row(t, t->sel + (LINES - 6));
		return KEY_REDRAW;
	case KEY_HOME:
		select_row(t, 0);
		return KEY_REDRAW;
	case KEY_END:
		select_row(t, t->nvis - 1);
		return KEY_REDRAW;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (t->view == VIEW_HIST) {
			t->view = VIEW_TABLE;
			return KEY_REDRAW;
		}
		if (!t->nvis)
			return KEY_NONE;
		t->view = VIEW_HIST;
		json_object_put(t->hist);
		t->hist = NULL;
		return KEY_FETCH;
	case 27:		/* Esc */
	case KEY_BACKSPACE:
	case KEY_LEFT:
		t->view = VIEW_TABLE;
		return KEY_REDRAW;
	}
	return KEY_NONE;
}
