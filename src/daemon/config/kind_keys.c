// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "daemon/config/kind_keys.h"

#define KEY_MAX 48

static struct kind_key keys[KIND_KEYS_MAX];
static char names[KINDS][KIND_KEY_WHATS][KEY_MAX];	/* the regular keys, by kind and what */
static unsigned nkeys;

/* Made once from the table: it does not change while the daemon runs */
static void make_keys(void)
{
	if (nkeys)
		return;
	for (unsigned k = 0; k < KINDS; k++) {
		const struct kind_desc *d = kind_get(k);
		char stem[32];	/* the longest name, threaded_run, is 12 */

		snprintf(stem, sizeof(stem), "%s", d->name);
		for (char *p = stem; *p; p++)
			if (*p == '_')
				*p = '-';
		if (d->threshold.help) {
			snprintf(names[k][KIND_KEY_THRESHOLD], KEY_MAX, "%s-threshold-us", stem);
			keys[nkeys++] = (struct kind_key){ names[k][KIND_KEY_THRESHOLD], k, KIND_KEY_THRESHOLD, false, 0 };
			if (d->threshold.alias)
				keys[nkeys++] = (struct kind_key){ d->threshold.alias, k, KIND_KEY_THRESHOLD, true,
								   d->threshold.short_opt };
		}
		if (d->disable.help) {
			snprintf(names[k][KIND_KEY_DISABLE], KEY_MAX, "no-%s", stem);
			keys[nkeys++] = (struct kind_key){ names[k][KIND_KEY_DISABLE], k, KIND_KEY_DISABLE, false, 0 };
			if (d->disable.alias)
				keys[nkeys++] = (struct kind_key){ d->disable.alias, k, KIND_KEY_DISABLE, true, 0 };
		}
		/* what an outlier sets off: a kind with outliers of its own */
		if (d->threshold.help) {
			snprintf(names[k][KIND_KEY_ON_THRESHOLD], KEY_MAX, "%s-on-threshold", stem);
			keys[nkeys++] = (struct kind_key){ names[k][KIND_KEY_ON_THRESHOLD], k, KIND_KEY_ON_THRESHOLD, false, 0 };
		}
	}
}

const struct kind_key *kind_keys(unsigned *n)
{
	make_keys();
	*n = nkeys;
	return keys;
}

const struct kind_key *kind_key_find(const char *name)
{
	make_keys();
	for (unsigned i = 0; i < nkeys; i++)
		if (!strcmp(name, keys[i].name))
			return &keys[i];
	return NULL;
}

const char *kind_key_name(enum lat_kind k, enum kind_key_what what)
{
	make_keys();
	return (unsigned)k < KINDS ? names[k][what] : "";
}
