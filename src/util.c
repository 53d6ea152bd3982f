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

const char *getopt_bad_option(int o, char *const *argv, const char *shortopts, char *buf, int len)
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
	snprintf(buf, (size_t)len, "-%c", optopt);
	return buf;
}
