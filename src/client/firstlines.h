/* SPDX-License-Identifier: GPL-2.0 */
/* The lines under the header that answer first, in the screen and the batch output: the worst
 * latency of every view's kind in the window, and one line per CPU (interrupt load, worst
 * timer lateness and wake-up latency there), as rtla's per-CPU summary puts them. */
#ifndef IRQLAT_FIRSTLINES_H
#define IRQLAT_FIRSTLINES_H

#include <json-c/json.h>

#define FIRSTLINE_LEN 160

/* Up to max lines of the summary into lines[]: the "worst:" line, then the CPUs' (at most
 * max - 1 of them; a last line says how many more when they do not fit). Their number. */
int first_lines(json_object *summary, char lines[][FIRSTLINE_LEN], int max);

#endif
