/* SPDX-License-Identifier: GPL-2.0 */
/* Interrupt storms, decided once per tick from each handler's runs and IRQ_NONE returns in that
 * tick (the rules are irqlat(1)'s STORMS section and docs/storms.md):
 * - rate: at least STORM_RATE_MIN runs/s and STORM_RATE_FACTOR times the handler's baseline
 *   (an exponentially weighted mean of its per-tick rates, time constant STORM_BASELINE_S,
 *   starting from the daemon's first tick: a handler that ran in it takes that tick's rate,
 *   one first seen later 0), in every tick for STORM_SUSTAIN_S against the baseline of the
 *   first: a burst shorter than that (a fio run of a few seconds on an idle disk) is no storm;
 *   over below STORM_END_FACTOR times the baseline or STORM_END_RATE/s.
 * - unhandled: of its IRQ line's interrupts in the tick, at least STORM_UNHANDLED_SHARE and
 *   STORM_UNHANDLED_MIN/s handled by no handler of the line; over below the END values.
 * Starts and ends go to a callback (storm_journal() in the daemon), the state to the summary
 * (storm_json) and /metrics. */
#ifndef IRQLAT_STORM_H
#define IRQLAT_STORM_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "irqlat_abi.h"

#define STORM_RATE_MIN 1000.0
#define STORM_RATE_FACTOR 20.0
#define STORM_END_FACTOR 10.0
#define STORM_END_RATE 500.0
#define STORM_BASELINE_S 600.0
#define STORM_SUSTAIN_S 20.0
#define STORM_UNHANDLED_MIN 100.0
#define STORM_UNHANDLED_SHARE 0.5
#define STORM_UNHANDLED_END_MIN 50.0
#define STORM_UNHANDLED_END_SHARE 0.25


enum storm_kind { STORM_RATE, STORM_UNHANDLED, STORM_KINDS };

struct storm_episode {
	bool on;
	uint64_t since_ns;	/* CLOCK_MONOTONIC of the tick it began in */
	double rate;		/* runs/s (rate) or the line's interrupts/s (unhandled), last tick */
	double peak_rate;
	double recent_rate;	/* the baseline when it began (rate storms) */
	double unhandled_share;	/* last tick (unhandled storms) */
};

struct storm_handler {
	uint32_t irq;
	char name[IRQ_NAME_LEN];
	bool seen;		/* recent_rate is set */
	double recent_rate;	/* the baseline */
	/* a high rate since high_since_ns (0: not now), against high_baseline: it began over
	 * the start's bounds and stayed over the end's; high_runs in high_s seconds since */
	uint64_t high_since_ns;
	double high_baseline;
	double high_runs, high_s;
	struct storm_episode kind[STORM_KINDS];
	uint64_t started;	/* storms of either kind since start */
	/* this tick's input */
	uint64_t runs, spurious;
	bool fed;
};

struct storm {
	struct storm_handler *h;	/* by the collector's handler index */
	unsigned n;
	uint64_t started;		/* since start, every handler */
	uint64_t ticks;			/* storm_tick()s so far */
};

/* A start (started) or an end of a storm of kind k of handler h, at now_ns */
typedef void (*storm_report_fn)(void *userdata, const struct storm_handler *h, enum storm_kind k, bool started,
				uint64_t now_ns);

void storm_free(struct storm *s);
/* Handler idx's runs and IRQ_NONE returns in this tick; 0 or -ENOMEM. */
int storm_feed(struct storm *s, unsigned idx, uint32_t irq, const char *name, uint64_t runs, uint64_t spurious);
/* Once every handler of the tick (tick_s long, ending at now_ns) was fed: applies the rules
 * and reports each start and end. A handler not fed this tick had no runs. */
void storm_tick(struct storm *s, double tick_s, uint64_t now_ns, storm_report_fn report, void *userdata);
/* The storm of handler idx now: its unhandled storm if one is on, else its rate storm, NULL
 * when neither. */
const struct storm_episode *storm_of(const struct storm *s, unsigned idx, enum storm_kind *kind);
unsigned storm_active(const struct storm *s);
/* Handler idx's "storm": null, or {"kind", "rate", "since_s", "baseline_rate" |
 * "unhandled_share"}; start_ns: the daemon's start, for since_s. */
json_object *storm_json(const struct storm *s, unsigned idx, uint64_t start_ns);
/* status: {"active": N, "since_start": N} */
json_object *storm_status_json(const struct storm *s);
/* "rate", "unhandled" */
const char *storm_kind_name(enum storm_kind k);
/* The journal entries (MID_STORM, MID_STORM_ENDED), as a storm_report_fn. */
void storm_journal(void *userdata, const struct storm_handler *h, enum storm_kind k, bool started, uint64_t now_ns);

#endif
