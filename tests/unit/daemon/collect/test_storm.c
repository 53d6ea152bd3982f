// SPDX-License-Identifier: GPL-2.0
/* storm_feed()/storm_tick() on run counts the test makes up, tick by tick, against what the
 * rules of irqlat(1) (STORMS) say, worked out here: a steady rate with noise never starts a
 * storm; a burst shorter than STORM_SUSTAIN_S after an idle period (a 5 s fio run) does not
 * either; one that lasts starts one once it lasted that long and ends it at the tick the
 * closed form of the baseline says; so does a burst of a handler silent since the start;
 * small jumps and rates under the floor do not; a line
 * whose interrupts no handler claims starts an unhandled storm, a shared line whose one busy
 * device makes the other handler return IRQ_NONE does not; the JSON and the counts. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/base/log.h"
#include "daemon/collect/storm.h"

#define TICK_NS 1000000000ull

struct event {
	unsigned irq;
	enum storm_kind kind;
	bool started;
	uint64_t tick;
};

struct record {
	struct event ev[64];
	unsigned n;
	uint64_t tick;
};

static void recorder(void *userdata, const struct storm_handler *h, enum storm_kind k, bool started, uint64_t now_ns)
{
	struct record *r = userdata;

	assert_true(r->n < 64);
	r->ev[r->n++] = (struct event){ h->irq, k, started, now_ns / TICK_NS };
}

/* One tick of 1 s: handler 0 (IRQ 36) ran runs times, spurious of them IRQ_NONE */
static void tick1(struct storm *s, struct record *r, uint64_t runs, uint64_t spurious)
{
	assert_int_equal(storm_feed(s, 0, 36, "virtio1-req.0", runs, spurious), 0);
	r->tick++;
	storm_tick(s, 1.0, r->tick * TICK_NS, recorder, r);
}

