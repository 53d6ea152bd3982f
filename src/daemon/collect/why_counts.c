// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/collect/why_counts.h"

int why_counts_init(struct why_counts *k, volatile struct why_count *map, unsigned ncpus)
{
	memset(k, 0, sizeof(*k));
	k->ncpus = ncpus ? ncpus : 1;
	k->last = calloc((size_t)k->ncpus * WHY_CLASSES, sizeof(*k->last));
	if (!k->last)
		return -ENOMEM;
	k->map = map;
	return 0;
}

void why_counts_free(struct why_counts *k)
{
	free(k->last);
	memset(k, 0, sizeof(*k));
}

/* One copy between two equal even readings of seq; false: the program was adding a wait.
 * Acquire on the first reading keeps the copy after it, the fence keeps the second after the
 * copy; each field is one 8-byte load, as the program's stores are 8 bytes. */
static bool read_whole(const volatile struct why_count *n, struct why_total *out)
{
	uint64_t seq = __atomic_load_n(&n->seq, __ATOMIC_ACQUIRE);

	if (seq & 1)
		return false;
	out->waits = __atomic_load_n(&n->waits, __ATOMIC_RELAXED);
	out->total_ns = __atomic_load_n(&n->total_ns, __ATOMIC_RELAXED);
	for (int i = 0; i < WHY_PARTS; i++)
		out->part_ns[i] = __atomic_load_n(&n->part_ns[i], __ATOMIC_RELAXED);
	out->unsent = __atomic_load_n(&n->unsent, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&n->seq, __ATOMIC_RELAXED) == seq;
}

/* Element i whole into k->last[i], or the last whole reading left as it was */
static void read_element(struct why_counts *k, size_t i)
{
	struct why_total t;

	for (unsigned n = 0; n < WHY_COUNTS_TRIES; n++) {
		if (read_whole(&k->map[i], &t)) {
			k->last[i] = t;
			return;
		}
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();	/* the other hyperthread may be the writer */
#endif
	}
	k->stale++;
}

void why_counts_sync(struct why_counts *k)
{
	if (!k->map)
		return;
	for (size_t i = 0; i < (size_t)k->ncpus * WHY_CLASSES; i++)
		read_element(k, i);
}

const struct why_total *why_counts_shown(const struct why_store *s, unsigned cpu, enum why_class cls)
{
	size_t i = (size_t)(cpu < s->ncpus ? cpu : s->ncpus - 1) * WHY_CLASSES + ((unsigned)cls < WHY_CLASSES ? cls : 0);

	if (s->kernel && i < (size_t)s->kernel->ncpus * WHY_CLASSES)
		return &s->kernel->last[i];
	return &s->totals[i];
}

uint64_t why_counts_take_unsent(struct why_counts *k, uint64_t *worst_ns)
{
	uint64_t sum = 0, worst = 0, n;

	*worst_ns = 0;
	if (!k->map)
		return 0;
	for (size_t i = 0; i < (size_t)k->ncpus * WHY_CLASSES; i++) {
		volatile struct why_count *e = &k->map[i];
		/* one 8-byte load each: the count only grows, the worst is the program's store */
		uint64_t m = __atomic_load_n(&e->unsent_max_ns, __ATOMIC_RELAXED);

		sum += __atomic_load_n(&e->unsent, __ATOMIC_RELAXED);
		/* a failed swap read what the program wrote meanwhile: that one is taken */
		while (m && !__atomic_compare_exchange_n(&e->unsent_max_ns, &m, 0, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			;
		if (m > worst)
			worst = m;
	}
	n = sum > k->unsent_taken ? sum - k->unsent_taken : 0;
	k->unsent_taken = sum;
	*worst_ns = worst;
	return n;
}
