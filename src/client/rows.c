// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "rows.h"
#include "common/json.h"

json_object *table_source_array(json_object *summary, enum lat_kind k)
{
	const struct kind_table *t = &kind_get(k)->table;
	json_object *o = summary, *arr;

	if (!summary || !t->array || (t->parent && !json_object_object_get_ex(summary, t->parent, &o)))
		return NULL;
	if (!json_object_object_get_ex(o, t->array, &arr) || !json_object_is_type(arr, json_type_array))
		return NULL;
	return arr;
}

uint64_t table_field(json_object *o, const char *prefix, const char *name)
{
	char key[64];

	snprintf(key, sizeof(key), "%s%s", prefix, name);
	return json_get_u64(o, key, 0);
}

json_object *table_row_object(json_object *summary, const struct row *r)
{
	json_object *arr = table_source_array(summary, r->kind);

	return arr ? json_object_array_get_idx(arr, (size_t)r->src) : NULL;
}

uint64_t table_drops(json_object *summary)
{
	json_object *drops;
	uint64_t lost = 0;

	if (summary && json_object_object_get_ex(summary, "drops", &drops)) {
		json_object_object_foreach(drops, k, v) {
			(void)k;
			lost += json_object_get_uint64(v);
		}
	}
	return lost;
}
