/* SPDX-License-Identifier: GPL-2.0 */
/* Outliers from the ring buffer into the journal (or stderr), so that it stays readable under
 * any load (irqlatd(8), JOURNAL):
 * - wake-ups, and hrtimer_wakeup's lateness, are the woken task's: logged only for the tasks
 *   log-wakeups picks (by default the real-time ones and those of log-tasks); the others are
 *   counted as not logged;
 * - an outlier that delayed no task (a timer late on an idle CPU that woke none: the CPU's exit
 *   from idle; a vector that interrupted the idle task) is counted, not logged, unless log-idle;
 * - each series (a source: an IRQ's handler, a softirq vector, a timer function on a CPU, a
 *   task...) at most outlier-rate entries a second;
 * - all sources together at most outlier-cap entries in any 60 s, storm entries included; the
 *   outliers leave two of them for a storm's start and end, and one more for the end of each
 *   storm going on (but take one when none was written in 60 s), so that a storm's entries are
 *   held back only when several come at once;
 * - what the two limits held back is said in one entry at the end of its minute (from the
 *   first outlier on), naming each source (real-time tasks first), how many and the worst: at
 *   most one such entry in any 60 s.
 * Every outlier is still an event (irqlat events), in the histograms and in /metrics. */
#ifndef IRQLAT_OUTLIER_H
#define IRQLAT_OUTLIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "irqlat_abi.h"
#include "daemon/config/config.h"
#include "daemon/system/task_sched.h"
#include "common/why.h"

struct series;

/* An outlier record (struct outlier_event) with its cell resolved to its series. */
struct outlier {
	enum lat_kind kind;
	uint32_t sub;		/* hardirq: the IRQ number */
	char name[IRQ_NAME_LEN];
	uint32_t cpu;
	uint64_t ts_ns;		/* CLOCK_MONOTONIC */
	uint64_t value_ns;
	uint32_t pid;		/* the task on the CPU */
	char comm[TASK_COMM_LEN_ABI];
	uint64_t aux;		/* as in the record (timer: the woken pid, 0: none) */
	/* the task the outlier is about (outlier_woken()): a wake-up's, or the one an
	 * hrtimer_wakeup woke; 0: none */
	uint32_t woken_pid;
	struct task_sched woken;	/* its policy when the outlier was handled (outlier_resolve()) */
	const char *cgroup;	/* a wake-up's task's cgroup v2 path (its series'), NULL: not read yet */
	/* it delayed no task: a timer late on an idle CPU that woke none, a vector that
	 * interrupted the idle task (logged only with log-idle) */
	bool idle;
	/* why it was late (daemon/collect/why.h), when its explanation came: the entry's MESSAGE
	 * is then its summary and its fields the parts (WHY_*); NULL: none */
	const struct why_named *why;
	const char *capture_file;	/* what the trace action saved of it (src/daemon/capture/), NULL: none */
};

/* o from record e of a cell of series s on cpu; s NULL (not known): sub 0, name "?". Sets
 * woken_pid; the policy is left unknown until outlier_resolve(). */
void outlier_from_event(struct outlier *o, const struct outlier_event *e, const struct series *s, uint32_t cpu);
/* The woken task's policy, asked of the kernel when the outlier is handled (at most once a
 * second a task: task_cache_sched()); a task that exited is "unknown". */
void outlier_resolve(struct outlier *o);

/* The limits and the task filter, from the configuration (a reload changes them) */
struct outlier_rules {
	unsigned per_second;	/* entries per source per second; 0 = no limit */
	unsigned cap;		/* entries a minute, every source together; 0 = no cap */
	uint64_t threshold_ns[KINDS];
	enum log_wakeups log_wakeups;
	bool log_idle;
	struct log_task tasks[MAX_LOG_TASKS];
	unsigned ntasks;
};
void outlier_rules_from_config(struct outlier_rules *r, const struct daemon_config *c);

struct outlier_source;

#define OUTLIER_WINDOW_NS 60000000000ull
#define OUTLIER_STORMS_NAMED 4	/* held-back storm entries named in the held-back entry */
#define OUTLIER_SOURCES_MAX 4096	/* sources followed in one minute; the rest are counted together */
#define OUTLIER_SUMMARY_SOURCES 32	/* named one by one in the held-back entry's fields */

