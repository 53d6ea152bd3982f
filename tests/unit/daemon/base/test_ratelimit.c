// SPDX-License-Identifier: GPL-2.0
/* ratelimit.c: per_second entries in each second of the events' clock, the rest counted and
 * handed back once, when a later second starts or a flush finds the second over. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "daemon/base/ratelimit.h"

#define S 1000000000ull

static void test_limit(void **state)
{
	struct ratelimit rl = { 0 };
	uint64_t ended;
	unsigned passed = 0;
	(void)state;

	for (unsigned i = 0; i < 10; i++) {	/* 10 events in second 5, limit 3 */
		passed += ratelimit_pass(&rl, 3, 5 * S + i * 1000, &ended);
		assert_int_equal(ended, 0);
	}
	assert_int_equal(passed, 3);
	assert_int_equal(ratelimit_flush(&rl, 5 * S + S / 2), 0);	/* second 5 is not over */
	assert_true(ratelimit_pass(&rl, 3, 6 * S, &ended));	/* second 6: the 7 of second 5 */
	assert_int_equal(ended, 7);
	assert_true(ratelimit_pass(&rl, 3, 6 * S - 1, &ended));	/* late from another CPU: counted in 6 */
	assert_int_equal(ended, 0);
	assert_true(ratelimit_pass(&rl, 3, 6 * S + 1, &ended));
	assert_false(ratelimit_pass(&rl, 3, 6 * S + 2, &ended));
	assert_int_equal(ratelimit_flush(&rl, 7 * S), 1);	/* the timer, once second 6 is over */
	assert_int_equal(ratelimit_flush(&rl, 8 * S), 0);	/* said once */
	assert_int_equal(rl.suppressed_total, 8);
	assert_false(ratelimit_pass(&rl, 3, 6 * S + 3, &ended));
	assert_int_equal(ratelimit_flush(&rl, UINT64_MAX), 1);	/* shutdown takes what is pending */
}

static void test_no_limit(void **state)
{
	struct ratelimit rl = { 0 };
	uint64_t ended;
	(void)state;

	for (unsigned i = 0; i < 1000; i++)
		assert_true(ratelimit_pass(&rl, 0, 5 * S, &ended));
	assert_int_equal(ratelimit_flush(&rl, UINT64_MAX), 0);
}

/* A count that grows every second: said at once, then once a minute with the growth since */
static void test_report_limit(void **state)
{
	struct report_limit r = { 0 };
	uint64_t said = 0, lines = 0;
	(void)state;

	assert_int_equal(report_limit_due(&r, 0, 10 * S, 60 * S), 0);	/* nothing lost yet */
	for (uint64_t t = 11; t <= 200; t++) {	/* 7 lost a second from second 11 to 200 */
		uint64_t n = report_limit_due(&r, (t - 10) * 7, t * S, 60 * S);

		if (t == 11)
			assert_int_equal(n, 7);	/* the first, at once */
		if (n) {
			lines++;
			said += n;
		}
	}
	assert_int_equal(lines, 4);	/* seconds 11, 71, 131 and 191 */
	assert_int_equal(said, (191 - 10) * 7);
	assert_int_equal(report_limit_due(&r, 190 * 7, 250 * S, 60 * S), 0);	/* the rest, once due */
	assert_int_equal(report_limit_due(&r, 190 * 7, 251 * S, 60 * S), 9 * 7);
	assert_int_equal(report_limit_due(&r, 190 * 7, 400 * S, 60 * S), 0);	/* no growth, nothing */
	assert_int_equal(report_limit_due(&r, 190 * 7 + 1, 401 * S, 60 * S), 1);	/* a lull: at once */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_no_limit),
		cmocka_unit_test(test_report_limit),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
