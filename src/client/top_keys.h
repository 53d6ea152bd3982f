/* SPDX-License-Identifier: GPL-2.0 */
/* The screen's keys and the state they change (top_keys.c). */
#ifndef IRQLAT_TOP_KEYS_H
#define IRQLAT_TOP_KEYS_H

#include "top_screen.h"

/* Rows from the last snapshot, sorted and filtered; the selection stays on its handler. */
void top_rebuild(struct top *t);
enum key_action top_key(struct top *t, int ch);
/* The views the v key goes through: each kind's table in the kind table's order
 * (kind_next_table), and the CPUs' load after this kind's: the last of the kinds whose runs it
 * sums. */
enum lat_kind top_load_after(void);

#endif
