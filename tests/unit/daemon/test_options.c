// SPDX-License-Identifier: GPL-2.0
/* irqlatd's command line (daemon_options_parse): defaults, every option in its short and long
 * forms, bad values (exit 2 and one line naming the option), --help/--version. irqlat's is
 * tests/unit/client/test_cli.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../helpers/cmdline.h"
#include "daemon/options.h"

static struct run daemon_run(struct daemon_config *c, ...)
{
	char *argv[MAXARGS];
	struct run r;
	struct config_error e;
	FILE *out, *err;
	va_list ap;
	int argc, rc;

	va_start(ap, c);
	argc = make_argv(argv, "irqlatd", ap);
	va_end(ap);
	daemon_config_defaults(c);
	capture_begin(&out, &err, &r);
	rc = daemon_options_parse(c, argc, argv, out, &e);
	/* what irqlatd's main makes of it: the line on stderr, exit 2; -1 for exit 0 (--help) */
	if (rc < 0)
		fprintf(err, "irqlatd: %s\n", e.text);
	r.rc = rc < 0 ? EXIT_USAGE : rc > 0 ? -1 : 0;
	capture_end(out, err);
	return r;
}

/* exit 2, nothing on stdout, exactly one line on stderr that contains each of the words */
#define assert_usage_error(r, word1, word2) assert_refused(r, EXIT_USAGE, word1, word2)

/* ---------- irqlatd ---------- */

static void test_daemon_defaults(void **state)
{
	struct daemon_config c;
	struct run r = daemon_run(&c, NULL);

	(void)state;
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_int_equal(c.threshold_ns, 100000);	/* 100 us */
	assert_int_equal(c.softirq_threshold_ns, 500000);
	assert_int_equal(c.softirq_raise_threshold_ns, 2000000);
	assert_int_equal(c.vector_threshold_ns, 100000);
	assert_int_equal(c.no_softirqs, 0);
	assert_int_equal(c.no_vectors, 0);
	assert_int_equal(c.interval_ms, 1000);
	assert_string_equal(c.socket_path, "/run/irqlatd/irqlatd.sock");
	assert_int_equal(c.attach, ATTACH_AUTO);
	assert_int_equal(c.max_cells, 0);	/* derived from the CPU count */
	assert_int_equal(c.ringbuf_kb, 256);
	assert_int_equal(c.outlier_rate, 10);
	assert_int_equal(c.log_target, LOG_TARGET_AUTO);
	assert_int_equal(c.verbose, 0);
	/* max(1024, 32 x CPUs), and 30 a CPU for the softirqs' 2 x 10 and the vectors' 10 */
	assert_int_equal(default_max_cells(1, 512), 1024 + 47 + 512);
	assert_int_equal(default_max_cells(32, 512), 1024 + 32 * 47 + 512);
	assert_int_equal(default_max_cells(33, 0), 1056 + 33 * 47);
	assert_int_equal(default_max_cells(256, 512), 8192 + 256 * 47 + 512);
}

static void test_daemon_every_option(void **state)
{
	struct daemon_config c;
	struct run r;

	(void)state;
	r = daemon_run(&c, "--threshold-us", "250", "--interval-ms", "500", "--socket", "/tmp/a.sock",
		       "--attach", "raw_tp", "--max-cells", "4096", "--ringbuf-kb", "1024",
		       "--outlier-rate", "0", "--log-target", "journal", "--verbose", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.threshold_ns, 250000);
	assert_int_equal(c.interval_ms, 500);
	assert_string_equal(c.socket_path, "/tmp/a.sock");
	assert_int_equal(c.attach, ATTACH_RAW_TP);
	assert_int_equal(c.max_cells, 4096);
	assert_int_equal(c.ringbuf_kb, 1024);
	assert_int_equal(c.outlier_rate, 0);
	assert_int_equal(c.log_target, LOG_TARGET_JOURNAL);
	assert_int_equal(c.verbose, 1);

	/* each kind's threshold and switch */
	r = daemon_run(&c, "--softirq-threshold-us", "7", "--softirq-raise-threshold-us", "0",
		       "--vector-threshold-us=9", "--no-softirqs", "--no-vectors", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.threshold_ns, 100000);
	assert_int_equal(c.softirq_threshold_ns, 7000);
	assert_int_equal(c.softirq_raise_threshold_ns, 0);
	assert_int_equal(c.vector_threshold_ns, 9000);
	assert_int_equal(c.no_softirqs, 1);
	assert_int_equal(c.no_vectors, 1);
	assert_int_equal(c.threaded_threshold_ns, 500000);	/* defaults */
	assert_int_equal(c.threaded_run_threshold_ns, 1000000);
	assert_int_equal(c.no_threaded, 0);
	assert_int_equal(c.threaded_run, THREADED_RUN_AUTO);
	r = daemon_run(&c, "--threaded-run", "handler", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.threaded_run, THREADED_RUN_HANDLER);
	r = daemon_run(&c, "--threaded-run=on-cpu", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.threaded_run, THREADED_RUN_ON_CPU);
	r = daemon_run(&c, "--threaded-run", "fexit", NULL);
	assert_int_equal(r.rc, EXIT_USAGE);
	assert_non_null(strstr(r.err, "--threaded-run takes auto, handler or on-cpu, not 'fexit'"));
	r = daemon_run(&c, "--threaded-threshold-us", "50", "--threaded-run-threshold-us=0", "--no-threaded", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.threaded_threshold_ns, 50000);
	assert_int_equal(c.threaded_run_threshold_ns, 0);
	assert_int_equal(c.no_threaded, 1);

	/* short forms, attached values, --opt=value */
	r = daemon_run(&c, "-t0", "-i", "10", "-s/tmp/b.sock", "-v", "--attach=tp_btf",
		       "--log-target=stderr", "--ringbuf-kb=4", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.threshold_ns, 0);	/* outliers off */
	assert_int_equal(c.interval_ms, 10);
	assert_string_equal(c.socket_path, "/tmp/b.sock");
	assert_int_equal(c.verbose, 1);
	assert_int_equal(c.attach, ATTACH_TP_BTF);
	assert_int_equal(c.log_target, LOG_TARGET_STDERR);
	assert_int_equal(c.ringbuf_kb, 4);

	/* the limits themselves are accepted */
	r = daemon_run(&c, "-t", "60000000", "-i", "60000", "--max-cells", "1048576", "--max-cells", "1",
		       "--ringbuf-kb", "1048576", "--outlier-rate", "1000000", "--attach", "auto", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.threshold_ns, 60000000ull * 1000);
	assert_int_equal(c.interval_ms, 60000);
	assert_int_equal(c.max_cells, 1);	/* the last one wins */
	assert_int_equal(c.ringbuf_kb, 1048576);
	assert_int_equal(c.outlier_rate, 1000000);
}

