/* SPDX-License-Identifier: GPL-2.0 */
/* The wake-up cells' bound, kept at the daemon's tick (docs/architecture.md section 12): the
 * cells of tasks that exited are taken back (a minute after, or at once when every cell is
 * held or the pid is another task's now) and handed out again, and while tasks share
 * "(other)" the tracked task with the fewest wake-ups over the last minute gives its cells up.
 * Nothing here runs in BPF: the programs only take the cells given back (bpf/timer.bpf.c). */
#ifndef IRQLAT_WAKEUP_RECLAIM_H
#define IRQLAT_WAKEUP_RECLAIM_H

#include <stdint.h>
#include <json-c/json.h>
#include "daemon/collect/collect.h"

struct wakeup_reclaim {
	/* cells taken back at the last tick: cleared and queued for the programs at this one,
	 * so that a program that found one still its task's just before has long finished */
	uint32_t *held;
	uint32_t nheld;
	uint64_t other_count;	/* "(other)"'s wake-ups as of the last tick */
	uint64_t exited, evicted;	/* tasks given up since start: exited, or for busier ones */
	const char *proc;	/* "/proc"; a test's copy */
	uint64_t grace_ticks;	/* ticks a task that exited keeps its series (exited-task-grace-s) */
};

int wakeup_reclaim_init(struct wakeup_reclaim *w, uint32_t max_cells);
/* How long a task that exited keeps its series: grace_s, at one tick every interval_ms (a
 * reload may change both) */
void wakeup_reclaim_set_grace(struct wakeup_reclaim *w, uint32_t grace_s, uint32_t interval_ms);
void wakeup_reclaim_free(struct wakeup_reclaim *w);
/* After collector_tick(): queues the cells taken back at the last tick, then takes back the
 * cells of the tasks that exited (as above), and one task's for a busier one when tasks share
 * "(other)". */
void wakeup_reclaim_tick(struct wakeup_reclaim *w, struct collector *c);
/* status's "wakeup_cells": {"held", "max", "tasks_exited", "tasks_evicted"}; NULL when wake-ups
 * are not measured */
json_object *wakeup_reclaim_status_json(const struct wakeup_reclaim *w, const struct loader *l);

/* /proc/PID/stat's comm and start time (clock ticks after boot): 0, or negative errno
 * (-ENOENT: no such task). The task is a thread id too (/proc/TID exists, unlisted). */
int task_stat(const char *proc, uint32_t pid, char comm[TASK_COMM_LEN_ABI], uint64_t *start);

/* /proc/PID/cgroup's cgroup v2 path ("/system.slice/rt.service"), malloc'ed into *path: 0, or
 * negative errno (-ENOENT: no such task, or no unified hierarchy) with *path NULL. */
int task_cgroup(const char *proc, uint32_t pid, char **path);

#endif
