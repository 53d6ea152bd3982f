// SPDX-License-Identifier: GPL-2.0
/* Generic raw-tracepoint consumer: copies a tracepoint's arguments, with who and where it
 * fired, into the shared ring buffer. One object instance per attached tracepoint: raw_tp
 * attach cookies (which would let one program serve them all) need kernel 6.10. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "irqlat_abi.h"
#include "ringbuf.bpf.h"

/* Set before load. nargs is a constant to the verifier, so it prunes the reads past it: a
 * raw_tp program whose context reads exceed the tracepoint's arity is refused at attach. */
const volatile __u32 tp_id = 0;
const volatile __u32 nargs = 0;
/* Waking the daemon costs ~25x the rest of this program (3.7 us against 0.14 us per event,
 * measured on softirq_raise), so wake it at most once per interval; the daemon also drains
 * the ring buffer on a short timer, which bounds how long an event that woke nobody waits. */
const volatile __u64 wakeup_interval_ns = 10000000;

__u64 next_wakeup_ns;	/* racy between CPUs on purpose: a lost update costs one extra wakeup */

#define COPY_ARG(i) do { if (nargs > (i)) e->args[i] = ctx[i]; } while (0)

SEC("raw_tp")
int tp_event(__u64 *ctx)
{
	struct tracepoint_event *e;
	__u64 id, flags = BPF_RB_NO_WAKEUP;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop(DROP_TRACEPOINT);
		return 0;
	}
	id = bpf_get_current_pid_tgid();
	e->kind = RB_TRACEPOINT;
	e->cpu = bpf_get_smp_processor_id();
	e->ts_ns = bpf_ktime_get_ns();
	e->tp_id = tp_id;
	e->nargs = nargs;
	e->pid = (__u32)id;
	e->tgid = id >> 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	__builtin_memset(e->args, 0, sizeof(e->args));
	COPY_ARG(0);
	COPY_ARG(1);
	COPY_ARG(2);
	COPY_ARG(3);
	COPY_ARG(4);
	COPY_ARG(5);
	COPY_ARG(6);
	COPY_ARG(7);
	if (e->ts_ns >= next_wakeup_ns) {
		next_wakeup_ns = e->ts_ns + wakeup_interval_ns;
		flags = BPF_RB_FORCE_WAKEUP;
	}
	bpf_ringbuf_submit(e, flags);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
