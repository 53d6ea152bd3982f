// SPDX-License-Identifier: GPL-2.0
/* irqlat --top: the interactive screen. One loop: poll() on the terminal with a timeout up to
 * the next refresh; keys redraw at once from the last snapshot, the refresh asks the daemon.
 * The table (rows, sorting, units) is table.c's, shared with the batch output. */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <curses.h>
#include "table.h"
#include "top.h"
#include "tptable.h"
#include "common/util.h"

#define REQUEST_TIMEOUT_MS 2000
#define TP_LINES_MAX 4	/* tracepoint rows on the screen at most */

enum view { VIEW_TABLE, VIEW_HIST, VIEW_HELP };
enum { PAIR_P99 = 1, PAIR_MAX, PAIR_WARN };

static const char *const windows[] = { "1s", "10s", "60s", "total" };
static const char sort_keys[] = "pmrntia";	/* in enum sort_key order */
/* what the screen shows without -o, and which columns go first when the terminal is narrow */
static const enum column screen_cols[] = { COL_IRQ, COL_NAME, COL_CPUS, COL_COUNT, COL_RATE, COL_AVG,
					   COL_P50, COL_P99, COL_P999, COL_MAX, COL_TIME };
static const enum column drop_order[] = { COL_SPURIOUS, COL_P90, COL_CPUS, COL_AVG, COL_P999, COL_TIME,
					  COL_P50, COL_COUNT, COL_RATE, COL_MAX };
#define NAME_MIN 8
#define NAME_MAX_W (IRQ_NAME_LEN_MAX)
#define IRQ_NAME_LEN_MAX 31

struct top {
	const struct cli *cli;
	struct irqlat_conn *conn;
	int connected;
	time_t lost_since;	/* when the daemon stopped answering, 0 while it answers */
	char msg[160];		/* one-line note under the header (errors, reconnects) */

	json_object *summary;	/* last snapshot; kept while reconnecting */
	json_object *hist;	/* last histogram answer of the selected handler */
	struct row *rows;
	int nrows;
	int *vis;		/* rows shown (after the filter), in order */
	int nvis;

	enum sort_key sort;
	int reverse;
	int window;
	enum column want[COL_COUNT_];	/* -o, or screen_cols */
	int nwant;

	enum view view;
	int sel, scroll;
	int sel_irq;		/* selection follows the handler across refreshes and re-sorts */
	char sel_name[32];
	int percpu;
	int filtering;
	char filter[32];

	uint64_t threshold_ns;
	int color;
	const char *arrow_down, *arrow_up;
	uint64_t prev_run_ns, prev_run_cnt;
	double cost_ns;		/* < 0: not known */
	long refreshes;
};

static volatile sig_atomic_t stop;
static int screen_on;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void restore_terminal(void)
{
	if (screen_on && !isendwin())
		endwin();
	screen_on = 0;
}

/* A crash must not leave the terminal in raw mode on the alternate screen. endwin() is not
 * async-signal-safe, but the process is dying anyway and this is what the user sees. */
static void on_fatal(int sig)
{
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t get_u64(json_object *o, const char *k)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? (uint64_t)json_object_get_uint64(v) : 0;
}

static double get_double(json_object *o, const char *k)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_double(v) : 0;
}

static const char *get_str(json_object *o, const char *k)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string) ?
		json_object_get_string(v) : NULL;
}

/* --- talking to the daemon -------------------------------------------------------------- */

static void disconnect(struct top *t, const char *why)
{
	conn_close(t->conn);
	t->connected = 0;
	if (!t->lost_since)
		t->lost_since = time(NULL);
	snprintf(t->msg, sizeof(t->msg), "irqlatd not reachable, retrying every %gs (%s)", t->cli->delay_s, why);
}

