/* SPDX-License-Identifier: GPL-2.0 */
/* The JSON protocol's shared pieces (json-c): reading fields of an answer with a default when
 * they are missing, and the error answer every request handler gives. */
#ifndef IRQLAT_JSON_H
#define IRQLAT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "macro.h"

DEFINE_POINTER_CLEANUP(json_object, json_object_put)
#define _cleanup_json_ _cleanup_(json_object_putp)

/* The field k of object o, or dflt when o has no such field. */
uint64_t json_get_u64(json_object *o, const char *k, uint64_t dflt);
int64_t json_get_i64(json_object *o, const char *k, int64_t dflt);
double json_get_double(json_object *o, const char *k, double dflt);
const char *json_get_str(json_object *o, const char *k, const char *dflt);
bool json_has(json_object *o, const char *k);
/* An array's length and its element i, 0 and NULL where a is no array (or i is past its
 * end): json-c asserts on the type, and an answer read from a socket is checked, not trusted */
size_t json_array_len(json_object *a);
json_object *json_array_at(json_object *a, size_t i);
/* Whether o is an object: json_object_object_foreach() dereferences anything else */
static inline bool json_is_object(json_object *o)
{
	return json_object_is_type(o, json_type_object);
}

/* {"ok":false,"error":"<the formatted sentence>"}; the caller owns the reference. */
json_object *json_error_reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Adds "ok":true to o and returns it. */
json_object *json_ok_reply(json_object *o);

/* The daemon's last line on a connection it closes: an error answer with "closed" saying why,
 * sent before the close, so that a client that finds its connection gone reads the daemon's
 * reason before EOF (irqlatd(8), LIMITS). */
#define JSON_CLOSED "closed"
#define JSON_CLOSED_FULL "full"		/* no room: every connection was busy */
#define JSON_CLOSED_EVICTED "evicted"	/* gave way to a newcomer, having waited longest on its client */
#define JSON_CLOSED_IDLE "idle"		/* client-idle-timeout-s without a request answered */

#endif
