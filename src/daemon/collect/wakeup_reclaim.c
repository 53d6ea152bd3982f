// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "daemon/collect/wakeup_reclaim.h"
#include "daemon/loader/sched.h"
#include "daemon/base/log.h"
#include "common/macro.h"
#include "sched.skel.h"

#define RECLAIM_EVERY 10	/* ticks between two looks at one task, while cells are left */

int wakeup_reclaim_init(struct wakeup_reclaim *w, uint32_t max_cells)
{
	memset(w, 0, sizeof(*w));
	w->proc = "/proc";
	w->grace_ticks = WINDOW_TICKS_MAX;
	/* a cell is taken back once between two ticks: room for the whole pool */
	w->held = calloc(max_cells ? max_cells : 1, sizeof(*w->held));
	return w->held ? 0 : -ENOMEM;
}

void wakeup_reclaim_set_grace(struct wakeup_reclaim *w, uint32_t grace_s, uint32_t interval_ms)
{
	w->grace_ticks = interval_ms ? ((uint64_t)grace_s * 1000 + interval_ms - 1) / interval_ms : 0;
}

void wakeup_reclaim_free(struct wakeup_reclaim *w)
{
	free(w->held);
	memset(w, 0, sizeof(*w));
}

int task_stat(const char *proc, uint32_t pid, char comm[TASK_COMM_LEN_ABI], uint64_t *start)
{
	char path[64], buf[1024];
	_cleanup_fclose_ FILE *f = NULL;
	const char *open, *close, *p;
	size_t n;

	snprintf(path, sizeof(path), "%s/%u/stat", proc, pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	/* "pid (comm) state ppid ...": the comm may hold spaces and parentheses, so it ends at the
	 * last ')'; the start time is field 22, the 20th after it */
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return -EBADMSG;
	n = (size_t)(close - open - 1);
	if (n > TASK_COMM_LEN_ABI - 1)
		n = TASK_COMM_LEN_ABI - 1;
	memcpy(comm, open + 1, n);
	comm[n] = 0;
	p = close + 1;
	for (int field = 3; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EBADMSG;
	}
	if (sscanf(p, " %" SCNu64, start) != 1)
		return -EBADMSG;
	return 0;
}

int task_cgroup(const char *proc, uint32_t pid, char **path)
{
	_cleanup_free_ char *line = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	char name[64];
	size_t cap = 0;
	ssize_t n;

	*path = NULL;
	snprintf(name, sizeof(name), "%s/%u/cgroup", proc, pid);
	f = fopen(name, "re");
	if (!f)
		return -errno;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (strncmp(line, "0::", 3))	/* the unified hierarchy's line; v1 controllers' are others */
			continue;
		line[strcspn(line, "\n")] = 0;
		*path = strdup(line + 3);
		return *path ? 0 : -ENOMEM;
	}
	return -ENOENT;
}

enum task_state { TASK_ALIVE, TASK_EXITED, TASK_REPLACED };

/* Whether series s's task is still the one that took its cells, exited, or replaced by another
 * task with its pid. The start time is read at the first check, when the comm must still be
 * the one its cells were made with; from then on the start time decides. */
static enum task_state task_state(struct wakeup_reclaim *w, struct series *s)
{
	char comm[TASK_COMM_LEN_ABI];
	uint64_t start;

	if (task_stat(w->proc, s->sub, comm, &start) < 0)
		return TASK_EXITED;	/* -ENOENT; anything else is no task we can follow either */
	if (!s->task_start) {
		if (strncmp(comm, s->name, TASK_COMM_LEN_ABI - 1))
			return TASK_REPLACED;
		s->task_start = start;
		/* once: a task seldom moves, and the file costs as much as stat's (log-tasks'
		 * cgroups, irqlat --cgroup) */
		if (!s->cgroup)
			(void)task_cgroup(w->proc, s->sub, &s->cgroup);
	}
	return s->task_start == start ? TASK_ALIVE : TASK_REPLACED;
}

/* Whether the cells of series s go back now: a task replaced by another with its pid at once
 * (the new one's wake-ups would go into them, under the old comm); one that exited after the
 * grace (exited-task-grace-s, a minute by default: the answers' longest window still shows
 * its end, and a sleeper's run is often looked at after it ended), or at once when every cell
 * is held. */
static bool task_done(struct wakeup_reclaim *w, struct collector *c, struct series *s, bool full)
{
	switch (task_state(w, s)) {
	case TASK_ALIVE:
		return false;
	case TASK_REPLACED:
		return true;
	case TASK_EXITED:
		break;
	}
	if (!s->exit_tick)
		s->exit_tick = c->tick;
	return full || c->tick >= s->exit_tick + w->grace_ticks;
}

/* The programs see series s's cells as nobody's from now on: out of the index (a later
 * wake-up of its pid on that CPU takes another cell), and with an id no task has (a task
 * whose storage still caches one finds it is not its own). */
static void take_back(struct wakeup_reclaim *w, struct collector *c, unsigned si)
{
	struct loader *l = c->bpf;
	struct series *s = &c->series[si];
	int index_fd = bpf_map__fd(loader_sched(l)->maps.cell_index);

	for (unsigned k = 0; k < s->ncpus; k++) {
		uint32_t idx = s->cpus[k].cell;
		struct cell_key key = { .id = s->id, .sub = s->sub, .cpu = (uint16_t)s->cpus[k].cpu,
					.kind = KIND_WAKEUP };
		volatile struct lat_cell *cell = &l->cells[idx];

		if (bpf_map_delete_elem(index_fd, &key) < 0 && errno != ENOENT)
			log_warning_errno(-errno, "cannot remove wake-up cell %u from the index: %m", idx);
		cell->id = CELL_FREE_ID;
		cell->sub = CELL_FREE_SUB;
		__atomic_store_n(&l->meta[idx].ready, 0, __ATOMIC_RELEASE);
		w->held[w->nheld++] = idx;
	}
	collector_end_series(c, si);
}

