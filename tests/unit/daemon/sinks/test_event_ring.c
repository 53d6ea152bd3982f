// SPDX-License-Identifier: GPL-2.0
/* event_ring.c: the ring keeps the newest events up to its size, oldest first; -n and --since
 * select from it; the "events" request refuses bad values; the clocks an event gets are the
 * kernel's own CLOCK_REALTIME and CLOCK_BOOTTIME for that CLOCK_MONOTONIC time. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "common/json.h"
#include "daemon/sinks/event_ring.h"

/* adds event i (count=i) at wall time 1000 + i */
static void add(struct event_ring *r, unsigned i)
{
	_cleanup_json_ json_object *o = json_object_new_object();

	json_object_object_add(o, "count", json_object_new_int((int)i));
	assert_int_equal(event_ring_add(r, o, 1000 + i), 0);
}

/* the counts a query returned, as "a b c" */
static void counts(json_object *q, char *buf, size_t len)
{
	json_object *arr = NULL;
	size_t off = 0;

	buf[0] = 0;
	assert_true(json_object_object_get_ex(q, "events", &arr));
	for (size_t i = 0; i < json_object_array_length(arr) && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%lld", i ? " " : "",
					(long long)json_get_i64(json_object_array_get_idx(arr, i), "count", -1));
}

/* Events of several CPUs arrive out of their time order (a timer's outlier is sent when its
 * callback returns): the answer is in time order, the ring's order for equal times, and -n
 * takes the last n that arrived */
static void test_time_order(void **state)
{
	const uint64_t wall[] = { 1001, 1003, 1002, 1005, 1004, 1004 };
	struct event_ring r;
	json_object *q;
	char got[256];
	(void)state;

	assert_int_equal(event_ring_init(&r, 16), 0);
	for (unsigned i = 0; i < 6; i++) {
		_cleanup_json_ json_object *o = json_object_new_object();

		json_object_object_add(o, "count", json_object_new_int((int)i + 1));
		assert_int_equal(event_ring_add(&r, o, wall[i]), 0);
	}
	q = event_ring_query(&r, 0, 0);
	counts(q, got, sizeof(got));
	assert_string_equal(got, "1 3 2 5 6 4");
	json_object_put(q);
	q = event_ring_query(&r, 0, 3);	/* the last three to arrive, in time order */
	counts(q, got, sizeof(got));
	assert_string_equal(got, "5 6 4");
	json_object_put(q);
	q = event_ring_query(&r, 1003, 0);	/* --since: 1003 and after, wherever they are */
	counts(q, got, sizeof(got));
	assert_string_equal(got, "2 5 6 4");
	json_object_put(q);
	event_ring_free(&r);
}

/* the kept text is bounded too: the oldest go while the newest would not fit (each event here
 * is {"count":N,"pad":"x..."}, 111 bytes with its NUL: three fit in 350, and the fourth goes to
 * the buffer's start); an event longer than the whole buffer is not kept, and counts as gone */
