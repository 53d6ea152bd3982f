/* SPDX-License-Identifier: GPL-2.0 */
/* The explained waits as a person or a program reads them: the `why` answer (irqlat why), the
 * aggregates of status, and an explained outlier's journal fields (WHY_*, irqlatd(8)). */
#ifndef IRQLAT_WHY_REPORT_H
#define IRQLAT_WHY_REPORT_H

#include <json-c/json.h>
#include "daemon/collect/why.h"

struct jfields;

/* The "why" request: {"cmd":"why", "pid":N | "cpu":N | "comm":"PATTERN", "n":N, "timeline":B}:
 * the kept explained waits of that task, CPU or comm (a glob), the last n (0: all), oldest
 * first, with their stacks and, asked for, their timelines: {"waits":[why_json()...],
 * "kept":N, "explained":N, "unpaired":N, "lone":N} */
json_object *why_request(const struct why_store *s, json_object *req);
/* An "events" answer in detail: each outlier's "why" with its timeline and stacks from the
 * kept waits, or "timeline_gone": true when its wait is no longer kept */
void why_detail_events(const struct why_store *s, json_object *answer);
/* status's "why": what the late waits spent in each part, per CPU and class of wait, since start,
 * as the kernel counted them (why_counts.h), beside the explanations the daemon received:
 * {"explained", "unpaired", "lone" (records received), "counted_by": "kernel", "waits",
 * "not_received", "stale_reads", "causes": {"<part>_ns"...}, "cpus": [{"cpu", "<class>":
 * {"waits", "total_ns", "parts": {...}, "received", "not_received"}}]} */
json_object *why_status_json(const struct why_store *s);
/* The journal fields of an explained outlier (irqlatd(8), JOURNAL) */
void why_journal_fields(struct jfields *f, const struct why_named *w);
/* Its timeline (why_journal_fields() adds it): WHY_TIMELINE, one line an event, as `irqlat why
 * --timeline` prints them; WHY_TIMELINE_START_NS, the wait's start (CLOCK_MONOTONIC) */
void why_journal_timeline(struct jfields *f, const struct why_named *w);

#endif
