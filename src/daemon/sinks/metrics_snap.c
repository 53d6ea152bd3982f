// SPDX-License-Identifier: GPL-2.0
/* The page's snapshot (metrics_snap.h). Item layout, numbers as unsigned LEB128, strings
 * NUL-terminated (the replay hands out pointers into the recording, no copy):
 *   'F' type name help
 *   'N' flags(1: ns as seconds) nlabels labels value
 *   'H' nlabels labels sum_ns m m x (gap, count)	buckets as in ticks.c: gap = k - previous k - 1
 * a label: the index of its name in the recording's name table (the names are the page's few
 * fixed ones: irq, handler, cpu, ...), then its value. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/sinks/metrics_snap.h"

#define NAMES_MAX 64	/* distinct label names: the page has about ten */
#define VARINT_MAX 10

struct page_snap {
	uint8_t *data;
	size_t len, cap;
	char *names[NAMES_MAX];
	unsigned nnames;
};

struct recorder {
	struct page_writer w;
	struct page_snap *s;
	bool failed;
};

static struct recorder *rec_of(struct page_writer *w)
{
	return (struct recorder *)w;
}

/* Room for n more bytes: by halves past the hint (glibc moves big blocks by remapping them,
 * so a growth copies nothing; the hint avoids most anyway) */
static bool reserve(struct recorder *r, size_t n)
{
	struct page_snap *s = r->s;

	if (r->failed)
		return false;
	if (s->cap - s->len >= n)
		return true;
	size_t cap = s->cap + s->cap / 2;
	if (cap < s->len + n)
		cap = s->len + n;
	uint8_t *d = realloc(s->data, cap);

	if (!d) {
		r->failed = true;
		return false;
	}
	s->data = d;
	s->cap = cap;
	return true;
}

