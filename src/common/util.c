// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long n;

	if (!s || !*s || *s == '-' || *s == '+')
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
	char opt[4];
	const char *arg, *fmt = reason(o, argv, shortopts, opt, &arg);

	fprintf(err, "%s: ", prog);
	fprintf(err, fmt, arg, prog);
	fputc('\n', err);
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