/* The limits and the socket's access (irqlatd(8), LIMITS): defaults, values, ranges */
static void test_daemon_limits(void **state)
{
	struct daemon_config c;
	struct run r;

	(void)state;
	r = daemon_run(&c, NULL);
	assert_int_equal(c.max_clients, 64);
	assert_int_equal(c.max_subscribers, 16);
	assert_int_equal(c.client_queue_kb, 1024);
	assert_int_equal(c.max_request_kb, 64);
	assert_int_equal(c.max_http_connections, 16);
	assert_int_equal(c.http_timeout_s, 10);
	assert_int_equal(c.metrics_le_factor, 8);
	assert_int_equal(c.socket_mode, 0660);
	assert_string_equal(c.socket_group, "irqlat");
	assert_int_equal(c.socket_group_set, 0);
	assert_string_equal(c.socket_user, "");
	r = daemon_run(&c, "--max-clients", "1", "--max-subscribers", "0", "--client-queue-kb", "64",
		       "--max-request-kb", "1024", "--max-http-connections", "4096", "--http-timeout-s", "3600",
		       "--socket-mode", "0640", "--socket-user", "0", "--socket-group", "root", "--metrics-le-factor", "64", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.metrics_le_factor, 64);
	assert_int_equal(c.max_clients, 1);
	assert_int_equal(c.max_subscribers, 0);
	assert_int_equal(c.client_queue_kb, 64);
	assert_int_equal(c.max_request_kb, 1024);
	assert_int_equal(c.max_http_connections, 4096);
	assert_int_equal(c.http_timeout_s, 3600);
	assert_int_equal(c.socket_mode, 0640);
	assert_string_equal(c.socket_user, "0");
	assert_string_equal(c.socket_group, "root");
	assert_int_equal(c.socket_group_set, 1);
	r = daemon_run(&c, "--socket-mode", "666", "--socket-group", "", NULL);
	assert_int_equal(c.socket_mode, 0666);
	assert_string_equal(c.socket_group, "");	/* the daemon's own group */
}

