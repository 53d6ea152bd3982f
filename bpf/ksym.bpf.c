// SPDX-License-Identifier: GPL-2.0
/* The kernel's own names for the frames of the explained waits' stacks: the daemon writes up
 * to KSYM_BATCH addresses into ksym_req and runs this program (BPF_PROG_TEST_RUN of a syscall
 * program), which names each with bpf_snprintf()'s %pS, the kernel's lookup ("function+0x1f/
 * 0x80", "[module]" after a module's). Not run on any event: only when the daemon asks, at
 * most for the two stacks a CPU each second takes (bpf/why.bpf.h). So the daemon keeps no copy
 * of /proc/kallsyms: that table was 5 MiB of its resident size for this kernel's 121,000 text
 * symbols, for a few stacks a second. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "irqlat_abi.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct ksym_req);
	__uint(max_entries, 1);
} ksym_req SEC(".maps");

SEC("syscall")
int ksym_names(void *ctx)
{
	struct ksym_req *r;
	__u32 zero = 0;

	r = bpf_map_lookup_elem(&ksym_req, &zero);
	if (!r)
		return 0;
	for (__u32 i = 0; i < KSYM_BATCH; i++) {
		if (i >= r->n)
			break;
		bpf_snprintf(r->name[i], sizeof(r->name[i]), "%pS", &r->addr[i], sizeof(r->addr[i]));
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
