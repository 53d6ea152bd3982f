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
#include "softirq.skel.h"
#include "vector.skel.h"
#include "timer.skel.h"
#include "ksym.h"
#include "threaded.skel.h"
#include "loader.h"
#include "loader_kinds.h"
#include "log.h"
#include "common/macro.h"

int attach_mode_parse(const char *s, enum attach_mode *m)
{
	if (!strcmp(s, "auto"))
		*m = ATTACH_AUTO;
	else if (!strcmp(s, "tp_btf"))
		*m = ATTACH_TP_BTF;
	else if (!strcmp(s, "raw_tp"))
		*m = ATTACH_RAW_TP;
	else
		return -EINVAL;
	return 0;
}

static const char *const threaded_run_names[] = { "auto", "handler", "on-cpu" };

int threaded_run_mode_parse(const char *s, enum threaded_run_mode *m)
{
	for (size_t i = 0; i < ELEMENTSOF(threaded_run_names); i++)
		if (!strcmp(s, threaded_run_names[i])) {
			*m = (enum threaded_run_mode)i;
			return 0;
		}
	return -EINVAL;
}

const char *threaded_run_mode_name(enum threaded_run_mode m)
{
	return (unsigned)m < ELEMENTSOF(threaded_run_names) ? threaded_run_names[m] : "?";
}

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

/* Set while a load may fail for a reason the loader reports in its own words and works around
 * (fentry refused): libbpf's warnings then go to the debug level. */
static bool libbpf_quiet;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static int verbose = -1;
	char *buf, *line, *save = NULL;

	if (verbose < 0)
		verbose = getenv("IRQLATD_LIBBPF_DEBUG") != NULL;
	if (level == LIBBPF_WARN && libbpf_quiet)
		level = LIBBPF_DEBUG;
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	/* one message can be the verifier's whole log: log every line of it, none cut */
	if (vasprintf(&buf, fmt, ap) < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		log_full(level == LIBBPF_WARN ? LOG_WARNING : LOG_DEBUG, "%s%s", strncmp(line, "libbpf: ", 8) ? "libbpf: " : "", line);
	free(buf);
	return 0;
}

void libbpf_set_quiet(bool quiet)
{
	libbpf_quiet = quiet;
}

/* Whether the kernel has tracepoint event: every tracepoint of a kernel with BTF has its
 * btf_trace_<event> type (both attach styles need the tracepoint; tp_btf needs the type). */
bool kernel_has_event(const struct btf *vmlinux, const char *event)
{
	char name[96];

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	return btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) > 0;
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

/* Maps the values of an mmapable array map into our memory. */
static int map_mmap(struct bpf_map *map, void **ret, size_t *len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t sz = (size_t)bpf_map__value_size(map) * bpf_map__max_entries(map);
	void *p;

	*len = (sz + page - 1) / page * page;
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), 0);
	if (p == MAP_FAILED)
		return -errno;
	*ret = p;
	return 0;
}

/* Attaches p, the link kept where the skeleton's destroy detaches it. */
static int attach(struct bpf_program *p, struct bpf_link **link, const char *tracepoint, const char *style)
{
	struct bpf_link *k = bpf_program__attach(p);

	if (!k)
		return log_error_errno(-errno, "cannot attach to tracepoint %s (%s): %m; the kernel needs CONFIG_TRACEPOINTS and CONFIG_BPF_EVENTS",
				       tracepoint, style);
	*link = k;
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

	return (uint64_t)ncpus * (sizeof(struct hardirq_cpu) + sizeof(struct softirq_cpu) + sizeof(struct vector_cpu) +
				  sizeof(struct timer_cpu) + sizeof(struct threaded_cpu)) +
	       (uint64_t)max_cells * (sizeof(struct lat_cell) + sizeof(struct lat_cell_meta) + hash_entry) +
	       (uint64_t)THREADED_TASKS * (4 + sizeof(struct threaded_task) + 48) + THREADED_PID_WORDS * 8 +
	       ringbuf_bytes + (uint64_t)ncpus * DROP_KINDS * 8;
}

