// SPDX-License-Identifier: GPL-2.0
/* Softirqs (bpf/softirq.bpf.c): every architecture has irq:softirq_*. Run time and raise
 * latency, one object. */
#include <errno.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "softirq.skel.h"
#include "daemon/loader/object.h"
#include "daemon/loader/progset.h"
#include "daemon/base/log.h"
#include "common/macro.h"

static int softirq_open(struct loader *l, void **skel, const struct loader_opts *o, const struct progset_env *env)
{
	struct softirq_bpf *s = softirq_bpf__open();
	char missing[128];
	int r;
	(void)o;

	if (!s)
		return log_error_errno(-errno, "cannot open the softirq BPF object: %m");
	*skel = s;
	s->data->run_threshold_ns = l->cell_threshold_ns[KIND_SOFTIRQ];
	s->data->raise_threshold_ns = l->cell_threshold_ns[KIND_SOFTIRQ_RAISE];
	bpf_map__set_max_entries(s->maps.softirq_cpu, (uint32_t)env->ncpus);
	r = share_maps(s->obj, l);
	if (r < 0)
		return share_error(r, "softirq");
	if (choose_programs(s->obj, env->vmlinux, env->btf_style, missing, sizeof(missing)) == 0 || missing[0]) {
		log_warning("softirqs: the kernel has no tracepoint irq:%s: softirqs are not measured", missing);
		softirq_bpf__destroy(TAKE_PTR(*skel));
		return 0;
	}
	if (softirq_bpf__load(s))
		return load_error(-errno, "softirq");
	r = attach_kind(l, s->obj, "irq");
	if (r < 0)
		return r;
	l->kind_on[KIND_SOFTIRQ] = l->kind_on[KIND_SOFTIRQ_RAISE] = true;
	return 0;
}

static void softirq_close(void *skel)
{
	softirq_bpf__destroy(skel);
}

static volatile __u64 *softirq_threshold(void *skel, enum lat_kind k)
{
	struct softirq_bpf *s = skel;

	return k == KIND_SOFTIRQ ? &s->data->run_threshold_ns : k == KIND_SOFTIRQ_RAISE ? &s->data->raise_threshold_ns : NULL;
}

static uint64_t softirq_map_bytes(uint32_t ncpus)
{
	return (uint64_t)ncpus * sizeof(struct softirq_cpu);
}

const struct progset progset_softirq = {
	.name = "softirq",
	.kinds = KIND_BIT(KIND_SOFTIRQ) | KIND_BIT(KIND_SOFTIRQ_RAISE),
	.open = softirq_open,
	.close = softirq_close,
	.threshold = softirq_threshold,
	.map_bytes = softirq_map_bytes,
};
