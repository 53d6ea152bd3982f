// SPDX-License-Identifier: GPL-2.0
/* NMI handlers (bpf/nmi.bpf.c): nmi:nmi_handler, one program. In NMI context its state is a
 * plain array by CPU (nmi_cpu) and its cells are found there, never through the cell_index
 * hash, whose update takes a lock. A kernel without the tracepoint is said in one line. */
#include <errno.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "nmi.skel.h"
#include "daemon/loader/object.h"
#include "daemon/loader/progset.h"
#include "daemon/base/log.h"
#include "common/macro.h"

static int nmi_open(struct loader *l, void **skel, const struct loader_opts *o, const struct progset_env *env)
{
	struct nmi_bpf *n = nmi_bpf__open();
	char missing[64];
	int r;
	(void)o;

	if (!n)
		return log_error_errno(-errno, "cannot open the NMI BPF object: %m");
	*skel = n;
	n->data->threshold_ns = l->cell_threshold_ns[KIND_NMI];
	bpf_map__set_max_entries(n->maps.nmi_cpu, (uint32_t)env->ncpus);
	r = share_maps(n->obj, l);
	if (r < 0)
		return share_error(r, "NMI");
	if (choose_programs(n->obj, env->vmlinux, env->btf_style, missing, sizeof(missing)) == 0) {
		log_info("NMIs: this kernel has no tracepoint nmi:nmi_handler: NMI handlers are not measured");
		nmi_bpf__destroy(TAKE_PTR(*skel));
		return 0;
	}
	if (nmi_bpf__load(n))
		return load_error(-errno, "NMI");
	r = attach_kind(l, n->obj, "nmi");
	if (r < 0)
		return r;
	l->kind_on[KIND_NMI] = true;
	return 0;
}

static void nmi_close(void *skel)
{
	nmi_bpf__destroy(skel);
}

static volatile __u64 *nmi_threshold(void *skel, enum lat_kind k)
{
	struct nmi_bpf *n = skel;

	return k == KIND_NMI ? &n->data->threshold_ns : NULL;
}

static uint64_t nmi_map_bytes(uint32_t ncpus)
{
	return (uint64_t)ncpus * sizeof(struct nmi_cpu);
}

const struct progset progset_nmi = {
	.name = "nmi",
	.kinds = KIND_BIT(KIND_NMI),
	.open = nmi_open,
	.close = nmi_close,
	.threshold = nmi_threshold,
	.map_bytes = nmi_map_bytes,
};
