// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "common/macro.h"
#include "daemon/system/umaps.h"

#define NO_NAME UINT32_MAX	/* an anonymous mapping */

struct umap {
	uint64_t start, end, foff;
	uint32_t name;		/* offset into names, NO_NAME */
};

struct umaps {
	size_t n;
	struct umap *v;		/* sorted by start, as the kernel lists them */
	char *names;		/* each once for a run of mappings of the same file */
	size_t names_len, names_cap;
};

void umaps_free(struct umaps *m)
{
	if (!m)
		return;
	free(m->v);
	free(m->names);
	free(m);
}

static int add_name(struct umaps *m, const char *s, size_t len, uint32_t *off)
{
	char *p;

	if (m->n && m->v[m->n - 1].name != NO_NAME && !strncmp(m->names + m->v[m->n - 1].name, s, len) &&
	    m->names[m->v[m->n - 1].name + len] == 0) {
		*off = m->v[m->n - 1].name;	/* the same file as the mapping before */
		return 0;
	}
	if (m->names_len + len + 1 > m->names_cap) {
		size_t cap = (m->names_cap ? m->names_cap * 2 : 1024) + len + 1;

		p = realloc(m->names, cap);
		if (!p)
			return -ENOMEM;
		m->names = p;
		m->names_cap = cap;
	}
	memcpy(m->names + m->names_len, s, len);
	m->names[m->names_len + len] = 0;
	*off = (uint32_t)m->names_len;
	m->names_len += len + 1;
	return 0;
}

/* "START-END PERMS OFFSET DEV INODE [PATH]": the fields by hand, not sscanf(): a task has
 * hundreds of lines and they are read under load */
static bool parse_line(char *line, struct umap *u, char **path, size_t *path_len)
{
	char *p = line, *q;

	u->start = strtoull(p, &q, 16);
	if (q == p || *q != '-')
		return false;
	p = q + 1;
	u->end = strtoull(p, &q, 16);
	if (q == p || *q != ' ')
		return false;
	p = strchr(q + 1, ' ');	/* past the permissions */
	if (!p)
		return false;
	u->foff = strtoull(p + 1, &q, 16);
	if (q == p + 1)
		return false;
	for (int field = 0; field < 2; field++) {	/* the device, the inode */
		while (*q == ' ')
			q++;
		while (*q && *q != ' ' && *q != '\n')
			q++;
	}
	while (*q == ' ')
		q++;
	*path = q;
	*path_len = strcspn(q, "\n");
	return true;
}

int umaps_parse(FILE *maps, struct umaps **out)
{
	_cleanup_free_ char *line = NULL;
	struct umaps *m = calloc(1, sizeof(*m));
	size_t cap = 0, vcap = 0;

	*out = NULL;
	if (!m)
		return -ENOMEM;
	while (m->n < UMAPS_MAX && getline(&line, &cap, maps) > 0) {
		struct umap u;
		char *path;
		size_t len;

		if (!parse_line(line, &u, &path, &len) || u.end <= u.start)
			continue;
		if (m->n == vcap) {
			struct umap *v = realloc(m->v, (vcap ? vcap * 2 : 64) * sizeof(*v));

			if (!v) {
				umaps_free(m);
				return -ENOMEM;
			}
			m->v = v;
			vcap = vcap ? vcap * 2 : 64;
		}
		u.name = NO_NAME;
		if (len && add_name(m, path, len, &u.name) < 0) {
			umaps_free(m);
			return -ENOMEM;
		}
		m->v[m->n++] = u;
	}
	if (!m->n) {
		umaps_free(m);
		return -EINVAL;
	}
	*out = m;
	return 0;
}

int umaps_name(const struct umaps *m, uint64_t addr, char *buf, size_t len)
{
	size_t lo = 0, hi = m ? m->n : 0;

	while (lo < hi) {	/* the first mapping starting above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < m->v[lo - 1].end) {
		const struct umap *u = &m->v[lo - 1];
		const char *name = u->name == NO_NAME ? "[anon]" : m->names + u->name;

		/* a file: the offset in it; [heap], [stack], anonymous memory: from the start */
		snprintf(buf, len, "%s+0x%" PRIx64, name, addr - u->start + (name[0] == '[' ? 0 : u->foff));
		return 0;
	}
	snprintf(buf, len, "0x%" PRIx64, addr);
	return -ENOENT;
}

static const struct umaps *get(struct umaps_cache *c, uint32_t pid, uint64_t now_ns, uint64_t ttl_ns)
{
	unsigned k = 0;
	char path[32];

	for (unsigned i = 0; i < UMAPS_PIDS; i++) {
		if (c->e[i].pid == pid && c->e[i].read_ns) {
			k = i;
			if (now_ns - c->e[i].read_ns < ttl_ns) {
				c->e[i].used_ns = now_ns;
				return c->e[i].m;
			}
			goto read;	/* kept too long: read again in its place */
		}
		if (c->e[i].used_ns < c->e[k].used_ns)
			k = i;	/* an empty one (used_ns 0) or the least recently asked for */
	}
read:
	umaps_free(c->e[k].m);
	c->e[k].m = NULL;
	c->e[k].pid = pid;
	c->e[k].read_ns = c->e[k].used_ns = now_ns ? now_ns : 1;
	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	_cleanup_fclose_ FILE *f = fopen(path, "re");	/* gone with its task: NULL, kept as such */

	if (f)
		umaps_parse(f, &c->e[k].m);
	return c->e[k].m;
}

const struct umaps *umaps_get(struct umaps_cache *c, uint32_t pid, uint64_t now_ns)
{
	return get(c, pid, now_ns, UMAPS_TTL_NS);
}

const struct umaps *umaps_reread(struct umaps_cache *c, uint32_t pid, uint64_t now_ns)
{
	return get(c, pid, now_ns, UMAPS_RETRY_NS);
}

void umaps_cache_free(struct umaps_cache *c)
{
	for (unsigned i = 0; i < UMAPS_PIDS; i++)
		umaps_free(c->e[i].m);
	memset(c, 0, sizeof(*c));
}
