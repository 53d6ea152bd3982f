/* SPDX-License-Identifier: GPL-2.0 */
/* The histogram view (top_hist.c). */
#ifndef IRQLAT_TOP_HIST_H
#define IRQLAT_TOP_HIST_H

#include "top_screen.h"

void top_draw_hist(struct top *t);

#endif
