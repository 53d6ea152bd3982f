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
#include "common/kinds/kind.h"
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

	enum lat_kind source;	/* whose rows: handlers, softirqs, vector interrupts, ... (v) */
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
	int64_t sel_key;	/* the selected row's key (a wake-up's pid), for its histogram */
	bool percpu;
	enum prompt prompt;
	char filter[32];	/* rows whose name has it */
	char cpus[CLI_CPUS_MAX + 1];	/* -C or the C key: rows of handlers that ran on these CPUs, "" all */
	char cpus_typed[CLI_CPUS_MAX + 1];	/* the C prompt's text until Enter */

	uint64_t threshold_ns[KINDS];	/* each kind's outlier threshold (status), 0 off */
	double interval_s;	/* the daemon's tick (status), 0 not known */
	bool color;
	const char *arrow_down, *arrow_up;
	uint64_t prev_run_ns, prev_run_cnt;
	double cost_ns;		/* < 0: not known */
	long refreshes;
};

/* The outlier threshold of the view's own kind (its rows' colours and the header say it) */
static inline uint64_t top_threshold(const struct top *t)
{
	return (unsigned)t->source < KINDS ? t->threshold_ns[t->source] : 0;
}

#endif
