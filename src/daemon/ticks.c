// SPDX-License-Identifier: GPL-2.0
/* Record layout, every number an unsigned LEB128:
 *   length of the rest, series, sum_ns, max_ns, aux, n, n x (cpu index, count),
 *   m, m x (gap, count) where gap is the bucket minus the previous bucket + 1 (the first: k)
 * A hand-written encoding: no Debian library does varint records this small, and the store is
 * the daemon's largest memory user on big machines (docs/architecture.md, section 6). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ticks.h"

#define VARINT_MAX 10	/* bytes of a 64-bit LEB128 number */

static uint8_t *put(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Reads one number; a truncated or overlong one reads as what was there (the store is ours:
 * it cannot be malformed, this only keeps a bug from running past the end). */
static uint64_t get(const uint8_t **pp, const uint8_t *end)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;

	while (p < end && shift < 64) {
		uint8_t b = *p++;

		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	*pp = p;
	return v;
}

void tick_buf_reset(struct tick_buf *b)
{
	b->len = 0;
}

void tick_buf_free(struct tick_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

int tick_buf_append(struct tick_buf *b, uint32_t series, const struct tick_delta *d)
{
	unsigned nb = 0, nc = 0;
	size_t worst, body, hl;
	uint8_t head[VARINT_MAX], *p, *start;

	for (unsigned k = 0; k < HIST_BUCKETS; k++)
		nb += d->bucket[k] != 0;
	for (unsigned i = 0; i < d->ncpus; i++)
		nc += d->cpu_count[i] != 0;
	/* the worst case, so that one check covers every write below */
	worst = (7 + 2 * (size_t)nc + 2 * nb) * VARINT_MAX;
	if (b->cap - b->len < worst) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *nd;

		while (cap - b->len < worst)
			cap *= 2;
		nd = realloc(b->data, cap);
		if (!nd)
			return -ENOMEM;
		b->data = nd;
		b->cap = cap;
	}
	/* the body goes after room for its length, then moves up next to the length */
	start = b->data + b->len + VARINT_MAX;
	p = start;
	p = put(p, series);
	p = put(p, d->sum_ns);
	p = put(p, d->max_ns);
	p = put(p, d->aux);
	p = put(p, nc);
	for (unsigned i = 0; i < d->ncpus; i++)
		if (d->cpu_count[i]) {
			p = put(p, i);
			p = put(p, d->cpu_count[i]);
		}
	p = put(p, nb);
	for (unsigned k = 0, prev = 0; k < HIST_BUCKETS; k++)
		if (d->bucket[k]) {
			p = put(p, k - prev);	/* the first: k + 0; then the gap + 1 */
			p = put(p, d->bucket[k]);
			prev = k + 1;
		}
	body = (size_t)(p - start);
	hl = (size_t)(put(head, body) - head);
	memcpy(b->data + b->len, head, hl);
	memmove(b->data + b->len + hl, start, body);
	b->len += hl + body;
	b->last_series = series;
	return 0;
}

/* The series of the record at the cursor (UINT32_MAX at the end). */
static void peek(struct tick_cursor *c)
{
	const uint8_t *p = c->p;

	if (!p || p >= c->end) {
		c->series = UINT32_MAX;
		return;
	}
	get(&p, c->end);	/* its length */
	c->series = (uint32_t)get(&p, c->end);
}

void tick_cursor_init(struct tick_cursor *c, const struct tick_buf *b)
{
	c->p = b->data;
	c->end = b->data ? b->data + b->len : NULL;
	peek(c);
}

static void next(struct tick_cursor *c)
{
	const uint8_t *p = c->p;
	uint64_t len = get(&p, c->end);

	c->p = p + len <= c->end ? p + len : c->end;
	peek(c);
}

int tick_cursor_take(struct tick_cursor *c, uint32_t series, struct hist *h, uint64_t *cpu_count,
		     unsigned ncpus)
{
	while (c->series < series)
		next(c);	/* records of series not asked for */
	if (c->series != series)
		return 0;

	const uint8_t *p = c->p, *end = c->end;
	uint64_t len = get(&p, end), v;
	const uint8_t *rec_end = p + len <= end ? p + len : end;

	get(&p, rec_end);	/* the series, known */
	h->sum_ns += get(&p, rec_end);
	v = get(&p, rec_end);
	if (v > h->max_ns)
		h->max_ns = v;
	h->aux += get(&p, rec_end);
	for (uint64_t n = get(&p, rec_end); n; n--) {
		uint64_t i = get(&p, rec_end), cnt = get(&p, rec_end);

		if (cpu_count && i < ncpus)
			cpu_count[i] += cnt;
	}
	uint64_t k = 0;
	for (uint64_t m = get(&p, rec_end); m; m--) {
		uint64_t cnt;

		k += get(&p, rec_end);
		cnt = get(&p, rec_end);
		if (k < HIST_BUCKETS) {
			h->bucket[k] += cnt;
			h->count += cnt;
		}
		k++;
	}
	next(c);
	return 1;
}
