// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/system/ksym.h"
#include "common/macro.h"

#define KALLSYMS "/proc/kallsyms"

static const char *ksym_path;

struct ksym_cached {
	uint64_t addr;
	char name[64];
};
static struct ksym_cached *cache;
static size_t ncache, cache_cap;


void ksym_set_path(const char *path)
{
	ksym_free();
	ksym_path = path;
}

void ksym_free(void)
{
	free(cache);
	cache = NULL;
	ncache = cache_cap = 0;
}

/* One line: "ffffffff8142de30 t hrtimer_wakeup" or with a "\t[module]" tail */
static int parse_line(const char *line, uint64_t *addr, char *type, char *name, size_t len)
{
	char *end;
	const char *p;
	size_t n;

	*addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || !end[1] || end[2] != ' ')
		return -EINVAL;
	*type = end[1];
	p = end + 3;
	n = strcspn(p, " \t\n");
	if (!n || n >= len)
		return -EINVAL;
	memcpy(name, p, n);
	name[n] = 0;
	return 0;
}

static int is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static struct ksym_cached *cached(uint64_t addr)
{
	for (size_t i = 0; i < ncache; i++)
		if (cache[i].addr == addr)
			return &cache[i];
	return NULL;
}

static void cache_add(uint64_t addr, const char *name)
{
	if (ncache == cache_cap) {
		size_t cap = cache_cap ? 2 * cache_cap : 16;
		struct ksym_cached *nc = realloc(cache, cap * sizeof(*nc));

		if (!nc)
			return;
		cache = nc;
		cache_cap = cap;
	}
	cache[ncache].addr = addr;
	snprintf(cache[ncache].name, sizeof(cache[ncache].name), "%s", name);
	ncache++;
}

/* Names addrs[0..n) (none cached) in one scan: the nearest text symbol at or below each */
static void resolve(const uint64_t *addrs, size_t n)
{
	uint64_t *best = calloc(n, sizeof(*best));
	char (*names)[64] = calloc(n, sizeof(*names));
	char sym[256], line[512], type;
	uint64_t a;
	FILE *f;

	if (!best || !names)
		goto out;
	f = fopen(ksym_path ? ksym_path : KALLSYMS, "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (parse_line(line, &a, &type, sym, sizeof(sym)) < 0 || !is_text(type))
			continue;
		for (size_t i = 0; i < n; i++)
			if (a <= addrs[i] && a >= best[i]) {
				best[i] = a;
				snprintf(names[i], sizeof(names[i]), "%.63s", sym);
			}
	}
	if (f)
		fclose(f);
	for (size_t i = 0; i < n; i++) {
		char name[64];

		if (!best[i] || addrs[i] - best[i] > 0x100000)
			snprintf(name, sizeof(name), "0x%" PRIx64, addrs[i]);
		else if (best[i] != addrs[i])
			snprintf(name, sizeof(name), "%.48s+0x%" PRIx64, names[i], addrs[i] - best[i]);
		else
			snprintf(name, sizeof(name), "%s", names[i]);
		if (!cached(addrs[i]))
			cache_add(addrs[i], name);
	}
out:
	free(best);
	free(names);
}

void ksym_prefetch(const uint64_t *addrs, size_t n)
{
	uint64_t *todo = calloc(n ? n : 1, sizeof(*todo));
	size_t k = 0;

	if (!todo)
		return;
	for (size_t i = 0; i < n; i++)
		if (!cached(addrs[i]))
			todo[k++] = addrs[i];
	if (k)
		resolve(todo, k);
	free(todo);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int ksym_prefill(const char *const *names, size_t n, uint64_t *addrs)
{
	_cleanup_free_ const char **sorted = malloc((n ? n : 1) * sizeof(*sorted));
	_cleanup_fclose_ FILE *f = NULL;
	char line[512], sym[256], type;
	bool zeros = false;
	uint64_t a;
	int found = 0;

	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, names, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_name);
	memset(addrs, 0, n * sizeof(*addrs));
	f = fopen(ksym_path ? ksym_path : KALLSYMS, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *key = sym, **hit;

		if (parse_line(line, &a, &type, sym, sizeof(sym)) < 0 || !is_text(type) ||
		    !(hit = bsearch(&key, sorted, n, sizeof(*sorted), cmp_name)))
			continue;
		if (!a) {
			zeros = true;
			continue;
		}
		/* a static name may be defined more than once: every address is named */
		if (!cached(a))
			cache_add(a, sym);
		for (size_t i = 0; i < n; i++)
			if (!addrs[i] && !strcmp(names[i], sym)) {
				addrs[i] = a;
				found++;
			}
	}
	return found || !zeros ? found : -EPERM;
}

void ksym_name(uint64_t addr, char *buf, size_t len)
{
	struct ksym_cached *c = cached(addr);

	if (!c) {
		resolve(&addr, 1);
		c = cached(addr);
	}
	if (c)
		snprintf(buf, len, "%s", c->name);
	else	/* out of memory */
		snprintf(buf, len, "0x%" PRIx64, addr);
}
