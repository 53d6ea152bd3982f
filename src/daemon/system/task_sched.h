/* SPDX-License-Identifier: GPL-2.0 */
/* A task's scheduling policy and priority, asked of the kernel when one of its outliers is
 * handled (sched_getscheduler(2), sched_getparam(2)), so the journal can keep to real-time
 * tasks. One function, so that a record that carries them (the BPF side reading the task's
 * policy and rt_priority at the wake-up) can replace the question later. */
#ifndef IRQLAT_TASK_SCHED_H
#define IRQLAT_TASK_SCHED_H

#include <stdbool.h>
#include <stdint.h>

enum task_policy {
	TASK_POLICY_UNKNOWN,	/* exited, or not ours to ask */
	TASK_POLICY_OTHER,	/* SCHED_OTHER (CFS, EEVDF), SCHED_BATCH, SCHED_IDLE */
	TASK_POLICY_FIFO,
	TASK_POLICY_RR,
	TASK_POLICY_DEADLINE,
};

struct task_sched {
	enum task_policy policy;
	int priority;		/* rt_priority (1..99) of FIFO and RR; 0 for the others */
};

/* The task (a thread id) now: 0, or a negative errno (-ESRCH: it exited) with policy UNKNOWN. */
int task_sched_read(uint32_t tid, struct task_sched *ts);
/* FIFO, RR and DEADLINE */
bool task_sched_is_rt(const struct task_sched *ts);
/* "fifo", "rr", "deadline", "other", "unknown": the journal's and the answers' words */
const char *task_policy_name(enum task_policy p);

#endif
