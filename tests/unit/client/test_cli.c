// SPDX-License-Identifier: GPL-2.0
/* irqlat's command line (cli_parse): defaults, every option in its short and long forms, bad
 * values (-EINVAL, for exit 2, and one line naming the option), --help/--version, and
 * subcommands with options before and after them; --since's times. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../helpers/cmdline.h"
#include "client/cli.h"
#include "client/table.h"
#include "common/util.h"

/* refused: main() exits 2 on -EINVAL */
#define assert_usage_error(r, word1, word2) assert_refused(r, -EINVAL, word1, word2)

static struct run cli_run(struct cli *c, ...)
{
	char *argv[MAXARGS];
	struct run r;
	FILE *out, *err;
	va_list ap;
	int argc;

	va_start(ap, c);
	argc = make_argv(argv, "irqlat", ap);
	va_end(ap);
	capture_begin(&out, &err, &r);
	r.rc = cli_parse(c, argc, argv, out, err);
	capture_end(out, err);
	return r;
}

static void test_cli_defaults(void **state)
{
	struct cli c;
	struct run r = cli_run(&c, NULL);

	(void)state;
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.cmd, CMD_TOP);
	assert_int_equal(c.batch, 0);
	assert_int_equal(c.iterations, 0);
	assert_float_equal(c.delay_s, 1, 0);
	assert_int_equal(c.json, 0);
	assert_int_equal(c.follow, 0);
	assert_string_equal(c.socket_path, "/run/irqlatd/irqlatd.sock");
	assert_string_equal(c.window, "10s");
	/* what costs the CPUs most first: the share of time, not a percentile of a few runs */
	assert_string_equal(c.sort, "time");
	assert_int_equal(c.reverse, 0);
	assert_null(c.columns);
	assert_null(c.cpus);
	assert_null(c.target);
	assert_int_equal(c.max_answer_mb, 64);
}

static void test_cli_every_option(void **state)
{
	struct cli c;
	struct run r;

	(void)state;
	r = cli_run(&c, "--top", "--batch", "--iterations", "3", "--delay", "0.5", "--json", "--window", "60s",
		    "--sort", "rate", "--reverse", "--output", "irq,name,p999", "--cpus", "0-3,8", "--socket", "/tmp/s", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.cmd, CMD_TOP);
	assert_int_equal(c.batch, 1);
	assert_int_equal(c.iterations, 3);
	assert_float_equal(c.delay_s, 0.5, 0);
	assert_int_equal(c.json, 1);
	assert_string_equal(c.window, "60s");
	assert_string_equal(c.sort, "rate");
	assert_int_equal(c.reverse, 1);
	assert_string_equal(c.columns, "irq,name,p999");
	assert_string_equal(c.cpus, "0-3,8");
	assert_string_equal(c.socket_path, "/tmp/s");

	r = cli_run(&c, "-t", "-b", "-n1", "-d", "0.05", "-J", "-w", "total", "-s", "name", "-R",
		    "-o", "spurious", "-C", "1", "-S", "/tmp/t", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.batch, 1);
	assert_int_equal(c.iterations, 1);
	assert_float_equal(c.delay_s, 0.05, 0);
	assert_int_equal(c.json, 1);
	assert_string_equal(c.window, "total");
	assert_string_equal(c.sort, "name");
	assert_int_equal(c.reverse, 1);
	assert_string_equal(c.columns, "spurious");
	assert_string_equal(c.cpus, "1");
	assert_string_equal(c.socket_path, "/tmp/t");

	r = cli_run(&c, "events", "--follow", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.cmd, CMD_EVENTS);
	assert_int_equal(c.follow, 1);
	r = cli_run(&c, "-f", "events", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.follow, 1);

	/* every column and every sort key the help lists is accepted */
	char all[256];

	table_column_names(all, sizeof(all));
	r = cli_run(&c, "-o", all, NULL);
	assert_int_equal(r.rc, 0);
	static const char *const keys[] = { "p99", "max", "rate", "count", "time", "irq", "name" };
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		r = cli_run(&c, "--sort", keys[i], NULL);
		assert_int_equal(r.rc, 0);
	}
}

