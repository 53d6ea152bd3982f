// SPDX-License-Identifier: GPL-2.0
/* KIND-on-threshold (src/daemon/config/on_threshold.c): rtla's action list, each kind's key on
 * the command line (a bad value: exit 2, one line naming the key) and in the file (exit 78,
 * naming file, line and key). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "../../helpers/daemon_run.h"
#include "daemon/config/config_build.h"
#include "daemon/config/options.h"
#include "daemon/config/on_threshold.h"

static void test_parse_each_action(void **state)
{
	struct on_threshold a;
	char why[160];

	(void)state;
	assert_int_equal(on_threshold_parse("trace", &a, why, sizeof(why)), 0);
	assert_int_equal(a.actions, ACTION_TRACE);
	assert_int_equal(on_threshold_parse("signal,num=10,pid=42", &a, why, sizeof(why)), 0);
	assert_int_equal(a.actions, ACTION_SIGNAL);
	assert_int_equal(a.signal, 10);
	assert_int_equal(a.pid, 42);
	assert_int_equal(on_threshold_parse("signal,pid=parent,num=2", &a, why, sizeof(why)), 0);
	assert_int_equal(a.pid, ON_THRESHOLD_PARENT);
	assert_int_equal(a.signal, SIGINT);
	assert_int_equal(on_threshold_parse("continue", &a, why, sizeof(why)), 0);
	assert_int_equal(a.actions, ACTION_CONTINUE);
	/* the command is the rest of the value, commas and equals signs included */
	assert_int_equal(on_threshold_parse("shell,command=echo a,b=c >/tmp/x", &a, why, sizeof(why)), 0);
	assert_int_equal(a.actions, ACTION_SHELL);
	assert_string_equal(a.command, "echo a,b=c >/tmp/x");
	assert_int_equal(on_threshold_parse("none", &a, why, sizeof(why)), 0);
	assert_int_equal(a.actions, 0);
	assert_int_equal(on_threshold_parse("", &a, why, sizeof(why)), 0);
	assert_int_equal(a.actions, 0);
}

static void test_parse_several(void **state)
{
	struct on_threshold a;
	char why[160], back[700];

	(void)state;
	assert_int_equal(on_threshold_parse("trace,signal,num=12,pid=7,continue,shell,command=logger -t x late", &a, why,
					    sizeof(why)), 0);
	assert_int_equal(a.actions, ACTION_TRACE | ACTION_SIGNAL | ACTION_CONTINUE | ACTION_SHELL);
	assert_int_equal(a.signal, 12);
	assert_int_equal(a.pid, 7);
	assert_string_equal(a.command, "logger -t x late");
	on_threshold_format(back, sizeof(back), &a);
	assert_string_equal(back, "trace,signal,num=12,pid=7,continue,shell,command=logger -t x late");
}

static void refused(const char *value, const char *word)
{
	struct on_threshold a;
	char why[160] = "";

	if (on_threshold_parse(value, &a, why, sizeof(why)) != -EINVAL)
		fail_msg("'%s' was taken", value);
	if (!strstr(why, word))
		fail_msg("'%s': \"%s\" does not say %s", value, why, word);
	assert_null(strchr(why, '\n'));
}

static void test_parse_refusals(void **state)
{
	(void)state;
	refused("bogus", "no action 'bogus'");
	refused("trace,", "empty");
	refused(",trace", "empty");
	refused("trace,file=x", "no action 'file=x'");
	refused("signal", "num=N and pid=P");
	refused("signal,num=10", "num=N and pid=P");
	refused("signal,pid=3", "num=N and pid=P");
	refused("signal,num=0,pid=3", "from 1 to 64");
	refused("signal,num=65,pid=3", "from 1 to 64");
	refused("signal,num=x,pid=3", "from 1 to 64");
	refused("signal,num=9,pid=0", "pid from 1");
	refused("signal,num=9,pid=grandparent", "pid from 1");
	refused("signal,num=9,pid=3,trace,signal,num=1,pid=1", "twice");
	refused("signal,num=9,sig=3", "num=N and pid=P");
	refused("shell", "command=");
	refused("shell,trace", "command=");
	refused("shell,cmd=ls", "command=CMD");
	refused("shell,command=", "1 to 511");
	refused("trace,trace", "twice");
}

