// SPDX-License-Identifier: GPL-2.0
/* irqlat status for a person (status.c) on an answer written here the way irqlatd writes one:
 * one line per program set with each tracepoint once, the thresholds as their options say
 * them (KIND-threshold-us, microseconds), the metrics address, every line labelled in the same
 * 12 columns, and no JSON left in the text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "client/status.h"

static const char answer[] =
	"{\"ok\":true,\"version\":\"0.9\",\"pid\":42,\"uptime_s\":61.5,\"attach\":\"tp_btf\","
	"\"programs\":[\"irq:irq_handler_entry\",\"irq:irq_handler_exit\",\"sched:sched_switch\","
	"\"irq_vectors:local_timer_entry\",\"sched:sched_switch\",\"irq_vectors:local_timer_exit\"],"
	"\"kinds\":[\"hardirq\",\"softirq\",\"timer\"],\"handlers\":8,\"cells_used\":120,"
	"\"drops\":{\"outliers\":0,\"tracepoint_events\":0,\"no_cell\":0},"
	"\"bpf\":{\"stats_enabled\":false},"
	"\"config\":{\"bpf_stats\":false,\"threshold_ns\":100000,\"softirq_threshold_ns\":500000,"
	"\"softirq_raise_threshold_ns\":2000000,\"timer_threshold_ns\":0,\"interval_ms\":1000,"
	"\"max_cells\":4096,\"ringbuf_bytes\":262144,\"socket\":\"/run/irqlatd/irqlatd.sock\","
	"\"exited_task_grace_s\":60},"
	"\"clients\":{\"connected\":1,\"subscribers\":0,\"max_clients\":64},"
	"\"http\":{\"address\":\"127.0.0.1:9105\",\"open\":0,\"accepted\":3}}";

static char *status_text(void)
{
	json_object *s = json_tokener_parse(answer);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(s);
	assert_non_null(f);
	status_print(f, s);
	fclose(f);
	json_object_put(s);
	return text;
}

static void test_status_text(void **state)
{
	char *text = status_text(), *line, *save = NULL;
	unsigned programs = 0;

	(void)state;
	printf("%s", text);
	assert_non_null(strstr(text, "\nprograms:    irq: irq_handler_entry, irq_handler_exit\n"
					"             sched: sched_switch\n"
					"             irq_vectors: local_timer_entry, local_timer_exit\n"));
	assert_non_null(strstr(text, "\nthresholds:  hardirq-threshold-us 100, softirq-threshold-us 500, "
					"softirq-raise-threshold-us 2000, timer-threshold-us off\n"));
	assert_non_null(strstr(text, "\nmetrics:     http://127.0.0.1:9105/metrics; open 0, accepted 3\n"));
	assert_non_null(strstr(text, "\nkinds:       hardirq, softirq, timer\n"));
	assert_non_null(strstr(text, "\nclients:     connected 1, subscribers 0, max clients 64\n"));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* a label and its colon, or a continuation, in 12 columns; never JSON */
		if (strncmp(line, "irqlatd ", 8)) {
			const char *colon = strchr(line, ':');

			if (line[0] != ' ' && (!colon || colon - line > 11 || line[12] != ' '))
				fail_msg("not aligned: \"%s\"", line);
			if (line[0] == ' ' && strspn(line, " ") != 13)
				fail_msg("a continuation not in the column: \"%s\"", line);
		}
		if (strpbrk(line, "{}[]\""))
			fail_msg("JSON in the text: \"%s\"", line);
		programs += strstr(line, "sched_switch") != NULL;
	}
	assert_int_equal(programs, 1);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_text),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
