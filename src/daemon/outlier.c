// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect.h"
#include "kind.h"
#include "log.h"
#include "outlier.h"
#include "common/util.h"

struct outlier_bucket {
	enum lat_kind kind;
	uint32_t sub;
	char name[IRQ_NAME_LEN];
	uint64_t second;	/* which second (monotonic) the counts are for */
	unsigned logged;
	uint64_t suppressed;
	uint64_t worst_ns;
};

void outlier_init(struct outlier_limiter *l, unsigned per_second, const uint64_t threshold_ns[KINDS])
{
	memset(l, 0, sizeof(*l));
	l->per_second = per_second;
	memcpy(l->threshold_ns, threshold_ns, sizeof(l->threshold_ns));
}

void outlier_free(struct outlier_limiter *l)
{
	free(l->buckets);
	l->buckets = NULL;
	l->nbuckets = 0;
}

void outlier_from_event(struct outlier *o, const struct outlier_event *e, const struct series *s, uint32_t cpu)
{
	memset(o, 0, sizeof(*o));
	o->kind = s ? s->kind : KIND_HARDIRQ;
	o->sub = s ? s->sub : 0;
	snprintf(o->name, sizeof(o->name), "%s", s ? s->name : "?");
	o->cpu = cpu;
	o->ts_ns = e->ts_ns;
	o->value_ns = e->value_ns;
	o->pid = e->pid;
	memcpy(o->comm, e->comm, sizeof(o->comm));
	o->comm[sizeof(o->comm) - 1] = 0;
	o->aux = e->aux;
}

void outlier_format(char *buf, size_t len, const struct outlier *o, uint64_t threshold_ns)
{
	const struct kind_desc *k = kind_get(o->kind);
	char d[32], t[32], who[IRQ_NAME_LEN + 32];

	fmt_duration(d, sizeof(d), o->value_ns, " ");
	fmt_duration(t, sizeof(t), threshold_ns, " ");
	kind_describe(who, sizeof(who), o->kind, o->sub, o->name);
	snprintf(buf, len, "%s %s %s on CPU %u (threshold %s), %s %s[%u]", who, k->outlier_what, d, o->cpu, t,
		 k->outlier_task, o->comm, o->pid);
	if (o->kind == KIND_TIMER && o->aux) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ", waking pid %llu", (unsigned long long)o->aux);
	}
}

static void log_outlier(struct outlier_limiter *l, const struct outlier *o)
{
	const struct kind_desc *k = kind_get(o->kind);
	struct jfields f = { 0 };
	char msg[256];

	outlier_format(msg, sizeof(msg), o, l->threshold_ns[o->kind]);
	l->logged++;
	kind_journal_fields(&f, o->kind, o->sub, o->name);
	jf_add(&f, "CPU=%u", o->cpu);
	jf_add(&f, "%s=%llu", k->journal_value, (unsigned long long)o->value_ns);
	jf_add(&f, "THRESHOLD_NS=%llu", (unsigned long long)l->threshold_ns[o->kind]);
	jf_add(&f, "INTERRUPTED_PID=%u", o->pid);
	jf_add(&f, "INTERRUPTED_COMM=%s", o->comm);
	if (o->kind == KIND_TIMER && o->aux)
		jf_add(&f, "WOKEN_PID=%llu", (unsigned long long)o->aux);
	jf_add(&f, "EVENT_TS_NS=%llu", (unsigned long long)o->ts_ns);	/* CLOCK_MONOTONIC, as the rate limit counts */
	log_struct(LOG_WARNING, k->outlier_mid, &f, "%s%s", log_to_journal() ? "" : "outlier: ", msg);
}

