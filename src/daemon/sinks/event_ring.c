// SPDX-License-Identifier: GPL-2.0
/* The ring of recent events behind `irqlat events`, and the clocks of an event. An event is
 * kept as the text it was streamed as (a few hundred bytes; an outlier's explanation without
 * its timeline and stacks, which why_detail_events() adds on request): the argument names it
 * was printed with stay right after its module is reloaded with other ones. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/json.h"
#include "common/macro.h"
#include "common/why.h"
#include "daemon/sinks/event_ring.h"

int event_ring_init_bytes(struct event_ring *r, unsigned cap, size_t max_bytes)
{
	memset(r, 0, sizeof(*r));
	if (!cap)
		return 0;
	if (max_bytes > UINT32_MAX)
		return -EINVAL;
	/* malloc(), not calloc(): the buffer's pages are the kernel's zero page until written, and
	 * a daemon at rest writes few */
	r->buf = malloc(max_bytes);
	r->off = calloc(cap, sizeof(*r->off));
	r->size = calloc(cap, sizeof(*r->size));
	r->wall_ns = calloc(cap, sizeof(*r->wall_ns));
	if (!r->buf || !r->off || !r->size || !r->wall_ns) {
		event_ring_free(r);
		return -ENOMEM;
	}
	r->cap = cap;
	r->max_bytes = max_bytes;
	return 0;
}

int event_ring_init(struct event_ring *r, unsigned cap)
{
	return event_ring_init_bytes(r, cap, EVENT_RING_BYTES);
}

void event_ring_free(struct event_ring *r)
{
	free(r->buf);
	free(r->off);
	free(r->size);
	free(r->wall_ns);
	memset(r, 0, sizeof(*r));
}

static bool overlaps(size_t off, size_t size, size_t from, size_t to)
{
	return off < to && from < off + size;
}

int event_ring_add(struct event_ring *r, json_object *o, uint64_t wall_ns)
{
	size_t n;
	const char *s = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);
	size_t need = n + 1, start = r->wpos;
	bool wrap;
	unsigned slot;

	if (!r->cap)
		return 0;
	if (!s)
		return -ENOMEM;
	r->added++;
	if (need > r->max_bytes)
		return -E2BIG;
	/* not enough room before the buffer's end: the text goes at its start, and the end left
	 * is given up with the oldest texts in it */
	wrap = start + need > r->max_bytes;
	if (wrap)
		start = 0;
	/* the oldest go while there are too many or they lie where the text goes: the texts lie
	 * in the order they came, from the write position on, so once the oldest is clear all are */
	while (r->len && (r->len == r->cap ||
			  (wrap ? overlaps(r->off[r->head], r->size[r->head], r->wpos, r->max_bytes) ||
					  overlaps(r->off[r->head], r->size[r->head], 0, need)
				: overlaps(r->off[r->head], r->size[r->head], start, start + need)))) {
		r->bytes -= r->size[r->head];
		r->head = (r->head + 1) % r->cap;
		r->len--;
	}
	memcpy(r->buf + start, s, need);
	slot = (r->head + r->len++) % r->cap;
	r->off[slot] = (uint32_t)start;
	r->size[slot] = (uint32_t)need;
	r->wall_ns[slot] = wall_ns;
	r->bytes += need;
	r->wpos = start + need;
	return 0;
}

struct by_time {
	uint64_t wall_ns;
	unsigned slot, i;	/* i: its place in the ring, for equal times */
};

