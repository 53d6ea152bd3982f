// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cpuline.h"
#include "rows.h"
#include "table.h"
#include "common/json.h"
#include "common/template.h"
#include "common/util.h"

/* One line per column: a new column is a line here, its case in table_cell(), and a field of
 * struct row (irqlat(1) and completion/irqlat.bash list it too; tests/host/50-top-help.t checks). */
const struct column_def column_defs[COL_COUNT_] = {
	[COL_IRQ] = { .name = "irq", .header = "IRQ", .width = 5, .batch = true, .screen = true },
	[COL_NAME] = { .name = "name", .header = "NAME", .width = 20, .left = true, .batch = true, .screen = true },
	[COL_CPUS] = { .name = "cpus", .header = "CPUS", .width = 6, .left = true, .screen = true, .drop = 3,
		       .scope = SCOPE_START },
	[COL_COUNT] = { .name = "count", .header = "COUNT", .width = 10, .batch = true, .screen = true, .drop = 7,
			.scope = SCOPE_START },
	[COL_RATE] = { .name = "rate", .header = "RATE/s", .width = 9, .batch = true, .screen = true, .drop = 8,
		       .scope = SCOPE_WINDOW },
	[COL_AVG] = { .name = "avg", .header = "AVG", .width = 7, .batch = true, .screen = true, .drop = 4,
		      .scope = SCOPE_WINDOW },
	[COL_P50] = { .name = "p50", .header = "P50", .width = 7, .batch = true, .screen = true, .drop = 6,
		      .scope = SCOPE_WINDOW, .quantile = 0.5 },
	[COL_P90] = { .name = "p90", .header = "P90", .width = 7, .drop = 2, .scope = SCOPE_WINDOW, .quantile = 0.9 },
	[COL_P99] = { .name = "p99", .header = "P99", .width = 7, .batch = true, .screen = true, .scope = SCOPE_WINDOW,
		      .quantile = 0.99 },
	[COL_P999] = { .name = "p999", .header = "P99.9", .width = 7, .screen = true, .drop = 5, .scope = SCOPE_WINDOW,
		       .quantile = 0.999 },
	[COL_MAX] = { .name = "max", .header = "MAX", .width = 7, .batch = true, .screen = true, .drop = 9,
		      .scope = SCOPE_WINDOW },
	[COL_TIME] = { .name = "time", .header = "%TIME", .width = 6, .batch = true, .screen = true, .drop = 10,
		       .scope = SCOPE_WINDOW },
	[COL_SPURIOUS] = { .name = "spurious", .header = "SPURIOUS", .width = 8, .drop = 1, .scope = SCOPE_START },
	[COL_FLAGS] = { .name = "flags", .header = "FLAGS", .width = 5, .left = true, .batch = true, .screen = true,
			.scope = SCOPE_WINDOW },
	/* softirqs only: the raise-to-run latency beside the run time */
	[COL_RAISE_P99] = { .name = "raise99", .header = "RAISE99", .width = 7, .drop = 1, .scope = SCOPE_WINDOW,
			    .quantile = 0.99 },
	[COL_RAISE_MAX] = { .name = "raisemax", .header = "RAISEMAX", .width = 8, .drop = 1, .scope = SCOPE_WINDOW },
	/* wake-ups only: what made the task's recent late waits late (why.c), from irqlat why */
	[COL_CAUSE] = { .name = "cause", .header = "TOP CAUSE", .width = 30, .left = true, .drop = 1, .last = true },
};

const struct sort_def sort_defs[SORT_COUNT_] = {
	[SORT_P99] = { .column = COL_P99, .key = 'p' },
	[SORT_MAX] = { .column = COL_MAX, .key = 'm' },
	[SORT_RATE] = { .column = COL_RATE, .key = 'r' },
	[SORT_COUNT] = { .column = COL_COUNT, .key = 'n' },
	[SORT_TIME] = { .column = COL_TIME, .key = 't' },
	[SORT_IRQ] = { .column = COL_IRQ, .key = 'i', .lowest_first = true },
	[SORT_NAME] = { .column = COL_NAME, .key = 'a', .lowest_first = true },
};

int table_sort_key(const char *s)
{
	for (int i = 0; i < SORT_COUNT_; i++)
		if (!strcmp(s, column_defs[sort_defs[i].column].name))
			return i;
	return -EINVAL;
}

int table_sort_of_key(int ch)
{
	for (int i = 0; i < SORT_COUNT_; i++)
		if (ch == sort_defs[i].key)
			return i;
	return -EINVAL;
}