static void log_suppressed(struct outlier_limiter *l, struct outlier_bucket *b)
{
	const struct kind_desc *k = kind_get(b->kind);
	struct jfields f = { 0 };
	char worst[32], limit[32], who[IRQ_NAME_LEN + 32];

	if (!b->suppressed)
		return;
	fmt_duration(worst, sizeof(worst), b->worst_ns, " ");
	fmt_duration(limit, sizeof(limit), l->threshold_ns[b->kind], " ");
	kind_describe(who, sizeof(who), b->kind, b->sub, b->name);
	kind_journal_fields(&f, b->kind, b->sub, b->name);
	jf_add(&f, "SERIES=%s%s", who, b->kind == KIND_SOFTIRQ_RAISE ? " raise latency" : "");
	jf_add(&f, "LATENCY_KIND=%s", k->name);
	jf_add(&f, "SUPPRESSED=%llu", (unsigned long long)b->suppressed);
	jf_add(&f, "WORST_%s=%llu", k->journal_value, (unsigned long long)b->worst_ns);
	jf_add(&f, "THRESHOLD_NS=%llu", (unsigned long long)l->threshold_ns[b->kind]);
	jf_add(&f, "RATE_LIMIT=%u", l->per_second);
	log_struct(LOG_WARNING, MID_OUTLIER_SUPPRESSED, &f,
		   "%s%s%s: %llu more outlier%s over %s in one second not logged one by one (limit %u a second), worst %s",
		   log_to_journal() ? "" : "outlier: ", who, b->kind == KIND_SOFTIRQ_RAISE ? " raise latency" : "",
		   (unsigned long long)b->suppressed,
		   b->suppressed == 1 ? "" : "s", limit,
		   l->per_second, worst);
	b->suppressed = 0;
	b->worst_ns = 0;
}

static struct outlier_bucket *bucket_of(struct outlier_limiter *l, const struct outlier *o)
{
	for (unsigned i = 0; i < l->nbuckets; i++)
		if (l->buckets[i].kind == o->kind && l->buckets[i].sub == o->sub &&
		    !strncmp(l->buckets[i].name, o->name, IRQ_NAME_LEN))
			return &l->buckets[i];
	struct outlier_bucket *nb = realloc(l->buckets, (l->nbuckets + 1) * sizeof(*nb));
	if (!nb)
		return NULL;
	l->buckets = nb;
	nb = &nb[l->nbuckets++];
	memset(nb, 0, sizeof(*nb));
	nb->kind = o->kind;
	nb->sub = o->sub;
	memcpy(nb->name, o->name, IRQ_NAME_LEN);
	nb->name[IRQ_NAME_LEN - 1] = 0;
	return nb;
}

void outlier_handle(struct outlier_limiter *l, const struct outlier *o)
{
	struct outlier_bucket *b;
	uint64_t second = o->ts_ns / 1000000000ull;

	if (!l->per_second) {
		log_outlier(l, o);
		return;
	}
	b = bucket_of(l, o);
	if (!b) {
		log_outlier(l, o);
		return;
	}
	if (second > b->second) {	/* events from CPUs can arrive slightly out of order */
		log_suppressed(l, b);
		b->second = second;
		b->logged = 0;
	}
	if (b->logged < l->per_second) {
		b->logged++;
		log_outlier(l, o);
		return;
	}
	b->suppressed++;
	l->suppressed++;
	if (o->value_ns > b->worst_ns)
		b->worst_ns = o->value_ns;
}

void outlier_flush(struct outlier_limiter *l, uint64_t now)
{
	uint64_t second = now / 1000000000ull;

	for (unsigned i = 0; i < l->nbuckets; i++)
		if (l->buckets[i].second != second)
			log_suppressed(l, &l->buckets[i]);
}

void outlier_flush_all(struct outlier_limiter *l)
{
	for (unsigned i = 0; i < l->nbuckets; i++)
		log_suppressed(l, &l->buckets[i]);
}

void outlier_configure(struct outlier_limiter *l, unsigned per_second, const uint64_t threshold_ns[KINDS])
{
	/* pending suppression counts were made under the old limit: report them under it */
	outlier_flush_all(l);
	l->per_second = per_second;
	memcpy(l->threshold_ns, threshold_ns, sizeof(l->threshold_ns));
}
