/* SPDX-License-Identifier: GPL-2.0 */
/* `irqlat status` for a person: the daemon's status answer as labelled lines (irqlat(1)). */
#ifndef IRQLAT_STATUS_H
#define IRQLAT_STATUS_H

#include <stdio.h>
#include <json-c/json.h>

/* The answer s to out, a line per subject; keys this client does not know yet are printed as
 * JSON at the end, so what the daemon adds is never hidden. */
void status_print(FILE *out, json_object *s);

#endif
