// SPDX-License-Identifier: GPL-2.0
/* The stacks' user frames (src/daemon/system/umaps.c) against a maps text written here, in
 * the kernel's own format, with the answers worked out by hand (the kernel frames' table:
 * tests/unit/daemon/system/test_ksym.c); and the cache against this process's own maps. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/system/umaps.h"

static const char maps[] =
	"55d0c0a00000-55d0c0a02000 r--p 00000000 fe:01 1234                       /usr/bin/dd\n"
	"55d0c0a02000-55d0c0a0b000 r-xp 00002000 fe:01 1234                       /usr/bin/dd\n"
	"55d0c1000000-55d0c1021000 rw-p 00000000 00:00 0                          [heap]\n"
	"7f1e2c000000-7f1e2c021000 rw-p 00000000 00:00 0 \n"
	"7f1e2d028000-7f1e2d19d000 r-xp 00028000 fe:01 5678                       /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"7f1e2d19d000-7f1e2d1a0000 r-xp 00000000 fe:01 9999                       /tmp/a file with spaces (deleted)\n"
	"7ffd1c9e0000-7ffd1ca01000 rw-p 00000000 00:00 0                          [stack]\n";

static void umap(const struct umaps *m, uint64_t addr, int rc, const char *want)
{
	char buf[128];

	assert_int_equal(umaps_name(m, addr, buf, sizeof(buf)), rc);
	assert_string_equal(buf, want);
}

static void test_umaps(void **state)
{
	FILE *f = fmemopen((void *)maps, sizeof(maps) - 1, "r");
	struct umaps *m;

	(void)state;
	assert_non_null(f);
	assert_int_equal(umaps_parse(f, &m), 0);
	fclose(f);
	/* file offset = address - start + the mapping's offset in the file */
	umap(m, 0x55d0c0a02010ull, 0, "/usr/bin/dd+0x2010");
	umap(m, 0x55d0c0a01fffull, 0, "/usr/bin/dd+0x1fff");
	umap(m, 0x7f1e2d0290a0ull, 0, "/usr/lib/x86_64-linux-gnu/libc.so.6+0x290a0");
	umap(m, 0x7f1e2d19d010ull, 0, "/tmp/a file with spaces (deleted)+0x10");
	umap(m, 0x55d0c1000040ull, 0, "[heap]+0x40");
	umap(m, 0x7ffd1ca00ff8ull, 0, "[stack]+0x20ff8");
	umap(m, 0x7f1e2c000100ull, 0, "[anon]+0x100");
	/* the end is outside its mapping; nothing holds it; no mappings at all */
	umap(m, 0x55d0c0a0b000ull, -ENOENT, "0x55d0c0a0b000");
	umap(m, 0x1000ull, -ENOENT, "0x1000");
	umap(m, 0xffffffffffff0000ull, -ENOENT, "0xffffffffffff0000");
	umap(NULL, 0x55d0c0a02010ull, -ENOENT, "0x55d0c0a02010");
	umaps_free(m);
	/* nothing that parses */
	f = fmemopen((void *)"garbage\n\n", 9, "r");
	assert_int_equal(umaps_parse(f, &m), -EINVAL);
	assert_null(m);
	fclose(f);
}

/* This process's own maps: read once, kept for UMAPS_TTL_NS (UMAPS_RETRY_NS when asked to
 * read again), read again after; a task that
 * is not there gives none; more tasks than kept push out the least recently asked for */
static void test_cache(void **state)
{
	struct umaps_cache c = { 0 };
	const struct umaps *a, *b;
	char buf[128];
	uint32_t me = (uint32_t)getpid();

	(void)state;
	a = umaps_get(&c, me, 1000);
	assert_non_null(a);
	/* this function's code is in this program's file */
	assert_int_equal(umaps_name(a, (uint64_t)(uintptr_t)test_cache, buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, "test_umaps+0x"));
	assert_ptr_equal(umaps_get(&c, me, 1000 + UMAPS_TTL_NS - 1), a);
	/* a frame no kept mapping holds: read again only once the copy is UMAPS_RETRY_NS old */
	assert_ptr_equal(umaps_reread(&c, me, 1000 + UMAPS_RETRY_NS - 1), a);
	assert_non_null(umaps_reread(&c, me, 1000 + UMAPS_RETRY_NS));
	assert_int_equal(c.e[0].read_ns, 1000 + UMAPS_RETRY_NS);
	b = umaps_get(&c, me, 1000 + UMAPS_RETRY_NS + UMAPS_TTL_NS);
	assert_non_null(b);
	assert_null(umaps_get(&c, 0x7fffffffu, UMAPS_TTL_NS + 2000));	/* no such task */
	/* UMAPS_PIDS others (all gone) asked for after: ours is the least recently asked for */
	for (uint32_t i = 0; i < UMAPS_PIDS; i++)
		umaps_get(&c, 0x7ffffff0u - i, 2 * UMAPS_TTL_NS + i);
	for (unsigned i = 0; i < UMAPS_PIDS; i++)
		assert_int_not_equal(c.e[i].pid, me);
	umaps_cache_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_umaps),
		cmocka_unit_test(test_cache),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
