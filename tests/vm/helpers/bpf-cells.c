// SPDX-License-Identifier: GPL-2.0
/* bpf-cells: one of irqlatd's BPF objects, loaded on a cell pool of its own, for checking a
 * kernel-side kind before irqlatd loads it (the NMI kind's first checks, tests/vm/initramfs/
 * 68-nmi.sh). Loads OBJECT.bpf.o with only the STYLE twin of each program (tp_btf or raw_tp;
 * programs on tracepoints the kernel lacks left out), sizes its per-CPU arrays (maps named
 * *_cpu) to the possible CPUs and its pool to 256 cells, attaches exits first, prints
 * "attached" on stdout and waits for SIGTERM or SIGINT. Then it prints every cell its programs
 * made: "cell IDX kind KIND id 0xID sub SUB cpu CPU count N sum_ns S max_ns M aux A", and per
 * CPU the clock line's four clocks: "clock cpu CPU irq_ns I vec_ns V softirq_ns S nmi_ns N".
 * Exit status: 0 stopped cleanly, 1 could not load or attach, 2 bad command line. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "irqlat_abi.h"

#define POOL 256
#define MAX_LINKS 64

static int usage(void)
{
	fprintf(stderr, "usage: bpf-cells tp_btf|raw_tp OBJECT.bpf.o\n");
	return 2;
}

/* Only the chosen twin, and only on tracepoints this kernel has */
static int choose(struct bpf_object *obj, const char *style)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct bpf_program *p;

	if (!vmlinux)
		return -errno;
	bpf_object__for_each_program(p, obj) {
		const char *sec = bpf_program__section_name(p), *ev = strchr(sec, '/');
		char name[128];

		snprintf(name, sizeof(name), "btf_trace_%s", ev ? ev + 1 : "");
		bpf_program__set_autoload(p, !strncmp(sec, style, strlen(style)) && sec[strlen(style)] == '/' &&
						     btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) > 0);
	}
	btf__free(vmlinux);
	return 0;
}

static void size_maps(struct bpf_object *obj, unsigned ncpus)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj) {
		const char *n = bpf_map__name(m);
		size_t len = strlen(n);

		if (!strcmp(n, "cells") || !strcmp(n, "cell_meta") || !strcmp(n, "cell_index"))
			bpf_map__set_max_entries(m, POOL);
		else if (!strcmp(n, "why_counts"))
			bpf_map__set_max_entries(m, ncpus * WHY_CLASSES);
		else if (bpf_map__type(m) == BPF_MAP_TYPE_ARRAY && len > 4 && !strcmp(n + len - 4, "_cpu"))
			bpf_map__set_max_entries(m, ncpus);
	}
}

static int lookup(struct bpf_object *obj, const char *map, __u32 key, void *value)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, map);

	if (!m)
		return -ENOENT;
	return bpf_map_lookup_elem(bpf_map__fd(m), &key, value) ? -errno : 0;
}

static void print_cells(struct bpf_object *obj, unsigned ncpus)
{
	struct cell_pool pool;
	struct lat_cell c;
	struct lat_cell_meta meta;
	struct cpu_clock k;

	if (lookup(obj, "cell_next", 0, &pool) < 0)
		return;
	for (__u32 i = 0; i < pool.next && i < POOL; i++) {
		unsigned long long n = 0;

		if (lookup(obj, "cells", i, &c) < 0 || lookup(obj, "cell_meta", i, &meta) < 0 || !meta.ready)
			continue;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			n += c.hist[b];
		printf("cell %u kind %u id 0x%llx sub %u cpu %u count %llu sum_ns %llu max_ns %llu aux %u\n", i, meta.kind,
		       (unsigned long long)c.id, c.sub, meta.cpu, n, (unsigned long long)c.sum_ns,
		       (unsigned long long)c.max_ns, c.aux);
	}
	for (unsigned cpu = 0; cpu < ncpus; cpu++)
		if (lookup(obj, "clock_cpu", cpu, &k) == 0)
			printf("clock cpu %u irq_ns %llu vec_ns %llu softirq_ns %llu nmi_ns %llu\n", cpu,
			       (unsigned long long)k.irq_ns, (unsigned long long)k.vec_ns,
			       (unsigned long long)k.softirq_ns, (unsigned long long)k.nmi_ns);
}

int main(int argc, char **argv)
{
	struct bpf_link *links[MAX_LINKS];
	struct bpf_object *obj;
	struct bpf_program *p;
	struct cell_pool pool = { .next = 0, .max = POOL };
	int ncpus = libbpf_num_possible_cpus(), n = 0, sig;
	sigset_t set;

	if (argc != 3 || (strcmp(argv[1], "tp_btf") && strcmp(argv[1], "raw_tp")))
		return usage();
	if (ncpus < 1)
		return 1;
	obj = bpf_object__open_file(argv[2], NULL);
	if (!obj) {
		fprintf(stderr, "bpf-cells: cannot open %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (choose(obj, argv[1]) < 0) {
		fprintf(stderr, "bpf-cells: cannot read the kernel's BTF: %s\n", strerror(errno));
		return 1;
	}
	size_maps(obj, (unsigned)ncpus);
	if (bpf_object__load(obj)) {
		fprintf(stderr, "bpf-cells: cannot load %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (bpf_map_update_elem(bpf_map__fd(bpf_object__find_map_by_name(obj, "cell_next")), &(__u32){ 0 }, &pool, BPF_ANY)) {
		fprintf(stderr, "bpf-cells: cannot size the pool: %s\n", strerror(errno));
		return 1;
	}
	/* exits first, as irqlatd attaches them */
	for (int pass = 0; pass < 2; pass++)
		bpf_object__for_each_program(p, obj) {
			if (!bpf_program__autoload(p) || (strstr(bpf_program__section_name(p), "_exit") != NULL) != (pass == 0))
				continue;
			if (n == MAX_LINKS || !(links[n] = bpf_program__attach(p))) {
				fprintf(stderr, "bpf-cells: cannot attach %s: %s\n", bpf_program__section_name(p), strerror(errno));
				return 1;
			}
			n++;
		}
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("attached %d\n", n);
	fflush(stdout);
	sigwait(&set, &sig);
	while (n > 0)
		bpf_link__destroy(links[--n]);
	print_cells(obj, (unsigned)ncpus);
	bpf_object__close(obj);
	return 0;
}
