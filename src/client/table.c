// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "table.h"
#include "common/util.h"

const struct column_def columns[COL_COUNT_] = {
	[COL_IRQ] = { "irq", "IRQ", 5, 0, SORT_IRQ },
	[COL_NAME] = { "name", "NAME", 20, 1, SORT_NAME },
	[COL_CPUS] = { "cpus", "CPUS", 6, 1, -1 },
	[COL_COUNT] = { "count", "COUNT", 10, 0, SORT_COUNT },
	[COL_RATE] = { "rate", "RATE/s", 9, 0, SORT_RATE },
	[COL_AVG] = { "avg", "AVG", 7, 0, -1 },
	[COL_P50] = { "p50", "P50", 7, 0, -1 },
	[COL_P90] = { "p90", "P90", 7, 0, -1 },
	[COL_P99] = { "p99", "P99", 7, 0, SORT_P99 },
	[COL_P999] = { "p999", "P99.9", 7, 0, -1 },
	[COL_MAX] = { "max", "MAX", 7, 0, SORT_MAX },
	[COL_TIME] = { "time", "%TIME", 6, 0, SORT_TIME },
	[COL_SPURIOUS] = { "spurious", "SPURIOUS", 8, 0, -1 },
};

static const char *const sort_names[] = { "p99", "max", "rate", "count", "time", "irq", "name" };
static const enum column default_cols[] = { COL_IRQ, COL_NAME, COL_COUNT, COL_RATE, COL_AVG, COL_P50, COL_P99, COL_MAX };

int table_sort_key(const char *s)
{
	for (unsigned i = 0; i < sizeof(sort_names) / sizeof(sort_names[0]); i++)
		if (!strcmp(s, sort_names[i]))
			return (int)i;
	return -1;
}

const char *table_all_columns(void)
{
	return "irq,name,cpus,count,rate,avg,p50,p90,p99,p999,max,time,spurious";
}

static int column_of(const char *s, size_t len)
{
	for (int i = 0; i < COL_COUNT_; i++)
		if (strlen(columns[i].name) == len && !strncmp(s, columns[i].name, len))
			return i;
	return -1;
}

int table_columns(const char *list, enum column *cols, int max)
{
	int n = 0;

	if (!list) {
		for (unsigned i = 0; i < sizeof(default_cols) / sizeof(default_cols[0]) && n < max; i++)
			cols[n++] = default_cols[i];
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

int table_columns_check(const char *list, FILE *err)
{
	for (const char *p = list;;) {
		size_t len = strcspn(p, ",");

		if (column_of(p, len) < 0) {
			fprintf(err, "irqlat: unknown column '%.*s'; columns are %s\n", (int)len, p, table_all_columns());
			return -1;
		}
		p += len;
		if (!*p)
			return 0;
		p++;
	}
}

static uint64_t get_u64(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? (uint64_t)json_object_get_uint64(v) : 0;
}

static double get_double(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_double(v) : 0;
}

struct row *table_rows(json_object *summary, int *n)
{
	json_object *irqs, *v;
	struct row *rows;
	size_t len;

	*n = 0;
	if (!json_object_object_get_ex(summary, "irqs", &irqs) || !json_object_is_type(irqs, json_type_array))
		return NULL;
	len = json_object_array_length(irqs);
	rows = calloc(len ? len : 1, sizeof(*rows));
	if (!rows)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		json_object *o = json_object_array_get_idx(irqs, i), *cpus;
		struct row *r = &rows[i];

		r->src = (int)i;
		r->irq = json_object_object_get_ex(o, "irq", &v) ? json_object_get_int(v) : -1;
		snprintf(r->name, sizeof(r->name), "%s",
			 json_object_object_get_ex(o, "name", &v) ? json_object_get_string(v) : "");
		r->count = get_u64(o, "count");
		r->spurious = get_u64(o, "spurious");
		r->total_ns = get_u64(o, "total_ns");
		r->rate = get_double(o, "rate");
		r->time_share = get_double(o, "time_share");
		r->avg_ns = get_u64(o, "avg_ns");
		r->p50_ns = get_u64(o, "p50_ns");
		r->p90_ns = get_u64(o, "p90_ns");
		r->p99_ns = get_u64(o, "p99_ns");
		r->p999_ns = get_u64(o, "p999_ns");
		r->max_ns = get_u64(o, "max_ns");
		if (json_object_object_get_ex(o, "cpus", &cpus)) {
			size_t off = 0;

			for (size_t k = 0; k < json_object_array_length(cpus) && off < sizeof(r->cpus); k++) {
				json_object *co = json_object_array_get_idx(cpus, k), *cv;

				if (json_object_object_get_ex(co, "cpu", &cv))
					off += (size_t)snprintf(r->cpus + off, sizeof(r->cpus) - off, "%s%d", off ? "," : "", json_object_get_int(cv));
			}
		}
	}
	*n = (int)len;
	return rows;
}

static enum sort_key cmp_key;
static int cmp_reverse;

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	int r;

	switch (cmp_key) {
	case SORT_P99: r = -cmp_u64(a->p99_ns, b->p99_ns); break;
	case SORT_MAX: r = -cmp_u64(a->max_ns, b->max_ns); break;
	case SORT_RATE: r = a->rate < b->rate ? 1 : a->rate > b->rate ? -1 : 0; break;
	case SORT_COUNT: r = -cmp_u64(a->count, b->count); break;
	case SORT_TIME: r = a->time_share < b->time_share ? 1 : a->time_share > b->time_share ? -1 : 0; break;
	case SORT_IRQ: r = (a->irq > b->irq) - (a->irq < b->irq); break;
	default: r = strcmp(a->name, b->name); break;
	}
	if (!r)	/* stable and predictable: then by IRQ, then by name */
		r = (a->irq > b->irq) - (a->irq < b->irq);
	if (!r)
		r = strcmp(a->name, b->name);
	return cmp_reverse ? -r : r;
}

