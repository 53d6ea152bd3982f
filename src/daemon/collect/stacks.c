/* SPDX-License-Identifier: GPL-2.0 */
#include "daemon/collect/stacks.h"
#include "daemon/base/log.h"
#include "irqlat_abi.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* A parser of our own: /proc/kallsyms ("ADDR TYPE NAME [MODULE]" a line) has no library (libbpf
 * parses it only inside, for its ksym externs; blazesym and libbcc would be a large dependency
 * for three fields a line). Only text symbols are kept: a stack holds return addresses. */
int ksyms_load(struct ksyms *k, FILE *f)
{
	char line[512];
	size_t cap = 0;
	bool any = false;

	*k = (struct ksyms){};
	while (fgets(line, sizeof(line), f)) {
		char type, name[256];
		uint64_t addr;
		struct ksym *s;

		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		any = true;
		if (!addr)
			continue;
		if (k->n == cap) {
			cap = cap ? cap * 2 : 4096;
			s = realloc(k->sym, cap * sizeof(*s));
			if (!s) {
				ksyms_free(k);
				return -ENOMEM;
			}
			k->sym = s;
		}
		k->sym[k->n].addr = addr;
		k->sym[k->n].name = strdup(name);
		if (!k->sym[k->n].name) {
			ksyms_free(k);
			return -ENOMEM;
		}
		k->n++;
	}
	if (!k->n) {
		ksyms_free(k);
		return any ? -EPERM : -ENOENT;
	}
	qsort(k->sym, k->n, sizeof(*k->sym), ksym_cmp);
	return 0;
}

void ksyms_free(struct ksyms *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->sym[i].name);
	free(k->sym);
	*k = (struct ksyms){};
}

const struct ksym *ksyms_find(const struct ksyms *k, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = k->n;

	/* the last symbol whose address is <= addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->sym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	*off = addr - k->sym[lo - 1].addr;
	return &k->sym[lo - 1];
}

void ksyms_format(const struct ksyms *k, uint64_t addr, char *buf, size_t len)
{
	uint64_t off;
	const struct ksym *s = ksyms_find(k, addr, &off);

	if (s)
		snprintf(buf, len, "%s+0x%" PRIx64, s->name, off);
	else
		snprintf(buf, len, "0x%" PRIx64, addr);
}

int umap_format(FILE *maps, uint64_t addr, char *buf, size_t len)
{
	char line[4096];

	while (fgets(line, sizeof(line), maps)) {
		uint64_t start, end, foff;
		char path[4096] = "";
		int n;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s%n", &start, &end, &foff, &n) != 3)
			continue;
		if (addr < start || addr >= end)
			continue;
		if (sscanf(line + n, " %4095[^\n]", path) != 1)
			snprintf(buf, len, "[anon]+0x%" PRIx64, addr - start);
		else if (path[0] == '[')
			snprintf(buf, len, "%s+0x%" PRIx64, path, addr - start);
		else
			snprintf(buf, len, "%s+0x%" PRIx64, path, addr - start + foff);
		return 0;
	}
	snprintf(buf, len, "0x%" PRIx64, addr);
	return -ENOENT;
}

/* The frames of the program that took the stack (bpf_get_task_stack() of current starts in
 * itself): the helper, the program ("bpf_prog_TAG_NAME"), the tracepoint's trampoline */
static bool bpf_frame(const char *name)
{
	return !strncmp(name, "bpf_", 4) || !strncmp(name, "__bpf_", 6) || !strncmp(name, "__traceiter_", 12) ||
	       !strncmp(name, "trace_call_bpf", 14) || !strncmp(name, "perf_trace_run_bpf", 18);
}

static void join(char *buf, size_t len, size_t *used, const char *frame)
{
	int n;

	if (*used >= len)
		return;
	n = snprintf(buf + *used, len - *used, "%s%s", *used ? ";" : "", frame);
	if (n > 0)
		*used += (size_t)n;
}

void stacks_text(const struct why_event *e, char *kbuf, size_t klen, char *ubuf, size_t ulen)
{
	static struct ksyms k;
	static int loaded;	/* 0 not yet, 1 loaded, < 0 the error, said once */
	unsigned nk = e->kstack_n < WHY_KSTACK ? e->kstack_n : WHY_KSTACK;
	unsigned nu = e->ustack_n < WHY_USTACK ? e->ustack_n : WHY_USTACK;
	size_t used = 0;
	bool lead = true;
	char frame[256], path[64];

	*kbuf = *ubuf = 0;
	if (!e->stack_pid)
		return;
	if (!loaded) {
		FILE *f = fopen("/proc/kallsyms", "re");
		int r = f ? ksyms_load(&k, f) : -errno;

		if (f)
			fclose(f);
		loaded = r < 0 ? r : 1;
		if (r < 0)
			log_warning_errno(r, "Failed to read the kernel's symbols from /proc/kallsyms, stacks show addresses: %m");
	}
	for (unsigned i = 0; i < nk; i++) {
		ksyms_format(&k, e->kstack[i], frame, sizeof(frame));
		if (lead && bpf_frame(frame))
			continue;
		lead = false;
		join(kbuf, klen, &used, frame);
	}
	if (!nu)
		return;
	used = 0;
	snprintf(path, sizeof(path), "/proc/%u/maps", e->stack_pid);
	for (unsigned i = 0; i < nu; i++) {
		FILE *m = fopen(path, "re");

		if (m) {
			umap_format(m, e->ustack[i], frame, sizeof(frame));
			fclose(m);
		} else {
			snprintf(frame, sizeof(frame), "0x%" PRIx64, (uint64_t)e->ustack[i]);
		}
		join(ubuf, ulen, &used, frame);
	}
}
