// SPDX-License-Identifier: GPL-2.0
/* The physical floor of the NMI benchmark: a program on nmi:nmi_handler that only reads the
 * clock, with no map. bpf/nmi.bpf.c is judged against it (where the machine raises NMIs: this
 * project's host raises none; a QEMU guest does, for sysrq's backtraces or the monitor's nmi). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("tp_btf/nmi_handler")
int BPF_PROG(clock_nmi, void *handler, s64 delta_ns, int handled)
{
	volatile __u64 sink = bpf_ktime_get_ns();	/* the stack, not a map */

	(void)sink;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
