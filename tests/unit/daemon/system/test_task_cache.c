// SPDX-License-Identifier: GPL-2.0
/* The comm and policy of recent tasks (task_cache.c): the kernel's answers for this very
 * thread, kept a TASK_CACHE_TTL_NS (a name set since shows only once it is over), and nothing
 * for a task that is not there. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "daemon/system/task_cache.h"

static void proc_comm(uint32_t tid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%u/comm", tid);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, (int)len, f));
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static void test_comm(void **state)
{
	uint32_t me = (uint32_t)syscall(SYS_gettid);
	char want[16], got[16];

	(void)state;
	proc_comm(me, want, sizeof(want));
	task_cache_comm(me, 1000, got, sizeof(got));
	assert_string_equal(got, want);
	task_comm_read(me, got, sizeof(got));
	assert_string_equal(got, want);
	/* renamed now: the kernel says so, the cache still has the name it read until its TTL */
	assert_int_equal(prctl(PR_SET_NAME, "tc-renamed"), 0);
	proc_comm(me, want, sizeof(want));
	assert_string_equal(want, "tc-renamed");
	task_cache_comm(me, 1000 + TASK_CACHE_TTL_NS - 1, got, sizeof(got));
	assert_string_not_equal(got, "tc-renamed");
	task_cache_comm(me, 1000 + TASK_CACHE_TTL_NS, got, sizeof(got));
	assert_string_equal(got, "tc-renamed");
	task_cache_comm(0x7fffffffu, 1000, got, sizeof(got));	/* no such task */
	assert_string_equal(got, "");
	task_comm_read(0x7fffffffu, got, sizeof(got));
	assert_string_equal(got, "");
	task_cache_comm(0, 1000, got, sizeof(got));
	assert_string_equal(got, "");
}

static void test_sched(void **state)
{
	struct task_sched ts;

	(void)state;
	assert_int_equal(task_cache_sched((uint32_t)syscall(SYS_gettid), 1000, &ts), 0);
	assert_int_equal(ts.policy, TASK_POLICY_OTHER);	/* make unit runs SCHED_OTHER */
	assert_int_equal(task_cache_sched(0x7fffffffu, 1000, &ts), -ESRCH);
	assert_int_equal(ts.policy, TASK_POLICY_UNKNOWN);
	assert_int_equal(task_cache_sched(0x7fffffffu, 2000, &ts), -ESRCH);	/* kept, the same answer */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_sched),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