void table_sort_names(char *buf, size_t len, const char *last)
{
	size_t off = 0;

	buf[0] = 0;
	for (int i = 0; i < SORT_COUNT_ && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", !i ? "" : i == SORT_COUNT_ - 1 ? last : ", ",
					column_defs[sort_defs[i].column].name);
}

void table_sort_keys(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (int i = 0; i < SORT_COUNT_ && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%c", i ? " " : "", sort_defs[i].key);
}

void table_column_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (int i = 0; i < COL_COUNT_ && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "", column_defs[i].name);
}

static int column_of(const char *s, size_t len)
{
	for (int i = 0; i < COL_COUNT_; i++)
		if (strlen(column_defs[i].name) == len && !strncmp(s, column_defs[i].name, len))
			return i;
	return -EINVAL;
}

int table_columns(const char *list, bool screen, enum column *cols, int max)
{
	int n = 0;

	if (!list) {
		for (int i = 0; i < COL_COUNT_ && n < max; i++)
			if (screen ? column_defs[i].screen : column_defs[i].batch)
				cols[n++] = (enum column)i;
		return n;
	}
	for (const char *p = list; *p && n < max;) {
		size_t len = strcspn(p, ",");
		int c = column_of(p, len);

		if (c >= 0)
			cols[n++] = (enum column)c;
		p += len;
		if (*p == ',')
			p++;
	}
	return n;
}

/* Whether the comma-separated list has column name */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (strcspn(p, ",") == n && !strncmp(p, name, n))
			return true;
	return false;
}

int table_source_columns(enum lat_kind src, bool screen, enum column *cols, int max)
{
	const struct kind_table *t = &kind_get(src)->table;
	enum column all[COL_COUNT_];
	int n = table_columns(NULL, screen, all, COL_COUNT_), k = 0;

	if (src == KIND_HARDIRQ)
		return table_columns(NULL, screen, cols, max);
	for (int i = 0; i < n && k < max; i++) {
		if (listed(t->hide, column_defs[all[i]].name))
			continue;
		if (all[i] == COL_FLAGS && t->add)	/* the kind's own columns before FLAGS */
			for (int c = 0; c < COL_COUNT_ && k + 1 < max; c++)
				if (listed(t->add, column_defs[c].name) && !column_defs[c].last)
					cols[k++] = (enum column)c;
		cols[k++] = all[i];
	}
	for (int c = 0; t->add && c < COL_COUNT_ && k < max; c++)	/* and its free text after them all */
		if (listed(t->add, column_defs[c].name) && column_defs[c].last)
			cols[k++] = (enum column)c;
	return k;
}

int table_columns_check(const char *list, FILE *err)
{
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");

		if (column_of(p, len) < 0) {
			char all[256];

			table_column_names(all, sizeof(all));
			return fail_line(err, "irqlat", "unknown column '%.*s'; columns are %s", (int)len, p, all);
		}
		p += len;
		if (!*p)
			return 0;
		p++;
	}
}

uint64_t table_quantile_min_runs(double q)
{
	/* 1 / (1 - q), rounded: 1 - 0.999 is not exactly 0.001 in binary */
	return q > 0 && q < 1 ? (uint64_t)(1.0 / (1.0 - q) + 0.5) : 0;
}

bool table_few_runs(const struct row *r, enum column col)
{
	double q = column_defs[col].quantile;

	if (col == COL_RAISE_P99)
		return r->raise_window_count && r->raise_window_count < table_quantile_min_runs(q);
	return q > 0 && !r->idle && r->window_count < table_quantile_min_runs(q);
}

/* The storm letter of the daemon's "storm" object of handler h ({"kind": "rate"|"unhandled"},
 * or null while there is none), or 0. */
static char storm_flag(json_object *h)
{
	json_object *st;
	const char *kind;

	if (!json_object_object_get_ex(h, "storm", &st) || !st)
		return 0;
	kind = json_get_str(st, "kind", "");
	return !strcmp(kind, "unhandled") ? FLAG_UNHANDLED : FLAG_STORM;
}

static bool is_null(json_object *o, const char *prefix, const char *name)
{
	json_object *v;
	char key[64];

	snprintf(key, sizeof(key), "%s%s", prefix, name);
	return json_object_object_get_ex(o, key, &v) && !v;
}

