// SPDX-License-Identifier: GPL-2.0
/* The physical floor of the vector-interrupt benchmark (bench/kinds.sh): entry and exit
 * programs that only read the clock, with no map, on every irq_vectors tracepoint
 * bpf/vector.bpf.c attaches (the bench's loader leaves out those this kernel lacks).
 * bpf/vector.bpf.c is judged against it on the same tracepoints. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define CLOCK_PROG(tp)									\
	SEC("tp_btf/" #tp)								\
	int BPF_PROG(clock_##tp, int vector)						\
	{										\
		volatile __u64 sink = bpf_ktime_get_ns();	/* the stack, not a map */	\
											\
		(void)sink;								\
		return 0;								\
	}

CLOCK_PROG(local_timer_entry)
CLOCK_PROG(local_timer_exit)
CLOCK_PROG(spurious_apic_entry)
CLOCK_PROG(spurious_apic_exit)
CLOCK_PROG(error_apic_entry)
CLOCK_PROG(error_apic_exit)
CLOCK_PROG(x86_platform_ipi_entry)
CLOCK_PROG(x86_platform_ipi_exit)
CLOCK_PROG(irq_work_entry)
CLOCK_PROG(irq_work_exit)
CLOCK_PROG(reschedule_entry)
CLOCK_PROG(reschedule_exit)
CLOCK_PROG(call_function_entry)
CLOCK_PROG(call_function_exit)
CLOCK_PROG(call_function_single_entry)
CLOCK_PROG(call_function_single_exit)
CLOCK_PROG(threshold_apic_entry)
CLOCK_PROG(threshold_apic_exit)
CLOCK_PROG(deferred_error_apic_entry)
CLOCK_PROG(deferred_error_apic_exit)
CLOCK_PROG(thermal_apic_entry)
CLOCK_PROG(thermal_apic_exit)

char LICENSE[] SEC("license") = "GPL";
