// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long n;

	/* digits only: strtoull() alone would take " 5" (and "-1", "+5") */
	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || *end || n < min || n > max)
		return -EINVAL;
	*v = n;
	return 0;
}

/* The option as the user wrote it, for the message */
static const char *bad_option(int o, char *const *argv, const char *shortopts, char *buf, size_t len)
{
	const char *arg = argv[optind - 1];
	int is_short;

	/* A short option's error leaves optind on its element until the cluster ends, so
	 * argv[optind - 1] may be the previous argument: name the letter, from optopt. A
	 * missing value is always at the end of argv, so there argv[optind - 1] is the option. */
	if (o == ':')
		is_short = strncmp(arg, "--", 2) != 0;
	else	/* long options leave optopt 0 (unknown) or their value (given a value they refuse) */
		is_short = optopt > 0 && optopt < 256 && (optopt == ':' || !strchr(shortopts, optopt));
	if (!is_short)
		return arg;
	snprintf(buf, len, "-%c", optopt);
	return buf;
}

/* Why getopt_long()'s loop stopped: a format taking the argument as the user wrote it (*arg)
 * and then prog. o: '?' or ':' as getopt_long() returned it; 0: an operand left over. */
static const char *reason(int o, char *const *argv, const char *shortopts, char buf[4], const char **arg)
{
	if (!o) {
		*arg = argv[optind];
		return "unexpected argument '%s'; see %s --help";
	}
	*arg = bad_option(o, argv, shortopts, buf, 4);
	return o == ':' ? "option %s needs a value; see %s --help" : "unknown option '%s'; see %s --help";
}

int getopt_reason(char *buf, size_t len, const char *prog, int o, char *const *argv, const char *shortopts)
{
	char opt[4];
	const char *arg, *fmt = reason(o, argv, shortopts, opt, &arg);

	snprintf(buf, len, fmt, arg, prog);
	return -EINVAL;
}

int getopt_error(const char *prog, int o, char *const *argv, const char *shortopts, FILE *err)
{
	char why[512];

	getopt_reason(why, sizeof(why), prog, o, argv, shortopts);
	return fail_line(err, prog, "%s", why);
}

int fail_line(FILE *err, const char *prog, const char *fmt, ...)
{
	char text[1024], line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	text_escape(line, sizeof(line), text, strlen(text));
	fprintf(err, "%s: %s\n", prog, line);
	return -EINVAL;
}

int getopt_no_operands(const char *prog, int argc, char *const *argv, FILE *err)
{
	if (optind >= argc)
		return 0;
	return getopt_error(prog, 0, argv, NULL, err);
}

void fmt_duration(char *buf, size_t len, uint64_t ns, const char *sep)
{
	/* each limit is where the rounded text would reach the next precision or unit, so
	 * 999999 ns reads 1.0ms, not 1000us, and 9999 ns 10us, not 10.0us */
	if (ns < 1000)
		snprintf(buf, len, "%llu%sns", (unsigned long long)ns, sep);
	else if (ns < 9950)
		snprintf(buf, len, "%.1f%sus", ns / 1e3, sep);
	else if (ns < 999500)
		snprintf(buf, len, "%.0f%sus", ns / 1e3, sep);
	else if (ns < 9950000)
		snprintf(buf, len, "%.1f%sms", ns / 1e6, sep);
	else if (ns < 999500000)
		snprintf(buf, len, "%.0f%sms", ns / 1e6, sep);
	else
		snprintf(buf, len, "%.2f%ss", ns / 1e9, sep);
}

/* Bytes of the UTF-8 character at p (RFC 3629: no overlong form, surrogate or code point
 * over U+10FFFF), 0 when it is not one. */
static size_t utf8_char_len(const unsigned char *p, size_t avail)
{
	size_t need;
	uint32_t cp, min;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		need = 2, min = 0x80, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		need = 3, min = 0x800, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		need = 4, min = 0x10000, cp = p[0] & 0x07;
	else
		return 0;
	if (avail < need)
		return 0;
	for (size_t i = 1; i < need; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	return cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0 : need;
}

size_t text_escape(char *out, size_t outlen, const char *in, size_t inlen)
{
	const unsigned char *p = (const unsigned char *)in, *end = p + inlen;
	size_t n = 0;

	while (p < end) {
		size_t len = utf8_char_len(p, (size_t)(end - p));
		char esc[5];
		const char *piece = esc;
		size_t plen;

		/* C1 controls (U+0080 to U+009F, 0xc2 0x80..0x9f) are terminal controls too: CSI */
		bool c1 = len == 2 && p[0] == 0xc2 && p[1] < 0xa0;

		if (c1) {
			snprintf(esc, sizeof(esc), "\\x%02x", *p);
			plen = 4;
			len = 1;	/* its second byte next, escaped as not UTF-8 on its own */
		} else if (!len || (len == 1 && ((*p < 0x20 && *p != '\t') || *p == 0x7f))) {
			const char *named = *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : NULL;

			if (named)
				snprintf(esc, sizeof(esc), "%s", named);
			else
				snprintf(esc, sizeof(esc), "\\x%02x", *p);
			plen = strlen(esc);
		} else {
			piece = (const char *)p;
			plen = len;
		}
		if (n + plen >= outlen)
			break;
		memcpy(out + n, piece, plen);
		n += plen;
		p += len ? len : 1;
	}
	out[n] = 0;
	return n;
}

size_t text_cut(const char *s, size_t max)
{
	size_t n = 0;

	while (s[n]) {
		size_t unit = 1;

		if (s[n] == '\\')
			unit = s[n + 1] == 'x' ? 4 : 2;
		else if ((unsigned char)s[n] >= 0xc0)
			unit = (unsigned char)s[n] >= 0xf0 ? 4 : (unsigned char)s[n] >= 0xe0 ? 3 : 2;
		if (n + unit > max || strnlen(s + n, unit) < unit)
			break;
		n += unit;
	}
	return n;
}

bool cgroup_under(const char *path, const char *cgroup)
{
	size_t n = strlen(cgroup);

	while (n > 1 && cgroup[n - 1] == '/')
		n--;
	return path && !strncmp(path, cgroup, n) && (n == 1 || path[n] == 0 || path[n] == '/');
}
