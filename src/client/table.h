/* SPDX-License-Identifier: GPL-2.0 */
/* The handler table shared by `irqlat --top` (screen and batch): rows from a summary, sort
 * keys, columns, and values in units a person reads. */
#ifndef IRQLAT_TABLE_H
#define IRQLAT_TABLE_H

#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

struct row {
	int irq;
	char name[32];
	char cpus[64];		/* "0,1" */
	uint64_t count, spurious, total_ns;
	double rate, time_share;
	uint64_t avg_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
	int src;		/* index in the summary's "irqs" array (per-CPU detail lives there) */
};

enum sort_key { SORT_P99, SORT_MAX, SORT_RATE, SORT_COUNT, SORT_TIME, SORT_IRQ, SORT_NAME };

enum column { COL_IRQ, COL_NAME, COL_CPUS, COL_COUNT, COL_RATE, COL_AVG, COL_P50, COL_P90, COL_P99,
	      COL_P999, COL_MAX, COL_TIME, COL_SPURIOUS, COL_COUNT_ };

struct column_def {
	const char *name;	/* as in -o */
	const char *header;
	int width;
	int left;
	enum sort_key sort;	/* the key that sorts by this column, or -1 */
};

extern const struct column_def columns[COL_COUNT_];

int table_sort_key(const char *s);
const char *table_all_columns(void);
int table_columns_check(const char *list, FILE *err);
/* Fills cols with the columns of list (NULL: the default set); returns how many. */
int table_columns(const char *list, enum column *cols, int max);

/* Rows of a summary object; *n set; caller frees. */
struct row *table_rows(json_object *summary, int *n);
void table_sort(struct row *rows, int n, enum sort_key key, int reverse);
/* Short human units: 850ns 3.1us 41us 1.2ms 2.00s */
void fmt_ns(char *buf, size_t len, uint64_t ns);
void fmt_count(char *buf, size_t len, double v);
/* One histogram row's labels, for `irqlat hist` and the screen alike: the bucket range
 * [lo, hi) in short units (hi 0: unbounded, "inf") and " <- p50,p99" for the percentiles
 * q[0..2] (p50, p99, p99.9) that fall in it. */
void hist_row_labels(uint64_t lo, uint64_t hi, const uint64_t q[3], char *from, char *to, size_t len,
		     char *marks, size_t mlen);
/* Cell text of column col for row r. */
void table_cell(char *buf, size_t len, const struct row *r, enum column col);
void table_print(FILE *f, struct row *rows, int n, const enum column *cols, int ncols);

#endif
