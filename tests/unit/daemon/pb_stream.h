/* SPDX-License-Identifier: GPL-2.0 */
/* Reads a /metrics page in the protobuf format back, as a scraper does: varint-length-delimited
 * MetricFamily messages, each decoded with the code protoc-c generated from
 * src/daemon/sinks/prometheus_client.proto. For test_metrics_pb.c and the HTTP fuzzer. */
#ifndef IRQLAT_TEST_PB_STREAM_H
#define IRQLAT_TEST_PB_STREAM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <protobuf-c/protobuf-c.h>
#include "prometheus_client.pb-c.h"

typedef Io__Prometheus__Client__MetricFamily PbFamily;
typedef Io__Prometheus__Client__Metric PbMetric;
typedef Io__Prometheus__Client__Histogram PbHistogram;

struct pb_stream {
	PbFamily *fam[256];
	unsigned n;
};

/* 0, or -1 when the stream is not a sequence of whole, decodable messages (or has more than
 * 256 of them) */
static inline int pb_stream_read(struct pb_stream *s, const uint8_t *p, size_t len)
{
	size_t at = 0;

	memset(s, 0, sizeof(*s));
	while (at < len) {
		uint64_t n = 0;
		unsigned shift = 0;

		do {
			if (at >= len || shift > 63)
				return -1;
			n |= (uint64_t)(p[at] & 0x7f) << shift;
			shift += 7;
		} while (p[at++] & 0x80);
		if (n > len - at || s->n == sizeof(s->fam) / sizeof(s->fam[0]))
			return -1;
		s->fam[s->n] = io__prometheus__client__metric_family__unpack(NULL, (size_t)n, p + at);
		if (!s->fam[s->n])
			return -1;
		s->n++;
		at += n;
	}
	return 0;
}

static inline void pb_stream_free(struct pb_stream *s)
{
	for (unsigned i = 0; i < s->n; i++)
		io__prometheus__client__metric_family__free_unpacked(s->fam[i], NULL);
	s->n = 0;
}

static inline const PbFamily *pb_family(const struct pb_stream *s, const char *name)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->fam[i]->name && !strcmp(s->fam[i]->name, name))
			return s->fam[i];
	return NULL;
}

/* The metric of f whose label name has value v, or NULL */
static inline const PbMetric *pb_metric(const PbFamily *f, const char *name, const char *v)
{
	for (size_t i = 0; f && i < f->n_metric; i++)
		for (size_t j = 0; j < f->metric[i]->n_label; j++)
			if (!strcmp(f->metric[i]->label[j]->name, name) && !strcmp(f->metric[i]->label[j]->value, v))
				return f->metric[i];
	return NULL;
}

/* A native histogram's positive buckets as absolute counts by schema index: count[i - lo]
 * for lo <= i < lo + n (n at most max); the number of buckets, or -1 when the spans and
 * deltas disagree or a count goes negative */
static inline int pb_native_counts(const PbHistogram *h, int *lo, uint64_t *count, unsigned max)
{
	size_t d = 0;
	int64_t c = 0;
	int idx = 0;
	unsigned n = 0;

	for (size_t s = 0; s < h->n_positive_span; s++) {
		idx += h->positive_span[s]->offset;
		if (!s)
			*lo = idx;
		for (uint32_t j = 0; j < h->positive_span[s]->length; j++, idx++) {
			if (d == h->n_positive_delta)
				return -1;
			c += h->positive_delta[d++];
			if (c < 0)
				return -1;
			/* gaps between spans are empty buckets */
			while (n < (unsigned)(idx - *lo) && n < max)
				count[n++] = 0;
			if (n == max)
				return -1;
			count[n++] = (uint64_t)c;
		}
	}
	return d == h->n_positive_delta ? (int)n : -1;
}

#endif