bool loader_kind_on(const struct loader *l, enum lat_kind kind)
{
	switch (kind) {
	case KIND_HARDIRQ:
		return l->skel != NULL;
	case KIND_SOFTIRQ:
	case KIND_SOFTIRQ_RAISE:
		return l->softirq != NULL;
	case KIND_VECTOR:
		return l->vector != NULL;
	case KIND_TIMER:
		return l->timer != NULL;
	case KIND_WAKEUP:
	case KIND_WAKEUP_CPU:
		return l->timer != NULL && l->wakeups;
	case KIND_THREADED:
		return l->threaded != NULL;
	case KIND_THREADED_RUN:
		return l->threaded != NULL && l->threaded_run;
	default:
		return false;
	}
}

static void btf_freep(struct btf **b)
{
	btf__free(*b);
}

int loader_open(struct loader *l, const struct loader_opts *o)
{
	_cleanup_(loader_closep) struct loader *opened = l;	/* undone on every failure below */
	_cleanup_(btf_freep) struct btf *vmlinux = NULL;
	struct hardirq_bpf *skel;
	void *cells, *meta, *pool;
	bool btf_style;
	int r;

	memset(l, 0, sizeof(*l));
	l->ringbuf_fd = l->drops_fd = -1;
	libbpf_set_print(libbpf_print);

	r = load_vmlinux_btf(&vmlinux);
	if (r < 0)
		return r;
	r = choose_attach_style(vmlinux, o->mode, &l->attach_style);
	if (r < 0)
		return r;
	btf_style = !strcmp(l->attach_style, "tp_btf");

	skel = hardirq_bpf__open();
	if (!skel)
		return log_error_errno(-errno, "cannot open the BPF object: %m");
	l->skel = skel;
	l->max_cells = o->max_cells;
	for (unsigned k = 0; k < KINDS; k++)
		l->cell_threshold_ns[k] = o->threshold_ns[k] ? o->threshold_ns[k] : UINT64_MAX;
	skel->data->threshold_ns = l->cell_threshold_ns[KIND_HARDIRQ];
	int ncpus = libbpf_num_possible_cpus();

	if (ncpus < 0)
		return log_error_errno(ncpus, "cannot count the possible CPUs (/sys/devices/system/cpu/possible): %m");
	l->ncpus = (unsigned)ncpus;
	bpf_map__set_max_entries(skel->maps.hardirq_cpu, (uint32_t)ncpus);
	bpf_map__set_max_entries(skel->maps.cell_index, o->max_cells);
	bpf_map__set_max_entries(skel->maps.cells, o->max_cells);
	bpf_map__set_max_entries(skel->maps.cell_meta, o->max_cells);
	bpf_map__set_max_entries(skel->maps.events, o->ringbuf_bytes);
	skel->rodata->threaded_on = o->threaded;	/* the exit stamps IRQ threads' wakes */
	if (!o->threaded)
		bpf_map__set_max_entries(skel->maps.threaded_tasks, 1);
	/* one attach style per run, chosen once, so the verifier sees only the programs we use */
	bpf_program__set_autoload(skel->progs.irq_entry_btf, btf_style);
	bpf_program__set_autoload(skel->progs.irq_exit_btf, btf_style);
	bpf_program__set_autoload(skel->progs.irq_entry_raw, !btf_style);
	bpf_program__set_autoload(skel->progs.irq_exit_raw, !btf_style);

	if (hardirq_bpf__load(skel))
		return load_error(-errno, "hard-IRQ");

	/* the pool's size goes in before the programs run: until then every cold path finds it full */
	r = map_mmap(skel->maps.cells, &cells, &l->cells_len);
	if (r >= 0) {
		l->cells = cells;
		r = map_mmap(skel->maps.cell_meta, &meta, &l->meta_len);
	}
	if (r >= 0) {
		l->meta = meta;
		r = map_mmap(skel->maps.cell_next, &pool, &l->pool_len);
	}
	if (r < 0)
		return log_error_errno(r, "cannot map the histogram cells into memory: %m");
	l->pool = pool;
	l->pool->max = o->max_cells;
	/* before the hard-IRQ programs: a wake stamped before its thread's switch could be seen
	 * would give one false latency at the thread's next switch */
	if (o->threaded && (r = open_threaded(l, vmlinux, btf_style, ncpus, o->threaded_run)) < 0)
		return r;

	struct bpf_program *entry = btf_style ? skel->progs.irq_entry_btf : skel->progs.irq_entry_raw;
	struct bpf_program *exit_ = btf_style ? skel->progs.irq_exit_btf : skel->progs.irq_exit_raw;
	/* exit first: an entry without its exit is harmless, the other way round is not measured */
	r = attach(exit_, btf_style ? &skel->links.irq_exit_btf : &skel->links.irq_exit_raw,
		   "irq:irq_handler_exit", l->attach_style);
	if (r < 0)
		return r;
	r = attach(entry, btf_style ? &skel->links.irq_entry_btf : &skel->links.irq_entry_raw,
		   "irq:irq_handler_entry", l->attach_style);
	if (r < 0)
		return r;
	note_attached(l, "irq", "irq_handler_exit", exit_);
	note_attached(l, "irq", "irq_handler_entry", entry);
	if (o->softirqs && (r = open_softirq(l, vmlinux, btf_style, ncpus)) < 0)
		return r;
	if (o->vectors && (r = open_vector(l, vmlinux, btf_style, ncpus)) < 0)
		return r;
	if (o->timers && (r = open_timer(l, vmlinux, btf_style, ncpus, o->wakeups, o->max_wakeup_cells)) < 0)
		return r;
	l->entry_prog_fd = bpf_program__fd(entry);
	l->exit_prog_fd = bpf_program__fd(exit_);
	l->ringbuf_fd = bpf_map__fd(skel->maps.events);
	l->drops_fd = bpf_map__fd(skel->maps.drops);
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
	for (unsigned i = 0; i < l->nlinks; i++)
		bpf_link__destroy(l->links[i]);
	if (l->threaded)
		threaded_bpf__destroy(l->threaded);
	if (l->vector)
		vector_bpf__destroy(l->vector);
	if (l->timer)
		timer_bpf__destroy(l->timer);
	if (l->softirq)
		softirq_bpf__destroy(l->softirq);
	if (l->skel)
		hardirq_bpf__destroy(l->skel);	/* detaches the links */
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
	volatile __u64 *global = NULL;
	uint64_t t = threshold_ns ? threshold_ns : UINT64_MAX;
	uint32_t used;

	if (kind >= KINDS)
		return;
	l->cell_threshold_ns[kind] = t;
	if (kind == KIND_HARDIRQ && l->skel && l->skel->data)
		global = &l->skel->data->threshold_ns;
	else if (kind == KIND_SOFTIRQ && l->softirq)
		global = &l->softirq->data->run_threshold_ns;
	else if (kind == KIND_SOFTIRQ_RAISE && l->softirq)
		global = &l->softirq->data->raise_threshold_ns;
	else if (kind == KIND_VECTOR && l->vector)
		global = &l->vector->data->threshold_ns;
	else if (kind == KIND_TIMER && l->timer)
		global = &l->timer->data->lateness_threshold_ns;
	else if (kind == KIND_WAKEUP && l->timer)
		global = &l->timer->data->wakeup_threshold_ns;
	else if (kind == KIND_THREADED && l->threaded)
		global = &l->threaded->data->wake_threshold_ns;
	else if (kind == KIND_THREADED_RUN && l->threaded)
		global = &l->threaded->data->run_threshold_ns;
	if (global)
		__atomic_store_n(global, t, __ATOMIC_RELAXED);
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
