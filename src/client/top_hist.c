// SPDX-License-Identifier: GPL-2.0
/* irqlat --top's histogram view of the selected handler: a bar per non-empty bucket (or per
 * group of neighbours, when they outnumber the lines), p50/p99/p99.9 marked. */
#include <string.h>
#include <curses.h>
#include "top_header.h"
#include "top_hist.h"
#include "common/json.h"
#include "common/template.h"
#include "common/util.h"

static json_object *hist_of_selection(struct top *t)
{
	const struct kind_table *kt = &kind_get(t->source)->table;
	json_object *irqs = table_source_array(t->hist, t->source);
	char name[sizeof(t->sel_name)];

	if (!irqs)
		return NULL;
	/* a shared line has several handlers: pick the selected one by its row's name */
	for (size_t i = 0; i < json_array_len(irqs); i++) {
		json_object *h = json_array_at(irqs, i);

		tmpl_render(name, sizeof(name), kt->row_name, h);
		if (!strcmp(name, t->sel_name))
			return h;
	}
	return json_array_len(irqs) ? json_array_at(irqs, 0) : NULL;
}

static uint64_t bucket_field(json_object *buckets, size_t i, size_t field)
{
	return json_object_get_uint64(json_array_at(json_array_at(buckets, i), field));
}

/* Lines y to bottom - 1: the summary line, then the bars. */
static void draw_bars(struct top *t, int y, int bottom)
{
	json_object *h = hist_of_selection(t), *buckets;
	const char *p = kind_get(t->source)->prefix;
	char a[16], b[16], c[16], d[16], e[16], key[32];
	uint64_t peak = 0, q[3];
	int avail, group, bar_w;
	size_t nb;

	snprintf(key, sizeof(key), "%sbuckets", p);
	if (!h || !json_object_object_get_ex(h, key, &buckets) || !(nb = json_array_len(buckets))) {
		mvprintw(y, 0, "no runs of this handler in the %s window (w changes the window)", window_name(t->window));
		return;
	}
	uint64_t runs = json_get_u64(h, "window_count", 0);

	q[0] = table_field(h, p, "p50_ns");
	q[1] = table_field(h, p, "p99_ns");
	q[2] = table_field(h, p, "p999_ns");
	/* '*' on a percentile of too few runs, as in the table */
	fmt_latency(a, sizeof(a), table_field(h, p, "avg_ns"), runs, 0);
	fmt_latency(b, sizeof(b), q[0], runs, 0.5);
	fmt_latency(c, sizeof(c), q[1], runs, 0.99);
	fmt_latency(d, sizeof(d), q[2], runs, 0.999);
	fmt_latency(e, sizeof(e), table_field(h, p, "max_ns"), runs, 0);
	mvprintw(y++, 0, "%llu runs: avg %s  p50 %s  p99 %s  p99.9 %s  max %s", (unsigned long long)runs, a, b, c, d, e);
	/* more non-empty buckets than lines: neighbours share a line */
	avail = bottom - y - 1;
	if (avail < 1)
		return;
	group = ((int)nb + avail - 1) / avail;
	for (size_t i = 0; i < nb; i += (size_t)group) {
		uint64_t n = 0;

		for (size_t k = i; k < i + (size_t)group && k < nb; k++)
			n += bucket_field(buckets, k, 2);
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
		uint64_t n = 0;
		char marks[32] = "";
		int len;

		for (size_t k = i; k <= last; k++)
			n += bucket_field(buckets, k, 2);
		hist_row_labels(bucket_field(buckets, i, 0), bucket_field(buckets, last, 1), q, a, b, sizeof(a), marks,
				sizeof(marks));
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
}

void top_draw_hist(struct top *t)
{
	int y = top_draw_header(t), bottom = LINES - 1;

	attron(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	/* the kind's title of the selected row: "IRQ 36 virtio1-req.0", "softirq NET_RX run time" */
	json_object *sel = json_object_new_object();
	char what[96];

	json_object_object_add(sel, "irq", json_object_new_int(t->sel_irq));
	json_object_object_add(sel, "name", json_object_new_string(t->sel_name));
	tmpl_render(what, sizeof(what), kind_get(t->source)->table.screen_hist, sel);
	json_object_put(sel);
	mvprintw(y++, 0, "histogram of %s, window %s", what, window_name(t->window));
	attroff(A_REVERSE);
	draw_bars(t, y, bottom);
	attron(A_DIM);
	mvprintw(bottom, 0, "%.*s", COLS, "Enter/Esc back  up/down other handler  w window  q quit");
	attroff(A_DIM);
}
