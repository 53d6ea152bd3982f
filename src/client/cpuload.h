/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat's view of each CPU's interrupt load (the summary's "cpu_load"): the share of its time
 * in hard-IRQ handlers, vector interrupts and softirqs over the window, the worst source of
 * each, and the isolated and nohz_full marks. One text table for the batch output and the
 * screen alike. */
#ifndef IRQLAT_CPULOAD_H
#define IRQLAT_CPULOAD_H

#include <stdio.h>
#include <json-c/json.h>

/* After a blank line, a title and one line per CPU; nothing when the summary has no
 * "cpu_load". Lines are cut to width (0: not cut). */
void cpuload_print(FILE *f, json_object *summary, int width);

#endif
