// SPDX-License-Identifier: GPL-2.0
/* The kind table: each descriptor (one file per BPF object beside this one) by enum lat_kind.
 * A new kind is its enum value, its descriptor and its line here. */
#include <errno.h>
#include <string.h>
#include "common/kinds/kind.h"

extern const struct kind_desc kind_hardirq, kind_softirq, kind_softirq_raise, kind_vector, kind_timer, kind_wakeup,
	kind_wakeup_cpu, kind_threaded, kind_threaded_run, kind_nmi;

static const struct kind_desc *const kinds[KINDS] = {
	[KIND_HARDIRQ] = &kind_hardirq,
	[KIND_SOFTIRQ] = &kind_softirq,
	[KIND_SOFTIRQ_RAISE] = &kind_softirq_raise,
	[KIND_VECTOR] = &kind_vector,
	[KIND_TIMER] = &kind_timer,
	[KIND_WAKEUP] = &kind_wakeup,
	[KIND_WAKEUP_CPU] = &kind_wakeup_cpu,
	[KIND_THREADED] = &kind_threaded,
	[KIND_THREADED_RUN] = &kind_threaded_run,
	[KIND_NMI] = &kind_nmi,
};

const struct kind_desc *kind_get(enum lat_kind k)
{
	return (unsigned)k < KINDS ? kinds[k] : kinds[0];
}

int kind_by_name(const char *name)
{
	for (unsigned k = 0; k < KINDS; k++)
		if (!strcmp(name, kinds[k]->name))
			return (int)k;
	return -ENOENT;
}

const char *kind_sub_name(enum lat_kind k, uint32_t sub)
{
	const struct kind_desc *d = kind_get(k);

	return d->sub_names && sub < d->nsub_names ? d->sub_names[sub] : NULL;
}

bool kind_has_table(enum lat_kind k)
{
	return (unsigned)k < KINDS && kinds[k]->table.array;
}

enum lat_kind kind_next_table(enum lat_kind k)
{
	for (unsigned i = 1; i <= KINDS; i++) {
		enum lat_kind n = (enum lat_kind)(((unsigned)k + i) % KINDS);

		if (kind_has_table(n))
			return n;
	}
	return k;
}

unsigned kind_cpu_load_classes(enum lat_kind out[KINDS])
{
	unsigned n = 0;

	/* by order, whatever the enum's: few kinds, a pass per place */
	for (unsigned order = 1; order <= KINDS; order++)
		for (unsigned k = 0; k < KINDS; k++)
			if (kinds[k]->cpu_load.order == order)
				out[n++] = (enum lat_kind)k;
	return n;
}