/* One request and its answer, without printing anything (the screen owns the terminal). */
static json_object *ask(struct top *t, json_object *req)
{
	json_object *resp, *v;
	int r;

	if (!t->connected)
		return NULL;
	r = conn_send(t->conn, req);
	if (r < 0) {
		disconnect(t, strerror(-r));
		return NULL;
	}
	resp = conn_read(t->conn, REQUEST_TIMEOUT_MS);
	if (!resp) {
		disconnect(t, errno == ECONNRESET ? "connection closed" : strerror(errno));
		return NULL;
	}
	if (json_object_object_get_ex(resp, "ok", &v) && !json_object_get_boolean(v)) {
		snprintf(t->msg, sizeof(t->msg), "irqlatd says: %s", get_str(resp, "error") ?: "?");
		json_object_put(resp);
		return NULL;
	}
	return resp;
}

static json_object *new_request(const char *cmd, const char *window)
{
	json_object *req = json_object_new_object();

	json_object_object_add(req, "cmd", json_object_new_string(cmd));
	if (window)
		json_object_object_add(req, "window", json_object_new_string(window));
	return req;
}

static void fetch_status(struct top *t)
{
	json_object *req = new_request("status", NULL), *s, *cfg;

	s = ask(t, req);
	json_object_put(req);
	if (s && json_object_object_get_ex(s, "config", &cfg))
		t->threshold_ns = get_u64(cfg, "threshold_ns");
	json_object_put(s);
}

static void reconnect(struct top *t)
{
	if (conn_open(t->conn, t->cli->socket_path, 1) < 0)
		return;
	t->connected = 1;
	t->lost_since = 0;
	t->msg[0] = 0;
	t->prev_run_cnt = t->prev_run_ns = 0;	/* a new daemon has new programs */
	fetch_status(t);
}

/* The daemon's cost per IRQ between two snapshots, from the kernel's BPF run-time stats. */
static void update_cost(struct top *t)
{
	json_object *b;
	uint64_t ns, cnt;

	if (!json_object_object_get_ex(t->summary, "bpf", &b))
		return;
	ns = get_u64(b, "run_time_ns");
	cnt = get_u64(b, "run_cnt");
	if (cnt > t->prev_run_cnt && t->prev_run_cnt && ns >= t->prev_run_ns)
		t->cost_ns = (double)(ns - t->prev_run_ns) / (double)(cnt - t->prev_run_cnt);
	else if (!t->prev_run_cnt && cnt)
		t->cost_ns = (double)ns / (double)cnt;	/* first snapshot: the average so far */
	t->prev_run_ns = ns;
	t->prev_run_cnt = cnt;
}

static void rebuild(struct top *t);

static void fetch_hist(struct top *t)
{
	json_object *req = new_request("hist", windows[t->window]), *h;

	json_object_object_add(req, "irq", json_object_new_int(t->sel_irq));
	h = ask(t, req);
	json_object_put(req);
	if (h) {
		json_object_put(t->hist);
		t->hist = h;
	}
}

static void fetch(struct top *t)
{
	json_object *req, *s;

	if (!t->connected)
		reconnect(t);
	if (!t->connected)
		return;
	req = new_request("summary", windows[t->window]);
	s = ask(t, req);
	json_object_put(req);
	if (!s)
		return;
	if (!strncmp(t->msg, "irqlatd says", 12))
		t->msg[0] = 0;
	json_object_put(t->summary);
	t->summary = s;
	update_cost(t);
	rebuild(t);
	if (t->view == VIEW_HIST)
		fetch_hist(t);
}

/* --- the table ---------------------------------------------------------------------------- */

static int matches_filter(const struct top *t, const struct row *r)
{
	return !t->filter[0] || strcasestr(r->name, t->filter);
}

/* Rows from the last snapshot, sorted and filtered; the selection stays on its handler. */
static void rebuild(struct top *t)
{
	free(t->rows);
	free(t->vis);
	t->rows = table_rows(t->summary, &t->nrows);
	t->vis = calloc((size_t)t->nrows + 1, sizeof(*t->vis));
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
	if (t->nvis) {
		t->sel_irq = t->rows[t->vis[t->sel]].irq;
		snprintf(t->sel_name, sizeof(t->sel_name), "%s", t->rows[t->vis[t->sel]].name);
	}
}

