/* SPDX-License-Identifier: GPL-2.0 */
/* The header of every view (top_header.c). */
#ifndef IRQLAT_TOP_HEADER_H
#define IRQLAT_TOP_HEADER_H

#include "top_screen.h"

/* The two header lines and the message line; returns the first line below them. */
int top_draw_header(struct top *t);

#endif
