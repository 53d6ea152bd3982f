/* SPDX-License-Identifier: GPL-2.0 */
/* Fitting the wanted columns to the screen (top_columns.c). */
#ifndef IRQLAT_TOP_COLUMNS_H
#define IRQLAT_TOP_COLUMNS_H

#include "top_screen.h"

/* The columns of t->want that fit in width, dropped in column_defs[].drop order, into cols;
 * *name_w the width left to NAME. Returns how many. */
int top_fit_columns(const struct top *t, int width, enum column *cols, int *name_w);

#endif
