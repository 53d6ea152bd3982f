/* SPDX-License-Identifier: GPL-2.0 */
/* The comm and scheduling policy of the tasks whose outliers came lately, asked of the kernel
 * once a TASK_CACHE_TTL_NS a task. Every explained outlier names its waiter and asks its
 * policy (log-wakeups=rt): under the bench's load some 50 outliers a second, nearly all of the
 * same few tasks, and the /proc read and the two syscalls each time were a quarter of the
 * daemon's CPU. A comm or policy changed within the TTL shows the old one until it ends. The
 * read of a comm itself is here too, for the callers that want it now (bpf_peers.c). */
#ifndef IRQLAT_TASK_CACHE_H
#define IRQLAT_TASK_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include "daemon/system/task_sched.h"

#define TASK_CACHE_SLOTS 64			/* direct-mapped by pid */
#define TASK_CACHE_TTL_NS 1000000000ull

/* pid's comm now, read from /proc/PID/comm ("" when it is gone) */
void task_comm_read(uint32_t pid, char *buf, size_t len);
/* pid's comm ("" when it is gone or pid is 0) into buf, read at most once a TASK_CACHE_TTL_NS
 * (now_ns: CLOCK_MONOTONIC, as umaps_get() takes it) */
void task_cache_comm(uint32_t pid, uint64_t now_ns, char *buf, size_t len);
/* pid's policy and priority as task_sched_read() gives them (its return value too), the same */
int task_cache_sched(uint32_t pid, uint64_t now_ns, struct task_sched *ts);

#endif
