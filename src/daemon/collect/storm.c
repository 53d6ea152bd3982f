// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/base/message_ids.h"
#include "daemon/base/log.h"
#include "daemon/collect/storm.h"

static const char *const kind_names[STORM_KINDS] = { "rate", "unhandled" };

void storm_free(struct storm *s)
{
	free(s->h);
	*s = (struct storm){ 0 };
}

int storm_feed(struct storm *s, unsigned idx, uint32_t irq, const char *name, uint64_t runs, uint64_t spurious)
{
	struct storm_handler *h;

	if (idx >= s->n) {
		struct storm_handler *n = realloc(s->h, (idx + 1) * sizeof(*n));

		if (!n)
			return -ENOMEM;
		memset(n + s->n, 0, (idx + 1 - s->n) * sizeof(*n));
		s->h = n;
		s->n = idx + 1;
	}
	h = &s->h[idx];
	h->irq = irq;
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->runs = runs;
	h->spurious = spurious > runs ? runs : spurious;
	h->fed = true;
	return 0;
}

static void set(struct storm *s, struct storm_handler *h, enum storm_kind k, bool on, uint64_t now_ns,
		storm_report_fn report, void *userdata)
{
	struct storm_episode *e = &h->kind[k];

	if (e->on == on)
		return;
	e->on = on;
	if (on) {
		e->since_ns = now_ns;
		e->peak_rate = e->rate;
		h->started++;
		s->started++;
	}
	if (report)
		report(userdata, h, k, on, now_ns);
}

/* The line's interrupts in the tick, and those no handler of it handled: every handler of a
 * line runs on every interrupt of it, so the arrivals are the most runs of one of them, and
 * those handled the runs that did not return IRQ_NONE (a device's interrupt is claimed by
 * its one handler) */
static void line_counts(const struct storm *s, uint32_t irq, uint64_t *arrivals, uint64_t *unhandled)
{
	uint64_t most = 0, handled = 0;

	for (unsigned i = 0; i < s->n; i++) {
		const struct storm_handler *h = &s->h[i];

		if (!h->fed || h->irq != irq)
			continue;
		if (h->runs > most)
			most = h->runs;
		handled += h->runs - h->spurious;
	}
	*arrivals = most;
	*unhandled = most > handled ? most - handled : 0;
}

void storm_tick(struct storm *s, double tick_s, uint64_t now_ns, storm_report_fn report, void *userdata)
{
	/* the weight of one tick in a mean with time constant STORM_BASELINE_S */
	double alpha = tick_s > 0 ? 1 - exp(-tick_s / STORM_BASELINE_S) : 0;
	uint64_t tick_begin = now_ns - (uint64_t)(tick_s * 1e9);

	if (tick_s <= 0)
		return;
	for (unsigned i = 0; i < s->n; i++) {
		struct storm_handler *h = &s->h[i];
		struct storm_episode *rs = &h->kind[STORM_RATE], *us = &h->kind[STORM_UNHANDLED];
		double rate = h->fed ? (double)h->runs / tick_s : 0;
		uint64_t arrivals = 0, unhandled = 0;

		if (!h->fed && !h->seen)
			continue;	/* never ran yet */
		if (!h->seen) {
			/* The daemon learns of a handler when it runs. One that ran in the first
			 * tick was running when the daemon started: that tick is its normal. One
			 * first seen later was silent in every tick before: its normal is 0, or
			 * a device silent since the start whose first runs are a burst would
			 * never be flagged (what a clean-clone run of 52-storm.t met). */
			h->recent_rate = s->ticks ? 0 : rate;
			h->seen = true;
		}
		rs->rate = rate;
		if (rs->on && rate > rs->peak_rate)
			rs->peak_rate = rate;
		if (!rs->on) {
			/* high against the baseline of the tick the high rate began in: the
			 * baseline follows the burst meanwhile, and a burst is not to make itself
			 * its own normal before it had the time to count */
			double base = h->high_since_ns ? h->high_baseline : h->recent_rate;

			/* A high rate begins over the start's bounds and goes on while it stays over
			 * the end's (the same hysteresis as a storm's): one interval of a steady burst
			 * that dips under 1000/s (a UART under emulation ran 1,000 to 2,400 a second)
			 * does not restart the count. What is called a storm is the mean over the
			 * whole high period, held to the start's bounds. */
			if (!h->high_since_ns && rate >= STORM_RATE_MIN && rate >= STORM_RATE_FACTOR * base) {
				h->high_since_ns = tick_begin ? tick_begin : 1;
				h->high_baseline = h->recent_rate;
				h->high_runs = 0;
				h->high_s = 0;
			} else if (h->high_since_ns && (rate < STORM_END_RATE || rate < STORM_END_FACTOR * base)) {
				h->high_since_ns = 0;
			}
			if (h->high_since_ns) {
				double mean;

				h->high_runs += rate * tick_s;
				h->high_s += tick_s;
				mean = h->high_runs / h->high_s;
				if ((double)(now_ns - h->high_since_ns) / 1e9 >= STORM_SUSTAIN_S - 1e-6 &&
				    mean >= STORM_RATE_MIN && mean >= STORM_RATE_FACTOR * h->high_baseline) {
					rs->recent_rate = h->high_baseline;
					set(s, h, STORM_RATE, true, now_ns, report, userdata);
					rs->since_ns = h->high_since_ns;
					h->high_since_ns = 0;
				}
			}
		} else if (rate < STORM_END_RATE || rate < STORM_END_FACTOR * h->recent_rate) {
			set(s, h, STORM_RATE, false, now_ns, report, userdata);
		}
		/* a rate that stays becomes the normal */
		h->recent_rate += alpha * (rate - h->recent_rate);

		if (h->fed)
			line_counts(s, h->irq, &arrivals, &unhandled);
		us->rate = (double)arrivals / tick_s;
		us->unhandled_share = arrivals ? (double)unhandled / (double)arrivals : 0;
		if (us->on && us->rate > us->peak_rate)
			us->peak_rate = us->rate;
		if (!us->on && (double)unhandled / tick_s >= STORM_UNHANDLED_MIN && us->unhandled_share >= STORM_UNHANDLED_SHARE)
			set(s, h, STORM_UNHANDLED, true, now_ns, report, userdata);
		else if (us->on && ((double)unhandled / tick_s < STORM_UNHANDLED_END_MIN ||
				    us->unhandled_share < STORM_UNHANDLED_END_SHARE))
			set(s, h, STORM_UNHANDLED, false, now_ns, report, userdata);
	}
	for (unsigned i = 0; i < s->n; i++)
		s->h[i].fed = false;
	s->ticks++;
}

