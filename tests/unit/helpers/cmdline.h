/* SPDX-License-Identifier: GPL-2.0 */
/* Running a command-line parser in a unit test: argv from a list, what it writes on its out
 * and err captured, and the check of a refused command line. */
#ifndef IRQLAT_TEST_CMDLINE_H
#define IRQLAT_TEST_CMDLINE_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAXARGS 32

struct run {
	int rc;
	char out[16384];	/* irqlatd --help is over 8 KiB */
	char err[1024];
};

/* argv from a NULL-terminated list, as a fresh writable array each time (getopt permutes it) */
static inline int make_argv(char **argv, const char *prog, va_list ap)
{
	int argc = 0;
	const char *a;

	argv[argc++] = (char *)prog;
	while ((a = va_arg(ap, const char *))) {
		assert_true(argc < MAXARGS - 1);
		argv[argc++] = (char *)a;
	}
	argv[argc] = NULL;
	return argc;
}

static inline void capture_begin(FILE **out, FILE **err, struct run *r)
{
	memset(r, 0, sizeof(*r));
	*out = fmemopen(r->out, sizeof(r->out) - 1, "w");
	*err = fmemopen(r->err, sizeof(r->err) - 1, "w");
	assert_non_null(*out);
	assert_non_null(*err);
}

static inline void capture_end(FILE *out, FILE *err)
{
	fclose(out);
	fclose(err);
}

/* rc returned, nothing on stdout, exactly one line on stderr that contains each of the words */
static inline void assert_refused(const struct run *r, int rc, const char *word1, const char *word2)
{
	const char *nl = strchr(r->err, '\n');

	if (r->rc != rc)
		fail_msg("returned %d, not %d (stderr: %s)", r->rc, rc, r->err);
	assert_string_equal(r->out, "");
	if (!nl || nl[1])
		fail_msg("not one line: \"%s\"", r->err);
	if (!strstr(r->err, word1) || (word2 && !strstr(r->err, word2)))
		fail_msg("\"%s\" does not name %s%s%s", r->err, word1, word2 ? " and " : "", word2 ? word2 : "");
}

#endif
