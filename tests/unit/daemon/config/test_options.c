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
#include "../../helpers/daemon_run.h"
#include <bpf/libbpf.h>
#include "daemon/config/options.h"

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
	assert_int_equal(c.threshold_ns[KIND_HARDIRQ], 100000);	/* 100 us */
	assert_int_equal(c.threshold_ns[KIND_SOFTIRQ], 500000);
	assert_int_equal(c.threshold_ns[KIND_SOFTIRQ_RAISE], 2000000);
	assert_int_equal(c.threshold_ns[KIND_VECTOR], 100000);
	assert_int_equal(c.disabled[KIND_SOFTIRQ], 0);
	assert_int_equal(c.disabled[KIND_VECTOR], 0);
	assert_int_equal(c.interval_ms, 1000);
	assert_string_equal(c.socket_path, "/run/irqlatd/irqlatd.sock");
	assert_int_equal(c.attach, ATTACH_AUTO);
	assert_int_equal(c.max_cells, 0);	/* derived from the CPU count */
	assert_int_equal(c.ringbuf_kb, 256);
	assert_int_equal(c.outlier_rate, 10);
	assert_int_equal(c.log_target, LOG_TARGET_AUTO);
	assert_int_equal(c.verbose, 0);
	/* max(1024, 32 x CPUs), and 49 a CPU for the softirqs' 2 x 10, the vectors' 10, 15 timer
	 * functions, 2 wake-up cells and 2 NMI handlers */
	assert_int_equal(default_max_cells(1, 512), 1024 + 49 + 512);
	assert_int_equal(default_max_cells(32, 512), 1024 + 32 * 49 + 512);
	assert_int_equal(default_max_cells(33, 0), 1056 + 33 * 49);
	assert_int_equal(default_max_cells(256, 512), 8192 + 256 * 49 + 512);
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
	assert_int_equal(c.threshold_ns[KIND_HARDIRQ], 250000);
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
	assert_int_equal(c.threshold_ns[KIND_HARDIRQ], 100000);
	assert_int_equal(c.threshold_ns[KIND_SOFTIRQ], 7000);
	assert_int_equal(c.threshold_ns[KIND_SOFTIRQ_RAISE], 0);
	assert_int_equal(c.threshold_ns[KIND_VECTOR], 9000);
	assert_int_equal(c.disabled[KIND_SOFTIRQ], 1);
	assert_int_equal(c.disabled[KIND_VECTOR], 1);
	assert_int_equal(c.threshold_ns[KIND_THREADED], 500000);	/* defaults */
	assert_int_equal(c.threshold_ns[KIND_THREADED_RUN], 1000000);
	assert_int_equal(c.disabled[KIND_THREADED], 0);
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
	assert_int_equal(c.threshold_ns[KIND_THREADED], 50000);
	assert_int_equal(c.threshold_ns[KIND_THREADED_RUN], 0);
	assert_int_equal(c.disabled[KIND_THREADED], 1);

	/* short forms, attached values, --opt=value */
	r = daemon_run(&c, "-t0", "-i", "10", "-s/tmp/b.sock", "-v", "--attach=tp_btf",
		       "--log-target=stderr", "--ringbuf-kb=4", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.threshold_ns[KIND_HARDIRQ], 0);	/* outliers off */
	assert_int_equal(c.interval_ms, 10);
	assert_string_equal(c.socket_path, "/tmp/b.sock");
	assert_int_equal(c.verbose, 1);
	assert_int_equal(c.attach, ATTACH_TP_BTF);
	assert_int_equal(c.log_target, LOG_TARGET_STDERR);
	assert_int_equal(c.ringbuf_kb, 4);
	r = daemon_run(&c, "-S", "/tmp/c.sock", NULL);	/* irqlat's letter for it too */
	assert_int_equal(r.rc, 0);
	assert_string_equal(c.socket_path, "/tmp/c.sock");

	/* the limits themselves are accepted */
	r = daemon_run(&c, "-t", "60000000", "-i", "60000", "--max-cells", "1048576", "--max-cells", "1",
		       "--ringbuf-kb", "1048576", "--outlier-rate", "1000000", "--attach", "auto", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.threshold_ns[KIND_HARDIRQ], 60000000ull * 1000);
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
	/* a contradiction is one line, whatever the order (exit 2: main's CONFIG_COMMAND_LINE) */
	r = daemon_run(&c, "--no-tracepoints", "--tracepoint", "sched:sched_switch", NULL);
	assert_usage_error(&r, "--no-tracepoints and --tracepoint sched:sched_switch contradict each other", "give one of them");
	r = daemon_run(&c, "--tracepoint", "sched:sched_switch", "--no-tracepoints", NULL);
	assert_usage_error(&r, "--no-tracepoints and --tracepoint sched:sched_switch", NULL);
}

/* Every kind's keys by their regular names, KIND-threshold-us and no-KIND, and by the older
 * spellings; what each no-KIND turns off (config_kind_on). The reference is irqlatd(8)'s list. */
