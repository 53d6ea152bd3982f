// SPDX-License-Identifier: GPL-2.0
/* The per-CPU latency table (cpulat.c) from a summary written here: each CPU of cpu_load in its
 * order, its timers' window count and MAX, its wake-ups' count, P99 and MAX from timers.cpus ("-" where none
 * ran), the share left to tasks, and the top cause over the kept waits of that CPU alone, with
 * its share of their time; a CPU with no kept wait says "-". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "client/cpulat.h"

static const char summary[] =
	"{\"window\":\"10s\","
	"\"timers\":{\"cpus\":[{\"cpu\":0,\"count\":30,\"window_count\":3,\"lateness_p99_ns\":40000,\"lateness_max_ns\":45000,"
	"\"wakeup_window_count\":2,\"wakeup_latency_p99_ns\":1000000,\"wakeup_latency_max_ns\":1100000},"
	"{\"cpu\":1,\"count\":5000,\"window_count\":2500,\"lateness_p99_ns\":12000,\"lateness_max_ns\":2300000,"
	"\"wakeup_window_count\":1000,\"wakeup_latency_p99_ns\":1900000,\"wakeup_latency_max_ns\":2100000}]},"
	"\"cpu_load\":[{\"cpu\":0,\"total_share\":0.012},{\"cpu\":1,\"total_share\":0.5},{\"cpu\":2,\"total_share\":1.2}],"
	/* CPU 1: stress-ng blocking 1.5 ms, a kworker 0.3 ms, IRQs 0.4 ms, of 2.4 ms; CPU 0: exit from idle alone */
	"\"why_waits\":["
	"{\"class\":\"wakeup\",\"cpu\":1,\"pid\":42,\"comm\":\"cyclictest\",\"total_ns\":1600000,"
	"\"parts\":{\"blocking_ns\":1500000,\"irq_ns\":100000},"
	"\"blocker\":{\"pid\":99,\"comm\":\"stress-ng\",\"policy\":1,\"prio\":0}},"
	"{\"class\":\"timer\",\"cpu\":1,\"total_ns\":800000,"
	"\"parts\":{\"blocking_ns\":300000,\"irq_ns\":300000,\"others_ns\":200000},"
	"\"top\":{\"irq\":{\"name\":\"IRQ 36 virtio1-req.0\",\"ns\":300000}},"
	"\"blocker\":{\"pid\":7,\"comm\":\"kworker/1:0\",\"policy\":0,\"prio\":120}},"
	"{\"class\":\"wakeup\",\"cpu\":0,\"pid\":43,\"comm\":\"sleep\",\"total_ns\":900000,\"parts\":{\"late_idle_ns\":900000}}]}";

static void test_cpulat(void **state)
{
	json_object *s = json_tokener_parse(summary);
	char *text = NULL, *line, *save = NULL;
	const char *lines[8];
	size_t len = 0;
	int n = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(s);
	assert_non_null(f);
	cpulat_print(f, s, 0);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line && n < 8; line = strtok_r(NULL, "\n", &save)) {
		printf("# %s\n", line);
		lines[n++] = line;
	}
	assert_int_equal(n, 5);
	assert_string_equal(lines[0], "Per CPU over the last 10s, as rtla timerlat top and osnoise print it");
	assert_string_equal(lines[1], "CPU   TIMERS     MAX WAKEUPS     P99     MAX  FREE%  TOP CAUSE");
	/* 2 wake-ups: too few for a P99 of their own (a '*') */
	assert_string_equal(lines[2], "cpu0       3    45us       2  1.0ms*   1.1ms   98.8  100% exit from idle");
	/* stress-ng blocked 1.5 of 2.4 ms; the kworker's 0.3 is a cause of its own */
	assert_string_equal(lines[3],
			    "cpu1    2500   2.3ms    1000   1.9ms   2.1ms   50.0  62% blocking task stress-ng[99] (FIFO 99)");
	/* no timer there, no kept wait; a load over 1 (softirqs count nested IRQs) leaves 0 */
	assert_string_equal(lines[4], "cpu2       -       -       -       -       -    0.0  -");
	free(text);

	/* at 80 columns a blocking task is named by its pid and policy alone; cut to the width */
	text = NULL;
	f = open_memstream(&text, &len);
	cpulat_print(f, s, 80);
	fclose(f);
	n = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (++n == 4)
			assert_string_equal(line, "cpu1    2500   2.3ms    1000   1.9ms   2.1ms   50.0  62% stress-ng[99] (FIFO 99)");
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	cpulat_print(f, s, 40);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		assert_true(strlen(line) <= 40);
	free(text);
	json_object_put(s);
}

static void test_cpulat_none(void **state)
{
	json_object *s = json_tokener_parse("{\"window\":\"10s\"}");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	cpulat_print(f, s, 0);
	fclose(f);
	assert_int_equal(len, 0);
	free(text);
	json_object_put(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulat),
		cmocka_unit_test(test_cpulat_none),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
