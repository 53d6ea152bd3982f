// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include "fmt.h"

/* k, M, G above 100000: the part both numbers share */
static bool fmt_large(char *buf, size_t len, double v)
{
	if (v < 100000)
		return false;
	if (v < 1e7)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else if (v < 1e10)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else
		snprintf(buf, len, "%.1fG", v / 1e9);
	return true;
}

void fmt_count(char *buf, size_t len, double v)
{
	if (!fmt_large(buf, len, v))
		snprintf(buf, len, "%.0f", v);
}

void fmt_rate(char *buf, size_t len, double v)
{
	/* %.1f would print 99.95 as "100.0": round first, then choose the precision */
	if (!fmt_large(buf, len, v))
		snprintf(buf, len, "%.*f", v < 99.95 ? 1 : 0, v);
}
