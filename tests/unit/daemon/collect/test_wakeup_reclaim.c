// SPDX-License-Identifier: GPL-2.0
/* task_stat(): the comm and start time out of /proc/PID/stat lines the test writes, a comm
 * with spaces and parentheses among them; a pid with no directory; and this very process
 * against its own stat. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/collect/wakeup_reclaim.h"

static void write_file(const char *root, unsigned pid, const char *name, const char *line)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%u", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%u/%s", root, pid, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(line, f);
	fclose(f);
}

static void write_stat(const char *root, unsigned pid, const char *line)
{
	write_file(root, pid, "stat", line);
}

/* task_cgroup(): the unified hierarchy's line (0::) of /proc/PID/cgroup, v1 lines before it
 * skipped; none (a v1-only machine) and no such task are -ENOENT */
static void test_task_cgroup(void **state)
{
	char root[] = "/tmp/irqlat-proc-XXXXXX", cmd[300];
	char *path = NULL;

	(void)state;
	assert_non_null(mkdtemp(root));
	write_file(root, 42, "cgroup", "4:memory:/process_api/x\n1:cpu:/\n0::/system.slice/rt.service\n");
	write_file(root, 43, "cgroup", "4:memory:/\n");
	assert_int_equal(task_cgroup(root, 42, &path), 0);
	assert_string_equal(path, "/system.slice/rt.service");
	free(path);
	assert_int_equal(task_cgroup(root, 43, &path), -ENOENT);
	assert_null(path);
	assert_int_equal(task_cgroup(root, 44, &path), -ENOENT);
	assert_null(path);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

static void test_task_stat(void **state)
{
	char root[] = "/tmp/irqlat-proc-XXXXXX", comm[TASK_COMM_LEN_ABI];
	uint64_t start = 0;

	(void)state;
	assert_non_null(mkdtemp(root));
	/* fields 3 to 21, then the start time (22), then more */
	write_stat(root, 42, "42 (cyclictest) S 1 42 42 0 -1 4194560 130 0 0 0 0 0 0 0 20 0 2 0 123456 9 9 9\n");
	write_stat(root, 43, "43 (a (b) c) R 1 43 43 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 777 1 2\n");
	write_stat(root, 44, "44 (short) S 1 2 3\n");
	assert_int_equal(task_stat(root, 42, comm, &start), 0);
	assert_string_equal(comm, "cyclictest");
	assert_int_equal(start, 123456);
	assert_int_equal(task_stat(root, 43, comm, &start), 0);
	assert_string_equal(comm, "a (b) c");
	assert_int_equal(start, 777);
	assert_int_equal(task_stat(root, 44, comm, &start), -EBADMSG);
	assert_int_equal(task_stat(root, 45, comm, &start), -ENOENT);

	/* this process: a start time, and the same on a second read */
	uint64_t again = 0;

	assert_int_equal(task_stat("/proc", (uint32_t)getpid(), comm, &start), 0);
	assert_int_equal(task_stat("/proc", (uint32_t)getpid(), comm, &again), 0);
	assert_true(start > 0);
	assert_int_equal(start, again);

	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_stat),
		cmocka_unit_test(test_task_cgroup),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
