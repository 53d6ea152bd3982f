/* SPDX-License-Identifier: GPL-2.0 */
/* What an outlier sets off (KIND-on-threshold, src/daemon/config/on_threshold.h), run as each
 * outlier over its kind's threshold arrives, whatever the journal's limits make of its entry:
 * - trace: its CPU's events of irqlatd's tracefs instance (trace_instance.h) from 10 ms before
 *   the late wait began to now, into a file of the captures folder (capture_store.h), which
 *   then is kept within capture-budget-kb;
 * - signal: kill(pid, num);
 * - shell: /bin/sh -c CMD with the outlier in IRQLAT_* variables, one at a time, never waited
 *   for in the loop (an sd-event child source reaps it).
 * Each action of a kind at most once every action-interval-ms; what was skipped is counted. */
#ifndef IRQLAT_ACTIONS_H
#define IRQLAT_ACTIONS_H

#include <stdint.h>
#include <sys/types.h>
#include <json-c/json.h>
#include <systemd/sd-event.h>
#include "daemon/capture/trace_instance.h"
#include "daemon/config/config.h"
#include "daemon/sinks/outlier.h"

#define CAPTURE_BEFORE_NS 10000000ull	/* what ran in the 10 ms before the late wait began */

enum { ACT_TRACE, ACT_SIGNAL, ACT_SHELL, ACTS };

struct actions {
	sd_event *ev;
	const struct daemon_config *cfg;	/* the daemon's, new after a reload */
	struct trace_instance trace;
	char dir[256];			/* the captures folder */
	uint64_t last_ns[KINDS][ACTS];	/* when each kind's action last ran */
	pid_t shell_pid;		/* the shell running, 0: none */
	sd_event_source *shell_src;
	uint64_t ran[ACTS], skipped[ACTS], failed[ACTS];
	uint64_t removed;		/* captures removed for the budget */
	bool stopped;			/* actions_stop() ran: nothing more runs */
};

/* Keeps cfg; starts the tracefs instance when a kind has trace (an error is logged and the
 * trace action then fails alone). SIGCHLD must be blocked (sd_event_add_child). */
int actions_start(struct actions *a, sd_event *ev, const struct daemon_config *cfg);
/* After a reload: cfg is the daemon's new configuration */
void actions_configure(struct actions *a, const struct daemon_config *cfg);
/* The actions of o's kind; a capture's path into file (len bytes), "" when none was saved */
void actions_run(struct actions *a, const struct outlier *o, char *file, size_t len);
/* The captures answer's body: {"folder", "budget_bytes", "captures": [...]} */
json_object *actions_captures_json(const struct actions *a);
/* status's "actions" */
json_object *actions_status_json(const struct actions *a);
/* Removes the instance, and no action runs after it; a shell still running is left to finish */
void actions_stop(struct actions *a);

#endif
