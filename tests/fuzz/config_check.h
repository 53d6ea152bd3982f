/* SPDX-License-Identifier: GPL-2.0 */
/* What a configuration accepted by config_set() (the file's or the command line's) must be:
 * its strings terminated, its numbers within the bounds irqlatd(8) gives them. */
#ifndef IRQLAT_FUZZ_CONFIG_CHECK_H
#define IRQLAT_FUZZ_CONFIG_CHECK_H

#include "fuzz.h"
#include "daemon/config/config.h"

static inline bool terminated(const char *s, size_t size)
{
	return memchr(s, 0, size) != NULL;
}

static inline void config_check(const struct daemon_config *c)
{
	fuzz_check(c->ntracepoints <= MAX_TRACEPOINTS, "%u tracepoints", c->ntracepoints);
	for (unsigned i = 0; i < c->ntracepoints; i++)
		fuzz_check(terminated(c->tracepoints[i].name, TP_NAME_MAX) && c->tracepoints[i].name[0] &&
				   terminated(c->tracepoints[i].counter, TP_ARG_NAME_MAX) &&
				   terminated(c->tracepoints[i].module, TP_MODULE_MAX),
			   "tracepoint %u", i);
	fuzz_check(terminated(c->socket_path, sizeof(c->socket_path)) && terminated(c->metrics, sizeof(c->metrics)) &&
			   terminated(c->socket_user, sizeof(c->socket_user)) &&
			   terminated(c->socket_group, sizeof(c->socket_group)) &&
			   terminated(c->config_path, sizeof(c->config_path)),
		   "an unterminated string");
	fuzz_check(c->nlog_tasks <= MAX_LOG_TASKS, "%u log-tasks", c->nlog_tasks);
	for (unsigned i = 0; i < c->nlog_tasks; i++)
		fuzz_check(c->log_tasks[i].pid ? c->log_tasks[i].pid <= 4194304
					       : terminated(c->log_tasks[i].pattern, LOG_TASK_PATTERN_MAX) && c->log_tasks[i].pattern[0],
			   "log-task %u", i);
	fuzz_check(c->log_wakeups <= LOG_WAKEUPS_ALL, "log-wakeups %d", (int)c->log_wakeups);
	fuzz_check(c->log_idle == 0 || c->log_idle == 1, "log-idle %d", c->log_idle);
	fuzz_check(c->socket_mode <= 0777, "socket mode %o", c->socket_mode);
	fuzz_check(c->interval_ms >= 10 && c->interval_ms <= 60000, "interval %u ms", c->interval_ms);
	fuzz_check(c->ringbuf_kb >= 4 && !(c->ringbuf_kb & (c->ringbuf_kb - 1)), "ringbuf %u KiB", c->ringbuf_kb);
}

/* A refusal: one line of UTF-8, from where it says */
static inline void config_error_check(const struct config_error *e, enum config_source source)
{
	fuzz_check(e->source == source, "source %d", (int)e->source);
	fuzz_check(fuzz_one_line(e->text), "not one line: %s", e->text);
	fuzz_check(fuzz_utf8_valid(e->text, strlen(e->text)), "not UTF-8: %s", e->text);
}

#endif
