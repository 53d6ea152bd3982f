// SPDX-License-Identifier: GPL-2.0
/* The CPU's own interrupts (bpf/vector.bpf.c): the pairs of irq_vectors:* this kernel has,
 * said in one line when some or all are missing (they are x86's). */
#include <errno.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "vector.skel.h"
#include "daemon/loader/object.h"
#include "daemon/loader/progset.h"
#include "daemon/base/log.h"
#include "common/macro.h"

static int vector_open(struct loader *l, void **skel, const struct loader_opts *o, const struct progset_env *env)
{
	struct vector_bpf *v = vector_bpf__open();
	char missing[256];
	unsigned n;
	int r;
	(void)o;

	if (!v)
		return log_error_errno(-errno, "cannot open the vector interrupt BPF object: %m");
	*skel = v;
	v->data->threshold_ns = l->cell_threshold_ns[KIND_VECTOR];
	bpf_map__set_max_entries(v->maps.vector_cpu, (uint32_t)env->ncpus);
	r = share_maps(v->obj, l);
	if (r < 0)
		return share_error(r, "vector interrupt");
	n = choose_programs(v->obj, env->vmlinux, env->btf_style, missing, sizeof(missing));
	if (!n) {
		log_info("vector interrupts: this kernel has no irq_vectors tracepoints (they are x86's): the CPU's own interrupts (local timer, IPIs) are not measured");
		vector_bpf__destroy(TAKE_PTR(*skel));
		return 0;
	}
	if (missing[0])
		log_info("vector interrupts: this kernel has no irq_vectors tracepoint for %s: those are not measured, the others are", missing);
	if (vector_bpf__load(v))
		return load_error(-errno, "vector interrupt");
	r = attach_kind(l, v->obj, "irq_vectors");
	if (r < 0)
		return r;
	l->kind_on[KIND_VECTOR] = true;
	return 0;
}

static void vector_close(void *skel)
{
	vector_bpf__destroy(skel);
}

static volatile __u64 *vector_threshold(void *skel, enum lat_kind k)
{
	struct vector_bpf *v = skel;

	return k == KIND_VECTOR ? &v->data->threshold_ns : NULL;
}

static uint64_t vector_map_bytes(uint32_t ncpus)
{
	return (uint64_t)ncpus * sizeof(struct vector_cpu);
}

const struct progset progset_vector = {
	.name = "vector",
	.kinds = KIND_BIT(KIND_VECTOR),
	.open = vector_open,
	.close = vector_close,
	.threshold = vector_threshold,
	.map_bytes = vector_map_bytes,
};
