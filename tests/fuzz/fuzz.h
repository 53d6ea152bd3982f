/* SPDX-License-Identifier: GPL-2.0 */
/* What the libFuzzer harnesses (tests/fuzz/fuzz_*.c, mk/fuzz.mk) share: the input cut into
 * NUL-terminated pieces, and the checks a harness makes on what the code under test answered
 * (a failed check aborts, which libFuzzer reports as a crash and keeps as a reproducer). */
#ifndef IRQLAT_FUZZ_H
#define IRQLAT_FUZZ_H

#include <errno.h>
#include <iconv.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A harness's own check: unlike assert(), never compiled out. */
#define fuzz_check(cond, ...)                                                  \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			abort();                                               \
		}                                                              \
	} while (0)

/* The input's copy, cut at each sep into pieces, the first max of them in piece[] (each
 * NUL-terminated, pointing into the copy, its length in plen[]); the rest is dropped. The copy is
 * the caller's to free. */
static inline char *fuzz_split(const uint8_t *data, size_t size, char sep, char **piece, size_t *plen, unsigned max,
			       unsigned *n)
{
	char *copy = malloc(size + 1), *end = copy + size;

	*n = 0;
	if (!copy)
		return NULL;
	memcpy(copy, data, size);
	*end = 0;
	for (char *p = copy; *n < max;) {
		char *next = memchr(p, sep, (size_t)(end - p));

		piece[*n] = p;
		plen[(*n)++] = (size_t)((next ? next : end) - p);
		if (!next)
			break;
		*next = 0;
		p = next + 1;
	}
	return copy;
}

/* UTF-8 as glibc's iconv reads it (RFC 3629: no overlong form, surrogate or code point over
 * U+10FFFF): a reference of its own, not the code under test's. */
static inline bool fuzz_utf8_valid(const char *s, size_t len)
{
	static iconv_t cd = (iconv_t)-1;
	char *in = (char *)s, out[4096];

	if (cd == (iconv_t)-1 && (cd = iconv_open("UTF-32LE", "UTF-8")) == (iconv_t)-1)
		abort();
	iconv(cd, NULL, NULL, NULL, NULL);
	while (len) {
		char *o = out;
		size_t olen = sizeof(out);

		if (iconv(cd, &in, &len, &o, &olen) == (size_t)-1 && errno != E2BIG)
			return false;	/* EILSEQ, or EINVAL: cut short at the end */
	}
	return true;
}

/* One line of text: no newline in it, nothing after its end. */
static inline bool fuzz_one_line(const char *s)
{
	return s && *s && !strchr(s, '\n');
}

#endif
