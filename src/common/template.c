// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "common/template.h"
#include "common/util.h"

/* The field named by [name, name + n), or NULL */
static json_object *field(json_object *o, const char *name, size_t n)
{
	char key[64];
	json_object *v;

	if (!o || n >= sizeof(key))
		return NULL;
	memcpy(key, name, n);
	key[n] = 0;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* What {spec} (the text between the braces) gives */
static void render_field(char *out, size_t len, const char *spec, size_t n, json_object *o)
{
	const char *colon = memchr(spec, ':', n);
	size_t names = colon ? (size_t)(colon - spec) : n;
	json_object *v = NULL;

	for (const char *p = spec; !v && p < spec + names;) {
		const char *bar = memchr(p, '|', (size_t)(spec + names - p));
		size_t k = bar ? (size_t)(bar - p) : (size_t)(spec + names - p);

		v = field(o, p, k);
		p += k + 1;
	}
	if (!v)
		snprintf(out, len, "?");
	else if (colon && !strncmp(colon + 1, "duration", n - names - 1) && n - names - 1 == strlen("duration"))
		fmt_duration(out, len, json_object_get_uint64(v), "");
	else
		snprintf(out, len, "%s", json_object_get_string(v));
}

size_t tmpl_render(char *buf, size_t len, const char *tmpl, json_object *o)
{
	size_t used = 0;
	char value[128];

	if (len)
		buf[0] = 0;
	for (const char *p = tmpl; *p;) {
		const char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
		size_t lit = close ? (size_t)(open - p) : strlen(p);
		const char *piece = p;

		if (lit) {
			p += lit;
		} else {
			render_field(value, sizeof(value), open + 1, (size_t)(close - open - 1), o);
			piece = value;
			lit = strlen(value);
			p = close + 1;
		}
		if (used < len)
			snprintf(buf + used, len - used, "%.*s", (int)lit, piece);
		used += lit;
	}
	return used;
}