const struct storm_episode *storm_of(const struct storm *s, unsigned idx, enum storm_kind *kind)
{
	if (idx >= s->n)
		return NULL;
	for (int k = STORM_KINDS - 1; k >= 0; k--)
		if (s->h[idx].kind[k].on) {
			if (kind)
				*kind = (enum storm_kind)k;
			return &s->h[idx].kind[k];
		}
	return NULL;
}

unsigned storm_active(const struct storm *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->n; i++)
		n += storm_of(s, i, NULL) != NULL;
	return n;
}

json_object *storm_json(const struct storm *s, unsigned idx, uint64_t start_ns)
{
	enum storm_kind k;
	const struct storm_episode *e = storm_of(s, idx, &k);
	json_object *o;

	if (!e)
		return NULL;	/* json null */
	o = json_object_new_object();
	json_object_object_add(o, "kind", json_object_new_string(kind_names[k]));
	json_object_object_add(o, "rate", json_object_new_double(e->rate));
	json_object_object_add(o, "since_s", json_object_new_double((double)(e->since_ns - start_ns) / 1e9));
	if (k == STORM_RATE)
		json_object_object_add(o, "baseline_rate", json_object_new_double(e->recent_rate));
	else
		json_object_object_add(o, "unhandled_share", json_object_new_double(e->unhandled_share));
	return o;
}

json_object *storm_status_json(const struct storm *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "active", json_object_new_int((int)storm_active(s)));
	json_object_object_add(o, "since_start", json_object_new_uint64(s->started));
	return o;
}

const char *storm_kind_name(enum storm_kind k)
{
	return k < STORM_KINDS ? kind_names[k] : "?";
}

void storm_journal(void *userdata, const struct storm_handler *h, enum storm_kind k, bool started, uint64_t now_ns)
{
	const struct storm_episode *e = &h->kind[k];
	struct jfields f = { 0 };

	(void)userdata;
	jf_add(&f, "IRQ=%u", h->irq);
	jf_add(&f, "IRQ_NAME=%s", h->name);
	jf_add(&f, "STORM_KIND=%s", kind_names[k]);
	jf_add(&f, "RATE=%.0f", e->rate);
	if (k == STORM_RATE) {
		jf_add(&f, "RECENT_RATE=%.1f", e->recent_rate);
		if (started)	/* how long the rate held before it was called a storm */
			jf_add(&f, "SUSTAINED_S=%.0f", (double)(now_ns - e->since_ns) / 1e9);
	}
	else
		jf_add(&f, "UNHANDLED_PERCENT=%.0f", 100 * e->unhandled_share);
	if (started) {
		if (k == STORM_RATE && e->recent_rate > 0)
			log_struct(LOG_WARNING, MID_STORM, &f, "interrupt storm on IRQ %u (%s): %.0f runs/s, %.0fx its recent %.1f/s",
				   h->irq, h->name, e->rate, e->rate / e->recent_rate, e->recent_rate);
		else if (k == STORM_RATE)	/* silent since the daemon started */
			log_struct(LOG_WARNING, MID_STORM, &f, "interrupt storm on IRQ %u (%s): %.0f runs/s, up from none",
				   h->irq, h->name, e->rate);
		else
			log_struct(LOG_WARNING, MID_STORM, &f,
				   "interrupt storm on IRQ %u (%s): %.0f%% of %.0f interrupts/s handled by no handler (IRQ_NONE)",
				   h->irq, h->name, 100 * e->unhandled_share, e->rate);
		return;
	}
	jf_add(&f, "DURATION_S=%.0f", (double)(now_ns - e->since_ns) / 1e9);
	jf_add(&f, "PEAK_RATE=%.0f", e->peak_rate);
	log_struct(LOG_NOTICE, MID_STORM_ENDED, &f, "%s storm on IRQ %u (%s) over after %.0f s (peak %.0f/s)",
		   kind_names[k], h->irq, h->name, (double)(now_ns - e->since_ns) / 1e9, e->peak_rate);
}
