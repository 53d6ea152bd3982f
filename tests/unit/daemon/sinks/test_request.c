// SPDX-License-Identifier: GPL-2.0
/* The request line (src/daemon/sinks/request.c): one JSON object and nothing after it, each field
 * of its type, every refusal a sentence that names the field. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/sinks/request.h"

static char line_why[256];

static json_object *line(const char *s)
{
	return request_json(s, strlen(s), line_why, sizeof(line_why));
}

static void test_one_object(void **state)
{
	static const char *const bad[] = {
		"", " ", "not json", "[1,2]", "\"summary\"", "5", "{\"cmd\":\"status\"} trailing",
		"{\"cmd\":\"a\"}{\"cmd\":\"b\"}", "{\"cmd\":\"status\"", "{\"cmd\":\"status\"}}", "null",
	};
	json_object *o;
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = line(bad[i]);
		if (o)
			fail_msg("took '%s'", bad[i]);
	}
	o = line("{\"cmd\":\"status\"} \t\r");
	assert_non_null(o);
	json_object_put(o);
	/* a NUL inside the line is not the end of it */
	o = request_json("{\"cmd\":\"status\"}\0x", 18, line_why, sizeof(line_why));
	assert_null(o);
}

/* Strict JSON (RFC 8259), where json-c on its own is lenient: each refused with a reason that
 * says what a request must be, and the same requests written strictly taken */
static void test_strict(void **state)
{
	static const struct {
		const char *bad, *why;
	} cases[] = {
		{ "{'cmd':'status'}", "unexpected character" },
		{ "{\"cmd\":'status'}", "unexpected character" },
		{ "{\"cmd\":\"status\",}", "unexpected character" },
		{ "{\"cmd\":\"hist\",\"irq\":[1,]}", "unexpected character" },
		{ "{\"cmd\":\"hist\",\"irq\":01}", "number expected" },
		{ "{\"cmd\":\"hist\",\"irq\":True}", "boolean expected" },
		{ "{\"cmd\":\"hist\",\"cmd\":\"status\"}", "a key is given more than once" },
		{ "{\"cmd\":\"hist\",\"window\":\"1s\",\"window\":\"1s\"}", "a key is given more than once" },
		{ "{\"cmd\":\"hist\",\"n\":NaN}", "NaN and Infinity" },
		{ "{\"cmd\":\"hist\",\"n\":-Infinity}", "NaN and Infinity" },
		{ "{\"cmd\":\"hi\tst\"}", "control character" },
		{ "{\"cmd\":\"\xff\"}", "invalid utf-8" },
	};
	static const char *const good[] = {
		"{\"cmd\":\"hist\",\"name\":\"a,b:{c}\",\"irq\":1}",	/* commas and colons in strings */
		"{\"cmd\":\"hist\",\"x\":{\"a\":1,\"a\":2},\"y\":[1,2,3]}",	/* nested: not the request's keys */
		"{\"cmd\":\"hi\\tst\\u0001\",\"n\":1e3,\"m\":-0.5E-2,\"t\":true,\"f\":false,\"z\":null}",
		"{}",
		"{ \"cmd\" : \"status\" }",
	};
	json_object *o;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		o = line(cases[i].bad);
		if (o)
			fail_msg("took '%s'", cases[i].bad);
		if (!strstr(line_why, cases[i].why) || !strstr(line_why, "double quotes, each key once"))
			fail_msg("'%s': '%s' does not say '%s'", cases[i].bad, line_why, cases[i].why);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		o = line(good[i]);
		if (!o)
			fail_msg("refused '%s': %s", good[i], line_why);
		json_object_put(o);
	}
}

/* why for the request text s, "" when it is accepted */
static const char *parse(const char *s, struct request *r)
{
	static char why[256];
	json_object *o = line(s);
	int k;

	assert_non_null(o);
	why[0] = 0;
	k = request_parse(o, r, why, sizeof(why));
	if (k == 0)
		why[0] = 0;
	else
		assert_true(why[0] != 0);
	json_object_put(o);
	return why;
}

