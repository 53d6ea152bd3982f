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

/* The whole table of text symbols, sorted by address, for the stacks: read once, at the first
 * stack; some 16 bytes a symbol and its name in one block (about 5 MiB for a kernel's 120,000) */
struct ksym_entry {
	uint64_t addr;
	uint32_t name;	/* its offset in table.names */
};
static struct {
	struct ksym_entry *sym;
	char *names;
	size_t n, cap, used, names_cap;
	bool zeros;	/* text symbols seen, all at address 0 (kptr_restrict) */
	FILE *f;	/* being read, a step at a time (ksym_table_step()) */
	int state;	/* 0 not read yet, 2 being read, 1 read, < 0 why it could not be */
} table;

void ksym_set_path(const char *path)
{
	ksym_free();
	ksym_path = path;
}

static void table_free(void)
{
	if (table.f)
		fclose(table.f);
	free(table.sym);
	free(table.names);
	memset(&table, 0, sizeof(table));
}

void ksym_free(void)
{
	free(cache);
	cache = NULL;
	ncache = cache_cap = 0;
	table_free();
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

static int entry_cmp(const void *a, const void *b)
{
	const struct ksym_entry *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Up to lines more lines of the file into the table: 0 more to read, 1 read whole (sorted, its
 * slack given back), -errno */
static int table_read(unsigned lines)
{
	char line[512], sym[256], type;
	uint64_t a;

	while (lines-- && fgets(line, sizeof(line), table.f)) {
		size_t l;

		if (parse_line(line, &a, &type, sym, sizeof(sym)) < 0 || !is_text(type))
			continue;
		if (!a) {
			table.zeros = true;
			continue;
		}
		l = strlen(sym) + 1;
		if (table.n == table.cap) {
			size_t cap = table.cap ? 2 * table.cap : 4096;
			struct ksym_entry *s = realloc(table.sym, cap * sizeof(*s));

			if (!s)
				return -ENOMEM;
			table.sym = s;
			table.cap = cap;
		}
		if (table.used + l > table.names_cap) {
			size_t cap = table.names_cap ? 2 * table.names_cap : 65536;
			char *s = realloc(table.names, cap);

			if (!s)
				return -ENOMEM;
			table.names = s;
			table.names_cap = cap;
		}
		if (table.used + l > UINT32_MAX)
			return -E2BIG;
		memcpy(table.names + table.used, sym, l);
		table.sym[table.n].addr = a;
		table.sym[table.n++].name = (uint32_t)table.used;
		table.used += l;
	}
	if (!feof(table.f))
		return ferror(table.f) ? -EIO : 0;
	fclose(table.f);
	table.f = NULL;
	if (!table.n)
		return table.zeros ? -EPERM : -ENOENT;
	qsort(table.sym, table.n, sizeof(*table.sym), entry_cmp);
	/* the doubling's slack back */
	struct ksym_entry *s = realloc(table.sym, table.n * sizeof(*s));
	char *nm = realloc(table.names, table.used);

	if (s)
		table.sym = s;
	if (nm)
		table.names = nm;
	return 1;
}

/* The read's end: the table, or its error kept (what a failed read holds freed) */
static int table_done(int r)
{
	if (r < 0) {
		table_free();
		table.state = r;
	} else if (r > 0) {
		table.state = 1;
	}
	return r;
}

int ksym_table_start(void)
{
	if (table.state)
		return table.state == 2 ? 0 : table.state;
	table.f = fopen(ksym_path ? ksym_path : KALLSYMS, "re");
	if (!table.f)
		return table_done(-errno);
	table.state = 2;
	return 0;
}

int ksym_table_step(unsigned lines)
{
	if (table.state != 2)
		return table.state;
	return table_done(table_read(lines));
}

int ksym_table_name(uint64_t addr, char *buf, size_t len)
{
	size_t lo = 0, hi;

	/* nobody started it (a tool, a test): read it whole now */
	if (!table.state && ksym_table_start() == 0)
		table_done(table_read(UINT_MAX));
	if (table.state != 1) {
		snprintf(buf, len, "0x%" PRIx64, addr);
		return table.state == 2 ? -EAGAIN : table.state;
	}
	hi = table.n;
	/* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table.sym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		snprintf(buf, len, "0x%" PRIx64, addr);
		return 0;
	}
	snprintf(buf, len, "%s+0x%" PRIx64, table.names + table.sym[lo - 1].name, addr - table.sym[lo - 1].addr);
	return 0;
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
