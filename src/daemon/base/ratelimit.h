/* SPDX-License-Identifier: GPL-2.0 */
/* A per-second limit on journal entries of one kind of event (tracepoint events; outliers
 * keep theirs in outlier.c): up to per_second entries in each second of the events' own
 * clock, the rest counted, and the count said once that second is over. */
#ifndef IRQLAT_RATELIMIT_H
#define IRQLAT_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

struct ratelimit {
	uint64_t second;	/* of the events counted (CLOCK_MONOTONIC seconds) */
	unsigned passed;	/* entries written in it */
	uint64_t suppressed;	/* not written in it, to be said */
	uint64_t suppressed_total;
};

/* true when the event at ts_ns may be written (per_second 0: no limit). *ended: what an
 * earlier second suppressed and nobody said yet (0: nothing), for the caller to say first. */
bool ratelimit_pass(struct ratelimit *rl, unsigned per_second, uint64_t ts_ns, uint64_t *ended);
/* What a second before now_ns suppressed and nobody said yet; 0 when nothing (a timer's
 * flush; now_ns UINT64_MAX takes what is pending, at shutdown). */
uint64_t ratelimit_flush(struct ratelimit *rl, uint64_t now_ns);

/* A running count (of records lost, say) reported at most once every every_ns: its first
 * growth at once, then what it grew by since it was last said, once every_ns has passed
 * since. A loss that lasts is said once a minute, not once a tick. */
struct report_limit {
	uint64_t said;		/* the count when it was last said */
	uint64_t said_ns;	/* when; 0: never */
};

/* What to say now of a count that stands at total at now_ns (the growth since it was last
 * said), or 0: nothing now */
uint64_t report_limit_due(struct report_limit *r, uint64_t total, uint64_t now_ns, uint64_t every_ns);

#endif
