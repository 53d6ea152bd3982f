// SPDX-License-Identifier: GPL-2.0
/* Hard-IRQ handler duration: time from irq_handler_entry to irq_handler_exit of each
 * irqaction, per CPU, into log-linear histograms; runs at or above a threshold go to the ring
 * buffer. Every instruction here runs on every interrupt of the machine. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "irqlat_abi.h"
#include "ringbuf.bpf.h"

/* Set before load: slots has nr_slots entries; the last one serves every IRQ number beyond. */
const volatile __u32 nr_slots = 1;
const volatile __u32 max_cells = 1;

/* Changed at run time by the daemon (reload keeps the histograms). 0 turns outliers off. */
volatile __u64 threshold_ns = 100000;

__u32 next_cell;	/* cells handed out so far; user space reads it */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct irq_slot);
	__uint(max_entries, 1);	/* resized by the loader */
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct cell_key);
	__type(value, __u32);
	__uint(max_entries, 1);
} cell_index SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct irq_cell);
	__uint(max_entries, 1);
} cells SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct irq_cell_meta);
	__uint(max_entries, 1);
} cell_meta SEC(".maps");

/* Cold path: the first run of a handler on this CPU, or a shared line switching handlers. */
static __noinline int cell_of(__u32 irq, struct irqaction *action, __u64 action_id)
{
	struct cell_key key = { .action_id = action_id, .irq = irq,
				.cpu = bpf_get_smp_processor_id() };
	struct irq_cell_meta *meta;
	__u32 *found, id;

	found = bpf_map_lookup_elem(&cell_index, &key);
	if (found)
		return *found;
	if (next_cell >= max_cells)
		return -1;
	id = __sync_fetch_and_add(&next_cell, 1);
	meta = bpf_map_lookup_elem(&cell_meta, &id);
	if (!meta)
		return -1;
	meta->irq = irq;
	meta->cpu = key.cpu;
	bpf_probe_read_kernel_str(meta->name, sizeof(meta->name), BPF_CORE_READ(action, name));
	meta->action_id = action_id;	/* last: user space takes a cell once this is set */
	bpf_map_update_elem(&cell_index, &key, &id, BPF_NOEXIST);
	return id;
}

static __always_inline void on_entry(__u32 irq, struct irqaction *action)
{
	__u32 idx = irq < nr_slots - 1 ? irq : nr_slots - 1;
	__u64 action_id = (__u64)action;
	struct irq_slot *slot;
	int cell;

	slot = bpf_map_lookup_elem(&slots, &idx);
	if (!slot)
		return;
	if (slot->action_id != action_id) {
		cell = cell_of(irq, action, action_id);
		if (cell < 0) {
			count_drop(DROP_NO_CELL);
			slot->action_id = 0;
			return;
		}
		slot->action_id = action_id;
		slot->cell = cell;
	}
	slot->start_ns = bpf_ktime_get_ns();	/* last, so our own work is not measured */
}

static __always_inline void emit_outlier(__u32 cell_id, __u32 irq,
					 __u64 now, __u64 duration)
{
	struct irq_cell_meta *meta = bpf_map_lookup_elem(&cell_meta, &cell_id);
	struct outlier_event *e;
	__u64 id;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_drop(DROP_OUTLIER);
		return;
	}
	id = bpf_get_current_pid_tgid();
	e->kind = RB_OUTLIER;
	e->cpu = bpf_get_smp_processor_id();
	e->ts_ns = now;
	e->duration_ns = duration;
	e->irq = irq;
	e->cell = cell_id;
	e->pid = (__u32)id;
	e->tgid = id >> 32;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (meta)
		__builtin_memcpy(e->name, meta->name, sizeof(e->name));
	else
		e->name[0] = 0;
	bpf_ringbuf_submit(e, 0);
}

static __always_inline void on_exit(__u32 irq, struct irqaction *action, int ret)
{
	__u64 now = bpf_ktime_get_ns();	/* first, so our own work is not measured */
	__u32 idx = irq < nr_slots - 1 ? irq : nr_slots - 1;
	struct irq_slot *slot;
	struct irq_cell *cell;
	__u64 d, threshold;
	__u32 b, cell_id;

	slot = bpf_map_lookup_elem(&slots, &idx);
	if (!slot || !slot->start_ns || slot->action_id != (__u64)action)
		return;
	d = now - slot->start_ns;
	slot->start_ns = 0;	/* an exit without its entry (attach race) must not pair with this */
	cell_id = slot->cell;
	cell = bpf_map_lookup_elem(&cells, &cell_id);
	if (!cell)
		return;
	cell->count++;
	cell->sum_ns += d;
	if (d > cell->max_ns)
		cell->max_ns = d;
	if (ret == 0)	/* IRQ_NONE: the handler says the interrupt was not its device's */
		cell->spurious++;
	b = hist_bucket(d);
	if (b < HIST_BUCKETS)	/* always true; tells the verifier */
		cell->hist[b]++;
	threshold = threshold_ns;
	if (threshold && d >= threshold)
		emit_outlier(cell_id, irq, now, d);
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(irq_entry_btf, int irq, struct irqaction *action)
{
	on_entry(irq, action);
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(irq_exit_btf, int irq, struct irqaction *action, int ret)
{
	on_exit(irq, action, ret);
	return 0;
}

SEC("raw_tp/irq_handler_entry")
int BPF_PROG(irq_entry_raw, int irq, struct irqaction *action)
{
	on_entry(irq, action);
	return 0;
}

SEC("raw_tp/irq_handler_exit")
int BPF_PROG(irq_exit_raw, int irq, struct irqaction *action, int ret)
{
	on_exit(irq, action, ret);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
