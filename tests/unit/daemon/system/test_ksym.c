// SPDX-License-Identifier: GPL-2.0
/* Kernel symbols (src/daemon/system/ksym.c): the names found by ksym_prefill() in its one scan are named
 * afterwards without reading the file again (the test removes the file to show it), a static
 * name defined twice names both addresses, and a file of zero addresses or none at all is an
 * error, not an empty result. The reference is the fake kallsyms the test writes. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/system/ksym.h"

static char path[64];

static void write_kallsyms(const char *text)
{
	int fd;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/irqlat-test-ksym-XXXXXX");
	fd = mkstemp(path);

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	ksym_set_path(path);
}

static void name_of(uint64_t addr, const char *want)
{
	char buf[64];

	ksym_name(addr, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_prefill_names_without_a_scan(void **state)
{
	static const char *const names[] = { "tick_nohz_handler", "hrtimer_wakeup", "not_here", "dup_fn" };
	uint64_t addrs[4];

	(void)state;
	write_kallsyms("ffffffff81000000 T _text\n"
		       "ffffffff81100000 t hrtimer_wakeup\n"
		       "ffffffff81180000 d tick_nohz_handler\n"	/* data of the same name: not a function */
		       "ffffffff81200000 t tick_nohz_handler\n"
		       "ffffffff81300000 t dup_fn\n"
		       "ffffffff81400000 t dup_fn\n"
		       "ffffffffc0001000 t dup_fn\t[somemod]\n"
		       "ffffffff81500000 t other_fn\n");
	assert_int_equal(ksym_prefill(names, 4, addrs), 3);
	assert_int_equal(addrs[0], 0xffffffff81200000ull);
	assert_int_equal(addrs[1], 0xffffffff81100000ull);
	assert_int_equal(addrs[2], 0);
	assert_int_equal(addrs[3], 0xffffffff81300000ull);
	/* from here on a scan would find nothing: what is named came from the prefill */
	assert_int_equal(unlink(path), 0);
	name_of(0xffffffff81200000ull, "tick_nohz_handler");
	name_of(0xffffffff81100000ull, "hrtimer_wakeup");
	name_of(0xffffffff81300000ull, "dup_fn");
	name_of(0xffffffff81400000ull, "dup_fn");
	name_of(0xffffffffc0001000ull, "dup_fn");
	name_of(0xffffffff81500000ull, "0xffffffff81500000");	/* not asked for: a scan, of no file */
	ksym_set_path(NULL);
}

static void test_prefill_zero_addresses(void **state)
{
	static const char *const names[] = { "hrtimer_wakeup", "tick_nohz_handler" };
	uint64_t addrs[2] = { 1, 1 };

	(void)state;
	/* what kernel.kptr_restrict shows a process without CAP_SYSLOG */
	write_kallsyms("0000000000000000 T _text\n0000000000000000 t hrtimer_wakeup\n"
		       "0000000000000000 t tick_nohz_handler\n");
	assert_int_equal(ksym_prefill(names, 2, addrs), -EPERM);
	assert_int_equal(addrs[0], 0);
	assert_int_equal(addrs[1], 0);
	unlink(path);
	ksym_set_path(NULL);
}

static void test_prefill_no_file(void **state)
{
	static const char *const names[] = { "hrtimer_wakeup" };
	uint64_t addr;

	(void)state;
	ksym_set_path("/nonexistent/kallsyms");
	assert_int_equal(ksym_prefill(names, 1, &addr), -ENOENT);
	/* a name asked for but absent from a readable file is no error */
	write_kallsyms("ffffffff81000000 T _text\n");
	assert_int_equal(ksym_prefill(names, 1, &addr), 0);
	assert_int_equal(addr, 0);
	unlink(path);
	ksym_set_path(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefill_names_without_a_scan),
		cmocka_unit_test(test_prefill_zero_addresses),
		cmocka_unit_test(test_prefill_no_file),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
