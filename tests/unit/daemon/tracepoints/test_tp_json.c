// SPDX-License-Identifier: GPL-2.0
/* tp_json.c: the summary of a tracepoint, the detach/attach requests that change nothing in
 * the kernel (refusals, unknown names, detaching what is not attached, an attach that cannot
 * happen), and what metrics.c reads. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "common/json.h"
#include "daemon/base/log.h"
#include "../tp_fixture.h"
#include "daemon/tracepoints/tp_json.h"

static json_object *request(struct tp_set *s, const char *cmd, const char *tracepoint, long uid)
{
	_cleanup_json_ json_object *req = json_object_new_object();

	json_object_object_add(req, "cmd", json_object_new_string(cmd));
	if (tracepoint)
		json_object_object_add(req, "tracepoint", json_object_new_string(tracepoint));
	return tracepoints_request(s, cmd, req, uid);
}

static void assert_refused(json_object *reply, const char *error)
{
	assert_false(json_get_i64(reply, "ok", 1));
	assert_string_equal(json_get_str(reply, "error", ""), error);
	json_object_put(reply);
}

static void test_summary(void **state)
{
	struct tp_set s;
	struct tracepoint t;
	_cleanup_json_ json_object *arr = NULL;
	json_object *o, *last;
	(void)state;

	tp_fixture_one(&s, &t, 100000000ull);
	for (unsigned i = 0; i < 5; i++)
		tp_fixture_feed(&s, 1000 + 100 * i, i + 1);	/* 5 in the first second */
	s.tick = 1;
	for (unsigned i = 5; i < 8; i++)
		tp_fixture_feed(&s, 1000 + 100 * i, i + 1);	/* 3 in the second */
	s.tick = 2;
	tp_fixture_feed(&s, 1800, 9);	/* in the second being filled: not in the rate */
	t.rate_ticks = 2;
	snprintf(t.error, sizeof(t.error), "an old failure");	/* attached: not shown */

	arr = tracepoints_json(&s);
	assert_int_equal(json_object_array_length(arr), 1);
	o = json_object_array_get_idx(arr, 0);
	assert_string_equal(json_get_str(o, "tracepoint", ""), "silly:me_silly");
	assert_string_equal(json_get_str(o, "state", ""), "attached");
	assert_false(json_has(o, "error"));
	assert_int_equal(json_get_u64(o, "events", 0), 9);
	assert_true(json_get_double(o, "rate", 0) == 4.0);	/* (5 + 3) / 2 s */
	assert_string_equal(json_get_str(o, "counter", ""), "count");
	assert_int_equal(json_get_u64(o, "gaps", 1), 0);
	assert_string_equal(json_get_str(o, "period_source", ""), "configured");
	assert_int_equal(json_get_u64(o, "intervals", 0), 8);
	assert_true(json_object_object_get_ex(o, "last", &last));
	assert_int_equal(json_get_u64(last, "count", 0), 9);
	assert_int_equal(json_get_u64(last, "time", 0), 1800);

	t.state = TP_FAILED;
	t.counter_arg = -1;
	t.cfg.period_ns = t.period_ns = 0;
	json_object_put(arr);
	arr = tracepoints_json(&s);
	o = json_object_array_get_idx(arr, 0);
	assert_string_equal(json_get_str(o, "error", ""), "an old failure");
	assert_false(json_has(o, "counter"));
	assert_string_equal(json_get_str(o, "period_source", ""), "estimating");
}