/* splitmix64: noise the test controls (the seed is printed) */
static uint64_t next_rand(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void test_storm_steady(void **state)
{
	struct storm s = { 0 };
	struct record r = { 0 };
	uint64_t seed = 14;

	(void)state;
	printf("# seed %llu\n", (unsigned long long)seed);
	/* 10k to 16k a second, as fio gives here, for 10 minutes; then half of it, then back */
	for (int i = 0; i < 600; i++)
		tick1(&s, &r, 10000 + next_rand(&seed) % 6001, 0);
	for (int i = 0; i < 60; i++)
		tick1(&s, &r, 5000 + next_rand(&seed) % 3001, 0);
	for (int i = 0; i < 60; i++)
		tick1(&s, &r, 10000 + next_rand(&seed) % 6001, 0);
	/* and a pause of 5 s in the middle of a load */
	for (int i = 0; i < 5; i++)
		tick1(&s, &r, 0, 0);
	for (int i = 0; i < 60; i++)
		tick1(&s, &r, 10000 + next_rand(&seed) % 6001, 0);
	assert_int_equal(r.n, 0);
	assert_int_equal(storm_active(&s), 0);
	assert_null(storm_json(&s, 0, 0));
	storm_free(&s);
}

/* A burst whose rate wobbles around the floor (an emulated UART: 1,000 to 2,400 a second):
 * a tick under 1000/s but over the end's bounds does not restart the 20 s; one under 500/s
 * does; and a burst whose mean stays under 1000/s is no storm however long it lasts. */
static void test_storm_wobble(void **state)
{
	struct record r;
	struct storm s;
	uint64_t first;

	(void)state;
	/* a mean under the floor for 60 s: 1300 and 600 in turn */
	s = (struct storm){ 0 }, r = (struct record){ 0 };
	for (int i = 0; i < 60; i++)
		tick1(&s, &r, 1, 0);
	for (int i = 0; i < 60; i++)
		tick1(&s, &r, i % 2 ? 600 : 1300, 0);
	assert_int_equal(r.n, 0);
	storm_free(&s);

	/* 10 s high, a dip under 500/s: the count starts again at the next high tick */
	s = (struct storm){ 0 }, r = (struct record){ 0 };
	for (int i = 0; i < 60; i++)
		tick1(&s, &r, 1, 0);
	for (int i = 0; i < 10; i++)
		tick1(&s, &r, 2000, 0);
	tick1(&s, &r, 400, 0);
	first = r.tick + 1;
	for (int i = 0; i < (int)STORM_SUSTAIN_S - 1; i++)
		tick1(&s, &r, 2000, 0);
	assert_int_equal(r.n, 0);
	tick1(&s, &r, 2000, 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ev[0].tick, first + (uint64_t)STORM_SUSTAIN_S - 1);
	storm_free(&s);

	/* 20 s whose 10th dips to 800/s, the mean 1,940/s: a storm at its 20th tick */
	s = (struct storm){ 0 }, r = (struct record){ 0 };
	for (int i = 0; i < 60; i++)
		tick1(&s, &r, 1, 0);
	first = r.tick + 1;
	for (int i = 0; i < (int)STORM_SUSTAIN_S; i++)
		tick1(&s, &r, i == 9 ? 800 : 2000, 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ev[0].kind, STORM_RATE);
	assert_true(r.ev[0].started);
	assert_int_equal(r.ev[0].tick, first + (uint64_t)STORM_SUSTAIN_S - 1);
	storm_free(&s);
}

static void test_storm_burst(void **state)
{
	struct storm s = { 0 };
	struct record r = { 0 };
	const double burst = 13000, idle = 1;
	uint64_t end = 0;

	(void)state;
	for (int i = 0; i < 120; i++)
		tick1(&s, &r, (uint64_t)idle, 0);
	assert_int_equal(r.n, 0);
	/* 5 s of fio on an idle disk, then 19 s: not sustained, no storm */
	for (int i = 0; i < 5; i++)
		tick1(&s, &r, (uint64_t)burst, 0);
	for (int i = 0; i < 30; i++)
		tick1(&s, &r, (uint64_t)idle, 0);
	for (int i = 0; i < (int)STORM_SUSTAIN_S - 1; i++)
		tick1(&s, &r, (uint64_t)burst, 0);
	for (int i = 0; i < 30; i++)
		tick1(&s, &r, (uint64_t)idle, 0);
	assert_int_equal(r.n, 0);
	/* a burst that lasts: a storm at its STORM_SUSTAIN_S-th tick, dated from its first */
	uint64_t first = r.tick + 1;
	double base = s.h[0].recent_rate;

	for (int i = 0; i < (int)STORM_SUSTAIN_S; i++)
		tick1(&s, &r, (uint64_t)burst, 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ev[0].irq, 36);
	assert_int_equal(r.ev[0].kind, STORM_RATE);
	assert_true(r.ev[0].started);
	assert_int_equal(r.ev[0].tick, first + (uint64_t)STORM_SUSTAIN_S - 1);

	/* the summary's object while it lasts: the baseline of before the burst */
	json_object *o = storm_json(&s, 0, 0);
	assert_non_null(o);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "kind")), "rate");
	assert_float_equal(json_object_get_double(json_object_object_get(o, "rate")), burst, 0.5);
	assert_float_equal(json_object_get_double(json_object_object_get(o, "baseline_rate")), base, 1e-9);
	assert_float_equal(json_object_get_double(json_object_object_get(o, "since_s")), (double)(first - 1), 1e-9);
	json_object_put(o);
	/* j ticks into the burst the baseline is burst - (burst - base) e^(-j/600): the storm
	 * ends at the first j where the rate is under 10 times that */
	for (uint64_t j = (uint64_t)STORM_SUSTAIN_S; !end; j++)
		if (burst < STORM_END_FACTOR * (burst - (burst - base) * exp(-(double)j / STORM_BASELINE_S)))
			end = first + j;
	printf("# burst from tick %llu, expected over at tick %llu\n", (unsigned long long)first, (unsigned long long)end);
	while (r.tick < end + 30)
		tick1(&s, &r, (uint64_t)burst, 0);
	assert_int_equal(r.n, 2);
	assert_false(r.ev[1].started);
	assert_int_equal(r.ev[1].tick, end);
	assert_int_equal(s.started, 1);
	assert_int_equal(s.h[0].started, 1);
	storm_free(&s);
}

static void test_storm_not_storms(void **state)
{
	struct storm s = { 0 };
	struct record r = { 0 };

	(void)state;
	/* under the floor: 1/s to 900/s is 900 times, but 900 a second */
	for (int i = 0; i < 60; i++)
		tick1(&s, &r, 1, 0);
	for (int i = 0; i < 10; i++)
		tick1(&s, &r, 900, 0);
	assert_int_equal(r.n, 0);
	storm_free(&s);
	/* 4 times a busy rate: 5000 to 20000 */
	for (int i = 0; i < 300; i++)
		tick1(&s, &r, 5000, 0);
	for (int i = 0; i < 10; i++)
		tick1(&s, &r, 20000, 0);
	assert_int_equal(r.n, 0);
	storm_free(&s);
	/* busy from its first tick (already busy when the daemon started): its normal */
	memset(&r, 0, sizeof(r));
	for (int i = 0; i < 30; i++)
		tick1(&s, &r, 50000, 0);
	assert_int_equal(r.n, 0);
	storm_free(&s);
}

/* The daemon learns of a handler when it first runs. IRQ 30 runs from the first tick on; IRQ
 * 36 (the disk) is silent for 10 ticks, then bursts: its normal was 0, so once the burst
 * lasted STORM_SUSTAIN_S it is a storm (under the first-tick-is-normal rule it took the burst
 * as its normal and never was). Its end comes at the closed form's tick with a baseline of 0
 * at the start. IRQ 40,
 * first seen later at 500/s, is under the floor; IRQ 41, first seen in the daemon's first
 * tick at 20,000/s, was busy when it started: its normal. */