static int by_time_cmp(const void *a, const void *b)
{
	const struct by_time *x = a, *y = b;

	if (x->wall_ns != y->wall_ns)
		return x->wall_ns < y->wall_ns ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

json_object *event_ring_query(const struct event_ring *r, uint64_t since_wall_ns, unsigned n)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	_cleanup_free_ struct by_time *order = NULL;
	unsigned first = 0, k = 0;

	/* wall_ns rises along the ring but for a clock step, and for events of several CPUs: look
	 * at each, not a bisection */
	while (first < r->len && r->wall_ns[(r->head + first) % r->cap] < since_wall_ns)
		first++;
	if (n && r->len - first > n)
		first = r->len - n;
	/* The answer in time order, oldest first. The ring is in the order events arrived, which
	 * across CPUs is not theirs: a late timer's outlier is sent when its callback returns,
	 * after another CPU's that began a few us later. (Without the memory, in arrival order.) */
	order = malloc((r->len - first + 1) * sizeof(*order));
	for (unsigned i = first; i < r->len; i++) {
		unsigned slot = (r->head + i) % r->cap;

		if (r->wall_ns[slot] < since_wall_ns)
			continue;
		if (order) {
			order[k++] = (struct by_time){ r->wall_ns[slot], slot, i };
		} else {
			json_object *e = json_tokener_parse(r->buf + r->off[slot]);

			if (e)
				json_object_array_add(arr, e);
		}
	}
	if (order)
		qsort(order, k, sizeof(*order), by_time_cmp);
	for (unsigned j = 0; j < k; j++) {
		json_object *e = json_tokener_parse(r->buf + r->off[order[j].slot]);

		if (e)
			json_object_array_add(arr, e);
	}
	json_object_object_add(o, "events", arr);
	json_object_object_add(o, "kept", json_object_new_int64(r->len));
	json_object_object_add(o, "capacity", json_object_new_int64(r->cap));
	json_object_object_add(o, "added", json_object_new_uint64(r->added));
	/* whether the answer is all that since_wall_ns asked for: events older than the oldest
	 * kept one were pushed out (event-history), and the request reaches back before it */
	uint64_t oldest = r->len ? r->wall_ns[r->head] : 0;

	json_object_object_add(o, "gone", json_object_new_uint64(r->added - r->len));
	if (r->len)
		json_object_object_add(o, "oldest_wall_ns", json_object_new_uint64(oldest));
	json_object_object_add(o, "truncated", json_object_new_boolean(r->added > r->len && !n && since_wall_ns < oldest));
	return o;
}

json_object *event_ring_request(const struct event_ring *r, json_object *req)
{
	int64_t n = json_get_i64(req, "n", 0);
	int64_t since = json_get_i64(req, "since_wall_ns", 0);

	if (n < 0 || n > EVENT_RING_MAX)
		return json_error_reply("\"n\" takes 0 (all) to %d events", EVENT_RING_MAX);
	if (since < 0)
		return json_error_reply("\"since_wall_ns\" takes a CLOCK_REALTIME time in ns (0: all)");
	return json_ok_reply(event_ring_query(r, (uint64_t)since, (unsigned)n));
}

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void event_clocks(uint64_t mono_ns, uint64_t *wall_ns, uint64_t *boot_ns)
{
	uint64_t mono = clock_ns(CLOCK_MONOTONIC);
	int64_t age = (int64_t)(mono - mono_ns);	/* how long ago, by the monotonic clock */

	if (wall_ns)
		*wall_ns = clock_ns(CLOCK_REALTIME) - (uint64_t)age;
	if (boot_ns)
		*boot_ns = clock_ns(CLOCK_BOOTTIME) - (uint64_t)age;
}

uint64_t event_add_clocks(json_object *o, uint64_t mono_ns)
{
	uint64_t wall, boot;

	event_clocks(mono_ns, &wall, &boot);
	json_object_object_add(o, "wall_ns", json_object_new_uint64(wall));
	json_object_object_add(o, "boot_ns", json_object_new_uint64(boot));
	return wall;
}

void event_publish(struct event_ring *r, struct server *srv, json_object *o, uint64_t wall_ns,
		   const struct why_named *why)
{
	json_object *w;

	if (r)
		event_ring_add(r, o, wall_ns);	/* out of memory: the stream still has it */
	if (!srv || !server_clients(srv))
		return;
	if (!why || !(why->ntl || why->stack_pid) || !server_stats(srv).subscribers_detail ||
	    !json_object_object_get_ex(o, "why", &w)) {
		server_broadcast(srv, o);
		return;
	}
	server_broadcast_to(srv, o, SERVER_TO_PLAIN);
	why_json_detail(w, why, WHY_DETAIL_ALL);
	server_broadcast_to(srv, o, SERVER_TO_DETAIL);
}
