/* SPDX-License-Identifier: GPL-2.0 */
/* An answer made safe for a terminal. The daemon's answers carry names the kernel gave (a
 * task's comm, which any task sets with prctl(PR_SET_NAME); handler names; tracepoints' string
 * arguments), exactly, as JSON does. Printed as text they could move the cursor, set the
 * terminal's title or fake a line: every string of the answer is escaped first, as
 * text_escape() does (control characters as \xNN, as ps shows them). --json output is the
 * answer as the daemon sent it; the full screen draws through ncurses, which shows control
 * characters as ^X itself. */
#ifndef IRQLAT_ESCAPE_H
#define IRQLAT_ESCAPE_H

#include <json-c/json.h>

/* Every string in o and below it, values and keys, escaped in place */
void answer_escape(json_object *o);

#endif
