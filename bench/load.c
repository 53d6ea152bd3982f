// SPDX-License-Identifier: GPL-2.0
/* irqlat-bench-load: the bench's loader for its own program pairs (bench/run.sh drives it).
 * Turns on the kernel's BPF run-time statistics for as long as it runs, loads one BPF object,
 * attaches every program in it (those on a *_exit tracepoint first, as irqlatd does: an entry
 * without its exit is harmless), prints "NAME ID,ID..." (the kernel program ids) and holds the
 * programs attached until SIGTERM or SIGINT. One process per pair, so run.sh chooses the
 * attach order by the order it starts them.
 *   --pool N   size the cell pool of objects built on bpf/cell.bpf.h (cells, cell_meta,
 *              cell_index, cell_next), as irqlatd's loader does
 *   --no-stats leave the statistics as they are: a workload timed beside the programs
 *              (bench/workload.sh) must not pay for them
 * Plain arrays named *_cpu (per-CPU state, one element per CPU) get one entry per possible CPU.
 * Of a tp_btf program and a raw_tp one on the same tracepoint, only the tp_btf one is loaded.
 * Exit status: 0 stopped cleanly, 1 could not load or attach, 2 bad command line. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "irqlat_abi.h"

#define MAX_PROGS 32

static int prog_id(const struct bpf_program *p)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
		return -errno;
	return (int)info.id;
}

static int usage(void)
{
	fprintf(stderr, "usage: irqlat-bench-load [--pool N] [--no-stats] NAME OBJECT.bpf.o\n");
	return 2;
}

static void size_pool(struct bpf_object *obj, unsigned pool)
{
	static const char *const names[] = { "cells", "cell_meta", "cell_index" };

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct bpf_map *m = bpf_object__find_map_by_name(obj, names[i]);

		if (m)
			bpf_map__set_max_entries(m, pool);
	}
}

/* Programs on a tracepoint this kernel lacks (tp_btf/threshold_apic_entry on a machine
 * without the MCE threshold interrupt) are left out, as irqlatd leaves them out. */
static int skip_missing(struct bpf_object *obj)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	struct bpf_program *p;

	if (!vmlinux)
		return -errno;
	bpf_object__for_each_program(p, obj) {
		const char *sec = bpf_program__section_name(p);
		char name[128];

		if (strncmp(sec, "tp_btf/", 7))
			continue;
		snprintf(name, sizeof(name), "btf_trace_%s", sec + 7);
		if (btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) < 0)
			bpf_program__set_autoload(p, false);
	}
	btf__free(vmlinux);
	/* irqlatd's own objects (bench/clocks.sh) carry a raw_tp twin of each tp_btf program for
	 * kernels without BTF tracepoints; the daemon loads one of the two, and so does this */
	bpf_object__for_each_program(p, obj) {
		const char *sec = bpf_program__section_name(p);
		struct bpf_program *q;

		if (strncmp(sec, "raw_tp/", 7))
			continue;
		bpf_object__for_each_program(q, obj) {
			const char *qs = bpf_program__section_name(q);

			if (!strncmp(qs, "tp_btf/", 7) && !strcmp(qs + 7, sec + 7))
				bpf_program__set_autoload(p, false);
		}
	}
	return 0;
}

/* per-CPU state kept in a plain array, one element per CPU (maps named *_cpu) */
static void size_cpu_arrays(struct bpf_object *obj)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj) {
		const char *n = bpf_map__name(m);
		size_t len = strlen(n);

		if (bpf_map__type(m) == BPF_MAP_TYPE_ARRAY && len > 4 && !strcmp(n + len - 4, "_cpu"))
			bpf_map__set_max_entries(m, (__u32)libbpf_num_possible_cpus());
	}
}

static int fill_pool(struct bpf_object *obj, unsigned pool)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, "cell_next");
	struct cell_pool v = { .next = 0, .max = pool };
	__u32 zero = 0;

	return m ? bpf_map_update_elem(bpf_map__fd(m), &zero, &v, BPF_ANY) : 0;
}

static int attach_all(struct bpf_object *obj, const char *name, struct bpf_link **links, int *n)
{
	struct bpf_program *p;
	char ids[MAX_PROGS * 12] = "";
	size_t len = 0;

	/* two passes: exit programs, then the rest */
	for (int pass = 0; pass < 2; pass++)
		bpf_object__for_each_program(p, obj) {
			int is_exit = strstr(bpf_program__section_name(p), "_exit") != NULL;

			if (is_exit != (pass == 0) || !bpf_program__autoload(p))
				continue;
			if (*n == MAX_PROGS)
				return -E2BIG;
			links[*n] = bpf_program__attach(p);
			if (!links[*n]) {
				int r = -errno;

				fprintf(stderr, "irqlat-bench-load: %s: cannot attach %s: %s\n", name,
					bpf_program__section_name(p), strerror(-r));
				return r;
			}
			(*n)++;
			len += (size_t)snprintf(ids + len, sizeof(ids) - len, "%s%d", len ? "," : "", prog_id(p));
			if (len >= sizeof(ids))
				return -E2BIG;
		}
	printf("%s %s\n", name, ids);
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_link *links[MAX_PROGS];
	struct bpf_object *obj;
	unsigned pool = 0;
	int stats_fd, n = 0, rc = 1, sig;
	bool stats = true;
	sigset_t set;

	while (argc > 3 && argv[1][0] == '-') {
		char *end;

		if (!strcmp(argv[1], "--no-stats")) {
			stats = false;
			argv++, argc--;
			continue;
		}
		if (strcmp(argv[1], "--pool"))
			return usage();
		pool = (unsigned)strtoul(argv[2], &end, 10);
		if (*end || !pool)
			return usage();
		argv += 2, argc -= 2;
	}
	if (argc != 3)
		return usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);	/* before anything can send them */

	stats_fd = stats ? bpf_enable_stats(BPF_STATS_RUN_TIME) : -1;
	if (stats && stats_fd < 0) {
		fprintf(stderr, "irqlat-bench-load: cannot turn on BPF run-time statistics: %s; run as root\n",
			strerror(-stats_fd));
		return 1;
	}
	obj = bpf_object__open_file(argv[2], NULL);
	if (!obj) {
		fprintf(stderr, "irqlat-bench-load: cannot open %s: %s\n", argv[2], strerror(errno));
		goto out;
	}
	if (skip_missing(obj) < 0) {
		fprintf(stderr, "irqlat-bench-load: cannot read the kernel's BTF: %s\n", strerror(errno));
		goto out;
	}
	if (pool)
		size_pool(obj, pool);
	size_cpu_arrays(obj);
	if (bpf_object__load(obj)) {
		fprintf(stderr, "irqlat-bench-load: cannot load %s: %s; run as root on a kernel with BTF\n",
			argv[2], strerror(errno));
		goto out;
	}
	if (pool && fill_pool(obj, pool)) {
		fprintf(stderr, "irqlat-bench-load: %s: cannot size the cell pool: %s\n", argv[1], strerror(errno));
		goto out;
	}
	if (attach_all(obj, argv[1], links, &n) < 0)
		goto out;
	rc = sigwait(&set, &sig) ? 1 : 0;
out:
	while (n > 0)
		bpf_link__destroy(links[--n]);
	bpf_object__close(obj);
	if (stats_fd >= 0)
		close(stats_fd);
	return rc;
}
