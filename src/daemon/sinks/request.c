// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "daemon/sinks/request.h"
#include "common/cpulist.h"
#include "common/macro.h"
#include "common/util.h"

/* What json-c lets through that JSON (RFC 8259) does not allow, looked for in a text json-c
 * has read already, so valid but for these: outside strings, a letter but those of true,
 * false and null (NaN, Infinity); inside strings, a control character not escaped; and a key
 * given twice, which json-c keeps the last of without a word, seen as fewer members in the
 * object than commas at its top level say. A scan rather than a parser of our own: json-c
 * decided what the text is, this only refuses what it is lenient about. */
static const char *strict_text(const char *s, size_t len, size_t members)
{
	size_t depth = 0, commas = 0, colons = 0;
	bool in_string = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
			else if (c < 0x20)
				return "a control character in a string must be escaped (\\t, \\u0001)";
			continue;
		}
		if (c == '"')
			in_string = true;
		else if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']')
			depth--;
		else if (depth == 1 && c == ',')
			commas++;
		else if (depth == 1 && c == ':')
			colons++;
		else if (c >= 'A' && c <= 'z' && !strchr("truefalsn", c) && c != 'e' && c != 'E')
			return "NaN and Infinity are not JSON numbers";
	}
	if (colons != members || (colons && commas + 1 != colons))
		return "a key is given more than once";
	return NULL;
}

json_object *request_json(const char *line, size_t len, char *why, size_t whylen)
{
	struct json_tokener *tok;
	enum json_tokener_error err;
	const char *bad = NULL;
	json_object *o = NULL;
	size_t end = 0;

	if (len > INT_MAX)
		goto refused;
	tok = json_tokener_new();
	if (!tok)
		goto refused;
	/* double quotes, no trailing commas, no leading zeros, lower-case literals, UTF-8 */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, line, (int)len);
	err = json_tokener_get_error(tok);
	if (o && err == json_tokener_success)
		end = json_tokener_get_parse_end(tok);
	else if (err != json_tokener_success && err != json_tokener_continue)
		bad = json_tokener_error_desc(err);
	json_tokener_free(tok);
	/* "{...} trailing" is refused, not half read */
	while (end < len && (line[end] == ' ' || line[end] == '\t' || line[end] == '\r'))
		end++;
	if (!o || end != len || !json_object_is_type(o, json_type_object))
		goto refused;
	bad = strict_text(line, len, (size_t)json_object_object_length(o));
	if (!bad)
		return o;
refused:
	json_object_put(o);
	snprintf(why, whylen, "request is not one JSON object on one line%s%s%s: keys and strings in double quotes, each key "
		 "once; example: {\"cmd\":\"summary\"}", bad ? " (" : "", bad ? bad : "", bad ? ")" : "");
	return NULL;
}

static const char *const cmd_names[] = {
	[REQ_SUMMARY] = "summary", [REQ_HIST] = "hist", [REQ_STATUS] = "status", [REQ_EVENTS] = "events",
	[REQ_SUBSCRIBE] = "subscribe", [REQ_DETACH] = "detach", [REQ_ATTACH] = "attach", [REQ_WHY] = "why",
	[REQ_CAPTURES] = "captures",
};

/* The field k when o has it: 1 with *v of type t, 0 absent, -EINVAL of another type */
static int field(json_object *o, const char *k, json_type t, json_object **v, char *why, size_t n, const char *what)
{
	if (!json_object_object_get_ex(o, k, v))
		return 0;
	if (!json_object_is_type(*v, t) ||
	    (t == json_type_string && strlen(json_object_get_string(*v)) != (size_t)json_object_get_string_len(*v))) {
		/* a string with \u0000 in it would be read up to there only */
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
	/* the explained waits read their own fields too (why_report.c) */
	if (r->cmd == REQ_WHY) {
		if (field(o, "n", json_type_int, &v, why, n, "a number of waits") < 0 ||
		    field(o, "pid", json_type_int, &v, why, n, "a task's pid") < 0 ||
		    field(o, "cpu", json_type_int, &v, why, n, "a CPU number") < 0 ||
		    field(o, "comm", json_type_string, &v, why, n, "a task's comm (a glob)") < 0)
			return -EINVAL;
		k = field(o, "cpus", json_type_string, &v, why, n, "a CPU list (a string such as \"0-3,8\")");
		if (k < 0)
			return k;
		if (k && (cpulist_check(json_object_get_string(v)) < 0 || cpulist_empty(json_object_get_string(v)))) {
			snprintf(why, n, "\"cpus\" must be a CPU list such as 1 or 0-3,8, not '%s'",
				 quote(q, sizeof(q), json_object_get_string(v)));
			return -EINVAL;
		}
		return 0;
	}
	if (r->cmd == REQ_DETACH || r->cmd == REQ_ATTACH)
		return field(o, "tracepoint", json_type_string, &v, why, n, "a string: SYSTEM:EVENT or all") < 0 ? -EINVAL : 0;
	if (r->cmd != REQ_HIST && r->cmd != REQ_SUMMARY)
		return 0;
	k = field(o, "cpus", json_type_string, &v, why, n, "a CPU list (a string such as \"0-3,8\")");
	if (k < 0)
		return k;
	if (k) {
		r->cpus = json_object_get_string(v);
		if (cpulist_check(r->cpus) < 0 || cpulist_empty(r->cpus)) {
			snprintf(why, n, "\"cpus\" must be a CPU list such as 1 or 0-3,8, not '%s'", quote(q, sizeof(q), r->cpus));
			return -EINVAL;
		}
	}
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
