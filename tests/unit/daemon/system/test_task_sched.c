// SPDX-License-Identifier: GPL-2.0
/* A task's policy (task_sched.c): asked of the kernel for this very thread, and, for a task that
 * exited, read from the kernel's prio its wait's record carried: -1 deadline, 0..99 real-time
 * (rt_priority 99 - prio), 100..139 normal; real-time is what log-wakeups=rt keeps. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "daemon/system/task_sched.h"

static void test_read_self(void **state)
{
	struct task_sched ts;

	(void)state;
	assert_int_equal(task_sched_read((uint32_t)syscall(SYS_gettid), &ts), 0);
	assert_int_equal(ts.policy, TASK_POLICY_OTHER);	/* make unit runs as any user, SCHED_OTHER */
	assert_false(task_sched_is_rt(&ts));
	assert_int_equal(task_sched_read(0, &ts), -ESRCH);
	assert_int_equal(ts.policy, TASK_POLICY_UNKNOWN);
}

static void test_from_prio(void **state)
{
	struct task_sched ts;

	(void)state;
	task_sched_from_prio(4, &ts);	/* FIFO 95 */
	assert_int_equal(ts.policy, TASK_POLICY_RT);
	assert_int_equal(ts.priority, 95);
	assert_true(task_sched_is_rt(&ts));
	assert_string_equal(task_policy_name(ts.policy), "rt");
	task_sched_from_prio(0, &ts);
	assert_int_equal(ts.priority, 99);
	task_sched_from_prio(99, &ts);	/* rt_priority 0: never a real-time task's, still its range */
	assert_true(task_sched_is_rt(&ts));
	task_sched_from_prio(-1, &ts);
	assert_int_equal(ts.policy, TASK_POLICY_DEADLINE);
	assert_true(task_sched_is_rt(&ts));
	task_sched_from_prio(120, &ts);
	assert_int_equal(ts.policy, TASK_POLICY_OTHER);
	assert_false(task_sched_is_rt(&ts));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_self),
		cmocka_unit_test(test_from_prio),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
