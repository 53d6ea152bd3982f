// SPDX-License-Identifier: GPL-2.0
/* The configuration file (src/daemon/config/config_file.c, config_build.c): keys, precedence over
 * defaults and under the command line, and one error naming file, line and key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "daemon/config/config_build.h"
#include "daemon/config/config_file.h"

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
		   "softirq-threshold-us = 40\nno-vectors = yes\nthreaded-threshold-us = 70\nno-threaded = yes\n"
		   "threaded-run = on-cpu\nmetrics-cpu-label = yes\n");
	assert_int_equal(build(&c, err, sizeof(err), "--config", path, "--outlier-rate", "7", NULL), 0);
	assert_int_equal(c.threshold_ns[KIND_HARDIRQ], 50000);	/* from the file */
	assert_int_equal(c.outlier_rate, 7);		/* the command line wins */
	assert_int_equal(c.summary_interval_s, 30);
	assert_int_equal(c.metrics_cpu_label, 1);
	assert_int_equal(c.tracepoint_priority, 6);
	assert_int_equal(c.verbose, 1);
	assert_int_equal(c.threshold_ns[KIND_SOFTIRQ], 40000);
	assert_int_equal(c.disabled[KIND_VECTOR], 1);
	assert_int_equal(c.disabled[KIND_SOFTIRQ], 0);
	assert_int_equal(c.threshold_ns[KIND_THREADED], 70000);
	assert_int_equal(c.threshold_ns[KIND_THREADED_RUN], 1000000);	/* built-in default */
	assert_int_equal(c.disabled[KIND_THREADED], 1);
	assert_int_equal(c.threaded_run, THREADED_RUN_ON_CPU);
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
	expect_error("threaded-run = fentry\n", ":1: threaded-run: takes auto, handler or on-cpu, not 'fentry'");
	expect_error("ringbuf-kb = 100\n", ":1: ringbuf-kb: takes a power of two from 4 to 1048576, not '100'");
	expect_error("config = /etc/other.conf\n",
		     ":1: config: cannot be set inside a configuration file (only --config on the command line)");
	expect_error("summary-interval-s = 5\n",
		     ":1: summary-interval-s: takes 0 (off) or a whole number of seconds from 10 to 604800, not '5'");
	/* a contradiction in the file: exit 78, naming both lines */
	expect_error("no-tracepoints = yes\ntracepoint = sched:sched_switch\n",
		     ":2: tracepoint: contradicts no-tracepoints = yes (line 1): give one of them");
	expect_error("tracepoint = sched:sched_switch\n\nno-tracepoints = yes\n",
		     ":3: no-tracepoints: contradicts tracepoint (line 1): give one of them");
	expect_error("outlier-cap = many\n", ":1: outlier-cap: takes a whole number of entries a minute from 0 (no cap) to 1000000, not 'many'");
	expect_error("log-wakeups = rt-only\n", ":1: log-wakeups: takes rt, named or all, not 'rt-only'");
	expect_error("exited-task-grace-s = -1\n", ":1: exited-task-grace-s: takes a whole number of seconds from 0 to 86400, not '-1'");
	expect_error("metrics-cpu-label = cpu\n", ":1: metrics-cpu-label: takes yes or no, not 'cpu'");
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

/* Only a regular file is read: a folder, a FIFO (open() would wait for a writer), a device
 * (/dev/zero never ends), a file over the size bound, a NUL byte, a line longer than inih
 * reads whole (its rest would be read as a line of its own) are each one line, exit 78. */
static void test_only_regular_files(void **state)
{
	char dir[] = "/tmp/irqlat-test-cfgdir.XXXXXX", fifo[128], lnk[128], big[128];
	struct daemon_config c;
	char err[512];
	FILE *f;
	(void)state;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(build(&c, err, sizeof(err), "--config", dir, NULL), 78);
	assert_non_null(strstr(err, ": is a folder, not a configuration file (a regular file)"));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(build(&c, err, sizeof(err), "--config", fifo, NULL), 78);
	assert_non_null(strstr(err, ": is a FIFO, not a configuration file"));
	snprintf(lnk, sizeof(lnk), "%s/zero", dir);
	assert_int_equal(symlink("/dev/zero", lnk), 0);
	assert_int_equal(build(&c, err, sizeof(err), "--config", lnk, NULL), 78);
	assert_non_null(strstr(err, ": is a device, not a configuration file"));
	/* a link to a regular file is read: configuration management links files into /etc */
	unlink(lnk);
	write_file("threshold-us = 42\n");
	assert_int_equal(symlink(path, lnk), 0);
	assert_int_equal(build(&c, err, sizeof(err), "--config", lnk, NULL), 0);
	assert_int_equal(c.threshold_ns[KIND_HARDIRQ], 42000);
	snprintf(big, sizeof(big), "%s/big", dir);
	f = fopen(big, "w");
	for (int i = 0; i < CONFIG_FILE_MAX_BYTES / 16 + 1; i++)
		fputs("# a comment ...\n", f);
	fclose(f);
	assert_int_equal(build(&c, err, sizeof(err), "--config", big, NULL), 78);
	assert_non_null(strstr(err, ": is longer than 1048576 bytes"));
	unlink(big);
	unlink(lnk);
	unlink(fifo);
	rmdir(dir);

	static const char nul[] = "threshold-us = 5\nverbose = yes\0\n";
	assert_int_equal(config_file_parse(&c, "x.conf", nul, sizeof(nul) - 1, NULL), -EINVAL);
	char line[1200];
	struct config_error e;
	snprintf(line, sizeof(line), "threshold-us = 5\n# %01000d\nthreshold-us = 6\n", 0);
	daemon_config_defaults(&c);
	assert_int_equal(config_file_parse(&c, "x.conf", line, strlen(line), &e), -EINVAL);
	assert_non_null(strstr(e.text, "x.conf:2: line longer than"));
	/* the first error is the one told, whichever kind it is */
	snprintf(line, sizeof(line), "threshold-us = x\n# %01000d\n", 0);
	assert_int_equal(config_file_parse(&c, "x.conf", line, strlen(line), &e), -EINVAL);
	assert_non_null(strstr(e.text, "x.conf:1: threshold-us: takes"));
}

