// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cpulist.h"

/* Walks the list, setting *found when cpu is in one of its ranges and *max (when not NULL) to
 * its highest CPU; -EINVAL at the first malformed piece. */
static int walk(const char *s, unsigned cpu, bool *found, unsigned long *max)
{
	const char *p = s;

	if (!p)
		return -EINVAL;
	if (!*p || !strcmp(p, "\n"))
		return 0;
	for (;;) {
		unsigned long lo, hi;
		char *end;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtoul(p, &end, 10);
			p = end;
			if (hi < lo)
				return -EINVAL;
		}
		if (found && cpu >= lo && cpu <= hi)
			*found = true;
		if (max && hi > *max)
			*max = hi;
		if (*p == ',') {
			p++;
			continue;
		}
		if (!*p || !strcmp(p, "\n"))
			return 0;
		return -EINVAL;
	}
}

int cpulist_check(const char *s)
{
	return walk(s, 0, NULL, NULL);
}

bool cpulist_has(const char *s, unsigned cpu)
{
	bool found = false;

	return walk(s, cpu, &found, NULL) == 0 && found;
}

bool cpulist_empty(const char *s)
{
	return !s || !*s || !strcmp(s, "\n");
}

int cpulist_within(const char *list, const char *possible, unsigned *missing)
{
	unsigned max, have;

	if (cpulist_max(list, &max) < 0 || cpulist_max(possible, &have) < 0)
		return -EINVAL;
	if (max > have) {
		*missing = max;
		return -ERANGE;
	}
	for (unsigned cpu = 0; cpu <= max; cpu++)	/* a hole in the possible CPUs */
		if (cpulist_has(list, cpu) && !cpulist_has(possible, cpu)) {
			*missing = cpu;
			return -ERANGE;
		}
	return 0;
}

int cpulist_max(const char *s, unsigned *max)
{
	unsigned long m = 0;
	int r = walk(s, 0, NULL, &m);

	if (r < 0)
		return r;
	if (cpulist_empty(s))
		return -ENOENT;
	*max = m > 0xffffffffUL ? 0xffffffffu : (unsigned)m;
	return 0;
}
