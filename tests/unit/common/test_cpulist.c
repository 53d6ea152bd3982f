// SPDX-License-Identifier: GPL-2.0
/* The kernel's CPU list form (cpulist_check/has/empty) against lists written here with the
 * CPUs they hold, as the kernel prints them in /sys/devices/system/cpu/isolated and
 * /proc/irq/N/smp_affinity_list (a trailing newline included), and malformed ones. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "common/cpulist.h"

static void test_cpulist_members(void **state)
{
	static const struct {
		const char *list;
		const char *members;	/* '1' at index i: CPU i is in the list (CPUs 0 to 15) */
	} cases[] = {
		{ "", "0000000000000000" },
		{ "\n", "0000000000000000" },
		{ "0", "1000000000000000" },
		{ "1\n", "0100000000000000" },
		{ "0-3", "1111000000000000" },
		{ "0-3,8", "1111000010000000" },
		{ "2,4-5,10-11\n", "0010110000110000" },
		{ "15", "0000000000000001" },
		{ "3-3", "0001000000000000" },
	};
	char got[17];

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(cpulist_check(cases[i].list), 0);
		for (unsigned cpu = 0; cpu < 16; cpu++)
			got[cpu] = cpulist_has(cases[i].list, cpu) ? '1' : '0';
		got[16] = 0;
		if (strcmp(got, cases[i].members))
			fail_msg("'%s': members %s, expected %s", cases[i].list, got, cases[i].members);
		assert_int_equal(cpulist_empty(cases[i].list), !strchr(cases[i].members, '1'));
	}
	/* CPU numbers beyond any bitmap this code could have used */
	assert_true(cpulist_has("0,8190-8191", 8191));
	assert_false(cpulist_has("0,8190-8191", 8192));
	assert_true(cpulist_empty(NULL));
	assert_false(cpulist_has(NULL, 0));
}

static void test_cpulist_malformed(void **state)
{
	static const char *const bad[] = { "x", "1-", "-1", "3-1", "1,,2", "1;2", "0x1", "1 2", "1,", ",1", "1\n2",
					   "1-2-3" };

	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (cpulist_check(bad[i]) != -EINVAL)
			fail_msg("'%s' accepted", bad[i]);
		/* nothing is in a list that is not one */
		assert_false(cpulist_has(bad[i], 1));
	}
	assert_int_equal(cpulist_check(NULL), -EINVAL);
}

/* A CPU the machine lacks, as the kernel's possible list says: past its end or in a hole */
static void test_cpulist_within(void **state)
{
	unsigned missing = 0, max = 0;

	(void)state;
	assert_int_equal(cpulist_within("0", "0-1\n", &missing), 0);
	assert_int_equal(cpulist_within("0-1", "0-1\n", &missing), 0);
	assert_int_equal(cpulist_within("0,7", "0-1\n", &missing), -ERANGE);
	assert_int_equal(missing, 7);
	assert_int_equal(cpulist_within("2", "0-1,4-7", &missing), -ERANGE);
	assert_int_equal(missing, 2);
	assert_int_equal(cpulist_within("5,0", "0-1,4-7", &missing), 0);
	assert_int_equal(cpulist_within("1-x", "0-1", &missing), -EINVAL);
	assert_int_equal(cpulist_max("0-3,8-9,2", &max), 0);
	assert_int_equal(max, 9);
	assert_int_equal(cpulist_max("", &max), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_members),
		cmocka_unit_test(test_cpulist_malformed),
		cmocka_unit_test(test_cpulist_within),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
