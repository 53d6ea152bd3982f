/* SPDX-License-Identifier: GPL-2.0 */
/* Reading an answer of the daemon in a unit test: a field that must be there with its type. */
#ifndef IRQLAT_TEST_JSON_FIELDS_H
#define IRQLAT_TEST_JSON_FIELDS_H

#include <stdint.h>
#include <string.h>
#include <json-c/json.h>

static inline json_object *field(json_object *o, const char *k, json_type type)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v))
		fail_msg("field \"%s\" missing from %s", k, json_object_to_json_string(o));
	if (!json_object_is_type(v, type) && !(type == json_type_double && json_object_is_type(v, json_type_int)))
		fail_msg("field \"%s\" has type %s, not %s", k, json_type_to_name(json_object_get_type(v)),
			 json_type_to_name(type));
	return v;
}

static inline uint64_t u64(json_object *o, const char *k)
{
	return json_object_get_uint64(field(o, k, json_type_int));
}

static inline double dbl(json_object *o, const char *k)
{
	return json_object_get_double(field(o, k, json_type_double));
}

static inline json_object *find_irq(json_object *irqs, const char *name)
{
	for (size_t i = 0; i < json_object_array_length(irqs); i++) {
		json_object *o = json_object_array_get_idx(irqs, i);

		if (!strcmp(json_object_get_string(field(o, "name", json_type_string)), name))
			return o;
	}
	fail_msg("no handler named %s", name);
	return NULL;
}

#endif
