// SPDX-License-Identifier: GPL-2.0
/* Which of the wanted columns fit the screen's width, and how wide NAME is then: shared by the
 * table and by the header's notes, which speak of the columns shown. */
#include "top_columns.h"

#define NAME_MIN 8	/* what NAME shrinks to when nothing else can go */
#define NAME_FIT 16	/* what NAME keeps while other columns can be dropped */
#define NAME_MAX_W 24

/* The width of the wanted columns that keep[] keeps, NAME counted as name_w */
static int columns_width(const struct top *t, const bool *keep, int name_w)
{
	int used = -1;

	for (int i = 0; i < t->nwant; i++)
		if (keep[t->want[i]])
			used += 1 + (t->want[i] == COL_NAME ? name_w : column_defs[t->want[i]].width);
	return used;
}

/* Which of the wanted columns fit in `width` (dropping them in their drop order, but never
 * the sort column, while NAME keeps NAME_FIT; then NAME shrinks), and how wide NAME may be. */
int top_fit_columns(const struct top *t, int width, enum column *cols, int *name_w)
{
	bool keep[COL_COUNT_] = { false };
	enum column sorted = sort_defs[t->sort].column;
	int n = 0, used;

	for (int i = 0; i < t->nwant; i++)
		keep[t->want[i]] = true;
	for (int rank = 1; rank <= COL_COUNT_ && columns_width(t, keep, NAME_FIT) > width; rank++)
		for (int c = 0; c < COL_COUNT_; c++)
			if (column_defs[c].drop == rank && c != (int)sorted)
				keep[c] = false;
	used = columns_width(t, keep, NAME_MIN);
	*name_w = NAME_MIN + (width > used ? width - used : 0);
	if (*name_w > NAME_MAX_W)
		*name_w = NAME_MAX_W;
	for (int i = 0; i < t->nwant; i++)
		if (keep[t->want[i]])
			cols[n++] = t->want[i];
	return n;
}