struct outlier_limiter {
	struct outlier_rules rules;
	uint64_t logged, held, not_logged;	/* since start */
	uint64_t idle;				/* of not_logged, those that delayed no task (log-idle) */
	uint64_t summaries;			/* held-back entries written */
	/* the times of the last cap entries (outliers and storms), oldest at recent_head: one more
	 * is written only when the entries of the last 60 s leave room for it, so that no 60 s
	 * hold more than cap */
	uint64_t *recent;
	unsigned recent_cap, recent_head, recent_len;
	unsigned storms_on;		/* storms started and not ended: their ends have room kept */
	uint64_t storms_held;		/* storm entries held back, since start */
	/* the minute being counted for the held-back entry: it began with its first entry or
	 * held-back outlier */
	uint64_t window_ns;		/* its start (CLOCK_MONOTONIC); 0: none open */
	uint64_t window_held, window_not_logged, window_not_logged_worst_ns;
	uint64_t window_idle, window_idle_worst_ns;
	uint64_t overflow_held, overflow_worst_ns;	/* of sources past the table's room */
	unsigned window_storms;			/* storm entries held back in the minute */
	char window_storm[OUTLIER_STORMS_NAMED][96];	/* the first ones, as "rate storm on IRQ 36 (x) started" */
	unsigned overflow_sources;
	/* the sources seen in this minute: open addressing on (kind, sub, name) */
	struct outlier_source *sources;
	unsigned nsources, cap_sources;
};


/* 0 or -ENOMEM (the cap's ring) */
int outlier_init(struct outlier_limiter *l, const struct outlier_rules *r);
/* Gives back the sources' table (it is made again as outliers come) */
void outlier_free(struct outlier_limiter *l);
/* Gives back everything */
void outlier_destroy(struct outlier_limiter *l);
/* Whether o is logged, held back or left out (the task filter), and its entry when logged.
 * Returns what happened. */
enum outlier_fate { OUTLIER_LOGGED, OUTLIER_HELD, OUTLIER_NOT_LOGGED };
enum outlier_fate outlier_handle(struct outlier_limiter *l, const struct outlier *o);
/* Whether o's task is one whose outliers are logged (log-wakeups, log-tasks); true for an
 * outlier about no task. */
bool outlier_wanted(const struct outlier_rules *r, const struct outlier *o);
/* A storm's start (started) or end at now_ns, what naming it ("rate storm on IRQ 36
 * (virtio1-req.0)"): true when its entry is to be written (it counts in the cap); false when
 * the cap is full, which the outliers leave room against but several storms at once can
 * fill: it is held back, and the held-back entry names it. */
bool outlier_storm_entry(struct outlier_limiter *l, uint64_t now_ns, bool started, const char *what);
/* n outliers on idle CPUs that delayed no task, the longest worst_ns, counted where they
 * happened and not sent (log-idle off: the timer program keeps them, struct why_count.unsent),
 * as if each had come at now_ns and been left out */
void outlier_idle_counted(struct outlier_limiter *l, uint64_t n, uint64_t worst_ns, uint64_t now_ns);
/* Writes the held-back entry of a minute that ended before now_ns (call from a timer). */
void outlier_flush(struct outlier_limiter *l, uint64_t now_ns);
/* Writes the held-back entry of the minute going on now (shutdown, reload). */
void outlier_flush_all(struct outlier_limiter *l);
/* New rules (reload); what was held back under the old ones is said first. */
void outlier_configure(struct outlier_limiter *l, const struct outlier_rules *r);
void outlier_format(char *buf, size_t len, const struct outlier *o, uint64_t threshold_ns);
/* status's "outliers": the rules and the counts since start */
json_object *outlier_status_json(const struct outlier_limiter *l);
/* The outlier as an event (irqlat events, subscribers): {"type": "outlier", "kind", "ts_ns",
 * "cpu", its sub, name and value under the kind's keys, the task on the CPU, its aux, and "why"
 * (why_json()) when it was explained} */
json_object *outlier_json(const struct outlier *o);

#endif