int table_rows_of(json_object *summary, enum lat_kind src, struct row **ret)
{
	const struct kind_desc *kd = kind_get(src);
	const struct kind_table *sd = &kd->table;
	bool irq = !listed(sd->hide, column_defs[COL_IRQ].name);
	json_object *arr;
	struct row *rows;
	size_t len;

	*ret = NULL;
	if (!(arr = table_source_array(summary, src)))
		return 0;
	len = json_array_len(arr);
	rows = calloc(len ? len : 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++) {
		json_object *o = json_array_at(arr, i);
		struct row *r = &rows[i];
		const char *p = kd->prefix;
		char storm;

		r->kind = src;
		r->src = (int)i;
		r->irq = irq ? (int)json_get_i64(o, "irq", -1) : -1;
		r->key = sd->select_key ? json_get_i64(o, sd->select_key, -1) : -1;
		/* a name escaped for text (a task's comm of control characters) may not fit: cut
		 * between its characters and escapes, never in half an escape */
		char name[128];
		size_t n = tmpl_render(name, sizeof(name), sd->row_name, o);

		if (n >= sizeof(r->name))
			n = text_cut(name, sizeof(r->name) - 1);
		memcpy(r->name, name, n);
		r->name[n] = 0;
		r->count = json_get_u64(o, "count", 0);
		r->spurious = json_get_u64(o, "spurious", 0);
		r->total_ns = table_field(o, p, "total_ns");
		r->window_count = json_get_u64(o, "window_count", 0);
		r->rate = json_get_double(o, "rate", 0);
		r->time_share = json_get_double(o, "time_share", 0);
		/* an empty window has no latencies (the daemon sends null): never a 0 ns run */
		r->idle = !r->window_count || is_null(o, p, "p99_ns");
		r->avg_ns = table_field(o, p, "avg_ns");
		r->p50_ns = table_field(o, p, "p50_ns");
		r->p90_ns = table_field(o, p, "p90_ns");
		r->p99_ns = table_field(o, p, "p99_ns");
		r->p999_ns = table_field(o, p, "p999_ns");
		r->max_ns = table_field(o, p, "max_ns");
		r->raise_window_count = is_null(o, "raise_", "p99_ns") ? 0 : json_get_u64(o, "raise_window_count", 0);
		r->raise_p99_ns = json_get_u64(o, "raise_p99_ns", 0);
		r->raise_max_ns = json_get_u64(o, "raise_max_ns", 0);
		if ((storm = storm_flag(o)))
			r->flags[strlen(r->flags)] = storm;
		cpuline_mark_row(summary, o, r);
	}
	*ret = rows;
	return (int)len;
}

int table_rows(json_object *summary, struct row **ret)
{
	return table_rows_of(summary, KIND_HARDIRQ, ret);
}

struct row_order {
	enum sort_key key;
	bool reverse;
};

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_double(double a, double b)
{
	return a < b ? -1 : a > b;
}

/* How much a row's p99 is worth in the p99 order: a real p99, then the p99 of too few runs
 * (their slowest run), then none (idle) */
static int p99_rank(const struct row *r)
{
	return r->idle ? 0 : table_few_runs(r, COL_P99) ? 1 : 2;
}

static int row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct row *a = pa, *b = pb;
	const struct row_order *order = arg;
	int r;

	switch (order->key) {
	case SORT_P99:
		r = -cmp_u64((uint64_t)p99_rank(a), (uint64_t)p99_rank(b));
		if (!r)
			r = -cmp_u64(a->p99_ns, b->p99_ns);
		break;
	case SORT_MAX: r = -cmp_u64(a->idle ? 0 : a->max_ns, b->idle ? 0 : b->max_ns); break;
	case SORT_RATE: r = -cmp_double(a->rate, b->rate); break;
	case SORT_COUNT: r = -cmp_u64(a->count, b->count); break;
	case SORT_TIME: r = -cmp_double(a->time_share, b->time_share); break;
	case SORT_IRQ: r = (a->irq > b->irq) - (a->irq < b->irq); break;
	default: r = strcmp(a->name, b->name); break;
	}
	/* a value order whose values tie (%TIME in a view of latencies, where no row has a share
	 * of time): the worst first, by MAX then P99, rather than by name */
	bool by_value = order->key != SORT_IRQ && order->key != SORT_NAME;

	if (!r && by_value)
		r = -cmp_u64(a->idle ? 0 : a->max_ns, b->idle ? 0 : b->max_ns);
	if (!r && by_value)
		r = -cmp_u64(a->idle ? 0 : a->p99_ns, b->idle ? 0 : b->p99_ns);
	if (!r)	/* stable and predictable: then by IRQ, then by name */
		r = (a->irq > b->irq) - (a->irq < b->irq);
	if (!r)
		r = strcmp(a->name, b->name);
	/* rows idle in the window come last in an order of the window's values, reversed or not:
	 * nothing to see (COUNT is since start: an idle row may lead it) */
	if (by_value && order->key != SORT_COUNT && a->idle != b->idle)
		return a->idle ? 1 : -1;
	return order->reverse ? -r : r;
}

