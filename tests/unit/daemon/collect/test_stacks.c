// SPDX-License-Identifier: GPL-2.0
/* The stacks' user frames (src/daemon/collect/stacks.c) against a maps text written here, in
 * the kernel's own format, with the answers worked out by hand (the kernel frames' table:
 * tests/unit/daemon/system/test_ksym.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/collect/stacks.h"

static const char maps[] =
	"55d0c0a00000-55d0c0a02000 r--p 00000000 fe:01 1234                       /usr/bin/dd\n"
	"55d0c0a02000-55d0c0a0b000 r-xp 00002000 fe:01 1234                       /usr/bin/dd\n"
	"55d0c1000000-55d0c1021000 rw-p 00000000 00:00 0                          [heap]\n"
	"7f1e2c000000-7f1e2c021000 rw-p 00000000 00:00 0 \n"
	"7f1e2d028000-7f1e2d19d000 r-xp 00028000 fe:01 5678                       /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"7ffd1c9e0000-7ffd1ca01000 rw-p 00000000 00:00 0                          [stack]\n";

static void umap(uint64_t addr, int rc, const char *want)
{
	FILE *f = fmemopen((void *)maps, sizeof(maps) - 1, "r");
	char buf[128];

	assert_non_null(f);
	assert_int_equal(umap_format(f, addr, buf, sizeof(buf)), rc);
	fclose(f);
	assert_string_equal(buf, want);
}

static void test_umap(void **state)
{
	(void)state;
	/* file offset = address - start + the mapping's offset in the file */
	umap(0x55d0c0a02010ull, 0, "/usr/bin/dd+0x2010");
	umap(0x55d0c0a01fffull, 0, "/usr/bin/dd+0x1fff");
	umap(0x7f1e2d0290a0ull, 0, "/usr/lib/x86_64-linux-gnu/libc.so.6+0x290a0");
	umap(0x55d0c1000040ull, 0, "[heap]+0x40");
	umap(0x7ffd1ca00ff8ull, 0, "[stack]+0x20ff8");
	umap(0x7f1e2c000100ull, 0, "[anon]+0x100");
	/* the end is outside its mapping; nothing holds it */
	umap(0x55d0c0a0b000ull, -ENOENT, "0x55d0c0a0b000");
	umap(0x1000ull, -ENOENT, "0x1000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_umap),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