/* The cells taken back at the last tick, cleared, to the programs' queue; each one queued
 * leaves the count of cells held, so that a task of its own can take it. */
static void give_back(struct wakeup_reclaim *w, struct loader *l)
{
	struct sched_bpf *t = loader_sched(l);
	int free_fd = bpf_map__fd(t->maps.wakeup_free);
	uint32_t kept = 0;

	for (uint32_t k = 0; k < w->nheld; k++) {
		uint32_t idx = w->held[k];
		volatile struct lat_cell *cell = &l->cells[idx];

		cell->aux = 0;
		cell->sum_ns = 0;
		cell->max_ns = 0;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			cell->hist[b] = 0;
		/* queued before the count goes down: the programs may over-count for a moment,
		 * never hand out more cells than the bound */
		if (bpf_map_update_elem(free_fd, NULL, &idx, BPF_ANY) < 0) {
			log_warning_errno(-errno, "cannot queue wake-up cell %u: %m; tried again next interval", idx);
			w->held[kept++] = idx;
			continue;
		}
		__atomic_fetch_sub(&t->bss->wakeup_cells, 1, __ATOMIC_SEQ_CST);
	}
	w->nheld = kept;
}

/* While tasks share "(other)" and the bound is reached: the task with the fewest wake-ups over
 * the last minute, among those tracked a whole minute (a newcomer has no minute to compare),
 * when "(other)" as a whole had more in that minute (else no task in it can be busier). One
 * task a tick: its cells go to the next task that wakes without a cell of its own. -1: none. */
static int least_busy(struct wakeup_reclaim *w, struct collector *c)
{
	struct sched_bpf *t = loader_sched(c->bpf);
	uint32_t max = t->rodata->max_wakeup_cells;
	uint64_t other_total = 0, other_minute = 0, least = UINT64_MAX;
	bool other_woke;
	struct window_iter it;
	struct hist h;
	int pick = -1;

	for (unsigned i = 0; i < c->nseries; i++)
		if (!c->series[i].gone && c->series[i].kind == KIND_WAKEUP && c->series[i].id == 0)
			other_total += c->series[i].count;
	other_woke = other_total > w->other_count;
	w->other_count = other_total;
	if (!other_woke || __atomic_load_n(&t->bss->wakeup_cells, __ATOMIC_RELAXED) < max)
		return -1;
	collector_window_begin(c, WINDOW_60S, &it);
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];

		if (s->gone || s->kind != KIND_WAKEUP)
			continue;
		collector_window_next(&it, i, &h, NULL);
		if (s->id == 0)
			other_minute += h.count;
		else if (c->tick >= s->born_tick + WINDOW_TICKS_MAX && h.count < least) {
			least = h.count;
			pick = (int)i;
		}
	}
	return pick >= 0 && least < other_minute ? pick : -1;
}

void wakeup_reclaim_tick(struct wakeup_reclaim *w, struct collector *c)
{
	struct sched_bpf *t = loader_sched(c->bpf);
	bool full;
	int pick;

	if (!t || !loader_kind_on(c->bpf, KIND_WAKEUP))
		return;
	give_back(w, c->bpf);
	full = __atomic_load_n(&t->bss->wakeup_cells, __ATOMIC_RELAXED) >= t->rodata->max_wakeup_cells;
	for (unsigned i = 0; i < c->nseries; i++) {
		struct series *s = &c->series[i];

		if (s->gone || s->kind != KIND_WAKEUP || s->id == 0)
			continue;
		/* a task's /proc/PID/stat, opened and read, costs 10 to 20 us here: with every task
		 * each tick that was most of the daemon's CPU at rest (make bench), and 512 tasks would
		 * have cost 5 to 10 ms a second. Each is looked at once in RECLAIM_EVERY ticks, in
		 * turn, unless every cell is held (then one exited must give its cells back now): an
		 * exit is seen up to RECLAIM_EVERY - 1 s later, inside the minute its cells wait
		 * anyway, and a pid taken over by a new task as late. */
		if (!full && (i + c->tick) % RECLAIM_EVERY)
			continue;
		if (!task_done(w, c, s, full))
			continue;
		log_debug("wake-ups: %s (pid %u) exited: its %u cells are given back", s->name, s->sub, s->ncpus);
		take_back(w, c, i);
		w->exited++;
	}
	pick = least_busy(w, c);
	if (pick >= 0) {
		log_debug("wake-ups: %s (pid %u) has the fewest wake-ups over the last minute: its %u cells go to a busier task",
			  c->series[pick].name, c->series[pick].sub, c->series[pick].ncpus);
		take_back(w, c, (unsigned)pick);
		w->evicted++;
	}
}

json_object *wakeup_reclaim_status_json(const struct wakeup_reclaim *w, const struct loader *l)
{
	struct sched_bpf *t = loader_sched(l);
	json_object *o;

	if (!t || !loader_kind_on(l, KIND_WAKEUP))
		return NULL;
	o = json_object_new_object();
	/* held: the BPF side's count, exact (bpf/sched.bpf.c wakeup_miss()) */
	json_object_object_add(o, "held", json_object_new_uint64(__atomic_load_n(&t->bss->wakeup_cells, __ATOMIC_RELAXED)));
	json_object_object_add(o, "max", json_object_new_uint64(t->rodata->max_wakeup_cells));
	json_object_object_add(o, "tasks_exited", json_object_new_uint64(w->exited));
	json_object_object_add(o, "tasks_evicted", json_object_new_uint64(w->evicted));
	return o;
}
