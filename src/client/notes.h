/* SPDX-License-Identifier: GPL-2.0 */
/* The lines under irqlat's header that warn or explain, the same on the screen and in the text
 * output: other BPF programs on the IRQ tracepoints (their cost is in every duration shown),
 * interrupt storms the daemon sees, the isolated and nohz_full CPUs, and what a '*' after a
 * percentile means when one is shown. */
#ifndef IRQLAT_NOTES_H
#define IRQLAT_NOTES_H

#include <json-c/json.h>
#include "table.h"

#define NOTES_MAX 4
#define NOTE_LEN 512

struct notes {
	char line[NOTES_MAX][NOTE_LEN];
	int n;
	int warnings;	/* the first `warnings` lines are warnings (shown bold), the rest explain */
};

/* The notes of a summary whose rows (n of them) are shown in columns cols. */
void notes_collect(struct notes *out, json_object *summary, const struct row *rows, int n, const enum column *cols,
		   int ncols);
/* What the cost per IRQ is, after the number: the same words on the screen and in the text. */
#define COST_MEANING "in irqlatd's BPF programs (more at low IRQ rates: cold caches)"

#endif
