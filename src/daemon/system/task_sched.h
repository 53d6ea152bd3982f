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
	TASK_POLICY_RT,		/* FIFO or RR, which the kernel's prio alone does not tell */
};

struct task_sched {
	enum task_policy policy;
	int priority;		/* rt_priority (1..99) of FIFO and RR; 0 for the others */
};

/* The task (a thread id) now: 0, or a negative errno (-ESRCH: it exited) with policy UNKNOWN. */
int task_sched_read(uint32_t tid, struct task_sched *ts);
/* The task's policy from the kernel's prio its wait's record carried (-1 deadline, 0..99 real
 * time, 99 - rt_priority; 100..139 normal), for a task that exited before it was asked:
 * real-time or not is what the journal's filter needs. */
void task_sched_from_prio(int prio, struct task_sched *ts);
/* FIFO, RR, DEADLINE and RT */
bool task_sched_is_rt(const struct task_sched *ts);
/* "fifo", "rr", "deadline", "other", "unknown": the journal's and the answers' words */
const char *task_policy_name(enum task_policy p);

#endif
