/* SPDX-License-Identifier: GPL-2.0 */
/* One consumed tracepoint as tp_attach() leaves it after attaching sillymod's me_silly (two
 * arguments, time and count, count the counting one), and its events as the program
 * writes them into the ring buffer: for the tp_events.c and tp_json.c tests. */
#ifndef IRQLAT_TEST_TP_FIXTURE_H
#define IRQLAT_TEST_TP_FIXTURE_H

#include <stdio.h>
#include <string.h>
#include "daemon/tracepoints.h"

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

#endif
