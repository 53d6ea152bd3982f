// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/system/cpu_topology.h"
#include "common/cpulist.h"
#include "common/macro.h"

/* The first line of root + path, without its newline; NULL when it cannot be read */
static char *read_line(const char *root, const char *path)
{
	char full[256];
	_cleanup_fclose_ FILE *f = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	snprintf(full, sizeof(full), "%s%s", root ? root : "", path);
	if (!(f = fopen(full, "re")))
		return NULL;
	n = getline(&line, &cap, f);
	if (n < 0) {
		free(line);
		return strdup("");	/* an empty file: an empty list */
	}
	line[strcspn(line, "\n")] = 0;
	return line;
}

static void replace(char **slot, char *value)
{
	free(*slot);
	*slot = value;
}

/* A CPU set's file: a kernel built without it (no CONFIG_NO_HZ_FULL: no nohz_full file) has
 * no such CPU, "" as when the file lists none, so that both fields are always there */
static char *cpu_file(const char *root, const char *path)
{
	char *line = read_line(root, path);

	return !line && errno == ENOENT ? strdup("") : line;
}

/* A kernel without nohz_full= on its command line writes "(null)" there: no CPU */
static char *cpu_set(char *list)
{
	if (list && cpulist_check(list) < 0) {
		free(list);
		return strdup("");
	}
	return list;
}

void topology_refresh(struct cpu_topology *t, uint64_t now_ns)
{
	if (t->read_ns && now_ns - t->read_ns < TOPOLOGY_MAX_AGE_NS)
		return;
	t->read_ns = now_ns;
	replace(&t->isolated, cpu_set(cpu_file(t->root, "/sys/devices/system/cpu/isolated")));
	replace(&t->nohz_full, cpu_set(cpu_file(t->root, "/sys/devices/system/cpu/nohz_full")));
}

const struct irq_affinity *topology_irq(struct cpu_topology *t, uint32_t irq, uint64_t now_ns)
{
	struct irq_affinity *a;
	char path[64];

	/* indexed by IRQ number: a summary of thousands of handlers looks each up at once */
	if (irq >= t->n) {
		unsigned n = irq + 1 > 2 * t->n ? irq + 1 : 2 * t->n;
		struct irq_affinity *grown = realloc(t->irqs, n * sizeof(*grown));

		if (!grown)
			return NULL;
		for (unsigned i = t->n; i < n; i++)
			grown[i] = (struct irq_affinity){ .irq = i };
		t->irqs = grown;
		t->n = n;
	}
	a = &t->irqs[irq];
	if (a->read_ns && now_ns - a->read_ns < TOPOLOGY_MAX_AGE_NS)
		return a;
	a->read_ns = now_ns;
	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irq);
	replace(&a->affinity, read_line(t->root, path));
	snprintf(path, sizeof(path), "/proc/irq/%u/effective_affinity_list", irq);
	replace(&a->effective, read_line(t->root, path));
	return a;
}

void topology_free(struct cpu_topology *t)
{
	for (unsigned i = 0; i < t->n; i++) {
		free(t->irqs[i].affinity);
		free(t->irqs[i].effective);
	}
	free(t->irqs);
	free(t->isolated);
	free(t->nohz_full);
	*t = (struct cpu_topology){ .root = t->root };
}
