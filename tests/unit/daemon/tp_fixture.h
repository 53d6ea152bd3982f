/* SPDX-License-Identifier: GPL-2.0 */
/* One consumed tracepoint as tp_attach() leaves it after attaching sillymod's me_silly (two
 * arguments, time and count, count the counting one), and its events as the program
 * writes them into the ring buffer: for the tp_events.c and tp_json.c tests. */
#ifndef IRQLAT_TEST_TP_FIXTURE_H
#define IRQLAT_TEST_TP_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "daemon/base/log.h"
#include "daemon/tracepoints/tp_attach.h"
#include "daemon/tracepoints/tp_events.h"

static inline void tp_fixture_one(struct tp_set *s, struct tracepoint *t, uint64_t period_ns)
{
	memset(s, 0, sizeof(*s));
	memset(t, 0, sizeof(*t));
	s->tps = t;
	s->n = 1;
	snprintf(t->cfg.name, sizeof(t->cfg.name), "silly:me_silly");
	snprintf(t->system, sizeof(t->system), "silly");
	snprintf(t->event, sizeof(t->event), "me_silly");
	t->link_fd = t->prog_fd = -1;
	t->state = TP_ATTACHED;
	t->style = "raw_tp";
	t->nargs = 2;
	snprintf(t->args[0].name, sizeof(t->args[0].name), "time");
	snprintf(t->args[1].name, sizeof(t->args[1].name), "count");
	t->args[0].size = t->args[1].size = 8;
	t->counter_arg = 1;
	t->cfg.period_ns = t->period_ns = period_ns;
	t->estimate_left = 16;
}

/* me_silly at ts_ms with time = ts_ms: tracepoints_handle()'s result */
static inline int tp_fixture_feed(struct tp_set *s, uint64_t ts_ms, uint64_t count)
{
	struct tracepoint_event e = { .kind = RB_TRACEPOINT, .ts_ns = ts_ms * 1000000ull, .nargs = 2,
				      .args = { ts_ms, count } };

	return tracepoints_handle(s, &e, sizeof(e));
}

/* What the daemon's log (stderr, from debug up) says between begin and end: end returns it,
 * malloc'ed. */
static int tp_capture_saved = -1;
static FILE *tp_capture_file;

static inline void tp_capture_begin(void)
{
	fflush(stderr);
	tp_capture_file = tmpfile();
	tp_capture_saved = dup(STDERR_FILENO);
	dup2(fileno(tp_capture_file), STDERR_FILENO);
	log_setup(LOG_TARGET_STDERR, LOG_DEBUG);
}

static inline char *tp_capture_end(void)
{
	long n;
	char *text;

	fflush(stderr);
	dup2(tp_capture_saved, STDERR_FILENO);
	close(tp_capture_saved);
	n = ftell(tp_capture_file);
	text = calloc(1, (size_t)n + 1);
	rewind(tp_capture_file);
	if (text && fread(text, 1, (size_t)n, tp_capture_file) != (size_t)n)
		text[0] = 0;
	fclose(tp_capture_file);
	return text;
}

/* how many times needle is in text */
static inline unsigned tp_count(const char *text, const char *needle)
{
	unsigned n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

#endif