static void test_daemon_kind_keys(void **state)
{
	static const struct {
		const char *regular, *alias;
		enum lat_kind kind;
	} thresholds[] = {
		{ "--hardirq-threshold-us", "--threshold-us", KIND_HARDIRQ },
		{ "--softirq-threshold-us", NULL, KIND_SOFTIRQ },
		{ "--softirq-raise-threshold-us", NULL, KIND_SOFTIRQ_RAISE },
		{ "--vector-threshold-us", NULL, KIND_VECTOR },
		{ "--timer-threshold-us", NULL, KIND_TIMER },
		{ "--wakeup-threshold-us", NULL, KIND_WAKEUP },
		{ "--threaded-threshold-us", NULL, KIND_THREADED },
		{ "--threaded-run-threshold-us", NULL, KIND_THREADED_RUN },
		{ "--nmi-threshold-us", NULL, KIND_NMI },
	};
	/* each key, and the kinds it leaves on: hard IRQs always */
	static const struct {
		const char *regular, *alias;
		const char *on;		/* config_kind_on() of every kind, in enum order */
	} disables[] = {
		{ "--no-softirq", "--no-softirqs", "1001111111" },
		{ "--no-vector", "--no-vectors", "1110111111" },
		{ "--no-timer", "--no-timers", "1111000111" },
		{ "--no-wakeup", "--no-wakeups", "1111100111" },
		{ "--no-threaded", NULL, "1111111001" },
		{ "--no-nmi", NULL, "1111111110" },
	};
	struct daemon_config c;
	struct run r;
	char on[KINDS + 1];

	(void)state;
	for (unsigned i = 0; i < sizeof(thresholds) / sizeof(thresholds[0]); i++)
		for (unsigned a = 0; a < 2; a++) {
			const char *key = a ? thresholds[i].alias : thresholds[i].regular;

			if (!key)
				continue;
			r = daemon_run(&c, key, "17", NULL);
			assert_int_equal(r.rc, 0);
			for (unsigned k = 0; k < KINDS; k++)
				if (k == thresholds[i].kind)
					assert_int_equal(c.threshold_ns[k], 17000);
				else
					assert_true(c.threshold_ns[k] != 17000);
		}
	r = daemon_run(&c, NULL);
	for (unsigned k = 0; k < KINDS; k++)
		assert_true(config_kind_on(&c, k));
	assert_int_equal(c.threshold_ns[KIND_WAKEUP_CPU], 0);	/* no key: the task's own cell has the outliers */
	for (unsigned i = 0; i < sizeof(disables) / sizeof(disables[0]); i++)
		for (unsigned a = 0; a < 2; a++) {
			const char *key = a ? disables[i].alias : disables[i].regular;

			if (!key)
				continue;
			r = daemon_run(&c, key, NULL);
			assert_int_equal(r.rc, 0);
			for (unsigned k = 0; k < KINDS; k++)
				on[k] = config_kind_on(&c, k) ? '1' : '0';
			on[KINDS] = 0;
			if (strcmp(on, disables[i].on))
				fail_msg("%s: kinds on %s, not %s", key, on, disables[i].on);
		}
	r = daemon_run(&c, "--no-timer", "--no-softirqs", NULL);
	for (unsigned k = 0; k < KINDS; k++)
		on[k] = config_kind_on(&c, k) ? '1' : '0';
	assert_string_equal(on, "1001000111");
	/* a refusal names the key as it was written */
	r = daemon_run(&c, "--softirq-raise-threshold-us", "x", NULL);
	assert_usage_error(&r, "--softirq-raise-threshold-us takes a whole number", "'x'");
	r = daemon_run(&c, "-t", "x", NULL);
	assert_usage_error(&r, "--threshold-us takes a whole number", "'x'");
	r = daemon_run(&c, "--hardirq-threshold-us", "x", NULL);
	assert_usage_error(&r, "--hardirq-threshold-us takes a whole number", "'x'");
	r = daemon_run(&c, "--no-wakeup=yes", NULL);
	assert_usage_error(&r, "unknown option", "--no-wakeup=yes");
	r = daemon_run(&c, "--wakeup-cpu-threshold-us", "5", NULL);	/* a kind without outliers of its own */
	assert_usage_error(&r, "unknown option", "--wakeup-cpu-threshold-us");
	r = daemon_run(&c, "--no-hardirq", NULL);
	assert_usage_error(&r, "unknown option", "--no-hardirq");
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
					     "--hardirq-threshold-us", "--timer-threshold-us", "--wakeup-threshold-us",
					     "--no-softirq ", "--no-vector ", "--no-timer ", "--no-wakeup ", "--no-timers", "--no-wakeups",
					     "--max-wakeup-cells",
					     "--max-cells", "--ringbuf-kb", "--outlier-rate", "--log-target",
					     "--outlier-cap", "--log-wakeups", "--log-idle", "--log-tasks", "--exited-task-grace-s",
					     "--metrics-cpu-label",
					     "--verbose", "--help", "--version" };
	for (unsigned i = 0; i < sizeof(every) / sizeof(every[0]); i++)
		if (!strstr(r.out, every[i]))
			fail_msg("--help does not mention %s", every[i]);
	/* --max-cells' default as the daemon computes it: on the CPUs libbpf counts */
	char cells[96];

	snprintf(cells, sizeof(cells), "--max-wakeup-cells: %u on this machine)",
		 default_max_cells((unsigned)libbpf_num_possible_cpus(), MAX_WAKEUP_CELLS_DEFAULT));
	if (!strstr(r.out, cells))
		fail_msg("--help does not give --max-cells' default as '%s'", cells);
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
		cmocka_unit_test(test_daemon_kind_keys),
		cmocka_unit_test(test_daemon_help_version),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
