/* SPDX-License-Identifier: GPL-2.0 */
/* Asking the daemon for the screen (top_fetch.c): never prints (the screen owns the terminal); problems go to t->msg. */
#ifndef IRQLAT_TOP_FETCH_H
#define IRQLAT_TOP_FETCH_H

#include "top_screen.h"

void top_fetch_status(struct top *t);
/* The summary (reconnecting first if need be), and the histogram in the histogram view. */
void top_fetch(struct top *t);

#endif
