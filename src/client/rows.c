// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <stdio.h>
#include "fmt.h"
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

json_object *table_timer_cpu(json_object *summary, int64_t cpu)
{
	json_object *t, *cpus;

	if (!json_object_object_get_ex(summary, "timers", &t) || !json_object_object_get_ex(t, "cpus", &cpus) ||
	    !json_object_is_type(cpus, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_array_len(cpus); i++)
		if (json_get_i64(json_array_at(cpus, i), "cpu", -1) == cpu)
			return json_array_at(cpus, i);
	return NULL;
}

json_object *table_row_object(json_object *summary, const struct row *r)
{
	json_object *arr = table_source_array(summary, r->kind);

	return arr ? json_array_at(arr, (size_t)r->src) : NULL;
}

uint64_t table_drops(json_object *summary)
{
	json_object *drops;
	uint64_t lost = 0;

	if (summary && json_object_object_get_ex(summary, "drops", &drops) && json_is_object(drops)) {
		json_object_object_foreach(drops, k, v) {
			(void)k;
			lost += json_object_get_uint64(v);
		}
	}
	return lost;
}

/* The rate of a kind's rows in the summary (their window's), -1 when it has none (the kind
 * off, or not this kernel's) */
static double kind_rate(json_object *summary, enum lat_kind k)
{
	json_object *a = table_source_array(summary, k);
	double sum = 0;

	if (!json_array_len(a))
		return -1;
	for (size_t i = 0; i < json_array_len(a); i++)
		sum += json_get_double(json_array_at(a, i), "rate", 0);
	return sum;
}

void table_irq_rate(char *buf, size_t len, json_object *summary)
{
	double dev = json_get_double(summary, "rate", 0), vec = kind_rate(summary, KIND_VECTOR);
	char all[16], d[16], v[16];

	fmt_rate(d, sizeof(d), dev);
	if (vec < 0) {
		snprintf(buf, len, "%s IRQ/s", d);
		return;
	}
	fmt_rate(all, sizeof(all), dev + vec);
	fmt_rate(v, sizeof(v), vec);
	snprintf(buf, len, "%s IRQ/s (%s device, %s vector)", all, d, v);
}
