// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <time.h>
#include "captures.h"
#include "common/json.h"
#include "common/util.h"

void captures_print(FILE *f, json_object *answer)
{
	json_object *list = NULL;
	size_t n;

	if (!json_object_object_get_ex(answer, "captures", &list) || !json_object_is_type(list, json_type_array))
		list = NULL;
	n = list ? json_array_len(list) : 0;
	fprintf(f, "%zu capture%s in %s (budget %.1f MiB)\n", n, n == 1 ? "" : "s", json_get_str(answer, "folder", "?"),
		(double)json_get_i64(answer, "budget_bytes", 0) / (1024 * 1024));
	if (!n)
		return;
	fprintf(f, "%-26s %-14s %4s %12s %10s  %s\n", "TIME", "KIND", "CPU", "LATENCY", "SIZE", "FILE");
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_array_at(list, i);
		uint64_t wall = (uint64_t)json_get_i64(c, "wall_ns", 0);
		time_t t = (time_t)(wall / 1000000000ull);
		char when[32] = "?", lat[32];
		struct tm tm;

		if (wall && localtime_r(&t, &tm))
			snprintf(when + strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm), 8, ".%06llu",
				 (unsigned long long)(wall % 1000000000ull / 1000));
		fmt_duration(lat, sizeof(lat), (uint64_t)json_get_i64(c, "latency_ns", 0), " ");
		fprintf(f, "%-26s %-14s %4lld %12s %10lld  %s\n", when, json_get_str(c, "kind", "?"),
			(long long)json_get_i64(c, "cpu", -1), lat, (long long)json_get_i64(c, "size", 0),
			json_get_str(c, "file", "?"));
	}
}
