// SPDX-License-Identifier: GPL-2.0
/* The request line (src/daemon/request.c): one JSON object and nothing after it, each field
 * of its type, every refusal a sentence that names the field. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/request.h"

static json_object *line(const char *s)
{
	return request_json(s, strlen(s));
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
	o = request_json("{\"cmd\":\"status\"}\0x", 18);
	assert_null(o);
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
		cmocka_unit_test(test_fields),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
