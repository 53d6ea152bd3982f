// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "cpuload.h"
#include "common/json.h"
#include "common/kinds/kind.h"

/* "12.5" "1.25" "0.12" "<.01": a share in percent, as narrow as the column */
static void fmt_share(char *buf, size_t len, double share)
{
	double pct = share * 100;

	if (pct >= 9.995)
		snprintf(buf, len, "%.1f", pct);
	else if (pct >= 0.005 || pct <= 0)
		snprintf(buf, len, "%.2f", pct);
	else
		snprintf(buf, len, "<.01");
}

/* "36 virtio1-req.0 1.06", "BLOCK 11.9", "-" */
static void fmt_source(char *buf, size_t len, json_object *src)
{
	char share[16];

	if (!src) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_share(share, sizeof(share), json_get_double(src, "share", 0));
	if (json_has(src, "irq"))
		snprintf(buf, len, "%d %s %s", (int)json_get_i64(src, "irq", -1), json_get_str(src, "name", "?"), share);
	else
		snprintf(buf, len, "%s %s", json_get_str(src, json_has(src, "vector") ? "vector" : "name", "?"), share);
}

static void put_line(FILE *f, const char *line, int width)
{
	fprintf(f, "%.*s\n", width > 0 ? width : (int)strlen(line), line);
}

void cpuload_print(FILE *f, json_object *summary, int width)
{
	enum lat_kind classes[KINDS];	/* the kinds whose runs take CPU time, in their order */
	unsigned n = kind_cpu_load_classes(classes);
	json_object *load;
	char line[512];
	size_t off;

	if (!json_object_object_get_ex(summary, "cpu_load", &load) || !json_object_is_type(load, json_type_array) ||
	    !json_array_len(load))
		return;
	fputc('\n', f);
	snprintf(line, sizeof(line), "CPU load over the last %s: %% of each CPU's time in interrupts, and the worst "
		 "source of each (softirqs include the hard IRQs that interrupt them)", json_get_str(summary, "window", "?"));
	put_line(f, line, width);
	/* CPU, each class's share, the total, each class's worst source, the marks */
	off = (size_t)snprintf(line, sizeof(line), "%-5s", "CPU");
	for (unsigned k = 0; k < n && off < sizeof(line); k++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %8s", kind_get(classes[k])->cpu_load.header);
	if (off < sizeof(line))
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %7s ", "TOTAL%");
	for (unsigned k = 0; k < n && off < sizeof(line); k++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " %-*s", kind_get(classes[k])->cpu_load.worst_width,
					kind_get(classes[k])->cpu_load.worst);
	if (off < sizeof(line))
		snprintf(line + off, sizeof(line) - off, " %s", "MARKS");
	put_line(f, line, width);
	for (size_t i = 0; i < json_array_len(load); i++) {
		json_object *c = json_array_at(load, i), *v;
		char share[KINDS][16], total[16], worst[KINDS][64], key[32], marks[24] = "";

		for (unsigned k = 0; k < n; k++) {
			snprintf(key, sizeof(key), "%s_share", kind_get(classes[k])->name);
			fmt_share(share[k], sizeof(share[k]), json_get_double(c, key, 0));
			snprintf(key, sizeof(key), "%s_worst", kind_get(classes[k])->name);
			fmt_source(worst[k], sizeof(worst[k]), json_object_object_get_ex(c, key, &v) ? v : NULL);
		}
		fmt_share(total, sizeof(total), json_get_double(c, "total_share", 0));
		if (json_object_object_get_ex(c, "isolated", &v) && json_object_get_boolean(v))
			strcat(marks, "isolated ");
		if (json_object_object_get_ex(c, "nohz_full", &v) && json_object_get_boolean(v))
			strcat(marks, "nohz_full");
		/* "cpu1", not a number first: a row of the handlers' table starts with its IRQ number */
		off = (size_t)snprintf(line, sizeof(line), "cpu%-2d", (int)json_get_i64(c, "cpu", -1));
		for (unsigned k = 0; k < n && off < sizeof(line); k++)
			off += (size_t)snprintf(line + off, sizeof(line) - off, " %8s", share[k]);
		if (off < sizeof(line))
			off += (size_t)snprintf(line + off, sizeof(line) - off, " %7s ", total);
		for (unsigned k = 0; k < n && off < sizeof(line); k++)
			off += (size_t)snprintf(line + off, sizeof(line) - off, " %-*s", kind_get(classes[k])->cpu_load.worst_width,
						worst[k]);
		if (off < sizeof(line))
			snprintf(line + off, sizeof(line) - off, " %s", marks);
		put_line(f, line, width);
	}
}
