// SPDX-License-Identifier: GPL-2.0
/* The lines that answer first (firstlines.c) from a summary written here: the worst MAX of each
 * view's rows that ran in the window ("-" for a view with none), each CPU's interrupt load, the
 * rest left to tasks, its worst timer lateness and wake-up; too many CPUs end in a line that
 * says how many more. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "client/firstlines.h"

static const char summary[] =
	"{\"irqs\":[{\"irq\":36,\"name\":\"virtio1-req.0\",\"cpus\":[],\"count\":10,\"window_count\":5,\"max_ns\":12000},"
	"{\"irq\":37,\"name\":\"idle-one\",\"cpus\":[],\"count\":10,\"window_count\":0,\"max_ns\":90000000}],"
	"\"softirqs\":[{\"vector\":\"NET_RX\",\"cpus\":[],\"count\":4,\"window_count\":4,\"run_max_ns\":310000}],"
	"\"vectors\":[{\"name\":\"LOC\",\"cpus\":[],\"count\":9,\"window_count\":9,\"max_ns\":20000}],"
	"\"threaded\":[],"
	"\"timers\":{\"classes\":[{\"class\":\"tick\",\"function\":\"tick_nohz_handler\",\"cpus\":[],\"count\":3,"
	"\"window_count\":3,\"lateness_max_ns\":2300000}],"
	"\"cpus\":[{\"cpu\":0,\"count\":3,\"window_count\":3,\"lateness_max_ns\":45000,\"wakeup_window_count\":2,"
	"\"wakeup_latency_max_ns\":1100000},{\"cpu\":1,\"count\":0,\"window_count\":0}],"
	"\"wakeups\":[]},"
	"\"cpu_load\":[{\"cpu\":0,\"total_share\":0.012,\"isolated\":false},{\"cpu\":1,\"total_share\":0.5,\"isolated\":true},"
	"{\"cpu\":2,\"total_share\":0},{\"cpu\":3,\"total_share\":0}]}";

static void test_first_lines(void **state)
{
	json_object *s = json_tokener_parse(summary);
	char lines[8][FIRSTLINE_LEN];
	int n;

	(void)state;
	assert_non_null(s);
	n = first_lines(s, lines, 8);
	for (int i = 0; i < n; i++)
		printf("# %s\n", lines[i]);
	assert_int_equal(n, 5);
	/* the idle handler's 90ms is not this window's: 12us is the worst of the handlers */
	assert_string_equal(lines[0], "worst: irq 12us softirq 310us vector 20us timer 2.3ms wakeup - threaded - nmi -");
	assert_string_equal(lines[1], "CPU 0: IRQ load 1.2%, 98.8% left to tasks, timer late 45us, wake-up 1.1ms");
	assert_string_equal(lines[2], "CPU 1: IRQ load 50.0%, 50.0% left to tasks, timer late -, wake-up - (isolated)");
	/* three lines: the worst, CPU 0, and how many more */
	n = first_lines(s, lines, 3);
	assert_int_equal(n, 3);
	assert_string_equal(lines[2], "... 3 more CPUs: v for the CPU load, C for one CPU's figures");
	json_object_put(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_lines),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
