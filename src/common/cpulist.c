// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cpulist.h"

/* Walks the list, setting *found when cpu is in one of its ranges; -EINVAL at the first
 * malformed piece. */
static int walk(const char *s, unsigned cpu, bool *found)
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
	return walk(s, 0, NULL);
}

bool cpulist_has(const char *s, unsigned cpu)
{
	bool found = false;

	return walk(s, cpu, &found) == 0 && found;
}

bool cpulist_empty(const char *s)
{
	return !s || !*s || !strcmp(s, "\n");
}