void table_sort(struct row *rows, int n, enum sort_key key, int reverse)
{
	cmp_key = key;
	cmp_reverse = reverse;
	qsort(rows, (size_t)n, sizeof(*rows), row_cmp);
}

void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	fmt_duration(buf, len, ns, "");
}

void fmt_count(char *buf, size_t len, double v)
{
	if (v < 100000)
		snprintf(buf, len, "%.*f", v < 100 && v != (double)(uint64_t)v ? 1 : 0, v);
	else if (v < 1e7)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else if (v < 1e10)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else
		snprintf(buf, len, "%.1fG", v / 1e9);
}

void table_cell(char *buf, size_t len, const struct row *r, enum column col)
{
	switch (col) {
	case COL_IRQ: snprintf(buf, len, "%d", r->irq); break;
	case COL_NAME: snprintf(buf, len, "%s", r->name); break;
	case COL_CPUS: snprintf(buf, len, "%s", r->cpus); break;
	case COL_COUNT: fmt_count(buf, len, (double)r->count); break;
	case COL_RATE: fmt_count(buf, len, r->rate); break;
	case COL_AVG: fmt_ns(buf, len, r->avg_ns); break;
	case COL_P50: fmt_ns(buf, len, r->p50_ns); break;
	case COL_P90: fmt_ns(buf, len, r->p90_ns); break;
	case COL_P99: fmt_ns(buf, len, r->p99_ns); break;
	case COL_P999: fmt_ns(buf, len, r->p999_ns); break;
	case COL_MAX: fmt_ns(buf, len, r->max_ns); break;
	case COL_TIME: snprintf(buf, len, "%.2f", r->time_share * 100); break;
	case COL_SPURIOUS: fmt_count(buf, len, (double)r->spurious); break;
	default: buf[0] = 0;
	}
}

void table_print(FILE *f, struct row *rows, int n, const enum column *cols, int ncols)
{
	char cell[64];

	for (int c = 0; c < ncols; c++) {
		const struct column_def *d = &columns[cols[c]];

		fprintf(f, "%s%*s", c ? " " : "", d->left ? -d->width : d->width, d->header);
	}
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < ncols; c++) {
			const struct column_def *d = &columns[cols[c]];

			table_cell(cell, sizeof(cell), &rows[i], cols[c]);
			fprintf(f, "%s%*s", c ? " " : "", d->left ? -d->width : d->width, cell);
		}
		fputc('\n', f);
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
	fmt_ns(from, len, lo);
	if (hi)
		fmt_ns(to, len, hi);
	else
		snprintf(to, len, "inf");
}