static void select_row(struct top *t, int i)
{
	if (!t->nvis)
		return;
	if (i < 0)
		i = 0;
	if (i >= t->nvis)
		i = t->nvis - 1;
	t->sel = i;
	t->sel_irq = t->rows[t->vis[i]].irq;
	snprintf(t->sel_name, sizeof(t->sel_name), "%s", t->rows[t->vis[i]].name);
}

/* Which of the wanted columns fit in `width`, and how wide NAME may be. */
static int fit_columns(const struct top *t, int width, enum column *cols, int *name_w)
{
	int keep[COL_COUNT_] = { 0 }, n = 0, used;

	for (int i = 0; i < t->nwant; i++)
		keep[t->want[i]] = 1;
	for (unsigned d = 0;; d++) {
		used = -1;
		for (int i = 0; i < t->nwant; i++)
			if (keep[t->want[i]])
				used += 1 + (t->want[i] == COL_NAME ? NAME_MIN : columns[t->want[i]].width);
		if (used <= width || d >= sizeof(drop_order) / sizeof(drop_order[0]))
			break;
		keep[drop_order[d]] = 0;
	}
	*name_w = NAME_MIN + (width > used ? width - used : 0);
	if (*name_w > 24)
		*name_w = 24;
	for (int i = 0; i < t->nwant; i++)
		if (keep[t->want[i]])
			cols[n++] = t->want[i];
	return n;
}

static void put_cell(int y, int x, int w, int left, const char *s)
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

static int draw_header(struct top *t)
{
	json_object *drops = NULL, *b = NULL;
	char up[32], rate[32], cost[96];
	uint64_t lost = 0;
	int handlers;

	if (t->summary && json_object_object_get_ex(t->summary, "drops", &drops)) {
		json_object_object_foreach(drops, k, dv) {
			(void)k;
			lost += json_object_get_uint64(dv);
		}
	}
	fmt_uptime(up, sizeof(up), get_double(t->summary, "uptime_s"));
	fmt_count(rate, sizeof(rate), get_double(t->summary, "rate"));
	handlers = t->summary && json_object_object_get_ex(t->summary, "handlers", &b) ? json_object_get_int(b) : t->nrows;
	mvprintw(0, 0, "irqlat - up %s, %s IRQ/s, %d handlers, window %s", up, rate, handlers, windows[t->window]);
	if (t->summary)
		json_object_object_get_ex(t->summary, "bpf", &b);
	if (t->cost_ns >= 0 && b && get_u64(b, "run_cnt"))
		snprintf(cost, sizeof(cost), "cost: %.0f ns/IRQ", t->cost_ns);
	else
		snprintf(cost, sizeof(cost), "cost: n/a (sysctl kernel.bpf_stats_enabled=1)");
	mvprintw(1, 0, "%s, drops: %llu", cost, (unsigned long long)lost);
	if (t->threshold_ns) {
		char th[16];

		fmt_ns(th, sizeof(th), t->threshold_ns);
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
		uint64_t wc = get_u64(co, "window_count");
		char cnt[16], rate[16], cell[64];
		int n;

		fmt_count(cnt, sizeof(cnt), (double)get_u64(co, "count"));
		fmt_count(rate, sizeof(rate), wsecs > 0 ? (double)wc / wsecs : 0);
		n = snprintf(cell, sizeof(cell), " %d: %s (%s/s, %.0f%%)", (int)get_u64(co, "cpu"), cnt, rate,
			     r->rate > 0 && wsecs > 0 ? 100.0 * (double)wc / wsecs / r->rate : 0);
		if (x + n >= COLS)
			break;
		mvprintw(y, x, "%s", cell);
		x += n;
	}
}

/* The tracepoint section: the same table as the batch output (tpclient.c), cut to the width. */
static void draw_tracepoints(int y, json_object *summary, int nlines)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int first = 1;

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
		first = 0;
	}
	free(text);
}

