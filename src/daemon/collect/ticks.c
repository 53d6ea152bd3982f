// SPDX-License-Identifier: GPL-2.0
/* Record layout, every number an unsigned LEB128:
 *   length of the rest, series, then up to the record's end one part per CPU that fired:
 *   slot, sum_ns, max_ns, aux, s, s x (gap, len << 1 | nibbles, counts)
 * a span of len neighbouring buckets from gap past the previous span's end (the first: from
 * bucket 0), their counts in order: len numbers, or with nibbles (every count of the span
 * below 16) two to a byte, the first in the low half. A part's count is its buckets' sum; the
 * series' figures are its parts' sums (max: their max).
 *
 * Spans because one series' runs in a tick fill neighbouring buckets: a count a bucket and a
 * few bytes a span, where a (gap, count) pair a bucket took a byte more each; and nibbles
 * because most buckets of most series hold a few runs a tick. Up to SPAN_GAP_MAX empty
 * buckets stay inside a span as counts of 0 (a new span costs two bytes). At 4096 handlers on
 * 256 CPUs, every kind, the 60 ticks took 39.7 MiB in pairs and take 20.3 in spans of nibbles
 * (docs/bench.md, "The daemon at scale").
 * A hand-written encoding: no Debian library does varint records this small, and the store is
 * the daemon's largest memory user on big machines (docs/architecture.md, section 6). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/collect/ticks.h"

#define VARINT_MAX 10	/* bytes of a 64-bit LEB128 number */
#define SPAN_GAP_MAX 2	/* empty buckets a span takes in rather than end */

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

/* Room for n more bytes */
static int reserve(struct tick_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	uint8_t *nd;

	if (b->cap - b->len >= n)
		return 0;
	while (cap - b->len < n)
		cap *= 2;
	nd = realloc(b->data, cap);
	if (!nd)
		return -ENOMEM;
	b->data = nd;
	b->cap = cap;
	return 0;
}

int tick_buf_begin(struct tick_buf *b, uint32_t series)
{
	b->rec_start = b->len;
	b->failed = reserve(b, 2 * VARINT_MAX) < 0;
	if (b->failed)
		return -ENOMEM;
	/* the body goes after room for its length, and moves up next to it at the end */
	b->len += VARINT_MAX;
	b->len = (size_t)(put(b->data + b->len, series) - b->data);
	b->last_series = series;
	return 0;
}

/* The spans of a part's buckets: the first bucket of each and its end, at most HIST_BUCKETS */
static unsigned spans_of(const uint64_t *bucket, unsigned *first, unsigned *end)
{
	unsigned n = 0;

	for (unsigned k = 0; k < HIST_BUCKETS; k++) {
		if (!bucket[k])
			continue;
		if (n && k - end[n - 1] <= SPAN_GAP_MAX) {
			end[n - 1] = k + 1;
			continue;
		}
		first[n] = k;
		end[n++] = k + 1;
	}
	return n;
}

int tick_buf_add_cpu(struct tick_buf *b, const struct tick_cpu_delta *d)
{
	unsigned first[HIST_BUCKETS], end[HIST_BUCKETS], ns = spans_of(d->bucket, first, end), nb = 0;
	uint8_t *p;

	if (b->failed)
		return -ENOMEM;
	if (!ns && !d->sum_ns && !d->aux)
		return 0;
	for (unsigned i = 0; i < ns; i++)
		nb += end[i] - first[i];
	/* the worst case, so that one check covers every write below */
	if (reserve(b, (5 + 2 * (size_t)ns + nb) * VARINT_MAX) < 0) {
		b->failed = true;
		return -ENOMEM;
	}
	p = b->data + b->len;
	p = put(p, d->slot);
	p = put(p, d->sum_ns);
	p = put(p, d->max_ns);
	p = put(p, d->aux);
	p = put(p, ns);
	for (unsigned i = 0, prev = 0; i < ns; i++) {
		bool nibbles = true;

		for (unsigned k = first[i]; k < end[i] && nibbles; k++)
			nibbles = d->bucket[k] < 16;
		p = put(p, first[i] - prev);
		p = put(p, (uint64_t)(end[i] - first[i]) << 1 | nibbles);
		if (nibbles) {
			for (unsigned k = first[i]; k < end[i]; k += 2)
				*p++ = (uint8_t)(d->bucket[k] | (k + 1 < end[i] ? d->bucket[k + 1] << 4 : 0));
		} else {
			for (unsigned k = first[i]; k < end[i]; k++)
				p = put(p, d->bucket[k]);
		}
		prev = end[i];
	}
	b->len = (size_t)(p - b->data);
	return 0;
}