static void test_cli_subcommands(void **state)
{
	struct cli c;
	struct run r;

	(void)state;
	r = cli_run(&c, "top", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.cmd, CMD_TOP);
	r = cli_run(&c, "status", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.cmd, CMD_STATUS);
	r = cli_run(&c, "events", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.cmd, CMD_EVENTS);
	r = cli_run(&c, "hist", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.cmd, CMD_HIST);
	assert_null(c.target);

	/* options before, after and between the command and its operand (GNU permutation) */
	r = cli_run(&c, "-J", "-w", "1s", "hist", "25", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.cmd, CMD_HIST);
	assert_string_equal(c.target, "25");
	assert_int_equal(c.json, 1);
	assert_string_equal(c.window, "1s");
	r = cli_run(&c, "hist", "virtio1-req.0", "--json", "--socket", "/tmp/u", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.cmd, CMD_HIST);
	assert_string_equal(c.target, "virtio1-req.0");
	assert_int_equal(c.json, 1);
	assert_string_equal(c.socket_path, "/tmp/u");
	r = cli_run(&c, "hist", "-w", "total", "i8042", "-J", NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(c.target, "i8042");
	assert_string_equal(c.window, "total");
	assert_int_equal(c.json, 1);
	r = cli_run(&c, "status", "-J", "-S", "/tmp/v", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.cmd, CMD_STATUS);
	assert_int_equal(c.json, 1);
	assert_string_equal(c.socket_path, "/tmp/v");
	/* "--" ends the options: a name that looks like one */
	r = cli_run(&c, "hist", "--", "-weird-", NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(c.target, "-weird-");
}

static void test_cli_bad(void **state)
{
	struct cli c;
	struct run r;

	(void)state;
	r = cli_run(&c, "--iterations", "0", NULL);
	assert_usage_error(&r, "--iterations", "'0'");
	r = cli_run(&c, "-n", "many", NULL);
	assert_usage_error(&r, "--iterations", "'many'");
	r = cli_run(&c, "--delay", "0.01", NULL);
	assert_usage_error(&r, "--delay", "'0.01'");
	r = cli_run(&c, "-d", "abc", NULL);
	assert_usage_error(&r, "--delay", "'abc'");
	r = cli_run(&c, "-d", "nan", NULL);
	assert_usage_error(&r, "--delay", "'nan'");
	r = cli_run(&c, "-d", "3601", NULL);
	assert_usage_error(&r, "--delay", "'3601'");
	r = cli_run(&c, "--window", "5s", NULL);
	assert_usage_error(&r, "--window", "'5s'");
	r = cli_run(&c, "--max-answer-mb", "0", NULL);
	assert_usage_error(&r, "--max-answer-mb", "'0'");
	r = cli_run(&c, "--max-answer-mb", "4097", NULL);
	assert_usage_error(&r, "--max-answer-mb", "'4097'");
	r = cli_run(&c, "status", "--max-answer-mb", "1", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.max_answer_mb, 1);
	r = cli_run(&c, "--sort", "bogus", NULL);
	assert_usage_error(&r, "--sort", "'bogus'");
	/* a newline in a value is quoted back escaped: still one line */
	r = cli_run(&c, "--window", "1s\nx", NULL);
	assert_usage_error(&r, "--window", "'1s\\nx'");
	r = cli_run(&c, "frob\nnicate", NULL);
	assert_usage_error(&r, "unknown command", "'frob\\nnicate'");
	r = cli_run(&c, "-o", "irq,bogus", NULL);
	assert_usage_error(&r, "column", "'bogus'");
	/* -C: the kernel's CPU list syntax, nothing else, not empty */
	static const char *const bad_cpus[] = { "", "x", "1-", "-1", "3-1", "1,,2", "1;2", "0x1", "1 2", "1,",
		"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26" };
	for (unsigned i = 0; i < sizeof(bad_cpus) / sizeof(bad_cpus[0]); i++) {
		char quoted[128];

		snprintf(quoted, sizeof(quoted), "'%s'", bad_cpus[i]);
		r = cli_run(&c, "--cpus", bad_cpus[i], NULL);
		assert_usage_error(&r, "--cpus", quoted);
	}
	/* a CPU the machine lacks (here 0-15, its kernel's list of possible CPUs) */
	r = cli_run(&c, "--cpus", "0,16", NULL);
	assert_usage_error(&r, "CPU 16 does not exist", "this machine's CPUs are 0-15");
	r = cli_run(&c, "hist", "LOC", "-C", "99", NULL);
	assert_usage_error(&r, "CPU 99 does not exist", "0-15");
	r = cli_run(&c, "-C", "15", NULL);
	assert_int_equal(r.rc, 0);
	r = cli_run(&c, "--no-such", NULL);
	assert_usage_error(&r, "unknown option", "--no-such");
	r = cli_run(&c, "hist", "-Jq", NULL);
	assert_usage_error(&r, "unknown option", "'-q'");
	r = cli_run(&c, "--json", "-qJ", NULL);
	assert_usage_error(&r, "unknown option", "'-q'");
	r = cli_run(&c, "--window", NULL);
	assert_usage_error(&r, "--window", "needs a value");
	r = cli_run(&c, "frobnicate", NULL);
	assert_usage_error(&r, "unknown command", "'frobnicate'");
	r = cli_run(&c, "hist", "25", "26", NULL);
	assert_usage_error(&r, "unexpected argument", "'26'");
	r = cli_run(&c, "status", "25", NULL);
	assert_usage_error(&r, "unexpected argument", "'25'");
}

static void test_cli_help_version(void **state)
{
	struct cli c;
	struct run r;

	(void)state;
	r = cli_run(&c, "--help", NULL);
	assert_int_equal(r.rc, 1);	/* exit 0 */
	assert_non_null(strstr(r.out, "Usage: irqlat"));
	char all[256];

	table_column_names(all, sizeof(all));
	assert_non_null(strstr(r.out, all));
	r = cli_run(&c, "hist", "-h", NULL);
	assert_int_equal(r.rc, 1);	/* exit 0 */
	r = cli_run(&c, "-V", NULL);
	assert_int_equal(r.rc, 1);	/* exit 0 */
	assert_string_equal(r.out, "irqlat " IRQLAT_VERSION "\n");
}

/* --since: a time ago, @EPOCH, a date (here in UTC); nothing past what ns in a uint64_t hold */
static void test_cli_since(void **state)
{
	const uint64_t now = 1700000000ull * 1000000000ull;
	uint64_t ns;
	(void)state;

	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(cli_parse_since("30s", now, &ns), 0);
	assert_true(ns == now - 30000000000ull);
	assert_int_equal(cli_parse_since("@1600000000.5", now, &ns), 0);
	assert_true(ns == 1600000000500000000ull);
	assert_int_equal(cli_parse_since("2024-01-02 03:04:05", now, &ns), 0);
	assert_true(ns == 1704164645ull * 1000000000ull);	/* date -u -d '2024-01-02 03:04:05' +%s */
	assert_int_equal(cli_parse_since("2286-11-20T17:46:39", now, &ns), 0);	/* @9999999999 */
	/* 3.4e19 ns and the year 9999 overflowed a uint64_t (UBSan: float-cast-overflow) */
	assert_int_equal(cli_parse_since("@34000000000", now, &ns), -EINVAL);
	assert_int_equal(cli_parse_since("@10000000000", now, &ns), -EINVAL);
	assert_int_equal(cli_parse_since("9999-01-01 00:00", now, &ns), -EINVAL);
	assert_int_equal(cli_parse_since("@0", now, &ns), -EINVAL);
	assert_int_equal(cli_parse_since("@nan", now, &ns), -EINVAL);
	assert_int_equal(cli_parse_since("30x", now, &ns), -EINVAL);
}

int main(void)
{
	/* a 16-CPU machine, whatever this one has: -C 0-3,8 exists there */
	static char possible[] = "/tmp/irqlat-test-possible.XXXXXX";
	int fd = mkstemp(possible);

	if (fd < 0 || write(fd, "0-15\n", 5) != 5)
		return 1;
	close(fd);
	cli_possible_cpus = possible;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli_defaults),
		cmocka_unit_test(test_cli_every_option),
		cmocka_unit_test(test_cli_subcommands),
		cmocka_unit_test(test_cli_bad),
		cmocka_unit_test(test_cli_help_version),
		cmocka_unit_test(test_cli_since),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	unlink(possible);
	return r;
}