static void test_requests_refused(void **state)
{
	struct tp_set s, none = { 0 };
	struct tracepoint tps[2];
	(void)state;

	tp_fixture_one(&s, &tps[0], 0);
	tps[1] = tps[0];
	snprintf(tps[1].cfg.name, sizeof(tps[1].cfg.name), "bad-name");
	tps[1].state = TP_INVALID;
	snprintf(tps[1].error, sizeof(tps[1].error), "not SYSTEM:EVENT");
	s.tps = tps;
	s.n = 2;

	assert_refused(request(&s, "detach", "silly:me_silly", 1000),
		       "detach changes what irqlatd traces: only root (uid 0) may ask it");
	assert_refused(request(&s, "attach", "all", 65534),
		       "attach changes what irqlatd traces: only root (uid 0) may ask it");
	assert_int_equal(tps[0].state, TP_ATTACHED);
	assert_refused(request(&s, "detach", NULL, 0), "give \"tracepoint\": \"SYSTEM:EVENT\" or \"all\"");
	assert_refused(request(&s, "detach", "", 0), "give \"tracepoint\": \"SYSTEM:EVENT\" or \"all\"");
	assert_refused(request(&s, "detach", "sched:nonesuch", 0),
		       "irqlatd does not consume tracepoint sched:nonesuch; it consumes: silly:me_silly bad-name");
	assert_refused(request(&none, "attach", "sched:nonesuch", 0),
		       "irqlatd does not consume tracepoint sched:nonesuch; it consumes: none");
	/* an attach that cannot happen says why */
	assert_refused(request(&s, "attach", "bad-name", 0), "tracepoint bad-name is invalid: not SYSTEM:EVENT");
}

static void test_detach_and_attach(void **state)
{
	struct tp_set s;
	struct tracepoint tps[2];
	json_object *r, *done;
	(void)state;

	tp_fixture_one(&s, &tps[0], 0);
	tps[1] = tps[0];
	/* no such event in tracefs, wherever it is mounted: an attach never reaches the kernel */
	snprintf(tps[1].cfg.name, sizeof(tps[1].cfg.name), "irqlat_unit_none:nope");
	snprintf(tps[1].system, sizeof(tps[1].system), "irqlat_unit_none");
	snprintf(tps[1].event, sizeof(tps[1].event), "nope");
	tps[1].state = TP_WAITING;
	s.tps = tps;
	s.n = 2;

	r = request(&s, "detach", "all", 0);
	assert_true(json_get_i64(r, "ok", 0));
	assert_true(json_object_object_get_ex(r, "detached", &done));
	assert_int_equal(json_object_array_length(done), 1);	/* the waiting one had nothing to do */
	assert_string_equal(json_object_get_string(json_object_array_get_idx(done, 0)), "silly:me_silly");
	assert_int_equal(json_object_array_length(json_object_object_get(r, "tracepoints")), 2);
	json_object_put(r);
	assert_int_equal(tps[0].state, TP_DETACHED);
	assert_int_equal(tps[1].state, TP_WAITING);

	r = request(&s, "detach", "silly:me_silly", 0);	/* again: nothing to do, and fine */
	assert_true(json_get_i64(r, "ok", 0));
	assert_int_equal(json_object_array_length(json_object_object_get(r, "detached")), 0);
	json_object_put(r);

	tps[1].state = TP_DETACHED;
	assert_refused(request(&s, "attach", "irqlat_unit_none:nope", 0), "tracepoint irqlat_unit_none:nope is detached");
	assert_int_equal(tps[1].ident.present, 0);
}

static void test_info(void **state)
{
	struct tp_set s;
	struct tracepoint t;
	struct tp_info i;
	(void)state;

	assert_int_equal(tracepoints_count(NULL), 0);	/* metrics.c without a set */
	tp_fixture_one(&s, &t, 0);
	tp_fixture_feed(&s, 1000, 1);
	tp_fixture_feed(&s, 1100, 4);	/* 2 and 3 missed */
	assert_int_equal(tracepoints_count(&s), 1);
	i = tracepoints_info(&s, 0);
	assert_string_equal(i.name, "silly:me_silly");
	assert_true(i.attached);
	assert_int_equal(i.counter[TP_COUNTER_EVENTS], 2);
	assert_int_equal(i.counter[TP_COUNTER_GAPS], 1);
	assert_int_equal(i.counter[TP_COUNTER_MISSED], 2);
	t.state = TP_WAITING;
	assert_false(tracepoints_info(&s, 0).attached);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_requests_refused),
		cmocka_unit_test(test_detach_and_attach),
		cmocka_unit_test(test_info),
	};

	log_setup(LOG_TARGET_STDERR, LOG_WARNING);	/* the detach lines are info */
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