static void test_fields(void **state)
{
	struct request r;
	(void)state;

	assert_string_equal(parse("{\"cmd\":\"summary\"}", &r), "");
	assert_int_equal(r.cmd, REQ_SUMMARY);
	assert_int_equal(r.window, WINDOW_10S);
	assert_string_equal(parse("{\"cmd\":\"hist\",\"window\":\"total\",\"irq\":36,\"name\":\"virtio1-req.0\"}", &r), "");
	assert_int_equal(r.cmd, REQ_HIST);
	assert_int_equal(r.window, WINDOW_TOTAL);
	assert_int_equal(r.irq, 36);
	{
		json_object *o = line("{\"cmd\":\"hist\",\"name\":\"virtio1-req.0\"}");
		char why[64];

		assert_int_equal(request_parse(o, &r, why, sizeof(why)), 0);
		assert_string_equal(r.name, "virtio1-req.0");	/* it points into the object */
		json_object_put(o);
	}
	assert_string_equal(parse("{\"cmd\":\"hist\"}", &r), "");
	assert_int_equal(r.irq, -1);
	assert_string_equal(parse("{\"cmd\":\"hist\",\"irq\":0}", &r), "");
	assert_int_equal(r.irq, 0);

	assert_string_equal(parse("{}", &r), "request has no \"cmd\"; use " REQUEST_CMDS);
	assert_string_equal(parse("{\"cmd\":5}", &r), "\"cmd\" must be a string: " REQUEST_CMDS);
	assert_string_equal(parse("{\"cmd\":\"nope\"}", &r), "unknown cmd 'nope': use " REQUEST_CMDS);
	assert_string_equal(parse("{\"cmd\":\"summary\",\"window\":\"2s\"}", &r), "unknown window '2s': use " WINDOW_CHOICES);
	assert_string_equal(parse("{\"cmd\":\"summary\",\"window\":10}", &r), "\"window\" must be a string: " WINDOW_CHOICES);
	assert_string_equal(parse("{\"cmd\":\"hist\",\"irq\":\"x\"}", &r), "\"irq\" must be an IRQ number (0 or more)");
	assert_string_equal(parse("{\"cmd\":\"hist\",\"irq\":\"36\"}", &r), "\"irq\" must be an IRQ number (0 or more)");
	assert_string_equal(parse("{\"cmd\":\"hist\",\"irq\":-1}", &r), "\"irq\" must be an IRQ number (0 or more)");
	assert_string_equal(parse("{\"cmd\":\"hist\",\"irq\":1.5}", &r), "\"irq\" must be an IRQ number (0 or more)");
	assert_string_equal(parse("{\"cmd\":\"hist\",\"irq\":4294967296}", &r), "\"irq\" must be an IRQ number (0 or more)");
	assert_string_equal(parse("{\"cmd\":\"hist\",\"name\":7}", &r), "\"name\" must be a handler name (a string)");
	/* "cpus": a CPU list for summary and hist, checked against the machine by the caller */
	assert_string_equal(parse("{\"cmd\":\"summary\"}", &r), "");
	assert_null(r.cpus);
	assert_string_equal(parse("{\"cmd\":\"summary\",\"cpus\":\"0-3,8\"}", &r), "");
	assert_non_null(r.cpus);
	assert_string_equal(parse("{\"cmd\":\"hist\",\"cpus\":\"1\",\"irq\":3}", &r), "");
	assert_int_equal(r.irq, 3);
	assert_string_equal(parse("{\"cmd\":\"hist\",\"cpus\":1}", &r), "\"cpus\" must be a CPU list (a string such as \"0-3,8\")");
	assert_string_equal(parse("{\"cmd\":\"summary\",\"cpus\":\"1-x\"}", &r),
			    "\"cpus\" must be a CPU list such as 1 or 0-3,8, not '1-x'");
	assert_string_equal(parse("{\"cmd\":\"summary\",\"cpus\":\"\"}", &r),
			    "\"cpus\" must be a CPU list such as 1 or 0-3,8, not ''");
	/* what the client wrote comes back on one line, in UTF-8, at most 64 bytes of it */
	assert_string_equal(parse("{\"cmd\":\"a\\nb\"}", &r), "unknown cmd 'a\\nb': use " REQUEST_CMDS);
	assert_string_equal(parse("{\"cmd\":\"summary\",\"window\":\"\\u001b[2J\"}", &r),
			    "unknown window '\\x1b[2J': use " WINDOW_CHOICES);
	assert_string_equal(parse("{\"cmd\":\"" "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\u00e9\"}", &r),
			    "unknown cmd '" "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx': use " REQUEST_CMDS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_object),
		cmocka_unit_test(test_strict),
		cmocka_unit_test(test_fields),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
