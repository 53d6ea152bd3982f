// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sched.h>
#include "daemon/system/task_sched.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

int task_sched_read(uint32_t tid, struct task_sched *ts)
{
	struct sched_param sp = { 0 };
	int p;

	*ts = (struct task_sched){ TASK_POLICY_UNKNOWN, 0 };
	/* pid 0 is the caller to these calls, not a task we were asked about (the idle task) */
	if (!tid)
		return -ESRCH;
	p = sched_getscheduler((pid_t)tid);
	if (p < 0)
		return -errno;
	switch (p & ~SCHED_RESET_ON_FORK) {
	case SCHED_FIFO:
		ts->policy = TASK_POLICY_FIFO;
		break;
	case SCHED_RR:
		ts->policy = TASK_POLICY_RR;
		break;
	case SCHED_DEADLINE:
		ts->policy = TASK_POLICY_DEADLINE;	/* no priority: runtime, deadline, period */
		return 0;
	default:
		ts->policy = TASK_POLICY_OTHER;
		return 0;
	}
	if (sched_getparam((pid_t)tid, &sp) == 0)
		ts->priority = sp.sched_priority;
	return 0;
}

void task_sched_from_prio(int prio, struct task_sched *ts)
{
	if (prio < 0)
		*ts = (struct task_sched){ TASK_POLICY_DEADLINE, 0 };
	else if (prio < 100)
		*ts = (struct task_sched){ TASK_POLICY_RT, 99 - prio };
	else
		*ts = (struct task_sched){ TASK_POLICY_OTHER, 0 };
}

bool task_sched_is_rt(const struct task_sched *ts)
{
	return ts->policy == TASK_POLICY_FIFO || ts->policy == TASK_POLICY_RR || ts->policy == TASK_POLICY_DEADLINE ||
	       ts->policy == TASK_POLICY_RT;
}

const char *task_policy_name(enum task_policy p)
{
	static const char *const names[] = { "unknown", "other", "fifo", "rr", "deadline", "rt" };

	return (unsigned)p < sizeof(names) / sizeof(names[0]) ? names[p] : "unknown";
}
