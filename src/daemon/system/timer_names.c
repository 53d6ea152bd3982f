// SPDX-License-Identifier: GPL-2.0
#include <bpf/btf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/system/ksym.h"
#include "daemon/system/timer_names.h"
#include "common/macro.h"

#define WAKEUP_FN "hrtimer_wakeup"

/* Whether type id is an enum named hrtimer_restart (BTF dedup leaves one; not relied on) */
static bool is_restart_enum(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	return t && btf_is_enum(t) && !strcmp(btf__name_by_offset(btf, t->name_off), "hrtimer_restart");
}

/* Why BTF and not a list: an hrtimer's function is any function of that prototype (about 40 in
 * Debian's 6.1 and in 6.18), named the day it first fires; /proc/kallsyms has no types. Only
 * functions pahole kept in BTF are found (not those inlined everywhere, which cannot be a
 * timer's function anyway) and only vmlinux's: a module's timer function is still named by a
 * scan at its first expiry. */
int timer_names_prefill(const struct btf *vmlinux, uint64_t *wakeup_fn)
{
	uint32_t ntypes = btf__type_cnt(vmlinux);
	_cleanup_free_ const char **names = NULL;
	_cleanup_free_ uint64_t *addrs = NULL;
	size_t n = 0, cap = 64, wake = SIZE_MAX;
	int r;

	*wakeup_fn = 0;
	if (!(names = malloc(cap * sizeof(*names))))
		return -ENOMEM;
	for (uint32_t id = 1; id < ntypes; id++) {
		const struct btf_type *fn = btf__type_by_id(vmlinux, id), *proto;

		if (!btf_is_func(fn) || !(proto = btf__type_by_id(vmlinux, fn->type)) ||
		    !btf_is_func_proto(proto) || !is_restart_enum(vmlinux, proto->type))
			continue;
		if (n + 1 == cap) {	/* one left for hrtimer_wakeup */
			const char **nn = realloc(names, 2 * cap * sizeof(*names));

			if (!nn)
				return -ENOMEM;
			names = nn;
			cap *= 2;
		}
		names[n] = btf__name_by_offset(vmlinux, fn->name_off);
		if (!strcmp(names[n], WAKEUP_FN))
			wake = n;
		n++;
	}
	if (wake == SIZE_MAX)	/* needed for the wake-ups even if BTF lost it */
		names[wake = n++] = WAKEUP_FN;
	if (!(addrs = calloc(n, sizeof(*addrs))))
		return -ENOMEM;
	r = ksym_prefill(names, n, addrs);
	if (r >= 0)
		*wakeup_fn = addrs[wake];
	return r;
}
