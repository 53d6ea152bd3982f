// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include "json.h"

bool json_has(json_object *o, const char *k)
{
	return o && json_object_object_get_ex(o, k, NULL);
}

size_t json_array_len(json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

json_object *json_array_at(json_object *a, size_t i)
{
	return i < json_array_len(a) ? json_object_array_get_idx(a, i) : NULL;
}

uint64_t json_get_u64(json_object *o, const char *k, uint64_t dflt)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? (uint64_t)json_object_get_uint64(v) : dflt;
}

int64_t json_get_i64(json_object *o, const char *k, int64_t dflt)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : dflt;
}

double json_get_double(json_object *o, const char *k, double dflt)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_double(v) : dflt;
}

const char *json_get_str(json_object *o, const char *k, const char *dflt)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, k, &v) || !v)
		return dflt;
	return json_object_get_string(v);
}

json_object *json_error_reply(const char *fmt, ...)
{
	json_object *o = json_object_new_object();
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_object_object_add(o, "ok", json_object_new_boolean(0));
	json_object_object_add(o, "error", json_object_new_string(msg));
	return o;
}

json_object *json_ok_reply(json_object *o)
{
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	return o;
}
