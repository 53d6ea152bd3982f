/* SPDX-License-Identifier: GPL-2.0 */
/* The summary array of the tracepoints, the detach/attach requests, and what /metrics reads of them (tp_json.c). */
#ifndef IRQLAT_TP_JSON_H
#define IRQLAT_TP_JSON_H

#include "daemon/tracepoints/tp_set.h"

/* The "tracepoints" array of a summary. */
json_object *tracepoints_json(const struct tp_set *s);
/* {"cmd":"detach"|"attach","tracepoint":"SYSTEM:EVENT"|"all"} from a client with uid uid. */
json_object *tracepoints_request(struct tp_set *s, const char *cmd, json_object *req, long uid);

/* What other modules read of one tracepoint (metrics.c), without its insides. */
unsigned tracepoints_count(const struct tp_set *s);
/* Tracepoint i (< tracepoints_count()) of the set. */
struct tp_info tracepoints_info(const struct tp_set *s, unsigned i);

#endif
