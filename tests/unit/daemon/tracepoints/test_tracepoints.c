// SPDX-License-Identifier: GPL-2.0
/* tracepoints.c, the set, and the options it starts from (tp_resolve.c, tp_events.c and
 * tp_json.c have their own test_tp_*.c). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "daemon/config/options.h"
#include "daemon/tracepoints/tracepoints.h"
#include "daemon/tracepoints/tp_json.h"

static void test_options(void **state)
{
	struct daemon_config c;
	char *argv[] = { "irqlatd", "--tracepoint-period", "silly:me_silly=250ms", "--tracepoint", "silly:me_silly",
			 "--tracepoint", "irq:softirq_raise", "--tracepoint-counter", "irq:softirq_raise=vec", NULL };
	char *none[] = { "irqlatd", "--no-tracepoints", NULL };
	FILE *null = fopen("/dev/null", "w");
	uint64_t ns;
	(void)state;

	daemon_config_defaults(&c);
	assert_int_equal(c.ntracepoints, 1);
	assert_string_equal(c.tracepoints[0].name, DEFAULT_TRACEPOINT);
	assert_int_equal(daemon_options_parse(&c, 9, argv, null, NULL), 0);
	assert_int_equal(c.ntracepoints, 2);
	assert_int_equal(c.tracepoints[0].period_ns, 250000000ull);
	assert_string_equal(c.tracepoints[1].counter, "vec");
	daemon_config_defaults(&c);
	assert_int_equal(daemon_options_parse(&c, 2, none, null, NULL), 0);
	assert_int_equal(c.ntracepoints, 0);
	assert_int_equal(parse_duration_ns("1s", &ns), 0);
	assert_int_equal(ns, 1000000000ull);
	assert_int_not_equal(parse_duration_ns("1000", &ns), 0);
	assert_int_not_equal(parse_duration_ns("0ms", &ns), 0);
	assert_int_not_equal(parse_duration_ns("2h", &ns), 0);
	fclose(null);
}

/* with no tracepoint configured the set is empty: nothing watched, an empty summary array */
static void test_start_none(void **state)
{
	struct daemon_config c;
	struct tp_set s;
	json_object *arr;
	(void)state;

	daemon_config_defaults(&c);
	c.ntracepoints = 0;
	assert_int_equal(tracepoints_start(&s, NULL, NULL, NULL, &c, NULL, -1, -1), 0);
	assert_int_equal(tracepoints_count(&s), 0);
	assert_null(s.timer);
	arr = tracepoints_json(&s);
	assert_int_equal(json_object_array_length(arr), 0);
	json_object_put(arr);
	tracepoints_stop(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_start_none),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
