// SPDX-License-Identifier: GPL-2.0
/* The captures folder (src/daemon/capture/capture_store.c) within its budget: the oldest go
 * first, other files are left alone, the listing is what the folder holds (read back with
 * stat(2), not with the code's own list); and ftrace's line format read for the window
 * (src/daemon/capture/trace_instance.c). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "daemon/capture/capture_store.h"
#include "daemon/capture/trace_instance.h"

static char dir[] = "/tmp/irqlat-test-captures.XXXXXX";

static void put(const char *name, size_t size)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "# irqlatd capture\n# kind: hardirq\n# cpu: 1\n# latency_ns: 2500\n# wall_ns: 17\n# name: virtio1-req.0\n");
	while ((size_t)ftell(f) < size)
		fputc('x', f);
	fclose(f);
}

static bool there(const char *name)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return stat(p, &st) == 0;
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void test_budget_oldest_first(void **state)
{
	(void)state;
	/* 1000 bytes each; the names sort by time, not the order they were written in */
	put("0000000000000000300-hardirq-cpu0.trace", 1000);
	put("0000000000000000100-hardirq-cpu1.trace", 1000);
	put("0000000000000000200-timer-cpu0.trace", 1000);
	put("notes.txt", 5000);			/* not a capture: neither counted nor removed */
	put(".0000000000000000400-x-cpu0.trace.tmp", 5000);	/* one being written */
	assert_int_equal(capture_store_enforce(dir, 3000), 0);
	assert_true(there("0000000000000000100-hardirq-cpu1.trace"));
	assert_int_equal(capture_store_enforce(dir, 2999), 1);
	assert_false(there("0000000000000000100-hardirq-cpu1.trace"));
	assert_true(there("0000000000000000200-timer-cpu0.trace"));
	assert_true(there("0000000000000000300-hardirq-cpu0.trace"));
	assert_int_equal(capture_store_enforce(dir, 1000), 1);
	assert_false(there("0000000000000000200-timer-cpu0.trace"));
	assert_true(there("0000000000000000300-hardirq-cpu0.trace"));
	/* a capture larger than the whole budget goes too: the folder never holds more */
	assert_int_equal(capture_store_enforce(dir, 999), 1);
	assert_false(there("0000000000000000300-hardirq-cpu0.trace"));
	assert_true(there("notes.txt"));
	assert_true(there(".0000000000000000400-x-cpu0.trace.tmp"));
	assert_int_equal(capture_store_enforce("/nonexistent/irqlat", 1), -ENOENT);
}

static void test_list(void **state)
{
	json_object *a, *o, *v;
	char p[512];
	struct stat st;

	(void)state;
	put("0000000000000000500-hardirq-cpu1.trace", 1234);
	put("0000000000000000499-softirq-cpu0.trace", 300);
	a = capture_store_list(dir);
	assert_int_equal(json_object_array_length(a), 2);
	o = json_object_array_get_idx(a, 0);	/* oldest first */
	snprintf(p, sizeof(p), "%s/0000000000000000499-softirq-cpu0.trace", dir);
	assert_true(json_object_object_get_ex(o, "file", &v));
	assert_string_equal(json_object_get_string(v), p);
	assert_int_equal(stat(p, &st), 0);
	assert_true(json_object_object_get_ex(o, "size", &v));
	assert_int_equal(json_object_get_int64(v), st.st_size);
	o = json_object_array_get_idx(a, 1);
	assert_true(json_object_object_get_ex(o, "kind", &v));
	assert_string_equal(json_object_get_string(v), "hardirq");
	assert_true(json_object_object_get_ex(o, "cpu", &v));
	assert_int_equal(json_object_get_int(v), 1);
	assert_true(json_object_object_get_ex(o, "latency_ns", &v));
	assert_int_equal(json_object_get_int(v), 2500);
	assert_true(json_object_object_get_ex(o, "name", &v));
	assert_string_equal(json_object_get_string(v), "virtio1-req.0");
	json_object_put(a);
	a = capture_store_list("/nonexistent/irqlat");
	assert_int_equal(json_object_array_length(a), 0);
	json_object_put(a);
}

static void test_dir_from_systemd(void **state)
{
	char d[256];

	(void)state;
	unsetenv("STATE_DIRECTORY");
	capture_dir(d, sizeof(d));
	assert_string_equal(d, "/var/lib/irqlatd/captures");
	setenv("STATE_DIRECTORY", "/var/lib/irqlatd:/var/lib/other", 1);
	capture_dir(d, sizeof(d));
	assert_string_equal(d, "/var/lib/irqlatd/captures");
	unsetenv("STATE_DIRECTORY");
}

static void test_trace_line_ts(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(trace_line_ts("          <idle>-0       [001] d.h1.  1234.567890: irq_handler_entry: irq=24 name=virtio1-req.0\n", &ns), 0);
	assert_int_equal(ns, 1234567890000ull);
	/* a comm with blanks and brackets, and a 9-digit fraction (trace_clock mono with ns) */
	assert_int_equal(trace_line_ts("  kworker/u4:2 [x]-77 [000] ..... 5.000000001: sched_switch: prev_comm=a\n", &ns), 0);
	assert_int_equal(ns, 5000000001ull);
	assert_int_equal(trace_line_ts("# tracer: nop\n", &ns), -EINVAL);
	assert_int_equal(trace_line_ts("#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n", &ns), -EINVAL);
	assert_int_equal(trace_line_ts("garbage: no cpu\n", &ns), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget_oldest_first),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_dir_from_systemd),
		cmocka_unit_test(test_trace_line_ts),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, setup, teardown);
}
