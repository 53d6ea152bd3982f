// SPDX-License-Identifier: GPL-2.0
/*
 * sillymod: a kernel thread that wakes up every period_ms, says hello and
 * fires the silly:me_silly trace event with a running count.  It exists so
 * that irqlatd's module-tracepoint support (raw_tp/me_silly) has something
 * real to attach to, after the example in Steven Rostedt's "Using the
 * TRACE_EVENT() macro (Part 3)".
 */
#include <linux/module.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/jiffies.h>
#include <linux/err.h>

/* Only this file creates the tracepoints; every other user would just include the header. */
#define CREATE_TRACE_POINTS
#include "silly-trace.h"

static unsigned int period_ms = 1000;
/* Read-only after load: the thread reads it on every round without locking. */
module_param(period_ms, uint, 0444);
MODULE_PARM_DESC(period_ms, "Milliseconds between two hellos (default 1000, at least 1)");

static struct task_struct *silly_task;

static int silly_thread(void *unused)
{
	unsigned long count = 0;

	for (;;) {
		/*
		 * Set the state before testing for a stop, so that a
		 * kthread_stop() between the test and schedule_timeout()
		 * still wakes us instead of costing a whole period.
		 */
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule_timeout(msecs_to_jiffies(period_ms));
		/* Woken by kthread_stop(): leave without a last hello. */
		if (kthread_should_stop())
			break;

		pr_info("hello! %lu\n", count);
		trace_me_silly(jiffies, count);
		count++;
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int __init silly_init(void)
{
	/* 0 would make the thread spin without sleeping. */
	if (!period_ms)
		return -EINVAL;

	silly_task = kthread_run(silly_thread, NULL, "silly-thread");
	return PTR_ERR_OR_ZERO(silly_task);
}

static void __exit silly_exit(void)
{
	/* Wakes the thread and waits until it has returned: no code of ours runs after this. */
	kthread_stop(silly_task);
}

module_init(silly_init);
module_exit(silly_exit);

MODULE_AUTHOR("irqlatd developers");
MODULE_DESCRIPTION("A silly thread with a me_silly trace event, for testing irqlatd");
MODULE_LICENSE("GPL");
