// SPDX-License-Identifier: GPL-2.0
/* The page in the Prometheus text format 0.0.4 (metrics_page.h): what a scraper gets unless it
 * asks for the protobuf stream. Histograms are classic: cumulative _bucket{le} series at
 * every metrics-le-factor-th bound of irqlatd's buckets, +Inf, _sum and _count. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include "daemon/sinks/metrics_text.h"

struct text_writer {
	struct page_writer w;
	FILE *f;
	char name[96];		/* the open family's */
	int le_index[LE_BOUNDS_MAX];
	unsigned nle;
};

static struct text_writer *text_of(struct page_writer *w)
{
	return (struct text_writer *)w;
}

static void text_family(struct page_writer *w, const char *name, enum metric_type type, const char *help)
{
	static const char *const types[] = { [METRIC_COUNTER] = "counter", [METRIC_GAUGE] = "gauge",
					     [METRIC_HISTOGRAM] = "histogram" };
	struct text_writer *t = text_of(w);

	snprintf(t->name, sizeof(t->name), "%s", name);
	fprintf(t->f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, types[type]);
}

/* backslash and double quote escaped; the value is UTF-8 already */
static void put_value(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		fputc(*v, f);
	}
}

/* "name_suffix{a="1",b="x"" (the closing brace is the caller's, after le); no brace at all
 * for a series without labels unless one follows */
static void put_series(struct text_writer *t, const char *suffix, const struct metric_label *l, unsigned nl, bool more)
{
	fprintf(t->f, "%s%s", t->name, suffix);
	if (!nl && !more)
		return;
	fputc('{', t->f);
	for (unsigned i = 0; i < nl; i++) {
		fprintf(t->f, "%s%s=\"", i ? "," : "", l[i].name);
		put_value(t->f, l[i].value);
		fputc('"', t->f);
	}
	if (nl && more)
		fputc(',', t->f);
}

static void close_series(struct text_writer *t, unsigned nl)
{
	if (nl)
		fputc('}', t->f);
}

/* ns as seconds, exactly: 1234567890 -> 1.234567890 */
static void put_seconds(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

static void text_number(struct page_writer *w, const struct metric_label *l, unsigned nl, uint64_t v, bool ns_as_seconds)
{
	struct text_writer *t = text_of(w);

	put_series(t, "", l, nl, false);
	close_series(t, nl);
	fputc(' ', t->f);
	if (ns_as_seconds)
		put_seconds(t->f, v);
	else
		fprintf(t->f, "%" PRIu64, v);
	fputc('\n', t->f);
}

static void text_histogram(struct page_writer *w, const struct metric_label *l, unsigned nl, const struct hist *h)
{
	struct text_writer *t = text_of(w);
	uint64_t cum[LE_BOUNDS_MAX], total = 0;

	metrics_le_counts(h, t->le_index, t->nle, cum);
	for (unsigned j = 0; j < t->nle; j++) {
		put_series(t, "_bucket", l, nl, true);
		fprintf(t->f, "le=\"%.17g\"} %" PRIu64 "\n", metrics_le_seconds(t->le_index[j]), cum[j]);
	}
	/* the buckets' total, which is .count (each value lands in one bucket), overflow included */
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		total += h->bucket[b];
	put_series(t, "_bucket", l, nl, true);
	fprintf(t->f, "le=\"+Inf\"} %" PRIu64 "\n", total);
	put_series(t, "_sum", l, nl, false);
	close_series(t, nl);
	fputc(' ', t->f);
	put_seconds(t->f, h->sum_ns);
	fputc('\n', t->f);
	put_series(t, "_count", l, nl, false);
	close_series(t, nl);
	fprintf(t->f, " %" PRIu64 "\n", total);
}

static int text_end(struct page_writer *w)
{
	return ferror(text_of(w)->f) ? -ENOMEM : 0;
}

static void text_free(struct page_writer *w)
{
	free(w);
}

struct page_writer *metrics_text_writer(FILE *f, unsigned le_factor)
{
	struct text_writer *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->w = (struct page_writer){ text_family, text_number, text_histogram, text_end, text_free, NULL };
	t->f = f;
	t->nle = metrics_le_bounds(le_factor, t->le_index);
	return &t->w;
}