/* A reload that meets a bad file keeps everything the daemon runs with */
static void test_reload_keeps_config(void **state)
{
	struct daemon_config old, n;
	struct config_error e;
	char *argv[] = { (char *)"irqlatd", (char *)"--config", path, NULL };
	char err[512];
	(void)state;

	write_file("threshold-us = 50\nmax-clients = 9\n");
	assert_int_equal(build(&old, err, sizeof(err), "--config", path, NULL), 0);
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);	/* the file became a FIFO */
	assert_true(config_reload(&old, 3, argv, &n, &e) < 0);
	assert_non_null(strstr(e.text, "is a FIFO"));
	assert_int_equal(old.threshold_ns[KIND_HARDIRQ], 50000);
	assert_int_equal(old.max_clients, 9);
	unlink(path);
	write_file("max-clients = 10\n");
	assert_int_equal(config_reload(&old, 3, argv, &n, &e), 0);
	assert_int_equal(n.max_clients, 10);	/* a good one applies the socket limits */
	old = n;
	unlink(path);
	write_file("threaded-run = handler\n");
	assert_int_equal(config_reload(&old, 3, argv, &n, &e), 0);
	assert_int_equal(n.threaded_run, THREADED_RUN_AUTO);	/* the programs loaded keep theirs: a restart */
	/* a kind's threshold applies, whichever spelling; its disable key waits for a restart */
	old = n;
	unlink(path);
	write_file("softirq-raise-threshold-us = 3\nthreshold-us = 4\nno-vector = yes\nno-softirqs = yes\n");
	assert_int_equal(config_reload(&old, 3, argv, &n, &e), 0);
	assert_int_equal(n.threshold_ns[KIND_SOFTIRQ_RAISE], 3000);
	assert_int_equal(n.threshold_ns[KIND_HARDIRQ], 4000);
	for (unsigned k = 0; k < KINDS; k++)
		assert_true(config_kind_on(&n, k));
}

/* The file reads a kind's regular key and its older spelling alike */
static void test_kind_keys_in_file(void **state)
{
	struct daemon_config a, b;
	char err[512];
	(void)state;

	write_file("hardirq-threshold-us = 9\nno-softirq = yes\nno-wakeup = on\ntimer-threshold-us = 0\n");
	assert_int_equal(build(&a, err, sizeof(err), "--config", path, NULL), 0);
	unlink(path);
	write_file("threshold-us = 9\nno-softirqs = yes\nno-wakeups = on\ntimer-threshold-us = 0\n");
	assert_int_equal(build(&b, err, sizeof(err), "--config", path, NULL), 0);
	assert_int_equal(a.threshold_ns[KIND_HARDIRQ], 9000);
	assert_int_equal(a.threshold_ns[KIND_TIMER], 0);
	assert_false(config_kind_on(&a, KIND_SOFTIRQ_RAISE));
	assert_false(config_kind_on(&a, KIND_WAKEUP_CPU));
	assert_true(config_kind_on(&a, KIND_TIMER));
	assert_memory_equal(a.threshold_ns, b.threshold_ns, sizeof(a.threshold_ns));
	assert_memory_equal(a.disabled, b.disabled, sizeof(a.disabled));
	unlink(path);
	write_file("no-vector = maybe\n");
	assert_int_equal(build(&a, err, sizeof(err), "--config", path, NULL), EXIT_CONFIG);
	assert_non_null(strstr(err, ":1: no-vector: takes yes or no, not 'maybe'"));
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
		cmocka_unit_test(test_only_regular_files),
		cmocka_unit_test(test_reload_keeps_config),
		cmocka_unit_test(test_kind_keys_in_file),
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
