// SPDX-License-Identifier: GPL-2.0
/* The configuration file (src/daemon/config_file.c, config_build.c): keys, precedence over
 * defaults and under the command line, and one error naming file, line and key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "daemon/config_build.h"
#include "daemon/config_file.h"

static char path[] = "/tmp/irqlat-test-config.XXXXXX";

static void write_file(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* builds the configuration from argv (argv[0] is added); returns the exit code and stderr's
 * text as irqlatd's main gives them for config_build's answer */
static int build(struct daemon_config *c, char *err, size_t len, ...)
{
	char *argv[16] = { (char *)"irqlatd" };
	int argc = 1;
	va_list ap;
	struct config_error e;
	FILE *of = fopen("/dev/null", "w"), *ef = fmemopen(err, len, "w");
	int r;

	va_start(ap, len);
	for (char *a; (a = va_arg(ap, char *)) && argc < 15;)
		argv[argc++] = a;
	va_end(ap);
	r = config_build(c, argc, argv, of, &e);
	if (r < 0)
		fprintf(ef, "irqlatd: %s\n", e.text);
	fclose(ef);
	fclose(of);
	return r > 0 ? -1 : r == 0 ? 0 : e.source == CONFIG_FILE ? EXIT_CONFIG : EXIT_USAGE;
}

static void test_file_then_command_line(void **state)
{
	struct daemon_config c;
	char err[512];
	(void)state;

	write_file("# comment\n[irqlatd]\nthreshold-us = 50\n  outlier-rate = 4 ; inline comment\n"
		   "summary-interval-s = 30\ntracepoint-priority = info\nverbose = yes\n"
		   "softirq-threshold-us = 40\nno-vectors = yes\n");
	assert_int_equal(build(&c, err, sizeof(err), "--config", path, "--outlier-rate", "7", NULL), 0);
	assert_int_equal(c.threshold_ns, 50000);	/* from the file */
	assert_int_equal(c.outlier_rate, 7);		/* the command line wins */
	assert_int_equal(c.summary_interval_s, 30);
	assert_int_equal(c.tracepoint_priority, 6);
	assert_int_equal(c.verbose, 1);
	assert_int_equal(c.softirq_threshold_ns, 40000);
	assert_int_equal(c.no_vectors, 1);
	assert_int_equal(c.no_softirqs, 0);
	assert_int_equal(c.interval_ms, 1000);		/* built-in default */
	assert_string_equal(c.config_path, path);
}

static void expect_error(const char *text, const char *want_suffix)
{
	struct daemon_config c;
	char err[512], want[512];

	write_file(text);
	assert_int_equal(build(&c, err, sizeof(err), "--config", path, NULL), 78);
	snprintf(want, sizeof(want), "irqlatd: %s%s\n", path, want_suffix);
	assert_string_equal(err, want);
}

static void test_errors_name_file_line_key(void **state)
{
	(void)state;
	expect_error("threshold-us = 5\n\ninterval-ms = fast\n",
		     ":3: interval-ms: takes a whole number from 10 to 60000, not 'fast'");
	expect_error("no-softirqs = maybe\n", ":1: no-softirqs: takes yes or no, not 'maybe'");
	expect_error("[irqlatd]\nbogus = 1\n",
		     ":2: bogus: unknown key; the keys are the long options of irqlatd --help without their dashes");
	expect_error("[other]\nthreshold-us = 5\n",
		     ":2: threshold-us: is in section [other]; irqlatd reads only keys before any section or in [irqlatd]");
	expect_error("threshold-us = 5\njust words\noutlier-rate = x\n",
		     ":2: not a 'key = value' line or a [section] header");
	expect_error("ringbuf-kb = 100\n", ":1: ringbuf-kb: takes a power of two from 4 to 1048576, not '100'");
	expect_error("config = /etc/other.conf\n",
		     ":1: config: cannot be set inside a configuration file (only --config on the command line)");
	expect_error("summary-interval-s = 5\n",
		     ":1: summary-interval-s: takes 0 (off) or a whole number of seconds from 10 to 604800, not '5'");
}

static void test_missing_files(void **state)
{
	struct daemon_config c;
	char err[512];
	(void)state;

	unlink(path);
	assert_int_equal(build(&c, err, sizeof(err), "--config", path, NULL), 78);
	assert_non_null(strstr(err, "cannot read the configuration file: No such file or directory"));
	/* the default path, absent: built-in defaults, no error */
	assert_int_equal(config_file_load(&c, "/nonexistent/irqlatd.conf", false, NULL), 0);
}

static void test_bad_command_line_is_2(void **state)
{
	struct daemon_config c;
	char err[512];
	(void)state;

	assert_int_equal(build(&c, err, sizeof(err), "--summary-interval-s", "x", NULL), 2);
	assert_non_null(strstr(err, "--summary-interval-s takes 0 (off)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_then_command_line),
		cmocka_unit_test(test_errors_name_file_line_key),
		cmocka_unit_test(test_missing_files),
		cmocka_unit_test(test_bad_command_line_is_2),
	};
	int fd, r;

	cmocka_set_message_output(CM_OUTPUT_TAP);
	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	r = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return r;
}
