/* SPDX-License-Identifier: GPL-2.0 */
/* The events a person can look back on: the recent outliers and tracepoint events, as the JSON
 * objects `irqlat events --follow` streams, kept in a bounded ring for `irqlat events` (-n,
 * --since); and the clocks every event carries (monotonic from the kernel, wall and boot time
 * added here). */
#ifndef IRQLAT_EVENT_RING_H
#define IRQLAT_EVENT_RING_H

#include <stdint.h>
#include <json-c/json.h>
#include "daemon/sinks/server.h"

#define EVENT_RING_DEFAULT 4096
#define EVENT_RING_MIN 16
#define EVENT_RING_MAX 1048576
/* and their text at most so many bytes: an outlier with its explanation's timeline and stacks
 * is some 8 KiB of JSON, a bare one a few hundred bytes */
#define EVENT_RING_BYTES (4u << 20)

/* The texts lie one after another in one buffer of max_bytes, written around in a circle: the
 * oldest are the first after the write position, so making room is dropping the oldest. An
 * event a copy each (strdup()) was most of the ring's cost under an outlier flood: a text over
 * 1 KiB has glibc consolidate its fast bins, full of json-c's small objects, at every event. */
struct event_ring {
	char *buf;		/* max_bytes: the kept texts, each NUL-terminated */
	uint32_t *off, *size;	/* the i-th oldest event's text: buf + off[(head + i) % cap], size bytes with its NUL */
	uint64_t *wall_ns;	/* its CLOCK_REALTIME, for --since */
	unsigned cap, head, len;
	size_t wpos;		/* where the next text goes */
	size_t bytes, max_bytes;	/* the kept texts' sizes, and the buffer's (EVENT_RING_BYTES) */
	uint64_t added;		/* since start; added - len were pushed out by newer ones (or too big) */
};

/* cap events at most (0: keep none), in EVENT_RING_BYTES of text. 0 or -ENOMEM. */
int event_ring_init(struct event_ring *r, unsigned cap);
/* The same in max_bytes of text (at most 4 GiB) */
int event_ring_init_bytes(struct event_ring *r, unsigned cap, size_t max_bytes);
void event_ring_free(struct event_ring *r);
/* Keeps a copy of o's text, pushing out the oldest when full (cap events, or max_bytes of
 * text); wall_ns orders --since. A text longer than the whole buffer is not kept (-E2BIG),
 * and counts as pushed out. */
int event_ring_add(struct event_ring *r, json_object *o, uint64_t wall_ns);
/* {"events":[oldest first, by wall_ns; the ring's order for equal times], "kept":N, "added":N, "gone":N, "oldest_wall_ns":T, "truncated":B}:
 * of the kept events those with wall_ns >= since_wall_ns, the last n of them (n 0: all);
 * truncated when events were pushed out and since_wall_ns reaches back before the oldest kept
 * one (the answer is not all the window asked for). */
json_object *event_ring_query(const struct event_ring *r, uint64_t since_wall_ns, unsigned n);
/* The "events" request: {"cmd":"events", "since_wall_ns":N, "n":N}. */
json_object *event_ring_request(const struct event_ring *r, json_object *req);

/* CLOCK_REALTIME and CLOCK_BOOTTIME of a CLOCK_MONOTONIC time, from the offsets between the
 * clocks now: right for an event a moment old, as every event handled here is (a clock step
 * applies to events after it). */
void event_clocks(uint64_t mono_ns, uint64_t *wall_ns, uint64_t *boot_ns);
/* Adds "wall_ns" and "boot_ns" of mono_ns to o, and returns its wall_ns. */
uint64_t event_add_clocks(json_object *o, uint64_t mono_ns);
/* One event out: into the ring (r may be NULL) and to the subscribers (srv may be NULL). An
 * outlier's explanation why (NULL: none) goes with it as o's "why" has it (why_json()), and
 * in detail, with its timeline and stacks (why_json_detail()), to the subscribers that asked
 * for it: built only then. The ring keeps the event without them; an "events" request in
 * detail takes them from the kept waits (why_detail_events()). */
struct why_named;
void event_publish(struct event_ring *r, struct server *srv, json_object *o, uint64_t wall_ns,
		   const struct why_named *why);

#endif
