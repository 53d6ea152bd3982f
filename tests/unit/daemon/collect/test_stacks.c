// SPDX-License-Identifier: GPL-2.0
/* The stacks' symbolizer (src/daemon/collect/stacks.c) against kallsyms and maps texts written
 * here, in the kernel's own formats, with the answers worked out by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/collect/stacks.h"

/* out of order, as modules' symbols come after the core's; data symbols (d, b, r) left out */
static const char kallsyms[] = "ffffffff81000000 T _stext\n"
			       "ffffffff81200000 T clear_user\n"
			       "ffffffff81100000 t __schedule\n"
			       "ffffffff81300000 D jiffies\n"
			       "ffffffff81150000 W weak_fn\n"
			       "ffffffffc0001000 t vfio_thing\t[vfio]\n"
			       "ffffffff81101000 T schedule\n"
			       "garbage line\n";

static void test_ksyms_find(void **state)
{
	struct ksyms k;
	FILE *f = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");
	char buf[64];
	uint64_t off;

	(void)state;
	assert_non_null(f);
	assert_int_equal(ksyms_load(&k, f), 0);
	fclose(f);
	assert_int_equal(k.n, 6);
	/* below the first symbol: an address */
	assert_null(ksyms_find(&k, 0xffffffff80ffffffull, &off));
	ksyms_format(&k, 0xffffffff80ffffffull, buf, sizeof(buf));
	assert_string_equal(buf, "0xffffffff80ffffff");
	/* exactly at a symbol, inside one, at the last byte before the next */
	ksyms_format(&k, 0xffffffff81200000ull, buf, sizeof(buf));
	assert_string_equal(buf, "clear_user+0x0");
	ksyms_format(&k, 0xffffffff8110001full, buf, sizeof(buf));
	assert_string_equal(buf, "__schedule+0x1f");
	ksyms_format(&k, 0xffffffff81100fffull, buf, sizeof(buf));
	assert_string_equal(buf, "__schedule+0xfff");
	ksyms_format(&k, 0xffffffff81101004ull, buf, sizeof(buf));
	assert_string_equal(buf, "schedule+0x4");
	ksyms_format(&k, 0xffffffff81150010ull, buf, sizeof(buf));
	assert_string_equal(buf, "weak_fn+0x10");
	/* the data symbol is not a candidate: clear_user's offset runs past it */
	ksyms_format(&k, 0xffffffff81300010ull, buf, sizeof(buf));
	assert_string_equal(buf, "clear_user+0x100010");
	/* a module's symbol, its name without the module */
	ksyms_format(&k, 0xffffffffc0001008ull, buf, sizeof(buf));
	assert_string_equal(buf, "vfio_thing+0x8");
	/* a buffer too short cuts, and ends with a NUL */
	ksyms_format(&k, 0xffffffff81200000ull, buf, 6);
	assert_string_equal(buf, "clear");
	ksyms_free(&k);
	assert_int_equal(k.n, 0);
}

/* kptr_restrict: every address reads 0 */
static void test_ksyms_hidden(void **state)
{
	static const char hidden[] = "0000000000000000 T _stext\n0000000000000000 t __schedule\n";
	struct ksyms k;
	FILE *f = fmemopen((void *)hidden, sizeof(hidden) - 1, "r");

	(void)state;
	assert_int_equal(ksyms_load(&k, f), -EPERM);
	fclose(f);
	assert_int_equal(k.n, 0);
	f = fmemopen((void *)"\n", 1, "r");
	assert_int_equal(ksyms_load(&k, f), -ENOENT);
	fclose(f);
}

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
		cmocka_unit_test(test_ksyms_find),
		cmocka_unit_test(test_ksyms_hidden),
		cmocka_unit_test(test_umap),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
