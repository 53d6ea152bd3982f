// SPDX-License-Identifier: GPL-2.0
/* The page as the Prometheus protobuf exposition format (metrics_page.h): a stream of
 * io.prometheus.client.MetricFamily messages, each preceded by its length as a varint, what a
 * scraper that asks for it gets (Prometheus with --enable-feature=native-histograms).
 *
 * Each histogram is a native histogram of schema 3 whose buckets are irqlatd's, one to one:
 * irqlatd's bucket k (bpf/hist_bucket.h) is schema-3 bucket k - 240 in seconds, (2^((i-1)/8) s,
 * 2^(i/8) s], so a bucket's count is copied, never re-binned. The zero bucket (0 ns) is the
 * native zero bucket; the overflow bucket (above 4 s) has no native bucket of its own and is
 * counted in sample_count only (docs/metrics.md). The classic buckets of the text format go in
 * the same message, for scrapers that read those.
 *
 * A family is written as it comes: its length, its header, then each Metric as one occurrence
 * of the repeated field 4, so that no more than one series' message is ever held at a time.
 * The length comes first, so each family is handed over twice (measure(), metrics_page.h): a
 * first pass adds up the packed sizes and writes nothing, the second writes. (The family was
 * held whole in memory before, to learn its length: at 4096 handlers its histograms are
 * megabytes, and the page is now sent as it is written, metrics_stream.c.) A family without
 * series (no tracepoint consumed, a kind switched off) is left out, where the text format has
 * its HELP and TYPE lines alone. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <protobuf-c/protobuf-c.h>
#include "prometheus_client.pb-c.h"
#include "daemon/sinks/metrics_pb.h"

#define FIELD_METRIC_FAMILY_METRIC 4	/* MetricFamily.metric */
#define WIRE_LEN 2			/* a length-delimited field */
/* Runs of empty buckets up to this long stay inside a span as zero deltas (a delta of 0 is
 * one byte, a new span three or four) */
#define SPAN_GAP_MAX 2

/* the width of the zero bucket: client_golang's default, so that histograms from other
 * sources merge without widening it; irqlatd's zero bucket holds only 0 ns, and no integer
 * number of ns other than 0 lies within it */
#define ZERO_THRESHOLD_S 0x1p-128

struct pb_writer {
	struct page_writer w;
	FILE *out;		/* the page */
	bool measuring;		/* the first pass over a family: count, write nothing */
	bool measured;		/* fam_len and fam_metrics are the next family's */
	size_t fam_len;		/* the family's message: its length (measuring: so far) */
	unsigned fam_metrics;	/* ... its series */
	bool skip;		/* the open family has no series: nothing of it is written */
	enum metric_type type;	/* the open family's */
	unsigned nmetric;	/* the open family's series so far */
	int le_index[LE_BOUNDS_MAX];
	unsigned nle;
	/* one histogram's scratch space */
	Io__Prometheus__Client__BucketSpan span[HIST_BUCKETS], *span_p[HIST_BUCKETS];
	int64_t delta[HIST_BUCKETS];
	Io__Prometheus__Client__Bucket classic[LE_BOUNDS_MAX], *classic_p[LE_BOUNDS_MAX];
	bool failed;
};

static struct pb_writer *pb_of(struct page_writer *w)
{
	return (struct pb_writer *)w;
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

static void put_varint(FILE *f, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		fputc((int)(v & 0x7f) | 0x80, f);
	fputc((int)v, f);
}

/* protobuf-c's output interface, onto a FILE */
struct file_buffer {
	ProtobufCBuffer base;
	FILE *f;
};

static void file_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	fwrite(data, 1, len, ((struct file_buffer *)b)->f);
}

static void pack(FILE *f, const ProtobufCMessage *m)
{
	struct file_buffer b = { { file_append }, f };

	protobuf_c_message_pack_to_buffer(m, &b.base);
}

static void pb_family(struct page_writer *w, const char *name, enum metric_type type, const char *help)
{
	static const Io__Prometheus__Client__MetricType types[] = {
		[METRIC_COUNTER] = IO__PROMETHEUS__CLIENT__METRIC_TYPE__COUNTER,
		[METRIC_GAUGE] = IO__PROMETHEUS__CLIENT__METRIC_TYPE__GAUGE,
		[METRIC_HISTOGRAM] = IO__PROMETHEUS__CLIENT__METRIC_TYPE__HISTOGRAM,
	};
	struct pb_writer *p = pb_of(w);
	Io__Prometheus__Client__MetricFamily mf = IO__PROMETHEUS__CLIENT__METRIC_FAMILY__INIT;

	mf.name = (char *)name;
	mf.help = (char *)help;
	mf.has_type = true;
	mf.type = types[type];
	p->type = type;
	p->nmetric = 0;
	if (p->measuring) {
		p->fam_len = protobuf_c_message_get_packed_size(&mf.base);
		return;
	}
	if (!p->measured)
		p->failed = true;	/* a family not measured first: its length is unknown */
	p->measured = false;
	/* none without series: a family with no metric says nothing, and scrapers need not take one */
	p->skip = !p->fam_metrics;
	if (p->skip)
		return;
	put_varint(p->out, p->fam_len);
	pack(p->out, &mf.base);
}

static void pb_measure(struct page_writer *w, bool on)
{
	struct pb_writer *p = pb_of(w);

	p->measuring = on;
	if (!on) {
		p->measured = true;
		p->fam_metrics = p->nmetric;
	}
}

