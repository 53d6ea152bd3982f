/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's counts of the late waits (the why_counts map, bpf/why.bpf.h): per CPU and class
 * of wait, the waits explained, their total and each part's sum, as the programs counted them,
 * whether or not their records reached the daemon (a full ring buffer drops them; an outlier
 * may wait parked for its explanation). Status and /metrics show these; the daemon's own sums
 * of the records it received (struct why_store's totals) say how many did not come.
 *
 * An element is written by its CPU's programs while the daemon reads it from another CPU, so a
 * plain copy can hold part of a wait: its count and not its total, or some of its parts. It is
 * read as a seqcount (struct why_count.seq): again while seq is odd or moved during the copy,
 * up to WHY_COUNTS_TRIES times, and if the element was being written all along (its CPU's
 * program stopped in the middle: a hypervisor took the CPU away), its previous whole reading
 * stands, and the reading counts in stale. A whole reading's parts add up to its total
 * exactly, as each wait's do. */
#ifndef IRQLAT_COLLECT_WHY_COUNTS_H
#define IRQLAT_COLLECT_WHY_COUNTS_H

#include <stdint.h>
#include "irqlat_abi.h"
#include "daemon/collect/why.h"

#define WHY_COUNTS_TRIES 100	/* a wait is added in tens of nanoseconds */

struct why_counts {
	volatile struct why_count *map;		/* the loader's mmap: ncpus * WHY_CLASSES elements */
	unsigned ncpus;
	struct why_total *last;			/* each element's last whole reading */
	uint64_t stale;				/* readings that gave the last whole one instead */
	uint64_t unsent_taken;			/* the unsent counted by why_counts_take_unsent() */
};

/* 0 or -ENOMEM */
int why_counts_init(struct why_counts *k, volatile struct why_count *map, unsigned ncpus);
void why_counts_free(struct why_counts *k);
/* Every element read whole into last[], as of now (or its last whole reading: see above).
 * status and /metrics read them once each: one reading for the whole answer. */
void why_counts_sync(struct why_counts *k);
/* What status and /metrics show of (cpu, cls): the kernel's counts of the last
 * why_counts_sync() (s->kernel), or without them (a store with no map: the unit tests), the
 * daemon's own totals of the records it received */
const struct why_total *why_counts_shown(const struct why_store *s, unsigned cpu, enum why_class cls);
/* The late timers counted and not sent (log-idle off) since the last call: returns how many,
 * and *worst_ns the longest of them. Each element's unsent_max_ns is swapped for 0 with a
 * compare-and-swap, so one the program raised meanwhile is taken, not lost; one it compared
 * with the old value and left is under that value. */
uint64_t why_counts_take_unsent(struct why_counts *k, uint64_t *worst_ns);

#endif
