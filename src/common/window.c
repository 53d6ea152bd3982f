// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include "window.h"

static const char *const window_names[WINDOW_COUNT] = { "1s", "10s", "60s", "total" };

const char *window_name(enum window w)
{
	return (unsigned)w < WINDOW_COUNT ? window_names[w] : "?";
}

int window_parse(const char *s, enum window *w)
{
	for (int i = 0; i < WINDOW_COUNT; i++)
		if (s && !strcmp(s, window_names[i])) {
			*w = (enum window)i;
			return 0;
		}
	return -EINVAL;
}
