/* SPDX-License-Identifier: GPL-2.0 */
/* The handler table shared by `irqlat --top` (screen and batch): rows from a summary, sort
 * keys, columns, and values in units a person reads. The columns and the sort keys are one
 * table each (table.c): the -o and --sort lists of --help, their error messages, the screen's
 * keys and its help come from them; completion/irqlat.bash and irqlat(1) are checked against
 * --help by tests/host/50-top.t. What the rows say about CPUs (isolated CPUs, affinity, the
 * per-CPU lines, -C) is cpuline.c's. */
#ifndef IRQLAT_TABLE_H
#define IRQLAT_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

/* The letters of the FLAGS column, in the order they are written */
#define FLAG_STORM 'S'		/* the daemon sees a rate storm: far above the handler's recent rate */
#define FLAG_UNHANDLED 'U'	/* the daemon sees the line's interrupts mostly unhandled (IRQ_NONE) */
#define FLAG_ISOLATED 'I'	/* ran in the window on an isolated or nohz_full CPU */
#define FLAG_AFFINITY 'A'	/* ran in the window on a CPU outside the IRQ's affinity */

/* Where a table's rows come from: a summary's array of handlers, softirq vectors, vector
 * interrupts, timer functions (timers.classes), tasks woken by their timer (timers.wakeups) or
 * threaded IRQs. The rows are the same (name, counts, latencies); softirqs add their
 * raise-to-run latency. */
enum table_source { SRC_IRQS, SRC_SOFTIRQS, SRC_VECTORS, SRC_TIMERS, SRC_WAKEUPS, SRC_THREADED, SRC_COUNT_ };

struct source_def {
	const char *parent;	/* "timers": the summary's object holding the array; NULL: the summary */
	const char *array;	/* "softirqs": the summary's array */
	const char *name_key;	/* "vector": the element's name */
	const char *prefix;	/* "run_": before its run-time latencies (run_p99_ns) */
	const char *title;	/* what the rows are, above a batch section and in the screen's header */
};

extern const struct source_def source_defs[SRC_COUNT_];

struct row {
	enum table_source source;
	int irq;		/* -1 for the rows of softirqs and vectors */
	char name[32];		/* a task's: "comm[pid]" */
	char cpus[96];		/* "0,1!": CPUs it ran on since start, ! on an isolated, nohz_full or
				 * outside-affinity one */
	uint64_t count, spurious, total_ns;	/* since start */
	uint64_t window_count;
	double rate, time_share;
	bool idle;		/* no run in the window: its latencies are not measurements */
	uint64_t avg_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
	uint64_t raise_window_count, raise_p99_ns, raise_max_ns;	/* softirqs: raise-to-run latency */
	char flags[8];		/* FLAG_* letters, "" when none */
	int src;		/* index in its source's array (per-CPU detail lives there) */
};

enum column { COL_IRQ, COL_NAME, COL_CPUS, COL_COUNT, COL_RATE, COL_AVG, COL_P50, COL_P90, COL_P99,
	      COL_P999, COL_MAX, COL_TIME, COL_SPURIOUS, COL_FLAGS, COL_RAISE_P99, COL_RAISE_MAX, COL_COUNT_ };

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
/* The default columns of a source's table: the handlers' (table_columns), or theirs without
 * IRQ and SPURIOUS, with the raise latency's for softirqs. */
int table_source_columns(enum table_source src, bool screen, enum column *cols, int max);

/* The runs a window needs before its q-quantile is more than its slowest run: with fewer,
 * the nearest rank ceil(q * n) is n itself. 2 for p50, 10 for p90, 100 for p99, 1000 for
 * p99.9. */
uint64_t table_quantile_min_runs(double q);
/* Whether row r's cell of column col is a percentile of too few runs (written with a '*'). */
bool table_few_runs(const struct row *r, enum column col);

/* Rows of a summary object, in *ret for the caller to free; the number of rows, or -ENOMEM.
 * Not a summary: 0 rows and *ret NULL. table_rows: the handlers. */
int table_rows(json_object *summary, struct row **ret);
int table_rows_of(json_object *summary, enum table_source src, struct row **ret);
/* The number o[prefix + name] ("run_" "p99_ns"), 0 when missing or null */
uint64_t table_field(json_object *o, const char *prefix, const char *name);
/* The element of the summary row r was made from */
json_object *table_row_object(json_object *summary, const struct row *r);
/* Runs lost of every kind since the daemon started: the sum of the summary's "drops". */
uint64_t table_drops(json_object *summary);
void table_sort(struct row *rows, int n, enum sort_key key, bool reverse);
/* Counts: 950, 12345, 129.0k, 1.3M. */
void fmt_count(char *buf, size_t len, double v);
/* Rates, one rule for every row: 0.0, 0.4, 52.6 (one decimal below 100), 375, 12901, 129.0k. */
void fmt_rate(char *buf, size_t len, double v);
/* A latency of a window: "-" when the window had no run (idle), else the duration, with '*'
 * when it is a percentile of fewer runs than table_quantile_min_runs(q) (q 0: not a
 * percentile). */
void fmt_latency(char *buf, size_t len, uint64_t ns, uint64_t runs, double q);
/* One histogram row's labels, for `irqlat hist` and the screen alike: the bucket range
 * [lo, hi) in short units (hi 0: unbounded, "inf") and " <- p50,p99" for the percentiles
 * q[0..2] (p50, p99, p99.9) that fall in it. */
void hist_row_labels(uint64_t lo, uint64_t hi, const uint64_t q[3], char *from, char *to, size_t len,
		     char *marks, size_t mlen);
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
