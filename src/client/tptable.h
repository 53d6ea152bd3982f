/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat's side of consumed tracepoints: the --top section, and what detach and attach did. */
#ifndef IRQLAT_TPTABLE_H
#define IRQLAT_TPTABLE_H

#include <stdio.h>
#include <json-c/json.h>

/* The "tracepoints" array of a summary as a table, after a blank line; nothing when it is
 * empty or missing. width > 0: columns are dropped (LATE50, MISSED, PERIOD, LATEMAX, GAPS,
 * LATE99, in that order) until each line fits in width with some of LAST; 0: all of them. */
void tp_print_section(FILE *f, json_object *summary, int width);
/* The answer to detach|attach (cmd) of target, for a person. */
void tp_print_result(FILE *f, json_object *answer, const char *cmd, const char *target);

#endif