void tick_buf_end(struct tick_buf *b)
{
	size_t body_at = b->rec_start + VARINT_MAX, body, hl;
	uint8_t head[VARINT_MAX];

	if (b->failed) {
		b->len = b->rec_start;
		b->failed = false;
		return;
	}
	body = b->len - body_at;
	hl = (size_t)(put(head, body) - head);
	memcpy(b->data + b->rec_start, head, hl);
	memmove(b->data + b->rec_start + hl, b->data + body_at, body);
	b->len = b->rec_start + hl + body;
}

int tick_buf_append(struct tick_buf *b, uint32_t series, const struct tick_cpu_delta *d)
{
	int r = tick_buf_begin(b, series);

	if (r >= 0)
		r = tick_buf_add_cpu(b, d);
	tick_buf_end(b);
	return r;
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

int tick_cursor_take_cpus(struct tick_cursor *c, uint32_t series, const struct tick_pick *pick, struct hist *h,
			  uint64_t *cpu_count, uint64_t *cpu_sum_ns, unsigned ncpus)
{
	return tick_cursor_take_cpu_max(c, series, pick, h, cpu_count, cpu_sum_ns, NULL, ncpus);
}

int tick_cursor_take_cpu_max(struct tick_cursor *c, uint32_t series, const struct tick_pick *pick, struct hist *h,
			     uint64_t *cpu_count, uint64_t *cpu_sum_ns, uint64_t *cpu_max, unsigned ncpus)
{
	while (c->series < series)
		next(c);	/* records of series not asked for */
	if (c->series != series)
		return 0;

	const uint8_t *p = c->p, *end = c->end;
	uint64_t len = get(&p, end);
	const uint8_t *rec_end = p + len <= end ? p + len : end;

	get(&p, rec_end);	/* the series, known */
	while (p < rec_end) {
		uint64_t slot = get(&p, rec_end), sum = get(&p, rec_end), max = get(&p, rec_end), aux = get(&p, rec_end);
		bool want = !pick || pick->want(pick->arg, (unsigned)slot);
		uint64_t k = 0, n = 0;

		for (uint64_t spans = get(&p, rec_end); spans && p < rec_end; spans--) {
			k += get(&p, rec_end);
			uint64_t head = get(&p, rec_end), len = head >> 1;

			for (uint64_t i = 0; i < len && p < rec_end; i++, k++) {
				uint64_t cnt;

				if (head & 1)	/* nibbles: the byte is left at its second */
					cnt = i & 1 ? *p++ >> 4 : (i + 1 == len ? *p++ : *p) & 0xf;
				else
					cnt = get(&p, rec_end);
				if (want && k < HIST_BUCKETS)
					h->bucket[k] += cnt;
				n += cnt;
			}
		}
		if (!want)
			continue;
		h->count += n;
		h->sum_ns += sum;
		h->aux += aux;
		if (max > h->max_ns)
			h->max_ns = max;
		if (cpu_count && slot < ncpus)
			cpu_count[slot] += n;
		if (cpu_sum_ns && slot < ncpus)
			cpu_sum_ns[slot] += sum;
		if (cpu_max && slot < ncpus && max > cpu_max[slot])
			cpu_max[slot] = max;
	}
	next(c);
	return 1;
}

int tick_cursor_take(struct tick_cursor *c, uint32_t series, struct hist *h)
{
	return tick_cursor_take_cpus(c, series, NULL, h, NULL, NULL, 0);
}
