/* SPDX-License-Identifier: GPL-2.0 */
/* Drawing a frame of irqlat --top (top_draw.c). */
#ifndef IRQLAT_TOP_DRAW_H
#define IRQLAT_TOP_DRAW_H

#include "top_screen.h"

void top_draw(struct top *t);

#endif