static void test_long_command(void **state)
{
	char v[700], why[160];
	struct on_threshold a;

	(void)state;
	snprintf(v, sizeof(v), "shell,command=%0511d", 0);	/* 511 bytes: the longest */
	assert_int_equal(on_threshold_parse(v, &a, why, sizeof(why)), 0);
	assert_int_equal(strlen(a.command), 511);
	snprintf(v, sizeof(v), "shell,command=%0512d", 0);
	assert_int_equal(on_threshold_parse(v, &a, why, sizeof(why)), -EINVAL);
}

static void test_command_line(void **state)
{
	struct daemon_config c;
	struct run r;

	(void)state;
	r = daemon_run(&c, NULL);
	assert_int_equal(r.rc, 0);
	for (unsigned k = 0; k < KINDS; k++)
		assert_int_equal(c.on_threshold[k].actions, 0);
	assert_int_equal(c.capture_budget_kb, 65536);	/* 64 MiB */
	assert_int_equal(c.trace_buffer_kb, 1024);
	assert_int_equal(c.action_interval_ms, 1000);
	r = daemon_run(&c, "--hardirq-on-threshold", "trace", "--timer-on-threshold=shell,command=true",
		       "--capture-budget-kb", "128", "--trace-buffer-kb", "64", "--action-interval-ms", "50", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(c.on_threshold[KIND_HARDIRQ].actions, ACTION_TRACE);
	assert_int_equal(c.on_threshold[KIND_TIMER].actions, ACTION_SHELL);
	assert_string_equal(c.on_threshold[KIND_TIMER].command, "true");
	assert_int_equal(c.on_threshold[KIND_SOFTIRQ].actions, 0);
	assert_int_equal(c.capture_budget_kb, 128);
	assert_int_equal(c.trace_buffer_kb, 64);
	assert_int_equal(c.action_interval_ms, 50);

	r = daemon_run(&c, "--softirq-on-threshold", "trace,bogus", NULL);
	assert_refused(&r, EXIT_USAGE, "--softirq-on-threshold", "'bogus'");
	r = daemon_run(&c, "--hardirq-on-threshold", NULL);
	assert_refused(&r, EXIT_USAGE, "--hardirq-on-threshold", NULL);
	r = daemon_run(&c, "--capture-budget-kb", "10", NULL);
	assert_refused(&r, EXIT_USAGE, "--capture-budget-kb", "'10'");
	r = daemon_run(&c, "--trace-buffer-kb", "lots", NULL);
	assert_refused(&r, EXIT_USAGE, "--trace-buffer-kb", "'lots'");
	r = daemon_run(&c, "--action-interval-ms", "0", NULL);
	assert_refused(&r, EXIT_USAGE, "--action-interval-ms", "'0'");
}

static char path[] = "/tmp/irqlat-test-on-threshold.XXXXXX";

static int file_run(struct daemon_config *c, const char *text, char *err, size_t len)
{
	char *argv[] = { (char *)"irqlatd", (char *)"-c", path, NULL };
	struct config_error e;
	FILE *f = fopen(path, "w"), *of = fopen("/dev/null", "w");
	int r;

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	r = config_build(c, 3, argv, of, &e);
	fclose(of);
	snprintf(err, len, "%s", r < 0 ? e.text : "");
	return r == 0 ? 0 : e.source == CONFIG_FILE ? EXIT_CONFIG : EXIT_USAGE;
}

static void test_file(void **state)
{
	struct daemon_config c;
	char err[512], want[128];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(file_run(&c, "vector-on-threshold = signal,num=10,pid=parent,trace\ncapture-budget-kb = 1024\n",
				  err, sizeof(err)), 0);
	assert_int_equal(c.on_threshold[KIND_VECTOR].actions, ACTION_SIGNAL | ACTION_TRACE);
	assert_int_equal(c.on_threshold[KIND_VECTOR].pid, ON_THRESHOLD_PARENT);
	assert_int_equal(c.capture_budget_kb, 1024);
	assert_int_equal(file_run(&c, "# ok\nwakeup-on-threshold = signal,num=10\n", err, sizeof(err)), EXIT_CONFIG);
	snprintf(want, sizeof(want), "%s:2: wakeup-on-threshold: ", path);
	if (strncmp(err, want, strlen(want)) || !strstr(err, "num=N and pid=P") || strchr(err, '\n'))
		fail_msg("\"%s\"", err);
	assert_int_equal(file_run(&c, "capture-budget-kb = huge\n", err, sizeof(err)), EXIT_CONFIG);
	assert_non_null(strstr(err, "capture-budget-kb"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_each_action),
		cmocka_unit_test(test_parse_several),
		cmocka_unit_test(test_parse_refusals),
		cmocka_unit_test(test_long_command),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_file),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
