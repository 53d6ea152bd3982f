/* SPDX-License-Identifier: GPL-2.0 */
/* A value at or above its cell's threshold, to the ring buffer: the rare event user space
 * acts on one by one (logs it, journals it, sends it to subscribers). */
#ifndef IRQLAT_OUTLIER_BPF_H
#define IRQLAT_OUTLIER_BPF_H

#include "ringbuf.bpf.h"

/* Out of line: the hot path only tests the threshold. */
static __noinline void outlier_emit(__u32 cell, __u64 ts_ns, __u64 value_ns, __u64 aux)
{
	struct outlier_event *e;
	__u64 id;

	e = ringbuf_below(sizeof(*e), 3) ? bpf_ringbuf_reserve(&events, sizeof(*e), 0) : NULL;
	if (!e) {
		count_drop(DROP_OUTLIER);
		return;
	}
	id = bpf_get_current_pid_tgid();
	e->type = RB_OUTLIER;
	e->cell = cell;
	e->ts_ns = ts_ns;
	e->value_ns = value_ns;
	e->pid = (__u32)id;
	e->tgid = id >> 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	e->aux = aux;
	bpf_ringbuf_submit(e, 0);
}

#endif