static void test_daemon_bad_values(void **state)
{
	static const struct {
		const char *opt, *val, *named;
	} cases[] = {
		{ "--threshold-us", "abc", "--threshold-us" },
		{ "--threshold-us", "-5", "--threshold-us" },
		{ "--threshold-us", "60000001", "--threshold-us" },
		{ "--threshold-us", "", "--threshold-us" },
		{ "-t", "1.5", "--threshold-us" },
		{ "--softirq-threshold-us", "x", "--softirq-threshold-us" },
		{ "--softirq-raise-threshold-us", "60000001", "--softirq-raise-threshold-us" },
		{ "--vector-threshold-us", "-1", "--vector-threshold-us" },
		{ "--interval-ms", "9", "--interval-ms" },
		{ "--interval-ms", "60001", "--interval-ms" },
		{ "-i", "1s", "--interval-ms" },
		{ "--socket", "", "--socket" },
		{ "--socket", "/tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.sock", "--socket" },
		{ "--attach", "kprobe", "--attach" },
		{ "--max-cells", "0", "--max-cells" },
		{ "--max-cells", "1048577", "--max-cells" },
		{ "--max-cells", "99999999999999999999999", "--max-cells" },
		{ "--ringbuf-kb", "100", "--ringbuf-kb" },	/* not a power of two */
		{ "--ringbuf-kb", "2", "--ringbuf-kb" },
		{ "--ringbuf-kb", "2097152", "--ringbuf-kb" },
		{ "--outlier-rate", "1000001", "--outlier-rate" },
		{ "--outlier-rate", "ten", "--outlier-rate" },
		{ "--log-target", "syslog", "--log-target" },
		/* blanks around a number are refused on both sides */
		{ "--threshold-us", " 5", "--threshold-us" },
		{ "--threshold-us", "5 ", "--threshold-us" },
		{ "--interval-ms", "\t100", "--interval-ms" },
		{ "--max-clients", "0", "--max-clients" },
		{ "--max-clients", "65537", "--max-clients" },
		{ "--max-subscribers", "-1", "--max-subscribers" },
		{ "--client-queue-kb", "63", "--client-queue-kb" },
		{ "--max-request-kb", "0", "--max-request-kb" },
		{ "--max-request-kb", "1025", "--max-request-kb" },
		{ "--max-http-connections", "0", "--max-http-connections" },
		{ "--http-timeout-s", "0", "--http-timeout-s" },
		{ "--metrics-le-factor", "0", "--metrics-le-factor" },
		{ "--metrics-le-factor", "65", "--metrics-le-factor" },
		{ "--metrics-le-factor", "two", "--metrics-le-factor" },
		{ "--socket-mode", "0888", "--socket-mode" },
		{ "--socket-mode", "1777", "--socket-mode" },
		{ "--socket-mode", "rw", "--socket-mode" },
		{ "--socket-group", "no-such-group-irqlat", "--socket-group" },
		{ "--socket-user", "no-such-user-irqlat", "--socket-user" },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct daemon_config c;
		struct run r = daemon_run(&c, cases[i].opt, cases[i].val, NULL);

		/* the message names the option and quotes the value (not the too-long path) */
		assert_usage_error(&r, cases[i].named, strcmp(cases[i].opt, "--socket") ? cases[i].val : NULL);
	}
}

static void test_daemon_bad_usage(void **state)
{
	struct daemon_config c;
	struct run r;

	(void)state;
	r = daemon_run(&c, "--no-such-flag", NULL);
	assert_usage_error(&r, "unknown option", "--no-such-flag");
	r = daemon_run(&c, "-x", NULL);
	assert_usage_error(&r, "unknown option", "-x");
	/* inside a cluster: the letter that is wrong, wherever it is */
	r = daemon_run(&c, "-vq", NULL);
	assert_usage_error(&r, "unknown option", "'-q'");
	r = daemon_run(&c, "--verbose", "-qv", NULL);
	assert_usage_error(&r, "unknown option", "'-q'");
	r = daemon_run(&c, "--verbose=1", NULL);	/* a value it does not take */
	assert_usage_error(&r, "--verbose=1", NULL);
	r = daemon_run(&c, "-vt", NULL);
	assert_usage_error(&r, "option -t", "needs a value");
	r = daemon_run(&c, "--socket", NULL);
	assert_usage_error(&r, "--socket", "needs a value");
	r = daemon_run(&c, "-v", "-t", NULL);
	assert_usage_error(&r, "-t", "needs a value");
	r = daemon_run(&c, "run", NULL);
	assert_usage_error(&r, "unexpected argument", "run");
}

static void test_daemon_help_version(void **state)
{
	struct daemon_config c;
	struct run r;

	(void)state;
	r = daemon_run(&c, "--help", NULL);
	assert_int_equal(r.rc, -1);	/* exit 0 */
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, "Usage: irqlatd"));
	/* the help lists every option */
	static const char *const every[] = { "--threshold-us", "--softirq-threshold-us",
					     "--softirq-raise-threshold-us", "--vector-threshold-us",
					     "--no-softirqs", "--no-vectors", "--threaded-threshold-us",
					     "--threaded-run-threshold-us", "--no-threaded", "--threaded-run", "--interval-ms", "--socket", "--attach",
					     "--max-cells", "--ringbuf-kb", "--outlier-rate", "--log-target",
					     "--verbose", "--help", "--version" };
	for (unsigned i = 0; i < sizeof(every) / sizeof(every[0]); i++)
		if (!strstr(r.out, every[i]))
			fail_msg("--help does not mention %s", every[i]);
	r = daemon_run(&c, "-h", "--bogus", NULL);	/* help wins over what follows */
	assert_int_equal(r.rc, -1);
	r = daemon_run(&c, "-V", NULL);
	assert_int_equal(r.rc, -1);
	assert_string_equal(r.out, "irqlatd " IRQLAT_VERSION "\n");
	r = daemon_run(&c, "--version", NULL);
	assert_int_equal(r.rc, -1);
	assert_string_equal(r.out, "irqlatd " IRQLAT_VERSION "\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_daemon_defaults),
		cmocka_unit_test(test_daemon_every_option),
		cmocka_unit_test(test_daemon_bad_values),
		cmocka_unit_test(test_daemon_limits),
		cmocka_unit_test(test_daemon_bad_usage),
		cmocka_unit_test(test_daemon_help_version),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
