/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat's side of consumed tracepoints: the --top section, detach and attach. */
#ifndef IRQLAT_TPCLIENT_H
#define IRQLAT_TPCLIENT_H

#include <stdio.h>
#include <json-c/json.h>
#include "conn.h"

/* The "tracepoints" array of a summary as a table; nothing when it is empty or missing. */
void tp_print_section(FILE *f, json_object *summary);
/* irqlat detach|attach SYSTEM:EVENT|all: 0, or 1 with the daemon's reason printed. */
int tp_request(struct irqlat_conn *conn, const char *cmd, const char *target, int json);

#endif
