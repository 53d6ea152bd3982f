/* SPDX-License-Identifier: GPL-2.0 */
/* Counts and rates in the units a person reads, one rule for every table and line. */
#ifndef IRQLAT_FMT_H
#define IRQLAT_FMT_H

#include <stddef.h>

/* Counts: 950, 12345, 129.0k, 1.3M. */
void fmt_count(char *buf, size_t len, double v);
/* Rates, one rule for every row: 0.0, 0.4, 52.6 (one decimal below 100), 375, 12901, 129.0k. */
void fmt_rate(char *buf, size_t len, double v);

#endif
