// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "firstlines.h"
#include "table.h"
#include "common/json.h"
#include "common/kinds/kind.h"
#include "common/macro.h"
#include "common/util.h"

/* "irqs 12us": the largest MAX of a view's rows that ran in the window, "-" when none did */
static size_t worst_of(char *buf, size_t len, json_object *summary, enum lat_kind k)
{
	_cleanup_free_ struct row *rows = NULL;
	int n = table_rows_of(summary, k, &rows);
	/* the word of the v key, or its array (irqs, wakeups), in the singular: the line fits 80
	 * columns */
	const char *word = kind_get(k)->table.key_word ? kind_get(k)->table.key_word : kind_get(k)->table.array;
	size_t wlen = strlen(word) - (strlen(word) > 1 && word[strlen(word) - 1] == 's');
	uint64_t worst = 0;
	bool ran = false;
	char v[16] = "-";

	for (int i = 0; i < n; i++)
		if (!rows[i].idle) {
			ran = true;
			if (rows[i].max_ns > worst)
				worst = rows[i].max_ns;
		}
	if (ran)
		fmt_latency(v, sizeof(v), worst, 1, 0);
	return (size_t)snprintf(buf, len, "%.*s %s", (int)wlen, word, v);
}

int first_lines(json_object *summary, char lines[][FIRSTLINE_LEN], int max)
{
	json_object *load;
	enum lat_kind k = KIND_HARDIRQ;
	size_t off = 0, ncpu;
	int n = 0;

	if (!summary || max < 1)
		return 0;
	off = (size_t)snprintf(lines[0], FIRSTLINE_LEN, "worst:");
	do {	/* "worst: irq 12us softirq 310us ..." in the order of the v key */
		if (off < FIRSTLINE_LEN)
			off += (size_t)snprintf(lines[0] + off, FIRSTLINE_LEN - off, " ");
		if (off < FIRSTLINE_LEN)
			off += worst_of(lines[0] + off, FIRSTLINE_LEN - off, summary, k);
		k = kind_next_table(k);
	} while (k != KIND_HARDIRQ);
	n = 1;
	if (!json_object_object_get_ex(summary, "cpu_load", &load) || !json_object_is_type(load, json_type_array))
		return n;
	ncpu = json_array_len(load);
	for (size_t i = 0; i < ncpu && n < max; i++) {
		json_object *l = json_array_at(load, i), *t;
		int64_t cpu = json_get_i64(l, "cpu", -1);
		char late[16] = "-", wake[16] = "-";

		if (n == max - 1 && i + 1 < ncpu) {	/* the last line says what is left out */
			snprintf(lines[n++], FIRSTLINE_LEN, "... %zu more CPUs: v for the CPU load, C for one CPU's figures",
				 ncpu - i);
			break;
		}
		t = table_timer_cpu(summary, cpu);
		if (t && json_get_u64(t, "window_count", 0))
			fmt_latency(late, sizeof(late), json_get_u64(t, "lateness_max_ns", 0), 1, 0);
		if (t && json_get_u64(t, "wakeup_window_count", 0))
			fmt_latency(wake, sizeof(wake), json_get_u64(t, "wakeup_latency_max_ns", 0), 1, 0);
		snprintf(lines[n++], FIRSTLINE_LEN, "CPU %lld: IRQ load %.1f%%, %.1f%% left to tasks, timer late %s, wake-up %s%s",
			 (long long)cpu, json_get_double(l, "total_share", 0) * 100,
			 100 - json_get_double(l, "total_share", 0) * 100, late, wake,
			 json_object_get_boolean(json_object_object_get(l, "isolated")) ? " (isolated)" : "");
	}
	return n;
}