static void test_bytes(void **state)
{
	struct event_ring r;
	char buf[64], pad[91];
	json_object *q;
	(void)state;

	memset(pad, 'x', sizeof(pad) - 1);
	pad[sizeof(pad) - 1] = 0;
	assert_int_equal(event_ring_init_bytes(&r, 100, 350), 0);
	for (unsigned i = 1; i <= 5; i++) {
		_cleanup_json_ json_object *o = json_object_new_object();

		json_object_object_add(o, "count", json_object_new_int((int)i));
		json_object_object_add(o, "pad", json_object_new_string(pad));
		assert_int_equal(event_ring_add(&r, o, 1000 + i), 0);
		assert_true(r.bytes <= r.max_bytes);
	}
	q = event_ring_query(&r, 0, 0);
	counts(q, buf, sizeof(buf));
	assert_string_equal(buf, "3 4 5");
	assert_int_equal(json_get_i64(q, "gone", -1), 2);
	json_object_put(q);
	event_ring_free(&r);

	assert_int_equal(event_ring_init_bytes(&r, 4, 10), 0);
	{
		_cleanup_json_ json_object *o = json_object_new_object();

		json_object_object_add(o, "count", json_object_new_int(6));	/* 12 bytes with its NUL */
		assert_int_equal(event_ring_add(&r, o, 1006), -E2BIG);
	}
	q = event_ring_query(&r, 0, 0);
	counts(q, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_int_equal(json_get_i64(q, "gone", -1), 1);
	json_object_put(q);
	event_ring_free(&r);
}

/* Events of sizes from 12 to ~300 bytes through a 1000-byte buffer that keeps at most 6: after
 * each, the kept ones are the newest, in order, each whole (it parses, its count is its own),
 * none overlapping another, and their sizes add up to what the ring counts */
static void test_wraps(void **state)
{
	struct event_ring r;
	char pad[300];
	unsigned seed = 1;
	(void)state;

	assert_int_equal(event_ring_init_bytes(&r, 6, 1000), 0);
	for (unsigned i = 1; i <= 2000; i++) {
		_cleanup_json_ json_object *o = json_object_new_object();
		size_t plen, sum = 0;

		seed = seed * 1103515245u + 12345u;
		plen = (seed >> 16) % 280;
		memset(pad, 'a' + (char)(i % 26), plen);
		pad[plen] = 0;
		json_object_object_add(o, "count", json_object_new_int((int)i));
		json_object_object_add(o, "pad", json_object_new_string(pad));
		assert_int_equal(event_ring_add(&r, o, 1000 + i), 0);
		assert_true(r.len >= 1 && r.len <= r.cap);
		for (unsigned k = 0; k < r.len; k++) {
			unsigned slot = (r.head + k) % r.cap;
			_cleanup_json_ json_object *e = json_tokener_parse(r.buf + r.off[slot]);

			assert_non_null(e);
			assert_int_equal(json_get_i64(e, "count", -1), (int64_t)(i - r.len + 1 + k));
			assert_int_equal(strlen(r.buf + r.off[slot]) + 1, r.size[slot]);
			assert_true(r.off[slot] + r.size[slot] <= r.max_bytes);
			sum += r.size[slot];
			for (unsigned m = k + 1; m < r.len; m++) {
				unsigned other = (r.head + m) % r.cap;

				assert_true(r.off[slot] + r.size[slot] <= r.off[other] ||
					    r.off[other] + r.size[other] <= r.off[slot]);
			}
		}
		assert_int_equal(sum, r.bytes);
		assert_true(r.bytes <= r.max_bytes);
	}
	event_ring_free(&r);
}

/* --since older than the oldest event kept: the answer says it is not the whole window */
static void test_truncated(void **state)
{
	struct event_ring r;
	json_object *q;
	(void)state;

	assert_int_equal(event_ring_init(&r, 4), 0);
	for (unsigned i = 1; i <= 3; i++)
		add(&r, i);
	q = event_ring_query(&r, 900, 0);	/* nothing pushed out yet: all there is */
	assert_int_equal(json_get_i64(q, "truncated", -1), 0);
	assert_int_equal(json_get_i64(q, "gone", -1), 0);
	json_object_put(q);
	for (unsigned i = 4; i <= 10; i++)
		add(&r, i);
	q = event_ring_query(&r, 1002, 0);	/* events 2..6 were asked for and are gone */
	assert_int_equal(json_get_i64(q, "truncated", -1), 1);
	assert_int_equal(json_get_i64(q, "gone", -1), 6);
	assert_int_equal(json_get_u64(q, "oldest_wall_ns", 0), 1007);
	json_object_put(q);
	q = event_ring_query(&r, 1008, 0);	/* within what is kept */
	assert_int_equal(json_get_i64(q, "truncated", -1), 0);
	json_object_put(q);
	q = event_ring_query(&r, 0, 2);		/* -n 2: the last two, all there */
	assert_int_equal(json_get_i64(q, "truncated", -1), 0);
	json_object_put(q);
	event_ring_free(&r);
}

static void test_ring(void **state)
{
	struct event_ring r;
	json_object *q;
	char got[256];
	(void)state;

	assert_int_equal(event_ring_init(&r, 4), 0);
	q = event_ring_query(&r, 0, 0);
	counts(q, got, sizeof(got));
	assert_string_equal(got, "");
	json_object_put(q);
	for (unsigned i = 1; i <= 6; i++)
		add(&r, i);
	q = event_ring_query(&r, 0, 0);	/* the newest 4, oldest first */
	counts(q, got, sizeof(got));
	assert_string_equal(got, "3 4 5 6");
	assert_int_equal(json_get_i64(q, "kept", 0), 4);
	assert_int_equal(json_get_i64(q, "added", 0), 6);
	json_object_put(q);
	q = event_ring_query(&r, 0, 2);	/* -n 2: the last two */
	counts(q, got, sizeof(got));
	assert_string_equal(got, "5 6");
	json_object_put(q);
	q = event_ring_query(&r, 1005, 0);	/* --since: wall time 1005 and after */
	counts(q, got, sizeof(got));
	assert_string_equal(got, "5 6");
	json_object_put(q);
	q = event_ring_query(&r, 1004, 1);	/* both: the last of those */
	counts(q, got, sizeof(got));
	assert_string_equal(got, "6");
	json_object_put(q);
	q = event_ring_query(&r, 2000, 0);
	counts(q, got, sizeof(got));
	assert_string_equal(got, "");
	json_object_put(q);
	event_ring_free(&r);

	assert_int_equal(event_ring_init(&r, 0), 0);	/* keeps nothing, and says so */
	add(&r, 1);
	q = event_ring_query(&r, 0, 0);
	counts(q, got, sizeof(got));
	assert_string_equal(got, "");
	json_object_put(q);
	event_ring_free(&r);
}

static void test_request(void **state)
{
	struct event_ring r;
	_cleanup_json_ json_object *req = json_object_new_object();
	json_object *a;
	char got[64];
	(void)state;

	assert_int_equal(event_ring_init(&r, 8), 0);
	for (unsigned i = 1; i <= 3; i++)
		add(&r, i);
	json_object_object_add(req, "n", json_object_new_int(2));
	a = event_ring_request(&r, req);
	assert_true(json_get_i64(a, "ok", 0));
	counts(a, got, sizeof(got));
	assert_string_equal(got, "2 3");
	json_object_put(a);
	json_object_object_add(req, "n", json_object_new_int(-1));
	a = event_ring_request(&r, req);
	assert_false(json_get_i64(a, "ok", 1));
	assert_non_null(strstr(json_get_str(a, "error", ""), "\"n\""));
	json_object_put(a);
	json_object_object_add(req, "n", json_object_new_int(0));
	json_object_object_add(req, "since_wall_ns", json_object_new_int(-5));
	a = event_ring_request(&r, req);
	assert_false(json_get_i64(a, "ok", 1));
	json_object_put(a);
	event_ring_free(&r);
}

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* an event 2 s old: its wall and boot times are the clocks' readings 2 s ago (within the
 * time the readings here take) */
static void test_clocks(void **state)
{
	uint64_t mono = clock_ns(CLOCK_MONOTONIC), wall0 = clock_ns(CLOCK_REALTIME), boot0 = clock_ns(CLOCK_BOOTTIME);
	uint64_t wall, boot, ago = 2000000000ull;
	(void)state;

	event_clocks(mono - ago, &wall, &boot);
	assert_true(wall <= wall0 - ago + 50000000ull && wall + 50000000ull >= wall0 - ago);
	assert_true(boot <= boot0 - ago + 50000000ull && boot + 50000000ull >= boot0 - ago);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_time_order),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_wraps),
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_clocks),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
