// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ksym.h"
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

int ksym_addr(const char *path, const char *name, uint64_t *addr)
{
	_cleanup_fclose_ FILE *f = fopen(path ? path : KALLSYMS, "re");
	char line[512], sym[256], type;
	uint64_t a;
	int r = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (parse_line(line, &a, &type, sym, sizeof(sym)) == 0 && is_text(type) && !strcmp(sym, name)) {
			if (!a)
				return -EACCES;
			*addr = a;
			r = 0;
			break;
		}
	return r;
}

void ksym_name(uint64_t addr, char *buf, size_t len)
{
	uint64_t best = 0, a;
	char best_name[64] = "", sym[256], line[512], type;
	FILE *f;

	for (size_t i = 0; i < ncache; i++)
		if (cache[i].addr == addr) {
			snprintf(buf, len, "%s", cache[i].name);
			return;
		}
	f = fopen(ksym_path ? ksym_path : KALLSYMS, "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (parse_line(line, &a, &type, sym, sizeof(sym)) < 0 || !is_text(type) || a > addr || a < best)
			continue;
		best = a;
		snprintf(best_name, sizeof(best_name), "%.63s", sym);
		if (a == addr)
			break;
	}
	if (f)
		fclose(f);
	if (!best || addr - best > 0x100000)
		snprintf(best_name, sizeof(best_name), "0x%" PRIx64, addr);
	else if (best != addr) {
		size_t n = strlen(best_name);

		snprintf(best_name + (n < 48 ? n : 48), sizeof(best_name) - (n < 48 ? n : 48), "+0x%" PRIx64, addr - best);
	}
	if (ncache == cache_cap) {
		size_t cap = cache_cap ? 2 * cache_cap : 16;
		struct ksym_cached *nc = realloc(cache, cap * sizeof(*nc));

		if (nc) {
			cache = nc;
			cache_cap = cap;
		}
	}
	if (ncache < cache_cap) {
		cache[ncache].addr = addr;
		snprintf(cache[ncache].name, sizeof(cache[ncache].name), "%s", best_name);
		ncache++;
	}
	snprintf(buf, len, "%s", best_name);
}
