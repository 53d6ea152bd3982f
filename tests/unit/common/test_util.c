// SPDX-License-Identifier: GPL-2.0
/* fmt_duration(), the one duration formatter of screens and log messages: every unit, the
 * precision of each range, and the rounding edges where a value is written in the next unit.
 * text_escape(), how refusals quote what a user wrote. */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "common/util.h"

static void test_fmt_duration(void **state)
{
	static const struct {
		uint64_t ns;
		const char *text;
	} cases[] = {
		{ 0, "0ns" }, { 850, "850ns" }, { 999, "999ns" },
		{ 1000, "1.0us" }, { 3100, "3.1us" }, { 9940, "9.9us" },
		{ 41000, "41us" }, { 41499, "41us" }, { 999000, "999us" },
		{ 1200000, "1.2ms" }, { 9900000, "9.9ms" }, { 41000000, "41ms" }, { 999000000, "999ms" },
		{ 2000000000, "2.00s" }, { 12345000000ull, "12.35s" },
		/* values that round up into the next unit are written in it */
		{ 9999, "10us" }, { 999999, "1.0ms" }, { 9999999, "10ms" }, { 999999999, "1.00s" },
	};
	char buf[32];

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_duration(buf, sizeof(buf), cases[i].ns, "");
		if (strcmp(buf, cases[i].text))
			fail_msg("fmt_duration(%" PRIu64 ") = \"%s\", expected \"%s\"", cases[i].ns, buf, cases[i].text);
		/* the widest fits the 7-character latency columns */
		assert_true(strlen(buf) <= 7);
	}
}

/* text_escape(): what a refusal quotes back stays one line of UTF-8, cut only between
 * characters */
static void test_text_escape(void **state)
{
	static const struct {
		const char *in, *out;
		size_t outlen;
	} cases[] = {
		{ "plain 5us", "plain 5us", 64 },
		{ "tab\there", "tab\there", 64 },
		{ "two\nlines\r", "two\\nlines\\r", 64 },
		{ "esc\x1b[2J del\x7f", "esc\\x1b[2J del\\x7f", 64 },
		/* a task's comm that sets the terminal's title, and the C1 CSI (U+009B) */
		{ "\x1b]0;PWNED\x07", "\\x1b]0;PWNED\\x07", 64 },
		{ "a\xc2\x9b" "31mb \xc2\xa0", "a\\xc2\\x9b31mb \xc2\xa0", 64 },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 64 },
		/* not UTF-8: a lone continuation byte, a cut sequence, an overlong '/', a surrogate */
		{ "a\x80" "b\xc3", "a\\x80b\\xc3", 64 },
		{ "\xc0\xaf \xed\xa0\x80", "\\xc0\\xaf \\xed\\xa0\\x80", 64 },
		/* what does not fit whole is left out: "é" needs 2 bytes, "\n" 2 */
		{ "ab\xc3\xa9", "ab", 4 },
		{ "abc\n", "abc", 5 },
		{ "", "", 1 },
	};
	char buf[64];
	(void)state;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = text_escape(buf, cases[i].outlen, cases[i].in, strlen(cases[i].in));

		if (strcmp(buf, cases[i].out) || n != strlen(cases[i].out))
			fail_msg("text_escape(\"%s\", %zu) = \"%s\" (%zu), expected \"%s\"", cases[i].in, cases[i].outlen, buf, n,
				 cases[i].out);
	}
	/* the length given, not the NUL: a NUL inside is a control character */
	text_escape(buf, sizeof(buf), "a\0b", 3);
	assert_string_equal(buf, "a\\x00b");
}

/* text_cut(): a column of escaped text is cut between characters and escapes */
/* A cgroup path in or below another: whole components only, a trailing '/' ignored, "/" all */
static void test_cgroup_under(void **state)
{
	(void)state;
	assert_true(cgroup_under("/system.slice/rt.service", "/system.slice"));
	assert_true(cgroup_under("/system.slice", "/system.slice/"));
	assert_true(cgroup_under("/system.slice/rt.service", "/system.slice/rt.service"));
	assert_false(cgroup_under("/system.slice2/x", "/system.slice"));
	assert_false(cgroup_under("/user.slice", "/system.slice"));
	assert_true(cgroup_under("/user.slice", "/"));
	assert_false(cgroup_under(NULL, "/"));
}

static void test_text_cut(void **state)
{
	(void)state;
	assert_int_equal(text_cut("abcdef", 4), 4);
	assert_int_equal(text_cut("ab", 4), 2);
	assert_int_equal(text_cut("ab\\x1bcd", 4), 2);	/* not "ab\\x" */
	assert_int_equal(text_cut("ab\\x1bcd", 6), 6);
	assert_int_equal(text_cut("a\\nb", 2), 1);
	assert_int_equal(text_cut("a\xc3\xa9" "b", 2), 1);	/* not half an e-acute */
	assert_int_equal(text_cut("a\xe2\x82\xac", 4), 4);
	assert_int_equal(text_cut("a\xe2\x82", 4), 1);	/* a cut character at the end */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_duration),
		cmocka_unit_test(test_text_escape),
		cmocka_unit_test(test_text_cut),
		cmocka_unit_test(test_cgroup_under),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
