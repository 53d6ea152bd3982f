// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "hardirq.skel.h"
#include "daemon/loader/hardirq.h"
#include "daemon/loader/loader.h"
#include "daemon/loader/object.h"
#include "daemon/loader/sets.h"
#include "common/kinds/kind.h"
#include "daemon/base/log.h"
#include "common/macro.h"

static int has_cap(cap_t caps, cap_value_t c)
{
	cap_flag_value_t v = CAP_CLEAR;

	return cap_get_flag(caps, c, CAP_EFFECTIVE, &v) == 0 && v == CAP_SET;
}

int loader_check_privileges(void)
{
	cap_t caps = cap_get_proc();
	const char *missing = NULL;

	if (!caps)
		return log_error_errno(-errno, "cannot read this process's capabilities: %m");
	/* CAP_SYS_ADMIN stands in for both on kernels before 5.8 */
	if (!has_cap(caps, CAP_SYS_ADMIN)) {
		if (!has_cap(caps, CAP_BPF) && !has_cap(caps, CAP_PERFMON))
			missing = "CAP_BPF and CAP_PERFMON";
		else if (!has_cap(caps, CAP_BPF))
			missing = "CAP_BPF";
		else if (!has_cap(caps, CAP_PERFMON))
			missing = "CAP_PERFMON";
	}
	cap_free(caps);
	if (missing) {
		log_error("missing capability %s: run irqlatd as root (sudo) or grant it %s", missing, missing);
		return -EPERM;
	}
	return 0;
}

static int load_vmlinux_btf(struct btf **btf)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		log_error("kernel BTF is missing (/sys/kernel/btf/vmlinux): irqlatd needs a kernel built with CONFIG_DEBUG_INFO_BTF=y");
		return -ENOTSUP;
	}
	*btf = btf__load_vmlinux_btf();
	if (!*btf)
		return log_error_errno(-errno, "cannot read kernel BTF from /sys/kernel/btf/vmlinux: %m");
	return 0;
}

static int choose_attach_style(const struct btf *btf, enum attach_mode mode, const char **style)
{
	bool has_btf_tp = kernel_has_event(btf, "irq_handler_entry") && kernel_has_event(btf, "irq_handler_exit");

	switch (mode) {
	case ATTACH_TP_BTF:
		if (!has_btf_tp) {
			log_error("kernel BTF has no irq_handler_entry/exit tracepoint types: use --attach raw_tp or auto");
			return -ENOTSUP;
		}
		*style = "tp_btf";
		break;
	case ATTACH_RAW_TP:
		*style = "raw_tp";
		break;
	default:
		*style = has_btf_tp ? "tp_btf" : "raw_tp";
	}
	return 0;
}

/* Maps the values of an mmapable array map into our memory; prot: PROT_READ for a map only
 * the programs write */
static int map_mmap(struct bpf_map *map, int prot, void **ret, size_t *len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t sz = (size_t)bpf_map__value_size(map) * bpf_map__max_entries(map);
	void *p;

	*len = (sz + page - 1) / page * page;
	p = mmap(NULL, *len, prot, MAP_SHARED, bpf_map__fd(map), 0);
	if (p == MAP_FAILED)
		return -errno;
	*ret = p;
	return 0;
}

static void loader_closep(struct loader **l)
{
	if (*l)
		loader_close(*l);
}

uint64_t loader_map_bytes(uint32_t ncpus, uint32_t max_cells, uint32_t ringbuf_bytes)
{
	uint64_t hash_entry = sizeof(struct cell_key) + 8 /* value, rounded */ + 48 /* htab_elem */;
	uint64_t bytes = (uint64_t)max_cells * (sizeof(struct lat_cell) + sizeof(struct lat_cell_meta) + hash_entry) +
			 ringbuf_bytes + (uint64_t)ncpus * DROP_KINDS * 8;

	for (unsigned i = 0; i < loader_nsets; i++)
		bytes += loader_sets[i]->map_bytes(ncpus);
	return bytes;
}

bool loader_kind_on(const struct loader *l, enum lat_kind kind)
{
	return (unsigned)kind < KINDS && l->kind_on[kind];
}

void *loader_set_skel(const struct loader *l, const struct progset *ps)
{
	for (unsigned i = 0; i < loader_nsets; i++)
		if (loader_sets[i] == ps)
			return l->set_skel[i];
	return NULL;
}

