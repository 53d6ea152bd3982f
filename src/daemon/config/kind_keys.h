/* SPDX-License-Identifier: GPL-2.0 */
/* The latency kinds' configuration keys, made from the kind table (src/common/kinds/kind.h):
 * KIND-threshold-us, KIND-on-threshold (a kind with a threshold) and no-KIND, KIND being the kind's name with dashes
 * (softirq-raise-threshold-us, no-softirq), and the older spellings a kind still reads
 * (threshold-us, no-softirqs). The command line, the file, --help and reload take them from
 * here. */
#ifndef IRQLAT_KIND_KEYS_H
#define IRQLAT_KIND_KEYS_H

#include <stdbool.h>
#include "common/kinds/kind.h"

enum kind_key_what { KIND_KEY_THRESHOLD, KIND_KEY_DISABLE, KIND_KEY_ON_THRESHOLD, KIND_KEY_WHATS };

/* at most a threshold key and its alias, a disable key and its alias, an on-threshold key */
#define KIND_KEYS_MAX (5 * KINDS)

struct kind_key {
	const char *name;	/* "softirq-raise-threshold-us", "no-softirqs", "timer-on-threshold" */
	enum lat_kind kind;
	enum kind_key_what what;
	bool alias;		/* an older spelling of the key before it */
	char short_opt;		/* 't', or 0 */
};

/* Every key, in kind order: a kind's threshold key and its alias, then its disable key and its
 * alias, then its on-threshold key; *n of them. */
const struct kind_key *kind_keys(unsigned *n);
/* The key named name, or NULL */
const struct kind_key *kind_key_find(const char *name);
/* The regular key of what for kind k ("no-softirq"), "" when the kind has none */
const char *kind_key_name(enum lat_kind k, enum kind_key_what what);

#endif
