/* SPDX-License-Identifier: GPL-2.0 */
/* The program sets, in the order the loader opens and attaches them (sets.c). */
#ifndef IRQLAT_LOADER_SETS_H
#define IRQLAT_LOADER_SETS_H

#include "daemon/loader/progset.h"

extern const struct progset *const loader_sets[];
extern const unsigned loader_nsets;

#endif
