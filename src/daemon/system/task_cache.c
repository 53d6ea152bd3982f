// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "common/macro.h"
#include "daemon/system/task_cache.h"

struct task_slot {
	uint32_t pid;
	uint64_t comm_ns, sched_ns;	/* when each was read; 0: not yet */
	char comm[16];			/* TASK_COMM_LEN */
	struct task_sched ts;
	int sched_r;
};

static struct task_slot slots[TASK_CACHE_SLOTS];

static struct task_slot *slot_of(uint32_t pid)
{
	struct task_slot *s = &slots[pid % TASK_CACHE_SLOTS];

	if (s->pid != pid)
		*s = (struct task_slot){ .pid = pid };
	return s;
}

static bool fresh(uint64_t read_ns, uint64_t now_ns)
{
	return read_ns && now_ns - read_ns < TASK_CACHE_TTL_NS;
}

/* one read(): a stdio stream allocates a buffer and asks fstat() first */
void task_comm_read(uint32_t pid, char *comm, size_t len)
{
	char path[32];
	_cleanup_close_ int fd = -EBADF;
	ssize_t n;

	*comm = 0;
	if (!len)
		return;
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, comm, len - 1);
	if (n <= 0)
		return;
	comm[n] = 0;
	comm[strcspn(comm, "\n")] = 0;
}

void task_cache_comm(uint32_t pid, uint64_t now_ns, char *buf, size_t len)
{
	struct task_slot *s;

	*buf = 0;
	if (!pid || !len)
		return;
	s = slot_of(pid);
	if (!fresh(s->comm_ns, now_ns)) {
		task_comm_read(pid, s->comm, sizeof(s->comm));
		s->comm_ns = now_ns ? now_ns : 1;
	}
	snprintf(buf, len, "%s", s->comm);
}

int task_cache_sched(uint32_t pid, uint64_t now_ns, struct task_sched *ts)
{
	struct task_slot *s;

	if (!pid)
		return task_sched_read(pid, ts);
	s = slot_of(pid);
	if (!fresh(s->sched_ns, now_ns)) {
		s->sched_r = task_sched_read(pid, &s->ts);
		s->sched_ns = now_ns ? now_ns : 1;
	}
	*ts = s->ts;
	return s->sched_r;
}
