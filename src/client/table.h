/* SPDX-License-Identifier: GPL-2.0 */
/* The handler table shared by `irqlat --top` (screen and batch): rows from a summary, sort
 * keys, columns, and values in units a person reads. The columns and the sort keys are one
 * table each (table.c): the -o and --sort lists of --help, their error messages, the screen's
 * keys and its help come from them; completion/irqlat.bash and irqlat(1) are checked against
 * --help by tests/host/50-top-help.t. What the rows say about CPUs (isolated CPUs, affinity, the
 * per-CPU lines, -C) is cpuline.c's. */
#ifndef IRQLAT_TABLE_H
#define IRQLAT_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>
#include "fmt.h"
#include "rows.h"

enum column { COL_IRQ, COL_NAME, COL_CPUS, COL_COUNT, COL_RATE, COL_AVG, COL_P50, COL_P90, COL_P99,
	      COL_P999, COL_MAX, COL_TIME, COL_SPURIOUS, COL_FLAGS, COL_RAISE_P99, COL_RAISE_MAX, COL_CAUSE, COL_COUNT_ };

/* What a column's figure covers, for the line above the column header */
enum scope { SCOPE_NONE, SCOPE_START, SCOPE_WINDOW };

struct column_def {
	const char *name;	/* as in -o (and --sort, for a column that sorts) */
	const char *header;
	int width;
	bool left;
	bool batch;		/* in the text output without -o */
	bool screen;		/* on the screen without -o */
	int drop;		/* on a narrow screen, dropped in this order from 1; 0: never */
	enum scope scope;
	double quantile;	/* a percentile column: its quantile (0.99); 0 for the others */
	bool last;		/* free text of any length: after every other column, FLAGS too */
};

extern const struct column_def column_defs[COL_COUNT_];

/* In the order --help lists them, which is also the order of the screen's keys */
enum sort_key { SORT_P99, SORT_MAX, SORT_RATE, SORT_COUNT, SORT_TIME, SORT_IRQ, SORT_NAME, SORT_COUNT_ };
/* The default order: what costs the CPU most first (irqlat(1) and the help say why) */
#define SORT_DEFAULT "time"

struct sort_def {
	enum column column;	/* its name is the --sort key, its header carries the arrow */
	char key;		/* on the screen */
	bool lowest_first;	/* the natural order; the others are highest first */
};

extern const struct sort_def sort_defs[SORT_COUNT_];

/* The sort key named s ("p99"), or -EINVAL. */
int table_sort_key(const char *s);
/* The sort key of the screen's key ch ('p'), or -EINVAL. */
int table_sort_of_key(int ch);
/* "p99, max, rate, count, time, irq or name" (last is " or "; ", " gives a plain list). */
void table_sort_names(char *buf, size_t len, const char *last);
/* "p m r n t i a" */
void table_sort_keys(char *buf, size_t len);
/* "irq,name,cpus,...": every column, comma-separated, as -o takes them. */
void table_column_names(char *buf, size_t len);
/* 0, or -EINVAL with "irqlat: unknown column 'x'; columns are ..." on err. */
int table_columns_check(const char *list, FILE *err);
/* Fills cols with the columns of list (NULL: the default set of the screen or of the text
 * output); returns how many. */
int table_columns(const char *list, bool screen, enum column *cols, int max);
/* The default columns of a kind's table: the handlers' (table_columns), or theirs without the
 * kind's hide, with its add before FLAGS (src/common/kinds/kind.h: softirqs show the raise
 * latency's). */
int table_source_columns(enum lat_kind src, bool screen, enum column *cols, int max);

/* The runs a window needs before its q-quantile is more than its slowest run: with fewer,
 * the nearest rank ceil(q * n) is n itself. 2 for p50, 10 for p90, 100 for p99, 1000 for
 * p99.9. */
uint64_t table_quantile_min_runs(double q);
/* Whether row r's cell of column col is a percentile of too few runs (written with a '*'). */
bool table_few_runs(const struct row *r, enum column col);

/* Rows of a summary object, in *ret for the caller to free; the number of rows, or -ENOMEM.
 * Not a summary: 0 rows and *ret NULL. table_rows: the handlers'. A row's name is the kind's
 * row_name of its element. */
int table_rows(json_object *summary, struct row **ret);
int table_rows_of(json_object *summary, enum lat_kind src, struct row **ret);
void table_sort(struct row *rows, int n, enum sort_key key, bool reverse);
/* Whether a task's element (the summary's timers.wakeups) is one --rt-only (its "policy" fifo,
 * rr, deadline or rt) and --cgroup (its "cgroup" that path or below; NULL: any) keep */
bool table_task_kept(json_object *el, bool rt_only, const char *cgroup);
/* A latency of a window: "-" when the window had no run (idle), else the duration, with '*'
 * when it is a percentile of fewer runs than table_quantile_min_runs(q) (q 0: not a
 * percentile). */
void fmt_latency(char *buf, size_t len, uint64_t ns, uint64_t runs, double q);
/* One histogram row's labels, for `irqlat hist` and the screen alike: the bucket range
 * [lo, hi) in short units (hi 0: unbounded, "inf") and " <- p50,p99" for the percentiles
 * q[0..2] (p50, p99, p99.9) that fall in it. */
void hist_row_labels(uint64_t lo, uint64_t hi, const uint64_t q[3], char *from, char *to, size_t len,
		     char *marks, size_t mlen);
/* s cut to w columns for the screen, saying so with a '~' at the cut, never inside a
 * character or an escape. A task's "comm[pid]" keeps its "[pid]" whole and loses the end of
 * its comm: two threads of one name stay apart however narrow the column. */
void table_cut(char *buf, size_t len, const char *s, int w);
/* Cell text of column col for row r. */
void table_cell(char *buf, size_t len, const struct row *r, enum column col);
/* The line above the column header saying what each column covers: "--- since start ---"
 * over COUNT (and CPUS, SPURIOUS), "--- last 10s ---" over the windowed ones; widths[i] is
 * the width of cols[i]. window: the window's name ("total" makes every span "since start"). */
void table_scope_line(char *buf, size_t len, const enum column *cols, const int *widths, int ncols,
		      const char *window);
/* The scope line, the column header and the rows; with cpus (a CPU list, -C), the rows'
 * per-CPU lines on those CPUs under each (cpuline.c). */
void table_print(FILE *f, json_object *summary, struct row *rows, int n, const enum column *cols, int ncols,
		 const char *cpus);

#endif