static void draw_table(struct top *t)
{
	enum column cols[COL_COUNT_];
	int name_w, ncols, y = draw_header(t), x = 0, bottom = LINES - 1, rows_h;
	json_object *tps = NULL;
	int tp_lines = 0;
	char cell[64];
	double wsecs = get_double(t->summary, "window_s");

	ncols = fit_columns(t, COLS, cols, &name_w);
	if (t->summary && json_object_object_get_ex(t->summary, "tracepoints", &tps) &&
	    json_object_is_type(tps, json_type_array) && json_object_array_length(tps)) {
		tp_lines = 2 + (int)json_object_array_length(tps);	/* a blank line, the header, rows */
		if (tp_lines > TP_LINES_MAX + 2)
			tp_lines = TP_LINES_MAX + 2;
		if (bottom - tp_lines - y < 3)
			tp_lines = 0;	/* too short a terminal: the handlers come first */
	}
	/* the header line, in reverse video like top's; the sort column is marked with an arrow */
	attron(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	for (int c = 0; c < ncols; c++) {
		const struct column_def *d = &columns[cols[c]];
		int w = cols[c] == COL_NAME ? name_w : d->width;

		if ((int)d->sort == (int)t->sort) {
			/* descending is the natural order of every key but irq and name */
			int down = (t->sort == SORT_IRQ || t->sort == SORT_NAME) == t->reverse;
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
	y++;
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
		int pair = row_pair(t, r), attr = (i == t->sel && t->view == VIEW_TABLE) ? A_REVERSE : 0;

		if (pair)
			attr |= COLOR_PAIR(pair) | (pair == PAIR_P99 ? A_BOLD : 0);
		attron(attr);
		if (attr & A_REVERSE)
			mvhline(y, 0, ' ', COLS);
		x = 0;
		for (int c = 0; c < ncols; c++) {
			const struct column_def *d = &columns[cols[c]];
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
	attron(A_DIM);
	mvprintw(bottom, 0, "%.*s", COLS, "q quit  ? help  p m r n t i a sort  R reverse  w window  c CPUs  / filter  Enter histogram");
	attroff(A_DIM);
}

/* --- the histogram of one handler ------------------------------------------------------------ */

static json_object *hist_of_selection(struct top *t)
{
	json_object *irqs;

	if (!t->hist || !json_object_object_get_ex(t->hist, "irqs", &irqs))
		return NULL;
	/* a shared line has several handlers: pick the selected one by name */
	for (size_t i = 0; i < json_object_array_length(irqs); i++) {
		json_object *h = json_object_array_get_idx(irqs, i);
		const char *n = get_str(h, "name");

		if (n && !strcmp(n, t->sel_name))
			return h;
	}
	return json_object_array_length(irqs) ? json_object_array_get_idx(irqs, 0) : NULL;
}

static void draw_hist(struct top *t)
{
	json_object *h = hist_of_selection(t), *buckets;
	int y = draw_header(t), bottom = LINES - 1, avail, group, bar_w;
	char a[16], b[16], c[16], d[16], e[16];
	uint64_t peak = 0, q[3];
	size_t nb;

	attron(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	mvprintw(y++, 0, "histogram of IRQ %d %s, window %s", t->sel_irq, t->sel_name, windows[t->window]);
	attroff(A_REVERSE);
	if (!h || !json_object_object_get_ex(h, "buckets", &buckets) || !(nb = json_object_array_length(buckets))) {
		mvprintw(y, 0, "no runs of this handler in the %s window (w changes the window)", windows[t->window]);
		goto keys;
	}
	q[0] = get_u64(h, "p50_ns");
	q[1] = get_u64(h, "p99_ns");
	q[2] = get_u64(h, "p999_ns");
	fmt_ns(a, sizeof(a), get_u64(h, "avg_ns"));
	fmt_ns(b, sizeof(b), q[0]);
	fmt_ns(c, sizeof(c), q[1]);
	fmt_ns(d, sizeof(d), q[2]);
	fmt_ns(e, sizeof(e), get_u64(h, "max_ns"));
	mvprintw(y++, 0, "%llu runs: avg %s  p50 %s  p99 %s  p99.9 %s  max %s",
		 (unsigned long long)get_u64(h, "window_count"), a, b, c, d, e);
	/* more non-empty buckets than lines: neighbours share a line */
	avail = bottom - y - 1;
	if (avail < 1)
		goto keys;
	group = ((int)nb + avail - 1) / avail;
	for (size_t i = 0; i < nb; i += (size_t)group) {
		uint64_t n = 0;

		for (size_t k = i; k < i + (size_t)group && k < nb; k++)
			n += json_object_get_uint64(json_object_array_get_idx(json_object_array_get_idx(buckets, k), 2));
		if (n > peak)
			peak = n;
	}
	bar_w = COLS - 32 - 18;	/* room for the longest marker, " <- p50,p99,p99.9" */
	if (bar_w < 4)
		bar_w = 4;
	attron(A_BOLD);
	mvprintw(y++, 0, "%8s - %-8s %10s", "FROM", "TO", "COUNT");
	attroff(A_BOLD);
	for (size_t i = 0; i < nb && y < bottom; i += (size_t)group) {
		size_t last = i + (size_t)group - 1 < nb ? i + (size_t)group - 1 : nb - 1;
		uint64_t lo = json_object_get_uint64(json_object_array_get_idx(json_object_array_get_idx(buckets, i), 0));
		uint64_t hi = json_object_get_uint64(json_object_array_get_idx(json_object_array_get_idx(buckets, last), 1));
		uint64_t n = 0;
		char marks[32] = "";
		int len;

		for (size_t k = i; k <= last; k++)
			n += json_object_get_uint64(json_object_array_get_idx(json_object_array_get_idx(buckets, k), 2));
		hist_row_labels(lo, hi, q, a, b, sizeof(a), marks, sizeof(marks));
		len = peak ? (int)((n * (uint64_t)bar_w + peak - 1) / peak) : 0;
		mvprintw(y, 0, "%8s - %-8s %10llu |", a, b, (unsigned long long)n);
		if (marks[0])
			attron(A_BOLD);
		for (int k = 0; k < len; k++)
			addch('#');
		printw("%s", marks);
		if (marks[0])
			attroff(A_BOLD);
		y++;
	}
keys:
	attron(A_DIM);
	mvprintw(bottom, 0, "%.*s", COLS, "Enter/Esc back  up/down other handler  w window  q quit");
	attroff(A_DIM);
}

static void draw_help(struct top *t)
{
	static const char *const lines[] = {
		"irqlat --top: hard-IRQ handler latency, measured by irqlatd",
		"",
		"  p  sort by P99          m  sort by MAX          r  sort by RATE/s",
		"  n  sort by COUNT        t  sort by %TIME        i  sort by IRQ",
		"  a  sort by NAME         R  reverse the sort",
		"  w  window: 1s, 10s, 60s, total (rates and percentiles)",
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
	(void)t;
	for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]) && (int)i < LINES; i++)
		mvprintw((int)i, 0, "%.*s", COLS, lines[i]);
}

static void draw(struct top *t)
{
	erase();
	if (t->view == VIEW_HELP)
		draw_help(t);
	else if (t->view == VIEW_HIST)
		draw_hist(t);
	else
		draw_table(t);
	refresh();
}

/* --- keys ----------------------------------------------------------------------------------- */

enum { KEY_NONE, KEY_REDRAW, KEY_FETCH, KEY_QUIT };

static int filter_key(struct top *t, int ch)
{
	size_t len = strlen(t->filter);

	if (ch == 27) {		/* Esc */
		t->filter[0] = 0;
		t->filtering = 0;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		t->filtering = 0;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (len)
			t->filter[len - 1] = 0;
	} else if (ch >= 32 && ch < 127 && len + 1 < sizeof(t->filter)) {
		t->filter[len] = (char)ch;
		t->filter[len + 1] = 0;
	}
	rebuild(t);
	return KEY_REDRAW;
}

static int key(struct top *t, int ch)
{
	const char *k;

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
	if (ch > 0 && ch < 128 && (k = strchr(sort_keys, ch))) {
		t->sort = (enum sort_key)(k - sort_keys);
		rebuild(t);
		return KEY_REDRAW;
	}
	switch (ch) {
	case 'R':
		t->reverse = !t->reverse;
		rebuild(t);
		return KEY_REDRAW;
	case 'w':
		t->window = (t->window + 1) % 4;
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
			t->filtering = 1;
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

/* --- setup and the loop ---------------------------------------------------------------------- */

static int start_screen(struct top *t)
{
	const char *nc = getenv("NO_COLOR");
	const char *cs;

	/* the arrow marking the sort column: a real arrow where the terminal speaks UTF-8 */
	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	if (cs && !strcmp(cs, "UTF-8")) {
		t->arrow_down = "\xe2\x96\xbc";
		t->arrow_up = "\xe2\x96\xb2";
	} else {
		t->arrow_down = "v";
		t->arrow_up = "^";
	}
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "irqlat: cannot drive this terminal (TERM=%s): set TERM to one terminfo knows, or use --batch\n",
			getenv("TERM") ?: "");
		return -1;
	}
	screen_on = 1;
	/* terminfo knows "dumb" too, but a screen needs cursor addressing */
	const char *cup = tigetstr("cup");

	if (!cup || cup == (char *)-1) {
		restore_terminal();
		fprintf(stderr, "irqlat: this terminal (TERM=%s) cannot move the cursor, so it cannot show the screen: use --batch\n",
			getenv("TERM") ?: "");
		return -1;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	/* https://no-color.org: any non-empty NO_COLOR turns colours off */
	t->color = has_colors() && !(nc && *nc);
	if (t->color) {
		start_color();
		use_default_colors();
		init_pair(PAIR_P99, COLOR_RED, -1);
		init_pair(PAIR_MAX, COLOR_YELLOW, -1);
		init_pair(PAIR_WARN, COLOR_YELLOW, -1);
	}
	return 0;
}

int top_run(struct irqlat_conn *conn, const struct cli *c)
{
	struct top t = { .cli = c, .conn = conn, .connected = 1, .cost_ns = -1, .sel_irq = -1 };
	struct sigaction sa = { .sa_handler = on_stop };	/* no SA_RESTART: poll() must wake */
	double next;
	int r = 0;

	t.sort = (enum sort_key)table_sort_key(c->sort);
	t.reverse = c->reverse;
	for (int i = 0; i < 4; i++)
		if (!strcmp(c->window, windows[i]))
			t.window = i;
	if (c->columns) {
		t.nwant = table_columns(c->columns, t.want, COL_COUNT_);
	} else {
		t.nwant = (int)(sizeof(screen_cols) / sizeof(screen_cols[0]));
		memcpy(t.want, screen_cols, sizeof(screen_cols));
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGSEGV, on_fatal);
	signal(SIGBUS, on_fatal);
	signal(SIGABRT, on_fatal);
	signal(SIGFPE, on_fatal);
	atexit(restore_terminal);

	fetch_status(&t);
	if (start_screen(&t) < 0)
		return 1;
	fetch(&t);
	t.refreshes = 1;
	draw(&t);
	next = now_s() + c->delay_s;
	while (!stop) {
		double wait = next - now_s();
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		int ch, action = KEY_NONE;

		if (c->iterations && t.refreshes >= c->iterations)
			break;
		if (poll(&pfd, 1, wait > 0 ? (int)(wait * 1000) + 1 : 0) < 0 && errno != EINTR) {
			r = 1;
			break;
		}
		if (stop)
			break;
		if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
			break;	/* the terminal went away */
		while ((ch = getch()) != ERR) {
			int a = key(&t, ch);

			if (a > action)
				action = a;
			if (action == KEY_QUIT)
				break;
		}
		if (action == KEY_QUIT)
			break;
		if (now_s() >= next) {
			fetch(&t);
			t.refreshes++;
			next += c->delay_s;
			if (next < now_s())
				next = now_s() + c->delay_s;
			action = KEY_REDRAW;
		} else if (action == KEY_FETCH) {
			fetch(&t);
		}
		if (action != KEY_NONE)
			draw(&t);
	}
	restore_terminal();
	json_object_put(t.summary);
	json_object_put(t.hist);
	free(t.rows);
	free(t.vis);
	if (r)
		fprintf(stderr, "irqlat: cannot read the terminal: %s\n", strerror(errno));
	return r;
}
