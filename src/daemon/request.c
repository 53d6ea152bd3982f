// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "request.h"
#include "common/macro.h"
#include "common/util.h"

json_object *request_json(const char *line, size_t len)
{
	struct json_tokener *tok;
	json_object *o;
	size_t end = 0;

	if (len > INT_MAX)
		return NULL;
	tok = json_tokener_new();
	if (!tok)
		return NULL;
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (o && json_tokener_get_error(tok) == json_tokener_success)
		end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	/* "{...} trailing" is refused, not half read */
	while (end < len && (line[end] == ' ' || line[end] == '\t' || line[end] == '\r'))
		end++;
	if (!o || end != len || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static const char *const cmd_names[] = {
	[REQ_SUMMARY] = "summary", [REQ_HIST] = "hist", [REQ_STATUS] = "status", [REQ_EVENTS] = "events",
	[REQ_SUBSCRIBE] = "subscribe", [REQ_DETACH] = "detach", [REQ_ATTACH] = "attach",
};

/* The field k when o has it: 1 with *v of type t, 0 absent, -EINVAL of another type */
static int field(json_object *o, const char *k, json_type t, json_object **v, char *why, size_t n, const char *what)
{
	if (!json_object_object_get_ex(o, k, v))
		return 0;
	if (!json_object_is_type(*v, t)) {
		snprintf(why, n, "\"%s\" must be %s", k, what);
		return -EINVAL;
	}
	return 1;
}

/* What the client wrote, quoted back: at most 64 bytes of it, on one line, in UTF-8 */
static const char *quote(char *buf, size_t len, const char *s)
{
	text_escape(buf, len, s, strlen(s));
	return buf;
}

int request_parse(json_object *o, struct request *r, char *why, size_t n)
{
	json_object *v;
	const char *s;
	char q[65];
	int64_t irq;
	int k;

	*r = (struct request){ .window = WINDOW_10S, .irq = -1, .pid = -1 };
	k = field(o, "cmd", json_type_string, &v, why, n, "a string: " REQUEST_CMDS);
	if (k <= 0) {
		if (!k)
			snprintf(why, n, "request has no \"cmd\"; use " REQUEST_CMDS);
		return -EINVAL;
	}
	s = json_object_get_string(v);
	for (k = 0; k < (int)ELEMENTSOF(cmd_names); k++)
		if (!strcmp(s, cmd_names[k]))
			break;
	if (k == (int)ELEMENTSOF(cmd_names)) {
		snprintf(why, n, "unknown cmd '%s': use " REQUEST_CMDS, quote(q, sizeof(q), s));
		return -EINVAL;
	}
	r->cmd = (enum request_cmd)k;
	k = field(o, "window", json_type_string, &v, why, n, "a string: " WINDOW_CHOICES);
	if (k < 0)
		return k;
	if (k && window_parse(json_object_get_string(v), &r->window) < 0) {
		snprintf(why, n, "unknown window '%s': use " WINDOW_CHOICES, quote(q, sizeof(q), json_object_get_string(v)));
		return -EINVAL;
	}
	/* the event ring reads its own fields (event_ring.c); their types are checked here */
	if (r->cmd == REQ_EVENTS || r->cmd == REQ_SUBSCRIBE) {
		if (field(o, "n", json_type_int, &v, why, n, "a number of events") < 0 ||
		    field(o, "since_wall_ns", json_type_int, &v, why, n, "a CLOCK_REALTIME time in ns") < 0)
			return -EINVAL;
		return 0;
	}
	if (r->cmd == REQ_DETACH || r->cmd == REQ_ATTACH)
		return field(o, "tracepoint", json_type_string, &v, why, n, "a string: SYSTEM:EVENT or all") < 0 ? -EINVAL : 0;
	if (r->cmd != REQ_HIST)
		return 0;
	k = field(o, "irq", json_type_int, &v, why, n, "an IRQ number (0 or more)");
	if (k < 0)
		return k;
	if (k) {
		irq = json_object_get_int64(v);
		if (irq < 0 || irq > INT_MAX) {
			snprintf(why, n, "\"irq\" must be an IRQ number (0 or more)");
			return -EINVAL;
		}
		r->irq = (int)irq;
	}
	k = field(o, "pid", json_type_int, &v, why, n, "a task's pid (0 or more)");
	if (k < 0)
		return k;
	if (k) {
		irq = json_object_get_int64(v);
		if (irq < 0 || irq > INT_MAX) {
			snprintf(why, n, "\"pid\" must be a task's pid (0 or more)");
			return -EINVAL;
		}
		r->pid = (int)irq;
	}
	k = field(o, "name", json_type_string, &v, why, n, "a handler name (a string)");
	if (k < 0)
		return k;
	if (k)
		r->name = json_object_get_string(v);
	return 0;
}
