/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat's per-CPU latency table, one row per CPU as rtla timerlat top and osnoise print
 * theirs: the timers that fired there and their worst lateness (rtla's IRQ latency), the tasks
 * a timer woke there and their wake-up latency (rtla's thread latency), the share of the CPU
 * left to tasks (osnoise's % CPU available) and the top cause of the late waits kept there.
 * From the summary's "timers"."cpus" and "cpu_load", and the explained waits kept beside it
 * (why.h's WHY_ROWS_KEY). */
#ifndef IRQLAT_CPULAT_H
#define IRQLAT_CPULAT_H

#include <stdio.h>
#include <json-c/json.h>

/* After a blank line, a title, the columns' header and one line per CPU of "cpu_load" (the
 * CPUs -C picked); nothing when the summary has none. Lines are cut to width (0: not cut). */
void cpulat_print(FILE *f, json_object *summary, int width);

#endif