/* Whether the configuration turns on one of the set's kinds */
static bool set_wanted(const struct progset *ps, const struct loader_opts *o)
{
	for (unsigned k = 0; k < KINDS; k++)
		if ((ps->kinds & KIND_BIT(k)) && o->on[k])
			return true;
	return false;
}

static void btf_freep(struct btf **b)
{
	btf__free(*b);
}

int loader_open(struct loader *l, const struct loader_opts *o)
{
	_cleanup_(loader_closep) struct loader *opened = l;	/* undone on every failure below */
	_cleanup_(btf_freep) struct btf *vmlinux = NULL;
	struct progset_env env;
	void *cells, *meta, *pool, *why;
	int r, ncpus;

	memset(l, 0, sizeof(*l));
	l->ringbuf_fd = l->drops_fd = -1;
	libbpf_log_setup();

	r = load_vmlinux_btf(&vmlinux);
	if (r < 0)
		return r;
	r = choose_attach_style(vmlinux, o->mode, &l->attach_style);
	if (r < 0)
		return r;
	ncpus = libbpf_num_possible_cpus();
	if (ncpus < 0)
		return log_error_errno(ncpus, "cannot count the possible CPUs (/sys/devices/system/cpu/possible): %m");
	if (loader_nsets > LOADER_SETS_MAX)
		return log_error_errno(-E2BIG, "%u program sets: raise LOADER_SETS_MAX", loader_nsets);
	env = (struct progset_env){ .vmlinux = vmlinux, .btf_style = !strcmp(l->attach_style, "tp_btf"), .ncpus = ncpus };
	l->ncpus = (unsigned)ncpus;
	l->max_cells = o->max_cells;
	for (unsigned k = 0; k < KINDS; k++)
		l->cell_threshold_ns[k] = o->threshold_ns[k] ? o->threshold_ns[k] : UINT64_MAX;

	r = hardirq_object_load(l, o, &env);
	if (r < 0)
		return r;
	/* the pool's size goes in before the programs run: until then every cold path finds it full */
	r = map_mmap(l->skel->maps.cells, PROT_READ | PROT_WRITE, &cells, &l->cells_len);
	if (r >= 0) {
		l->cells = cells;
		r = map_mmap(l->skel->maps.cell_meta, PROT_READ | PROT_WRITE, &meta, &l->meta_len);
	}
	if (r >= 0) {
		l->meta = meta;
		r = map_mmap(l->skel->maps.cell_next, PROT_READ | PROT_WRITE, &pool, &l->pool_len);
	}
	if (r < 0)
		return log_error_errno(r, "cannot map the histogram cells into memory: %m");
	l->pool = pool;
	l->pool->max = o->max_cells;
	/* read where they are kept, at each status and scrape: a lookup a tick would copy
	 * ncpus x 384 bytes through the syscall for figures that are there to be read */
	r = map_mmap(l->skel->maps.why_counts, PROT_READ | PROT_WRITE, &why, &l->why_counts_len);
	if (r < 0)
		return log_error_errno(r, "cannot map the late waits' counts into memory: %m");
	l->why_counts = why;
	for (unsigned i = 0; i < loader_nsets; i++)
		if (set_wanted(loader_sets[i], o) && (r = loader_sets[i]->open(l, &l->set_skel[i], o, &env)) < 0)
			return r;
	l->ringbuf_fd = bpf_map__fd(l->skel->maps.events);
	l->drops_fd = bpf_map__fd(l->skel->maps.drops);
	TAKE_PTR(opened);
	return 0;
}

void loader_close(struct loader *l)
{
	if (l->cells)
		munmap((void *)l->cells, l->cells_len);
	if (l->meta)
		munmap((void *)l->meta, l->meta_len);
	if (l->pool)
		munmap((void *)l->pool, l->pool_len);
	if (l->why_counts)
		munmap((void *)l->why_counts, l->why_counts_len);
	for (unsigned i = 0; i < l->nlinks; i++)
		bpf_link__destroy(l->links[i]);
	for (unsigned i = loader_nsets; i-- > 0;)
		if (l->set_skel[i] && loader_sets[i]->close)
			loader_sets[i]->close(l->set_skel[i]);
	hardirq_object_close(l);	/* last: it owns the shared maps */
	if (l->stats_fd > 0)
		close(l->stats_fd);
	memset(l, 0, sizeof(*l));
	l->ringbuf_fd = l->drops_fd = -1;
}

