/* SPDX-License-Identifier: GPL-2.0 */
/* Outliers from the ring buffer: rate-limited per series (hardirq: per IRQ and handler name;
 * softirq: per vector, run time and raise latency apart; vector: per label), then logged
 * (stderr or journal), each kind with its MESSAGE_ID and threshold. */
#ifndef IRQLAT_OUTLIER_H
#define IRQLAT_OUTLIER_H

#include <stddef.h>
#include <stdint.h>
#include "irqlat_abi.h"

struct series;

/* MESSAGE_IDs (docs/irqlatd.catalog explains each) */
#define MID_OUTLIER "3f0c6d0e2b1a4f7e9a51c2d8e4b7a901"
#define MID_OUTLIER_SUPPRESSED "7d2e9b4c1f6a48d3b0e5a9c7d1f3e802"
#define MID_OUTLIER_SOFTIRQ "f7f2f3acaedf480791bfdb5e03cfb218"
#define MID_OUTLIER_SOFTIRQ_RAISE "fc984fba5ba5471fbfaf3c2548420e0e"
#define MID_OUTLIER_VECTOR "5bb45ecec2b64bebb89ea48e85b1541b"
#define MID_OUTLIER_TIMER "da40449afc5a41efb0312e4a55ef1657"
#define MID_OUTLIER_WAKEUP "6411285c0cca49cfb775235a459f04df"
#define MID_OUTLIER_THREADED "66f93617cbc345b0a4a602e74e992ec6"
#define MID_OUTLIER_THREADED_RUN "e502a8faddf5441f9257ca1cac2b8d49"

/* An outlier record (struct outlier_event) with its cell resolved to its series. */
struct outlier {
	enum lat_kind kind;
	uint32_t sub;		/* hardirq: the IRQ number */
	char name[IRQ_NAME_LEN];
	uint32_t cpu;
	uint64_t ts_ns;		/* CLOCK_MONOTONIC */
	uint64_t value_ns;
	uint32_t pid;		/* the task on the CPU */
	char comm[TASK_COMM_LEN_ABI];
	uint64_t aux;		/* as in the record (timer: the woken pid, 0: none) */
};

/* o from record e of a cell of series s on cpu; s NULL (not known): sub 0, name "?". */
void outlier_from_event(struct outlier *o, const struct outlier_event *e, const struct series *s, uint32_t cpu);

struct outlier_limiter {
	unsigned per_second;	/* entries per series per second; 0 = no limit */
	uint64_t threshold_ns[KINDS];
	uint64_t logged, suppressed;	/* since start */
	struct outlier_bucket *buckets;	/* per IRQ number seen */
	unsigned nbuckets;
};

void outlier_init(struct outlier_limiter *l, unsigned per_second, const uint64_t threshold_ns[KINDS]);
void outlier_free(struct outlier_limiter *l);
/* Logs e unless its series is over the limit this second; then counts it, and the first event
 * of a later second logs how many were suppressed and the worst of them. */
void outlier_handle(struct outlier_limiter *l, const struct outlier *o);
/* Logs pending suppression summaries whose second has passed (call from a timer). */
void outlier_flush(struct outlier_limiter *l, uint64_t now_ns);
/* Logs every pending suppression summary now (shutdown, reload). */
void outlier_flush_all(struct outlier_limiter *l);
/* New limit and threshold (reload); flushes what was counted under the old ones. */
void outlier_configure(struct outlier_limiter *l, unsigned per_second, const uint64_t threshold_ns[KINDS]);
void outlier_format(char *buf, size_t len, const struct outlier *o, uint64_t threshold_ns);

#endif