void table_sort(struct row *rows, int n, enum sort_key key, bool reverse)
{
	struct row_order order = { .key = key, .reverse = reverse };

	if (n > 1)	/* no rows may be rows NULL, which qsort_r() may not take */
		qsort_r(rows, (size_t)n, sizeof(*rows), row_cmp, &order);
}

static bool policy_rt(const char *policy)
{
	static const char *const rt[] = { "fifo", "rr", "deadline", "rt" };

	for (size_t i = 0; policy && i < sizeof(rt) / sizeof(rt[0]); i++)
		if (!strcmp(policy, rt[i]))
			return true;
	return false;
}

bool table_task_kept(json_object *el, bool rt_only, const char *cgroup)
{
	return (!rt_only || policy_rt(json_get_str(el, "policy", NULL))) &&
	       (!cgroup || cgroup_under(json_get_str(el, "cgroup", NULL), cgroup));
}

void fmt_latency(char *buf, size_t len, uint64_t ns, uint64_t runs, double q)
{
	if (!runs) {
		snprintf(buf, len, "-");
		return;
	}
	/* runs of no measurable length (a wake-up before its timer's end, clamped to 0): not "0ns",
	 * which reads as a measured zero */
	if (!ns)
		snprintf(buf, len, "<1ns");
	else
		fmt_duration(buf, len, ns, "");
	if (q > 0 && runs < table_quantile_min_runs(q))
		snprintf(buf + strlen(buf), len - strlen(buf), "*");
}

/* Three significant digits at most, so a small share is not written as 0: 12.5 1.25 0.12 0.012,
 * "<.001" below what that shows */
static void fmt_percent(char *buf, size_t len, double pct)
{
	if (pct >= 9.995)
		snprintf(buf, len, "%.1f", pct);
	else if (pct >= 0.0995 || pct <= 0)
		snprintf(buf, len, "%.2f", pct);
	else if (pct >= 0.0005)
		snprintf(buf, len, "%.3f", pct);
	else
		snprintf(buf, len, "<.001");
}

static uint64_t latency_of(const struct row *r, enum column col)
{
	switch (col) {
	case COL_AVG: return r->avg_ns;
	case COL_P50: return r->p50_ns;
	case COL_P90: return r->p90_ns;
	case COL_P99: return r->p99_ns;
	case COL_P999: return r->p999_ns;
	default: return r->max_ns;
	}
}