int loader_enable_stats(struct loader *l)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		return -errno;
	l->stats_fd = fd;
	return 0;
}

/* kernel.bpf_stats_enabled is 1 while the sysctl is set; a bpf_enable_stats() fd turns the
 * counting on without showing there, so ours is checked first. */
static bool stats_enabled(const struct loader *l)
{
	_cleanup_fclose_ FILE *f = NULL;
	int v = 0;

	if (l && l->stats_fd > 0)
		return true;
	f = fopen("/proc/sys/kernel/bpf_stats_enabled", "re");
	if (!f || fscanf(f, "%d", &v) != 1)
		return false;
	return v != 0;
}

/* bpf_obj_get_info_by_fd: libbpf 1.1 has no bpf_prog_get_info_by_fd yet */
int loader_read_cost(const struct loader *l, struct loader_cost *cost)
{
	struct bpf_prog_info entry = { 0 }, exit_ = { 0 };
	__u32 len = sizeof(entry);

	memset(cost, 0, sizeof(*cost));
	cost->stats_enabled = stats_enabled(l);
	if (!l || l->entry_prog_fd <= 0 || l->exit_prog_fd <= 0)
		return -EBADF;	/* not loaded */
	if (bpf_obj_get_info_by_fd(l->entry_prog_fd, &entry, &len) < 0)
		return -errno;
	len = sizeof(exit_);
	if (bpf_obj_get_info_by_fd(l->exit_prog_fd, &exit_, &len) < 0)
		return -errno;
	cost->entry_id = entry.id;
	cost->exit_id = exit_.id;
	cost->run_time_ns = entry.run_time_ns + exit_.run_time_ns;
	cost->run_cnt = exit_.run_cnt;
	return 0;
}

uint32_t loader_cells_used(const struct loader *l)
{
	uint32_t n = __atomic_load_n(&l->pool->next, __ATOMIC_ACQUIRE);

	return n < l->max_cells ? n : l->max_cells;
}

/* Each cell carries its threshold beside its sums, so the exit program reads no other line
 * for it; new cells start from their program's global. 8-byte aligned stores: a running
 * program sees the old value or the new one. */
void loader_set_threshold(struct loader *l, enum lat_kind kind, uint64_t threshold_ns)
{
	uint64_t t = threshold_ns ? threshold_ns : UINT64_MAX;
	uint32_t used;

	if (kind >= KINDS)
		return;
	l->cell_threshold_ns[kind] = t;
	for (unsigned i = 0; i < loader_nsets; i++) {
		volatile __u64 *global;

		if (!l->set_skel[i] || !(loader_sets[i]->kinds & KIND_BIT(kind)) || !loader_sets[i]->threshold)
			continue;
		global = loader_sets[i]->threshold(l->set_skel[i], kind);
		if (global)
			__atomic_store_n(global, t, __ATOMIC_RELAXED);
	}
	used = loader_cells_used(l);
	for (uint32_t id = 0; id < used; id++)
		loader_apply_threshold(l, id);
}

void loader_apply_threshold(struct loader *l, uint32_t id)
{
	uint32_t kind;

	if (id >= l->max_cells || !__atomic_load_n(&l->meta[id].ready, __ATOMIC_ACQUIRE))
		return;	/* the collector applies it when it takes the cell */
	kind = l->meta[id].kind;
	if (kind < KINDS && l->cells[id].threshold_ns != l->cell_threshold_ns[kind])
		__atomic_store_n(&l->cells[id].threshold_ns, l->cell_threshold_ns[kind], __ATOMIC_RELAXED);
}

int loader_read_drop(int drops_fd, uint32_t kind, uint64_t *sum)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t vals[ncpu > 0 ? ncpu : 1];

	*sum = 0;
	if (bpf_map_lookup_elem(drops_fd, &kind, vals))
		return -errno;
	for (int c = 0; c < ncpu; c++)
		*sum += vals[c];
	return 0;
}

int loader_read_drops(const struct loader *l, uint64_t out[DROP_KINDS])
{
	for (uint32_t k = 0; k < DROP_KINDS; k++) {
		int r = loader_read_drop(l->drops_fd, k, &out[k]);

		if (r < 0)
			return r;
	}
	return 0;
}