static void put_num(struct recorder *r, uint64_t v)
{
	struct page_snap *s = r->s;

	if (!reserve(r, VARINT_MAX))
		return;
	while (v >= 0x80) {
		s->data[s->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	s->data[s->len++] = (uint8_t)v;
}

static void put_byte(struct recorder *r, uint8_t b)
{
	if (reserve(r, 1))
		r->s->data[r->s->len++] = b;
}

static void put_str(struct recorder *r, const char *str)
{
	size_t n = strlen(str) + 1;

	if (!reserve(r, n))
		return;
	memcpy(r->s->data + r->s->len, str, n);
	r->s->len += n;
}

static void put_labels(struct recorder *r, const struct metric_label *l, unsigned nl)
{
	struct page_snap *s = r->s;

	put_byte(r, (uint8_t)nl);
	for (unsigned i = 0; i < nl; i++) {
		unsigned k = 0;

		while (k < s->nnames && strcmp(s->names[k], l[i].name))
			k++;
		if (k == s->nnames) {
			if (k == NAMES_MAX || !(s->names[k] = strdup(l[i].name))) {
				r->failed = true;
				return;
			}
			s->nnames++;
		}
		put_byte(r, (uint8_t)k);
		put_str(r, l[i].value);
	}
}

static void rec_family(struct page_writer *w, const char *name, enum metric_type type, const char *help)
{
	struct recorder *r = rec_of(w);

	put_byte(r, 'F');
	put_byte(r, (uint8_t)type);
	put_str(r, name);
	put_str(r, help);
}

static void rec_number(struct page_writer *w, const struct metric_label *l, unsigned nl, uint64_t v, bool ns_as_seconds)
{
	struct recorder *r = rec_of(w);

	put_byte(r, 'N');
	put_byte(r, ns_as_seconds);
	put_labels(r, l, nl);
	put_num(r, v);
}

static void rec_histogram(struct page_writer *w, const struct metric_label *l, unsigned nl, const struct hist *h)
{
	struct recorder *r = rec_of(w);
	unsigned m = 0;

	put_byte(r, 'H');
	put_labels(r, l, nl);
	put_num(r, h->sum_ns);
	for (unsigned k = 0; k < HIST_BUCKETS; k++)
		m += h->bucket[k] != 0;
	put_num(r, m);
	for (unsigned k = 0, next = 0; k < HIST_BUCKETS; k++)
		if (h->bucket[k]) {
			put_num(r, k - next);
			put_num(r, h->bucket[k]);
			next = k + 1;
		}
}

static int rec_end(struct page_writer *w)
{
	return rec_of(w)->failed ? -ENOMEM : 0;
}

static void rec_free(struct page_writer *w)
{
	struct recorder *r = rec_of(w);

	page_snap_free(r->s);
	free(r);
}

struct page_writer *page_snap_recorder(size_t size_hint)
{
	struct recorder *r = calloc(1, sizeof(*r));

	if (!r || !(r->s = calloc(1, sizeof(*r->s)))) {
		free(r);
		return NULL;
	}
	r->w = (struct page_writer){ rec_family, rec_number, rec_histogram, rec_end, rec_free, NULL };
	r->s->cap = size_hint > 4096 ? size_hint : 4096;
	r->s->data = malloc(r->s->cap);
	if (!r->s->data) {
		rec_free(&r->w);
		return NULL;
	}
	return &r->w;
}

struct page_snap *page_snap_take(struct page_writer *w)
{
	struct recorder *r = rec_of(w);
	struct page_snap *s = r->s;

	if (r->failed)
		return NULL;
	r->s = NULL;
	/* the hint's part not written is not kept (a shrinking realloc does not move it) */
	uint8_t *d = realloc(s->data, s->len ? s->len : 1);

	if (d) {
		s->data = d;
		s->cap = s->len ? s->len : 1;
	}
	return s;
}

void page_snap_free(struct page_snap *s)
{
	if (!s)
		return;
	for (unsigned k = 0; k < s->nnames; k++)
		free(s->names[k]);
	free(s->data);
	free(s);
}

size_t page_snap_size(const struct page_snap *s)
{
	return s->cap;
}

/* The recording is ours and whole: these only keep a bug from reading past its end */
static uint64_t get_num(const struct page_snap *s, size_t *pos)
{
	uint64_t v = 0;

	for (unsigned shift = 0; *pos < s->len && shift < 64; shift += 7) {
		uint8_t b = s->data[(*pos)++];

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static uint8_t get_byte(const struct page_snap *s, size_t *pos)
{
	return *pos < s->len ? s->data[(*pos)++] : 0;
}

static const char *get_str(const struct page_snap *s, size_t *pos)
{
	const char *str = (const char *)s->data + *pos;
	size_t n = strnlen(str, s->len - *pos);

	*pos += n + 1;
	return str;
}

static unsigned get_labels(const struct page_snap *s, size_t *pos, struct metric_label *l)
{
	unsigned nl = get_byte(s, pos);

	if (nl > METRIC_LABELS_MAX)
		nl = METRIC_LABELS_MAX;	/* as recorded: the walk never makes more */
	for (unsigned i = 0; i < nl; i++) {
		unsigned k = get_byte(s, pos);

		l[i].name = k < s->nnames ? s->names[k] : "";
		l[i].value = get_str(s, pos);
	}
	return nl;
}

enum page_snap_item page_snap_peek(const struct page_snap *s, size_t pos)
{
	if (pos >= s->len)
		return PAGE_SNAP_END;
	return s->data[pos] == 'F' ? PAGE_SNAP_FAMILY : PAGE_SNAP_SERIES;
}

enum page_snap_item page_snap_replay(const struct page_snap *s, size_t *pos, struct page_writer *w)
{
	struct metric_label l[METRIC_LABELS_MAX];
	unsigned nl;

	if (*pos >= s->len)
		return PAGE_SNAP_END;
	switch (get_byte(s, pos)) {
	case 'F': {
		enum metric_type type = (enum metric_type)get_byte(s, pos);
		const char *name = get_str(s, pos);

		w->family(w, name, type, get_str(s, pos));
		return PAGE_SNAP_FAMILY;
	}
	case 'N': {
		bool seconds = get_byte(s, pos);

		nl = get_labels(s, pos, l);
		w->number(w, l, nl, get_num(s, pos), seconds);
		return PAGE_SNAP_SERIES;
	}
	default: {	/* 'H' */
		struct hist h;

		nl = get_labels(s, pos, l);
		memset(&h, 0, sizeof(h));
		h.sum_ns = get_num(s, pos);
		for (uint64_t m = get_num(s, pos), k = 0; m && *pos < s->len; m--) {
			k += get_num(s, pos);
			uint64_t n = get_num(s, pos);

			if (k < HIST_BUCKETS) {
				h.bucket[k] = n;
				h.count += n;
			}
			k++;
		}
		w->histogram(w, l, nl, &h);
		return PAGE_SNAP_SERIES;
	}
	}
}