/* The length of a trailing "[digits]" of s, 0 if there is none */
static size_t pid_suffix_len(const char *s, size_t n)
{
	size_t i;

	if (n < 3 || s[n - 1] != ']')
		return 0;
	for (i = n - 1; i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'; i--)
		;
	return i > 0 && i < n - 1 && s[i - 1] == '[' ? n - i + 1 : 0;
}

void table_cut(char *buf, size_t len, const char *s, int w)
{
	size_t n = strlen(s), pid = pid_suffix_len(s, n), head;

	if (w <= 0 || !len) {
		if (len)
			buf[0] = 0;
		return;
	}
	if (n <= (size_t)w) {
		snprintf(buf, len, "%s", s);
		return;
	}
	if (pid && pid + 2 <= (size_t)w) {	/* at least one byte of the comm, the '~', the pid */
		head = text_cut(s, (size_t)w - pid - 1);
		snprintf(buf, len, "%.*s~%s", (int)head, s, s + n - pid);
		return;
	}
	head = text_cut(s, (size_t)w - 1);
	snprintf(buf, len, "%.*s~", (int)head, s);
}

void table_cell(char *buf, size_t len, const struct row *r, enum column col)
{
	switch (col) {
	case COL_IRQ:
		if (r->irq >= 0)
			snprintf(buf, len, "%d", r->irq);
		else
			snprintf(buf, len, "-");
		break;
	case COL_NAME: snprintf(buf, len, "%s", r->name); break;
	case COL_CPUS: snprintf(buf, len, "%s", r->cpus); break;
	case COL_COUNT: fmt_count(buf, len, (double)r->count); break;
	case COL_RATE: fmt_rate(buf, len, r->rate); break;
	case COL_AVG:
	case COL_P50:
	case COL_P90:
	case COL_P99:
	case COL_P999:
	case COL_MAX:
		fmt_latency(buf, len, latency_of(r, col), r->idle ? 0 : r->window_count, column_defs[col].quantile);
		break;
	case COL_TIME: fmt_percent(buf, len, r->time_share * 100); break;
	case COL_SPURIOUS: fmt_count(buf, len, (double)r->spurious); break;
	case COL_FLAGS: snprintf(buf, len, "%s", r->flags); break;
	case COL_RAISE_P99:
		fmt_latency(buf, len, r->raise_p99_ns, r->raise_window_count, column_defs[col].quantile);
		break;
	case COL_RAISE_MAX: fmt_latency(buf, len, r->raise_max_ns, r->raise_window_count, 0); break;
	case COL_CAUSE: snprintf(buf, len, "%s", r->cause[0] ? r->cause : "-"); break;
	default: buf[0] = 0;
	}
}

/* "--- label ---" centred in width w; the short label when the long one does not fit, alone
 * when it only just fits; else dashes */
static void put_span(char *out, int w, const char *label, const char *short_label)
{
	const char *l = (int)strlen(label) + 2 <= w ? label : short_label;
	int n = (int)strlen(l);

	memset(out, '-', (size_t)w);
	if (n + 2 <= w) {
		int left = (w - n - 2) / 2;

		out[left] = ' ';
		memcpy(out + left + 1, l, (size_t)n);
		out[left + 1 + n] = ' ';
	} else if (n <= w) {
		memset(out, ' ', (size_t)w);
		memcpy(out + (w - n) / 2, l, (size_t)n);
	}
}

void table_scope_line(char *buf, size_t len, const enum column *cols, const int *widths, int ncols,
		      const char *window)
{
	char last[32], last_short[16];
	bool total = !strcmp(window, "total");
	size_t x = 0;

	snprintf(last, sizeof(last), "last %s", window);
	snprintf(last_short, sizeof(last_short), "%s", window);
	if (!len)
		return;
	buf[0] = 0;
	for (int c = 0; c < ncols;) {
		enum scope s = column_defs[cols[c]].scope;
		int w = widths[c], e = c + 1;

		if (s != SCOPE_NONE && total)
			s = SCOPE_START;
		/* the span: the neighbours that cover the same */
		while (e < ncols && column_defs[cols[e]].scope != SCOPE_NONE &&
		       (total ? SCOPE_START : column_defs[cols[e]].scope) == s && s != SCOPE_NONE)
			w += 1 + widths[e++];
		if (x + (size_t)w + 2 > len)
			break;
		if (c)
			buf[x++] = ' ';
		if (s == SCOPE_NONE)
			memset(buf + x, ' ', (size_t)w);
		else if (s == SCOPE_START)
			put_span(buf + x, w, "since start", "from start");
		else
			put_span(buf + x, w, last, last_short);
		x += (size_t)w;
		buf[x] = 0;
		c = e;
	}
	/* nothing to the right of the last label */
	while (x && buf[x - 1] == ' ')
		buf[--x] = 0;
}

void table_print(FILE *f, json_object *summary, struct row *rows, int n, const enum column *cols, int ncols,
		 const char *cpus)
{
	char cell[128], line[4096];
	int widths[COL_COUNT_] = { 0 };

	for (int c = 0; c < ncols; c++)
		widths[c] = column_defs[cols[c]].width;
	table_scope_line(line, sizeof(line), cols, widths, ncols, json_get_str(summary, "window", "?"));
	fprintf(f, "%s\n", line);
	for (int c = 0; c < ncols; c++) {
		const struct column_def *d = &column_defs[cols[c]];

		fprintf(f, "%s%*s", c ? " " : "", d->left ? -d->width : d->width, d->header);
	}
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < ncols; c++) {
			const struct column_def *d = &column_defs[cols[c]];

			table_cell(cell, sizeof(cell), &rows[i], cols[c]);
			fprintf(f, "%s%*s", c ? " " : "", d->left ? -d->width : d->width, cell);
		}
		fputc('\n', f);
		if (cpus && cpuline_text(line, sizeof(line), summary, &rows[i], cpus) > 0)
			fprintf(f, "      %s\n", line);
	}
}

void hist_row_labels(uint64_t lo, uint64_t hi, const uint64_t q[3], char *from, char *to, size_t len,
		     char *marks, size_t mlen)
{
	static const char *const qname[3] = { "p50", "p99", "p99.9" };

	marks[0] = 0;
	for (int k = 0; k < 3; k++)
		if (q[k] >= lo && (!hi || q[k] < hi))
			snprintf(marks + strlen(marks), mlen - strlen(marks), "%s%s", marks[0] ? "," : " <- ", qname[k]);
	fmt_duration(from, len, lo, "");
	if (hi)
		fmt_duration(to, len, hi, "");
	else
		snprintf(to, len, "inf");
}
