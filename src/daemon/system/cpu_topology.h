/* SPDX-License-Identifier: GPL-2.0 */
/* Where real-time work runs and where each IRQ may run, as the kernel writes it:
 * /sys/devices/system/cpu/{isolated,nohz_full} and /proc/irq/N/{smp,effective}_affinity_list.
 * Read when a client asks for a summary (not on every tick: no cost without clients), and
 * kept for TOPOLOGY_MAX_AGE_NS, so a screen refreshing every second reads each file at most
 * once a second. */
#ifndef IRQLAT_CPU_TOPOLOGY_H
#define IRQLAT_CPU_TOPOLOGY_H

#include <stdint.h>

#define TOPOLOGY_MAX_AGE_NS 1000000000ull

struct irq_affinity {
	uint32_t irq;
	char *affinity;		/* smp_affinity_list, NULL when it cannot be read (the IRQ went away) */
	char *effective;	/* effective_affinity_list, NULL likewise (older kernels have none) */
	uint64_t read_ns;
};

struct cpu_topology {
	const char *root;	/* prefix of /sys and /proc, "" (NULL) for the real ones; tests set it */
	char *isolated, *nohz_full;	/* "" when none, NULL when the file cannot be read */
	uint64_t read_ns;	/* 0: never read */
	struct irq_affinity *irqs;	/* by IRQ number */
	unsigned n;
};

/* The CPU sets, read again when older than TOPOLOGY_MAX_AGE_NS. */
void topology_refresh(struct cpu_topology *t, uint64_t now_ns);
/* The affinity of IRQ irq, read again likewise; NULL only when out of memory. */
const struct irq_affinity *topology_irq(struct cpu_topology *t, uint32_t irq, uint64_t now_ns);
void topology_free(struct cpu_topology *t);

#endif
