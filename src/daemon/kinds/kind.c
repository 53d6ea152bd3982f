// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "daemon/kinds/kind.h"
#include "daemon/system/ksym.h"
#include "daemon/base/log.h"

void kind_name_series(enum lat_kind k, uint64_t id, uint32_t sub, char *name, size_t len)
{
	const struct kind_desc *d = kind_get(k);
	const char *named = kind_sub_name(k, sub);

	if (named)
		snprintf(name, len, "%s", named);
	else if (d->named_by_address)
		ksym_name(id, name, len);
	else if (d->pooled_name && id == 0)
		snprintf(name, len, "%s", d->pooled_name);
	else if (d->sub_name_prefix)
		snprintf(name, len, "%s%u", d->sub_name_prefix, sub);
}

const char *timer_class(const char *function)
{
	if (!strcmp(function, "tick_nohz_handler") || !strcmp(function, "tick_sched_timer"))
		return "tick";
	if (!strcmp(function, "hrtimer_wakeup"))
		return "sleep";
	return "other";
}

void kind_describe(char *buf, size_t len, enum lat_kind k, uint32_t sub, const char *name)
{
	const struct kind_desc *d = kind_get(k);

	if (d->sub_key && !d->sub_is_cpu)
		snprintf(buf, len, "%s %u (%s)", d->what, sub, name);
	else
		snprintf(buf, len, "%s %s", d->what, name);
}

void kind_journal_fields(struct jfields *f, enum lat_kind k, uint32_t sub, const char *name)
{
	const struct kind_desc *d = kind_get(k);

	if (d->sub_key && !d->sub_is_cpu) {
		jf_add(f, "%s=%u", d->journal_sub, sub);
		jf_add(f, "%s_NAME=%s", d->journal_sub, name);
	} else {
		jf_add(f, "%s=%s", d->journal_sub, name);
	}
}
