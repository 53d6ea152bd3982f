// SPDX-License-Identifier: GPL-2.0
/* Parsing for consumed tracepoints: names, tracefs formats, ftrace's line, the options. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "daemon/options.h"
#include "daemon/tracepoints.h"

/* the format file of the article's me_silly, as the 6.1 guest shows it */
static const char me_silly_format[] =
	"name: me_silly\nID: 1234\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long time;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long count;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"time=%lu count=%lu\", REC->time, REC->count\n";

static const char exec_format[] =
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n";

static void test_name_split(void **state)
{
	char sys[64], ev[64];
	(void)state;

	assert_int_equal(tp_name_split("silly:me_silly", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_string_equal(sys, "silly");
	assert_string_equal(ev, "me_silly");
	assert_int_not_equal(tp_name_split("silly", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_int_not_equal(tp_name_split(":me_silly", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_int_not_equal(tp_name_split("silly:", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_int_not_equal(tp_name_split("a:b:c", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_int_not_equal(tp_name_split("../x:y", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_int_not_equal(tp_name_split("bad-name", sys, sizeof(sys), ev, sizeof(ev)), 0);
}

static void test_format(void **state)
{
	struct tp_arg a[TP_MAX_ARGS];
	(void)state;

	assert_int_equal(tp_parse_format(me_silly_format, a, TP_MAX_ARGS), 2);
	assert_string_equal(a[0].name, "time");
	assert_string_equal(a[1].name, "count");
	assert_int_equal(a[1].kind, TP_ARG_UNSIGNED);
	assert_int_equal(a[1].size, 8);
	assert_int_equal(tp_parse_format(exec_format, a, TP_MAX_ARGS), 3);
	assert_string_equal(a[0].name, "filename");
	assert_int_equal(a[0].kind, TP_ARG_POINTER);
	assert_string_equal(a[1].name, "pid");
	assert_int_equal(a[1].kind, TP_ARG_SIGNED);
	assert_int_equal(a[1].size, 4);
	assert_string_equal(a[2].name, "comm");
	assert_int_equal(tp_parse_format(me_silly_format, a, 1), -E2BIG);
}

static void test_line(void **state)
{
	struct tracepoint t = { .nargs = 2 };
	struct tracepoint_event e = { .cpu = 0, .ts_ns = 1802845581123ull, .pid = 5377, .nargs = 2,
				      .args = { 4304842209ull, 10 } };
	char line[256];
	(void)state;

	snprintf(t.event, sizeof(t.event), "me_silly");
	snprintf(t.args[0].name, sizeof(t.args[0].name), "time");
	snprintf(t.args[1].name, sizeof(t.args[1].name), "count");
	t.args[0].size = t.args[1].size = 8;
	memcpy(e.comm, "silly-thread", 13);
	tp_format_line(line, sizeof(line), &t, &e);
	assert_string_equal(line, "    silly-thread-5377    [000]  1802.845581: me_silly: time=4304842209 count=10");
	/* a negative int argument, sign-extended into the 64-bit slot */
	t.args[1].kind = TP_ARG_SIGNED;
	t.args[1].size = 4;
	e.args[1] = 0xffffffffull;
	tp_format_line(line, sizeof(line), &t, &e);
	assert_non_null(strstr(line, " count=-1"));
}

static void test_options(void **state)
{
	struct daemon_config c;
	char *argv[] = { "irqlatd", "--tracepoint-period", "silly:me_silly=250ms", "--tracepoint", "silly:me_silly",
			 "--tracepoint", "irq:softirq_raise", "--tracepoint-counter", "irq:softirq_raise=vec", NULL };
	char *none[] = { "irqlatd", "--no-tracepoints", NULL };
	FILE *null = fopen("/dev/null", "w");
	uint64_t ns;
	(void)state;

	daemon_config_defaults(&c);
	assert_int_equal(c.ntracepoints, 1);
	assert_string_equal(c.tracepoints[0].name, DEFAULT_TRACEPOINT);
	assert_int_equal(daemon_options_parse(&c, 9, argv, null, null), 0);
	assert_int_equal(c.ntracepoints, 2);
	assert_int_equal(c.tracepoints[0].period_ns, 250000000ull);
	assert_string_equal(c.tracepoints[1].counter, "vec");
	daemon_config_defaults(&c);
	assert_int_equal(daemon_options_parse(&c, 2, none, null, null), 0);
	assert_int_equal(c.ntracepoints, 0);
	assert_int_equal(parse_duration_ns("1s", &ns), 0);
	assert_int_equal(ns, 1000000000ull);
	assert_int_not_equal(parse_duration_ns("1000", &ns), 0);
	assert_int_not_equal(parse_duration_ns("0ms", &ns), 0);
	assert_int_not_equal(parse_duration_ns("2h", &ns), 0);
	fclose(null);
}

static void feed(struct tp_set *s, uint64_t ts_ms, uint64_t count)
{
	struct tracepoint_event e = { .kind = RB_TRACEPOINT, .ts_ns = ts_ms * 1000000ull, .nargs = 2,
				      .args = { ts_ms, count } };

	tracepoints_handle(s, &e, sizeof(e));
}

static void setup_one(struct tp_set *s, struct tracepoint *t, uint64_t period_ns)
{
	memset(s, 0, sizeof(*s));
	memset(t, 0, sizeof(*t));
	s->tps = t;
	s->n = 1;
	t->state = TP_ATTACHED;
	t->nargs = 2;
	snprintf(t->args[0].name, sizeof(t->args[0].name), "time");
	snprintf(t->args[1].name, sizeof(t->args[1].name), "count");
	t->args[0].size = t->args[1].size = 8;
	t->counter_arg = 1;
	t->cfg.period_ns = t->period_ns = period_ns;
	t->estimate_left = 16;
}

static void test_gaps_and_lateness(void **state)
{
	struct tp_set s;
	struct tracepoint t;
	(void)state;

	setup_one(&s, &t, 100000000ull);
	feed(&s, 1000, 1);
	feed(&s, 1104, 2);	/* 4 ms late */
	feed(&s, 1208, 3);	/* 4 ms late */
	feed(&s, 1520, 6);	/* 4 and 5 missed: a gap, and no interval */
	feed(&s, 1640, 7);	/* 20 ms late */
	feed(&s, 1700, 0);	/* the module was reloaded: a reset, no interval */
	feed(&s, 1795, 1);	/* 5 ms early */
	assert_int_equal(t.events, 7);
	assert_int_equal(t.gaps, 1);
	assert_int_equal(t.missed, 2);
	assert_int_equal(t.counter_resets, 1);
	assert_int_equal(t.intervals, 4);
	assert_int_equal(t.early, 1);
	assert_int_equal(t.lateness.max_ns, 20000000ull);
	assert_int_equal(t.last_args[1], 1);
	/* the log-linear histogram is within one bucket (12.5%) of the exact median, 4 ms */
	uint64_t p50 = hist_quantile(&t.lateness, 0.5);
	assert_true(p50 >= 3500000 && p50 <= 4500000);
}

static void test_period_estimate(void **state)
{
	struct tp_set s;
	struct tracepoint t;
	uint64_t ts = 1000;
	(void)state;

	setup_one(&s, &t, 0);
	feed(&s, ts, 0);
	for (unsigned i = 1; i <= 20; i++) {
		ts += i == 7 ? 250 : 253;	/* the shortest interval, 250 ms, is the period */
		feed(&s, ts, i);
	}
	assert_int_equal(t.period_ns, 250000000ull);
	assert_int_equal(t.intervals, 20);	/* the 16 used for the estimate are counted too */
	assert_int_equal(t.lateness.max_ns, 3000000ull);
	assert_int_equal(t.early, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_split),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_gaps_and_lateness),
		cmocka_unit_test(test_period_estimate),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
