/* SPDX-License-Identifier: GPL-2.0 */
/* The state of `irqlat --top`'s screen, shared by its parts: top.c (the terminal and the
 * loop), top_fetch.c (talking to the daemon), top_keys.c (keys and the rows they sort,
 * filter and select), top_draw.c and top_hist.c (drawing). */
#ifndef IRQLAT_TOP_SCREEN_H
#define IRQLAT_TOP_SCREEN_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "cli.h"
#include "conn.h"
#include "table.h"
#include "common/window.h"

enum view { VIEW_TABLE, VIEW_HIST, VIEW_HELP };
enum { PAIR_P99 = 1, PAIR_MAX, PAIR_WARN, PAIR_STORM };
/* what the keys type into, on the line under the header */
enum prompt { PROMPT_NONE, PROMPT_NAME, PROMPT_CPUS };
/* what a key asks of the loop, the strongest of a burst of keys winning */
enum key_action { KEY_NONE, KEY_REDRAW, KEY_FETCH, KEY_QUIT };

struct top {
	const struct cli *cli;
	struct irqlat_conn *conn;
	bool connected;
	time_t lost_since;	/* when the daemon stopped answering, 0 while it answers */
	char msg[160];		/* one-line note under the header (errors, reconnects) */

	json_object *summary;	/* last snapshot; kept while reconnecting */
	json_object *hist;	/* last histogram answer of the selected handler */
	struct row *rows;
	int nrows;
	int *vis;		/* rows shown (after the filter), in order */
	int nvis;

	enum table_source source;	/* whose rows: handlers, softirqs, vector interrupts (v) */
	bool show_load;		/* v after the vectors: each CPU's interrupt load instead of rows */
	enum sort_key sort;
	bool reverse;
	enum window window;
	enum column want[COL_COUNT_];	/* -o, or the screen's default columns */
	int nwant;

	enum view view;
	int sel, scroll;
	int sel_irq;		/* selection follows the row across refreshes and re-sorts (-1: not a handler) */
	char sel_name[32];
	bool percpu;
	enum prompt prompt;
	char filter[32];	/* rows whose name has it */
	char cpus[CLI_CPUS_MAX + 1];	/* -C or the C key: rows of handlers that ran on these CPUs, "" all */
	char cpus_typed[CLI_CPUS_MAX + 1];	/* the C prompt's text until Enter */

	uint64_t threshold_ns;
	bool color;
	const char *arrow_down, *arrow_up;
	uint64_t prev_run_ns, prev_run_cnt;
	double cost_ns;		/* < 0: not known */
	long refreshes;
};

/* top_fetch.c: never prints (the screen owns the terminal); problems go to t->msg */
void top_fetch_status(struct top *t);
/* The summary (reconnecting first if need be), and the histogram in the histogram view. */
void top_fetch(struct top *t);

/* top_keys.c */
/* Rows from the last snapshot, sorted and filtered; the selection stays on its handler. */
void top_rebuild(struct top *t);
enum key_action top_key(struct top *t, int ch);

/* top_draw.c, top_hist.c */
void top_draw(struct top *t);
/* The two header lines and the message line; returns the first line below them. */
int top_draw_header(struct top *t);
void top_draw_hist(struct top *t);

#endif