/* One Metric of the open family: its labels, and what the caller set in m */
static void put_metric(struct pb_writer *p, Io__Prometheus__Client__Metric *m, const struct metric_label *l, unsigned nl)
{
	Io__Prometheus__Client__LabelPair pair[METRIC_LABELS_MAX], *pair_p[METRIC_LABELS_MAX];
	size_t size;

	if (p->skip && !p->measuring)
		return;
	for (unsigned i = 0; i < nl && i < METRIC_LABELS_MAX; i++) {
		io__prometheus__client__label_pair__init(&pair[i]);
		pair[i].name = (char *)l[i].name;
		pair[i].value = (char *)l[i].value;
		pair_p[i] = &pair[i];
	}
	m->n_label = nl < METRIC_LABELS_MAX ? nl : METRIC_LABELS_MAX;
	m->label = pair_p;
	p->nmetric++;
	size = protobuf_c_message_get_packed_size(&m->base);
	if (p->measuring) {
		p->fam_len += varint_len(FIELD_METRIC_FAMILY_METRIC << 3 | WIRE_LEN) + varint_len(size) + size;
		return;
	}
	put_varint(p->out, FIELD_METRIC_FAMILY_METRIC << 3 | WIRE_LEN);
	put_varint(p->out, size);
	pack(p->out, &m->base);
}

static void pb_number(struct page_writer *w, const struct metric_label *l, unsigned nl, uint64_t v, bool ns_as_seconds)
{
	struct pb_writer *p = pb_of(w);
	Io__Prometheus__Client__Metric m = IO__PROMETHEUS__CLIENT__METRIC__INIT;
	Io__Prometheus__Client__Counter counter = IO__PROMETHEUS__CLIENT__COUNTER__INIT;
	Io__Prometheus__Client__Gauge gauge = IO__PROMETHEUS__CLIENT__GAUGE__INIT;
	double d = ns_as_seconds ? (double)v / 1e9 : (double)v;

	if (p->type == METRIC_COUNTER) {
		counter.has_value = true;
		counter.value = d;
		m.counter = &counter;
	} else {
		gauge.has_value = true;
		gauge.value = d;
		m.gauge = &gauge;
	}
	put_metric(p, &m, l, nl);
}

/* irqlatd's buckets 1..256 as native positive spans and deltas (k = 0, the zero bucket, and
 * HIST_OVERFLOW are not among them) */
static void native_buckets(struct pb_writer *p, Io__Prometheus__Client__Histogram *hm, const struct hist *h)
{
	unsigned nspan = 0, ndelta = 0, end = 0;	/* end: k after the last bucket written */
	uint64_t prev = 0;

	for (unsigned k = 1; k < HIST_OVERFLOW; k++) {
		if (!h->bucket[k])
			continue;
		if (nspan && k - end <= SPAN_GAP_MAX) {
			/* a short gap: its empty buckets join the span */
			for (; end < k; end++) {
				p->delta[ndelta++] = -(int64_t)prev;
				prev = 0;
				p->span[nspan - 1].length++;
			}
		} else {
			Io__Prometheus__Client__BucketSpan *s = &p->span[nspan];

			io__prometheus__client__bucket_span__init(s);
			s->has_offset = s->has_length = true;
			/* the first span starts at its index, each next one at its gap */
			s->offset = nspan ? (int32_t)(k - end) : hist_schema_index(k);
			p->span_p[nspan++] = s;
		}
		p->delta[ndelta++] = (int64_t)(h->bucket[k] - prev);
		prev = h->bucket[k];
		p->span[nspan - 1].length++;
		end = k + 1;
	}
	hm->n_positive_span = nspan;
	hm->positive_span = p->span_p;
	hm->n_positive_delta = ndelta;
	hm->positive_delta = p->delta;
}

static void pb_histogram(struct page_writer *w, const struct metric_label *l, unsigned nl, const struct hist *h)
{
	struct pb_writer *p = pb_of(w);
	Io__Prometheus__Client__Metric m = IO__PROMETHEUS__CLIENT__METRIC__INIT;
	Io__Prometheus__Client__Histogram hm = IO__PROMETHEUS__CLIENT__HISTOGRAM__INIT;
	uint64_t cum[LE_BOUNDS_MAX], total = 0;

	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		total += h->bucket[b];
	hm.has_sample_count = hm.has_sample_sum = true;
	hm.sample_count = total;	/* the overflow bucket's runs too, as the text format's +Inf */
	hm.sample_sum = (double)h->sum_ns / 1e9;
	hm.has_schema = hm.has_zero_threshold = hm.has_zero_count = true;
	hm.schema = HIST_SCHEMA;
	hm.zero_threshold = ZERO_THRESHOLD_S;
	hm.zero_count = h->bucket[HIST_ZERO];
	native_buckets(p, &hm, h);
	metrics_le_counts(h, p->le_index, p->nle, cum);
	for (unsigned j = 0; j < p->nle; j++) {
		io__prometheus__client__bucket__init(&p->classic[j]);
		p->classic[j].has_cumulative_count = p->classic[j].has_upper_bound = true;
		p->classic[j].cumulative_count = cum[j];
		p->classic[j].upper_bound = metrics_le_seconds(p->le_index[j]);
		p->classic_p[j] = &p->classic[j];
	}
	hm.n_bucket = p->nle;
	hm.bucket = p->classic_p;
	m.histogram = &hm;
	put_metric(p, &m, l, nl);
}

static int pb_end(struct page_writer *w)
{
	struct pb_writer *p = pb_of(w);

	return p->failed || ferror(p->out) ? -ENOMEM : 0;
}

static void pb_free(struct page_writer *w)
{
	free(pb_of(w));
}

struct page_writer *metrics_pb_writer(FILE *f, unsigned le_factor)
{
	struct pb_writer *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->w = (struct page_writer){ pb_family, pb_number, pb_histogram, pb_end, pb_free, pb_measure };
	p->out = f;
	p->nle = metrics_le_bounds(le_factor, p->le_index);
	return &p->w;
}