static void test_storm_silent_since_start(void **state)
{
	struct storm s = { 0 };
	struct record r = { 0 };
	const double burst = 13000;
	uint64_t end = 0, start = 0;

	(void)state;
	for (uint64_t t = 1; t <= 120; t++) {
		assert_int_equal(storm_feed(&s, 0, 30, "virtio0-input", 10, 0), 0);
		if (t >= 11)
			assert_int_equal(storm_feed(&s, 1, 36, "virtio1-req.0", (uint64_t)burst, 0), 0);
		if (t >= 3)
			assert_int_equal(storm_feed(&s, 2, 40, "later", 500, 0), 0);
		assert_int_equal(storm_feed(&s, 3, 41, "busy", 20000, 0), 0);
		storm_tick(&s, 1.0, t * TICK_NS, recorder, &r);
		if (t < 10 + (uint64_t)STORM_SUSTAIN_S)
			assert_int_equal(r.n, 0);
		if (t == 10 + (uint64_t)STORM_SUSTAIN_S) {
			assert_int_equal(r.n, 1);
			assert_int_equal(r.ev[0].irq, 36);
			assert_int_equal(r.ev[0].kind, STORM_RATE);
			assert_true(r.ev[0].started);
			json_object *o = storm_json(&s, 1, 0);

			assert_float_equal(json_object_get_double(json_object_object_get(o, "baseline_rate")), 0, 1e-12);
			json_object_put(o);
			start = 11;
			for (uint64_t j = 1; !end; j++)
				if (burst < STORM_END_FACTOR * (burst - burst * exp(-(double)j / STORM_BASELINE_S)))
					end = start + j;
		}
	}
	printf("# burst from tick %llu, expected over at tick %llu\n", (unsigned long long)start, (unsigned long long)end);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.ev[1].irq, 36);
	assert_false(r.ev[1].started);
	assert_int_equal(r.ev[1].tick, end);
	assert_int_equal(s.started, 1);
	storm_free(&s);
}

static void test_storm_unhandled(void **state)
{
	struct storm s = { 0 };
	struct record r = { 0 };

	(void)state;
	/* one handler: 90% IRQ_NONE at 1000/s */
	for (int i = 0; i < 5; i++)
		tick1(&s, &r, 1000, 0);
	tick1(&s, &r, 1000, 900);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ev[0].kind, STORM_UNHANDLED);
	assert_true(r.ev[0].started);
	json_object *o = storm_json(&s, 0, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "kind")), "unhandled");
	assert_float_equal(json_object_get_double(json_object_object_get(o, "unhandled_share")), 0.9, 1e-9);
	json_object_put(o);
	/* 30% is still more than the end's quarter; 10% is less */
	tick1(&s, &r, 1000, 300);
	assert_int_equal(r.n, 1);
	tick1(&s, &r, 1000, 100);
	assert_int_equal(r.n, 2);
	assert_false(r.ev[1].started);
	/* 60% of 100/s is 60 unhandled a second: under the 100 it takes */
	tick1(&s, &r, 100, 60);
	assert_int_equal(r.n, 2);
	storm_free(&s);

	/* a shared line (IRQ 25): the busy device's handler claims every interrupt, the other
	 * handler returns IRQ_NONE for each: normal for a shared line, no storm */
	memset(&r, 0, sizeof(r));
	for (int i = 0; i < 10; i++) {
		assert_int_equal(storm_feed(&s, 0, 25, "virtio-busy", 5000, 0), 0);
		assert_int_equal(storm_feed(&s, 1, 25, "shared-idle", 5000, 5000), 0);
		assert_int_equal(storm_feed(&s, 2, 30, "other", 10, 0), 0);
		storm_tick(&s, 1.0, (uint64_t)(i + 1) * TICK_NS, recorder, &r);
	}
	assert_int_equal(r.n, 0);
	/* now nobody claims them: both handlers of the line are in an unhandled storm, IRQ 30 not */
	assert_int_equal(storm_feed(&s, 0, 25, "virtio-busy", 5000, 5000), 0);
	assert_int_equal(storm_feed(&s, 1, 25, "shared-idle", 5000, 5000), 0);
	assert_int_equal(storm_feed(&s, 2, 30, "other", 10, 0), 0);
	storm_tick(&s, 1.0, 11 * TICK_NS, recorder, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.ev[0].irq, 25);
	assert_int_equal(r.ev[1].irq, 25);
	assert_int_equal(storm_active(&s), 2);
	assert_null(storm_json(&s, 2, 0));
	o = storm_status_json(&s);
	assert_int_equal(json_object_get_int(json_object_object_get(o, "active")), 2);
	assert_int_equal(json_object_get_int(json_object_object_get(o, "since_start")), 2);
	json_object_put(o);
	storm_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_storm_steady),
		cmocka_unit_test(test_storm_burst),
		cmocka_unit_test(test_storm_wobble),
		cmocka_unit_test(test_storm_not_storms),
		cmocka_unit_test(test_storm_silent_since_start),
		cmocka_unit_test(test_storm_unhandled),
	};

	log_setup(LOG_TARGET_STDERR, LOG_WARNING);
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
