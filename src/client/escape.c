// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "escape.h"
#include "common/json.h"
#include "common/util.h"

/* Whether s[0..len) has a byte text_escape() would change, or may */
static bool needs_escape(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return true;
	return false;
}

/* s escaped, malloc'ed; NULL: out of memory */
static char *escaped(const char *s, size_t len)
{
	char *buf = malloc(4 * len + 1);

	if (buf)
		text_escape(buf, 4 * len + 1, s, len);
	return buf;
}

static void string_escape(json_object *o)
{
	const char *s = json_object_get_string(o);
	size_t len = (size_t)json_object_get_string_len(o);
	char *buf;

	if (!needs_escape(s, len))	/* most strings are plain: left alone */
		return;
	buf = escaped(s, len);
	json_object_set_string(o, buf ? buf : "?");	/* never the raw text */
	free(buf);
}

/* The keys too, which the daemon never makes of a name, but another program listening at
 * the path could: every member taken out and put back in order, its key escaped */
static void keys_escape(json_object *o)
{
	size_t n = 0, i = 0;
	char **keys;

	json_object_object_foreach(o, k, v) {
		(void)v;
		n += needs_escape(k, strlen(k));
	}
	if (!n)
		return;
	n = (size_t)json_object_object_length(o);
	keys = calloc(n, sizeof(*keys));
	if (!keys)
		return;
	json_object_object_foreach(o, k2, v2) {
		(void)v2;
		if (i < n)
			keys[i++] = strdup(k2);
	}
	for (i = 0; i < n; i++) {
		json_object *v = NULL;
		char *e;

		if (!keys[i] || !json_object_object_get_ex(o, keys[i], &v))
			continue;
		json_object_get(v);
		json_object_object_del(o, keys[i]);
		e = escaped(keys[i], strlen(keys[i]));
		json_object_object_add(o, e ? e : "?", v);
		free(e);
		free(keys[i]);
	}
	free(keys);
}

void answer_escape(json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_string:
		string_escape(o);
		break;
	case json_type_array:
		for (size_t i = 0; i < json_array_len(o); i++)
			answer_escape(json_array_at(o, i));
		break;
	case json_type_object: {
		keys_escape(o);
		json_object_object_foreach(o, k, v) {
			(void)k;
			answer_escape(v);
		}
		break;
	}
	default:
		break;
	}
}
