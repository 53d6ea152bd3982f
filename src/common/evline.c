// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "evline.h"

int ev_clock_parse(const char *s, enum ev_clock *c)
{
	if (!strcmp(s, "mono"))
		*c = EV_CLOCK_MONO;
	else if (!strcmp(s, "boot"))
		*c = EV_CLOCK_BOOT;
	else if (!strcmp(s, "wall"))
		*c = EV_CLOCK_WALL;
	else
		return -EINVAL;
	return 0;
}

void ev_time(char *buf, size_t len, uint64_t ns, enum ev_clock c)
{
	time_t secs = (time_t)(ns / 1000000000ull);
	unsigned long usec = (unsigned long)(ns % 1000000000ull / 1000);
	char date[32], zone[8];
	struct tm tm;

	if (c != EV_CLOCK_WALL || !localtime_r(&secs, &tm)) {
		snprintf(buf, len, "%5llu.%06lu", (unsigned long long)(ns / 1000000000ull), usec);
		return;
	}
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	snprintf(buf, len, "%s.%06lu%s", date, usec, zone);
}

int ev_context(char *buf, size_t len, const char *comm, unsigned pid, unsigned cpu, const char *time)
{
	/* ftrace's trace_print_context(): "%16s-%-7d [%03d] %5llu.%06llu: "; its irq-flags
	 * column is left out */
	return snprintf(buf, len, "%16s-%-7u [%03u] %s:", comm, pid, cpu, time);
}
