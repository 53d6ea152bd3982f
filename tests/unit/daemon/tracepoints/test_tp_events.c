// SPDX-License-Identifier: GPL-2.0
/* tp_events.c: ftrace's line, argument values by type, gaps, lateness, the period estimate. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "../tp_fixture.h"

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

/* the JSON value of a raw 64-bit slot, by the argument's C type */
static void test_arg_json(void **state)
{
	struct tp_arg s32 = { .kind = TP_ARG_SIGNED, .size = 4 }, u16 = { .kind = TP_ARG_UNSIGNED, .size = 2 },
		      ptr = { .kind = TP_ARG_POINTER, .size = 8 };
	json_object *v;
	(void)state;

	v = tp_arg_json(&s32, 0xfffffffeull);
	assert_int_equal(json_object_get_int64(v), -2);
	json_object_put(v);
	v = tp_arg_json(&u16, 0x12345ull);	/* the bits past its 2 bytes are not its own */
	assert_int_equal(json_object_get_uint64(v), 0x2345);
	json_object_put(v);
	v = tp_arg_json(&ptr, 0xffff888000001000ull);
	assert_string_equal(json_object_get_string(v), "0xffff888000001000");
	json_object_put(v);
}

static void test_gaps_and_lateness(void **state)
{
	struct tp_set s;
	struct tracepoint t;
	(void)state;

	tp_fixture_one(&s, &t, 100000000ull);
	tp_fixture_feed(&s, 1000, 1);
	tp_fixture_feed(&s, 1104, 2);	/* 4 ms late */
	tp_fixture_feed(&s, 1208, 3);	/* 4 ms late */
	tp_fixture_feed(&s, 1520, 6);	/* 4 and 5 missed: a gap, and no interval */
	tp_fixture_feed(&s, 1640, 7);	/* 20 ms late */
	tp_fixture_feed(&s, 1700, 0);	/* the module was reloaded: a reset, no interval */
	tp_fixture_feed(&s, 1795, 1);	/* 5 ms early */
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

	tp_fixture_one(&s, &t, 0);
	tp_fixture_feed(&s, ts, 0);
	for (unsigned i = 1; i <= 20; i++) {
		ts += i == 7 ? 250 : 253;	/* the shortest interval, 250 ms, is the period */
		tp_fixture_feed(&s, ts, i);
	}
	assert_int_equal(t.period_ns, 250000000ull);
	assert_int_equal(t.intervals, 20);	/* the 16 used for the estimate are counted too */
	assert_int_equal(t.lateness.max_ns, 3000000ull);
	assert_int_equal(t.early, 0);
}

/* two tracepoints estimating at once, their events interleaved, keep their own intervals */
static void feed_to(struct tp_set *s, uint32_t tp_id, uint64_t ts_ms, uint64_t count)
{
	struct tracepoint_event e = { .kind = RB_TRACEPOINT, .tp_id = tp_id, .ts_ns = ts_ms * 1000000ull,
				      .nargs = 2, .args = { ts_ms, count } };

	assert_int_equal(tracepoints_handle(s, &e, sizeof(e)), 0);
}

static void test_period_estimate_two(void **state)
{
	struct tracepoint tps[2];
	struct tp_set s;
	(void)state;

	tp_fixture_one(&s, &tps[0], 0);
	tps[1] = tps[0];
	s.tps = tps;
	s.n = 2;
	for (unsigned i = 0; i <= 16; i++) {
		feed_to(&s, 0, 1000 + 100 * i, i);			/* every 100 ms */
		feed_to(&s, 1, 1000 + 120 * i - (i >= 5 ? 10 : 0), i);	/* 120 ms, once 110 */
	}
	assert_int_equal(tps[0].period_ns, 100000000ull);
	assert_int_equal(tps[1].period_ns, 110000000ull);
	assert_int_equal(tps[0].intervals, 16);
	assert_int_equal(tps[1].intervals, 16);
	assert_int_equal(tps[0].lateness.max_ns, 0);
	assert_int_equal(tps[1].lateness.max_ns, 10000000ull);
}

static void test_bad_records(void **state)
{
	struct tracepoint_event e = { .kind = RB_TRACEPOINT, .tp_id = 1, .nargs = 2 };
	struct tp_set s;
	struct tracepoint t;
	(void)state;

	tp_fixture_one(&s, &t, 0);
	assert_int_equal(tracepoints_handle(&s, &e, sizeof(e)), -EBADMSG);	/* no tracepoint 1 */
	e.tp_id = 0;
	assert_int_equal(tracepoints_handle(&s, &e, sizeof(e) - 1), -EBADMSG);
	assert_int_equal(t.events, 0);
	assert_int_equal(tracepoints_handle(&s, &e, sizeof(e)), 0);
	assert_int_equal(t.events, 1);
}

/* the journal rate limit: journal_rate entries a second, then one entry saying how many more;
 * "off" writes none */
static void test_journal_limit(void **state)
{
	struct tp_set s;
	struct tracepoint t;
	char *log;
	(void)state;

	struct daemon_config cfg;

	daemon_config_defaults(&cfg);
	cfg.tracepoint_rate = 5;
	tp_fixture_one(&s, &t, 0);
	s.cfg = &cfg;
	t.cfg.journal = TP_JOURNAL_INFO;
	tp_capture_begin();
	for (unsigned i = 0; i < 30; i++)	/* 30 in the second from 1 s */
		tp_fixture_feed(&s, 1000 + 10 * i, i);
	tp_fixture_feed(&s, 2500, 30);	/* the next second: the 25 are said first */
	tp_journal_flush(&s, UINT64_MAX);
	log = tp_capture_end();
	assert_int_equal(tp_count(log, "tracepoint silly:me_silly on CPU 0"), 6);
	assert_int_equal(tp_count(log, "tracepoint silly:me_silly: 25 more events in one second not journaled one by one (limit 5 a second"), 1);
	assert_int_equal(tp_count(log, "more event"), 1);
	assert_int_equal(t.events, 31);	/* counted all the same */
	free(log);

	t.cfg.journal = TP_JOURNAL_OFF;
	tp_capture_begin();
	for (unsigned i = 0; i < 30; i++)
		tp_fixture_feed(&s, 5000 + 10 * i, i);
	tp_journal_flush(&s, UINT64_MAX);
	log = tp_capture_end();
	assert_string_equal(log, "");
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_arg_json),
		cmocka_unit_test(test_gaps_and_lateness),
		cmocka_unit_test(test_period_estimate),
		cmocka_unit_test(test_period_estimate_two),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_journal_limit),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
