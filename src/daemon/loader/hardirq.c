// SPDX-License-Identifier: GPL-2.0
/* The hard-IRQ object (bpf/hardirq.bpf.c): every handler run, irq_handler_entry to _exit. It
 * owns the maps every object shares: the cells, the ring buffer, the CPUs' clock lines
 * (bpf/clock.bpf.h), the late waits' counts (bpf/why.bpf.h), the threaded IRQs' state. */
#include <errno.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "hardirq.skel.h"
#include "daemon/loader/hardirq.h"
#include "daemon/loader/object.h"
#include "daemon/base/log.h"

int hardirq_object_load(struct loader *l, const struct loader_opts *o, const struct progset_env *env)
{
	struct hardirq_bpf *skel = hardirq_bpf__open();

	if (!skel)
		return log_error_errno(-errno, "cannot open the BPF object: %m");
	l->skel = skel;
	skel->data->threshold_ns = l->cell_threshold_ns[KIND_HARDIRQ];
	bpf_map__set_max_entries(skel->maps.hardirq_cpu, (uint32_t)env->ncpus);
	bpf_map__set_max_entries(skel->maps.clock_cpu, (uint32_t)env->ncpus);
	bpf_map__set_max_entries(skel->maps.why_counts, (uint32_t)env->ncpus * WHY_CLASSES);
	bpf_map__set_max_entries(skel->maps.threaded_cpu, o->on[KIND_THREADED] ? (uint32_t)env->ncpus : 1);
	bpf_map__set_max_entries(skel->maps.cell_index, o->max_cells);
	bpf_map__set_max_entries(skel->maps.cells, o->max_cells);
	bpf_map__set_max_entries(skel->maps.cell_meta, o->max_cells);
	bpf_map__set_max_entries(skel->maps.events, o->ringbuf_bytes);
	skel->rodata->threaded_on = o->on[KIND_THREADED];	/* the exit stamps IRQ threads' wakes */
	if (!o->on[KIND_THREADED])
		bpf_map__set_max_entries(skel->maps.threaded_tasks, 1);
	/* one attach style per run, chosen once, so the verifier sees only the programs we use */
	bpf_program__set_autoload(skel->progs.irq_entry_btf, env->btf_style);
	bpf_program__set_autoload(skel->progs.irq_exit_btf, env->btf_style);
	bpf_program__set_autoload(skel->progs.irq_entry_raw, !env->btf_style);
	bpf_program__set_autoload(skel->progs.irq_exit_raw, !env->btf_style);
	if (hardirq_bpf__load(skel))
		return load_error(-errno, "hard-IRQ");
	return 0;
}

void hardirq_object_close(struct loader *l)
{
	if (l->skel)
		hardirq_bpf__destroy(l->skel);	/* detaches its links */
	l->skel = NULL;
}

/* Attaches, of the object the loader loaded, the style's two programs */
static int hardirq_open(struct loader *l, void **skel_out, const struct loader_opts *o, const struct progset_env *env)
{
	struct hardirq_bpf *skel = l->skel;
	bool btf = env->btf_style;
	struct bpf_program *entry = btf ? skel->progs.irq_entry_btf : skel->progs.irq_entry_raw;
	struct bpf_program *exit_ = btf ? skel->progs.irq_exit_btf : skel->progs.irq_exit_raw;
	int r;
	(void)o;

	*skel_out = skel;
	/* exit first: an entry without its exit is harmless, the other way round is not measured */
	r = attach_one(exit_, btf ? &skel->links.irq_exit_btf : &skel->links.irq_exit_raw, "irq:irq_handler_exit",
		       l->attach_style);
	if (r < 0)
		return r;
	r = attach_one(entry, btf ? &skel->links.irq_entry_btf : &skel->links.irq_entry_raw, "irq:irq_handler_entry",
		       l->attach_style);
	if (r < 0)
		return r;
	note_attached(l, "irq", "irq_handler_exit", exit_);
	note_attached(l, "irq", "irq_handler_entry", entry);
	l->entry_prog_fd = bpf_program__fd(entry);
	l->exit_prog_fd = bpf_program__fd(exit_);
	l->kind_on[KIND_HARDIRQ] = true;
	return 0;
}

static volatile __u64 *hardirq_threshold(void *skel, enum lat_kind k)
{
	struct hardirq_bpf *s = skel;

	return k == KIND_HARDIRQ && s->data ? &s->data->threshold_ns : NULL;
}

/* its cell cache, and the shared clock lines and late waits' counts */
static uint64_t hardirq_map_bytes(uint32_t ncpus)
{
	return (uint64_t)ncpus * (sizeof(struct cpu_clock) + sizeof(struct hardirq_cpu) + WHY_CLASSES * sizeof(struct why_count));
}

const struct progset progset_hardirq = {
	.name = "hardirq",
	.kinds = KIND_BIT(KIND_HARDIRQ),
	.open = hardirq_open,
	.threshold = hardirq_threshold,
	.map_bytes = hardirq_map_bytes,
};
