// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include "irqthreads.h"

int irqthreads_count(const char *proc, char *example, size_t len)
{
	DIR *d = opendir(proc);
	struct dirent *e;
	int n = 0;

	if (len)
		example[0] = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[512], comm[64];
		FILE *f;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", proc, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;	/* gone meanwhile */
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "irq/", 4)) {
			comm[strcspn(comm, "\n")] = 0;
			if (!n++ && len)
				snprintf(example, len, "%s", comm);
		}
		fclose(f);
	}
	closedir(d);
	return n;
}

void irqthreads_empty_line(char *buf, size_t len, const char *proc)
{
	char example[64];
	int n = irqthreads_count(proc, example, sizeof(example));

	if (n == 0)
		snprintf(buf, len, "no threaded IRQs on this kernel (boot with threadirqs)");
	else if (n > 0)
		snprintf(buf, len, "no threaded IRQ has run yet (%d IRQ thread%s, such as %s; threadirqs threads every handler)",
			 n, n == 1 ? "" : "s", example);
	else
		snprintf(buf, len, "no threaded IRQ has run yet");
}
