// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "daemon/system/bpf_peers.h"
#include "daemon/system/task_cache.h"
#include "common/macro.h"

static bool irq_tracepoint(const char *name)
{
	return !strcmp(name, "irq_handler_entry") || !strcmp(name, "irq_handler_exit");
}

static bool is_own(uint32_t id, const uint32_t *own, unsigned nown)
{
	for (unsigned i = 0; i < nown; i++)
		if (own[i] == id)
			return true;
	return false;
}

static struct bpf_peer *find(struct bpf_peers *p, uint32_t prog_id, const char *tp)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->list[i].prog_id == prog_id && (!tp || !strcmp(p->list[i].tracepoint, tp)))
			return &p->list[i];
	return NULL;
}

static int add(struct bpf_peers *p, uint32_t prog_id, const char *tp)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);
	struct bpf_peer *n;
	_cleanup_close_ int fd = -1;

	if (find(p, prog_id, tp))
		return 0;
	n = realloc(p->list, (p->n + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->list = n;
	n = &p->list[p->n++];
	memset(n, 0, sizeof(*n));
	n->prog_id = prog_id;
	snprintf(n->tracepoint, sizeof(n->tracepoint), "%s", tp);
	fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd >= 0 && bpf_obj_get_info_by_fd(fd, &info, &len) == 0)
		snprintf(n->name, sizeof(n->name), "%s", info.name);
	return 0;
}

/* tp_btf and raw_tp programs, whoever attached them: the kernel's link list */
static int scan_links(struct bpf_peers *p, const uint32_t *own, unsigned nown)
{
	__u32 id = 0;

	while (bpf_link_get_next_id(id, &id) == 0) {
		struct bpf_link_info info = { 0 };
		char tp[64] = "";
		__u32 len = sizeof(info);
		_cleanup_close_ int fd = bpf_link_get_fd_by_id(id);

		if (fd < 0)
			continue;	/* gone since, or not ours to open */
		info.raw_tracepoint.tp_name = (__u64)(unsigned long)tp;
		info.raw_tracepoint.tp_name_len = sizeof(tp);
		if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0 || info.type != BPF_LINK_TYPE_RAW_TRACEPOINT)
			continue;
		tp[sizeof(tp) - 1] = 0;
		if (irq_tracepoint(tp) && !is_own(info.prog_id, own, nown) && add(p, info.prog_id, tp) < 0)
			return -ENOMEM;
	}
	/* ENOENT ends the list; EPERM: listing needs CAP_SYS_ADMIN */
	return errno == ENOENT ? 0 : -errno;
}

/* The prog_id of a BPF link fd, from /proc/PID/fdinfo/FD; 0 when not given */
static uint32_t link_prog_id(int pid, const char *fd)
{
	char path[320], line[128];
	_cleanup_fclose_ FILE *f = NULL;
	unsigned id = 0;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, fd);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "prog_id: %u", &id) == 1)
			break;
	return id;
}

static void note_owner(struct bpf_peer *peer, int pid)
{
	if (peer && !peer->pid) {
		peer->pid = pid;
		task_comm_read((uint32_t)pid, peer->comm, sizeof(peer->comm));
	}
}

/* One process's fds: the owners of the links found, and tracepoint programs attached
 * through a perf event (which have no link to list) */
static int scan_process(struct bpf_peers *p, int pid, const uint32_t *own, unsigned nown)
{
	char path[64], target[64];
	DIR *d;
	struct dirent *e;
	int r = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	if (!(d = opendir(path)))
		return 0;	/* gone, or not ours to look at */
	while (r == 0 && (e = readdir(d))) {
		ssize_t n = readlinkat(dirfd(d), e->d_name, target, sizeof(target) - 1);

		if (n <= 0)
			continue;
		target[n] = 0;
		if (!strcmp(target, "anon_inode:bpf_link")) {
			uint32_t id = link_prog_id(pid, e->d_name);

			if (id)
				note_owner(find(p, id, NULL), pid);
		} else if (!strcmp(target, "anon_inode:[perf_event]")) {
			char tp[64] = "";
			__u32 len = sizeof(tp), prog_id = 0, type = 0;
			__u64 off, addr;

			if (bpf_task_fd_query(pid, atoi(e->d_name), 0, tp, &len, &prog_id, &type, &off, &addr) < 0)
				continue;	/* a perf event without a BPF program */
			tp[sizeof(tp) - 1] = 0;
			if ((type == BPF_FD_TYPE_TRACEPOINT || type == BPF_FD_TYPE_RAW_TRACEPOINT) && irq_tracepoint(tp) &&
			    !is_own(prog_id, own, nown)) {
				r = add(p, prog_id, tp);
				note_owner(find(p, prog_id, tp), pid);
			}
		}
	}
	closedir(d);
	return r;
}

static int scan_processes(struct bpf_peers *p, const uint32_t *own, unsigned nown)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int r = 0;

	if (!d)
		return -errno;
	while (r == 0 && (e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]) && atoi(e->d_name) != getpid())
			r = scan_process(p, atoi(e->d_name), own, nown);
	closedir(d);
	return r;
}

void bpf_peers_refresh(struct bpf_peers *p, const uint32_t *own, unsigned nown, uint64_t now_ns, uint64_t max_age_ns)
{
	if (p->scanned_ns && now_ns - p->scanned_ns < max_age_ns)
		return;
	p->scanned_ns = now_ns;
	p->n = 0;
	p->error = scan_links(p, own, nown);
	if (p->error != -ENOMEM)
		scan_processes(p, own, nown);
}

void bpf_peers_free(struct bpf_peers *p)
{
	free(p->list);
	*p = (struct bpf_peers){ 0 };
}

json_object *bpf_peers_json(const struct bpf_peers *p)
{
	json_object *o = json_object_new_object(), *arr;

	json_object_object_add(o, "known", json_object_new_boolean(!p->error));
	if (p->error) {
		char why[160];

		if (p->error == -EPERM)
			snprintf(why, sizeof(why), "listing other BPF programs needs CAP_SYS_ADMIN, which irqlatd does not have");
		else
			snprintf(why, sizeof(why), "cannot list BPF links: %s", strerror(-p->error));
		json_object_object_add(o, "error", json_object_new_string(why));
		return o;
	}
	arr = json_object_new_array();
	for (unsigned i = 0; i < p->n; i++) {
		const struct bpf_peer *b = &p->list[i];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "id", json_object_new_int((int)b->prog_id));
		json_object_object_add(e, "name", json_object_new_string(b->name));
		json_object_object_add(e, "tracepoint", json_object_new_string(b->tracepoint));
		if (b->pid) {
			json_object_object_add(e, "pid", json_object_new_int(b->pid));
			json_object_object_add(e, "comm", json_object_new_string(b->comm));
		}
		json_object_array_add(arr, e);
	}
	json_object_object_add(o, "programs", arr);
	return o;
}
