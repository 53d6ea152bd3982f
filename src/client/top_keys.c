// SPDX-License-Identifier: GPL-2.0
/* irqlat --top's keys and the state they change: the sort, the window, the filter, the
 * selection (which follows its handler across refreshes) and the view. */
#include <stdlib.h>
#include <string.h>
#include <curses.h>
#include "cli.h"
#include "cpuline.h"
#include "top_keys.h"
#include "why.h"
#include "common/cpulist.h"

static bool matches_filter(const struct top *t, const struct row *r)
{
	if (t->filter[0] && !strcasestr(r->name, t->filter))
		return false;
	if (r->kind == KIND_WAKEUP && !table_task_kept(table_row_object(t->summary, r), t->cli->rt_only, t->cli->cgroup))
		return false;	/* --rt-only, --cgroup */
	if (!t->cpus[0])
		return true;
	return cpuline_ran_on(table_row_object(t->summary, r), t->cpus);
}

static void keep_selection(struct top *t, int i)
{
	t->sel = i;
	t->sel_irq = t->rows[t->vis[i]].irq;
	t->sel_key = t->rows[t->vis[i]].key;
	snprintf(t->sel_name, sizeof(t->sel_name), "%s", t->rows[t->vis[i]].name);
}

enum lat_kind top_load_after(void)
{
	enum lat_kind classes[KINDS], last = KIND_HARDIRQ;
	unsigned n = kind_cpu_load_classes(classes);

	for (unsigned i = 0; i < n; i++)
		if (kind_has_table(classes[i]) && classes[i] > last)
			last = classes[i];
	return last;
}

void top_rebuild(struct top *t)
{
	free(t->rows);
	free(t->vis);
	t->nrows = table_rows_of(t->summary, t->source, &t->rows);
	t->vis = calloc((size_t)(t->nrows > 0 ? t->nrows : 0) + 1, sizeof(*t->vis));
	t->nvis = 0;
	if (!t->rows || !t->vis) {
		t->nrows = 0;
		return;
	}
	why_rows_causes(t->summary, t->rows, t->nrows);
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

/* Typing into a text field of len bytes: 1 when the key edited it, 0 when it was Enter,
 * -1 when it was Esc */
static int edit_key(char *text, size_t size, int ch, bool (*allowed)(int))
{
	size_t len = strlen(text);

	if (ch == 27)		/* Esc */
		return -1;
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		return 0;
	if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (len)
			text[len - 1] = 0;
	} else if (allowed(ch) && len + 1 < size) {
		text[len] = (char)ch;
		text[len + 1] = 0;
	}
	return 1;
}

static bool printable(int ch)
{
	return ch >= 32 && ch < 127;
}

static bool cpulist_char(int ch)
{
	return (ch >= '0' && ch <= '9') || ch == ',' || ch == '-';
}

static enum key_action prompt_key(struct top *t, int ch)
{
	int r;

	if (t->prompt == PROMPT_NAME) {
		/* the name filter applies as it is typed */
		r = edit_key(t->filter, sizeof(t->filter), ch, printable);
		if (r < 0)
			t->filter[0] = 0;
		if (r <= 0)
			t->prompt = PROMPT_NONE;
		top_rebuild(t);
		return KEY_REDRAW;
	}
	/* the CPU list applies on Enter, once it is one */
	r = edit_key(t->cpus_typed, sizeof(t->cpus_typed), ch, cpulist_char);
	if (r < 0) {
		t->cpus[0] = 0;
		t->prompt = PROMPT_NONE;
		t->msg[0] = t->connected ? 0 : t->msg[0];	/* a "not a CPU list" of the prompt */
	} else if (!r) {
		if (cpulist_check(t->cpus_typed) < 0) {
			snprintf(t->msg, sizeof(t->msg), "not a CPU list: '%s' (like 1 or 0-3,8)", t->cpus_typed);
			return KEY_REDRAW;
		}
		if (t->cpus_typed[0] && cli_cpus_exist(t->cpus_typed, t->msg, sizeof(t->msg)) < 0)
			return KEY_REDRAW;
		snprintf(t->cpus, sizeof(t->cpus), "%s", t->cpus_typed);
		if (t->cpus[0])
			t->percpu = true;	/* the lines of those CPUs are what was asked for */
		t->prompt = PROMPT_NONE;
		t->msg[0] = t->connected ? 0 : t->msg[0];
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
	if (t->prompt != PROMPT_NONE)
		return prompt_key(t, ch);
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
	case 'v':	/* the kinds' tables in the kind table's order, the CPUs' load among them */
		if (t->view == VIEW_HIST)
			return KEY_NONE;
		if (t->source == top_load_after() && !t->show_load) {
			t->show_load = true;
			return KEY_REDRAW;
		}
		t->show_load = false;
		t->source = kind_next_table(t->source);
		t->nwant = t->source == KIND_HARDIRQ ? table_columns(t->cli->columns, true, t->want, COL_COUNT_)
						     : table_source_columns(t->source, true, t->want, COL_COUNT_);
		t->sel = t->scroll = 0;
		t->sel_irq = -1;
		t->sel_name[0] = 0;
		top_rebuild(t);
		return KEY_REDRAW;
	case '?':
	case 'h':
		t->view = VIEW_HELP;
		return KEY_REDRAW;
	case '/':
	case 'C':
		if (t->view == VIEW_TABLE) {
			t->prompt = ch == '/' ? PROMPT_NAME : PROMPT_CPUS;
			if (ch == 'C')
				snprintf(t->cpus_typed, sizeof(t->cpus_typed), "%s", t->cpus);
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
		if (!t->nvis || t->show_load)
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
