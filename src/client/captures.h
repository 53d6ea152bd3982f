/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat captures: the daemon's "captures" answer as a table, oldest first. */
#ifndef IRQLAT_CLIENT_CAPTURES_H
#define IRQLAT_CLIENT_CAPTURES_H

#include <stdio.h>
#include <json-c/json.h>

/* TIME KIND CPU LATENCY SIZE FILE, one line a capture, under a line naming the folder */
void captures_print(FILE *f, json_object *answer);

#endif
