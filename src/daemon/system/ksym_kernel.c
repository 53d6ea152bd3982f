// SPDX-License-Identifier: GPL-2.0
/* The frames' names from the kernel's own lookup. The daemon used to read /proc/kallsyms whole
 * for them and keep it (5 MiB of its resident size for 121,000 text symbols, and 70 ms of reads
 * here, seconds under emulation), for at most two stacks a CPU each second; the kernel holds
 * those names already, and a syscall program run on demand names a whole stack in one call. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "irqlat_abi.h"
#include "ksym.skel.h"
#include "daemon/system/ksym_kernel.h"

static struct ksym_bpf *skel;

int ksym_kernel_open(void)
{
	int r;

	if (skel)
		return 0;
	skel = ksym_bpf__open_and_load();
	if (!skel) {
		r = -errno;
		return r < 0 ? r : -EINVAL;
	}
	return 0;
}

void ksym_kernel_close(void)
{
	ksym_bpf__destroy(skel);
	skel = NULL;
}

/* "function+0x1f/0x80 [module]" as the kernel prints it, without the function's size */
static void trim_size(char *s)
{
	char *slash = strchr(s, '/');
	const char *rest;

	if (!slash)
		return;
	rest = strchr(slash, ' ');
	if (!rest)
		rest = slash + strlen(slash);
	memmove(slash, rest, strlen(rest) + 1);
}

int ksym_kernel_names(const uint64_t *addr, unsigned n, char *name, size_t len)
{
	static struct ksym_req req;	/* 3 KiB: not on the stack */
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	uint32_t zero = 0;
	int r = -ENOENT;

	if (n > KSYM_BATCH)
		n = KSYM_BATCH;
	if (skel) {
		memset(&req, 0, sizeof(req));
		memcpy(req.addr, addr, n * sizeof(*addr));
		req.n = n;
		r = bpf_map_update_elem(bpf_map__fd(skel->maps.ksym_req), &zero, &req, BPF_ANY);
		if (r == 0)
			r = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.ksym_names), &opts);
		if (r == 0)
			r = bpf_map_lookup_elem(bpf_map__fd(skel->maps.ksym_req), &zero, &req);
		if (r < 0)
			r = -errno;
	}
	for (unsigned i = 0; i < n; i++) {
		char *out = name + i * len;

		if (r == 0 && req.name[i][0]) {
			req.name[i][KSYM_NAME - 1] = 0;
			trim_size(req.name[i]);
			snprintf(out, len, "%s", req.name[i]);
		} else {
			snprintf(out, len, "0x%" PRIx64, addr[i]);
		}
	}
	return r;
}
