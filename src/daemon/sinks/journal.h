/* SPDX-License-Identifier: GPL-2.0 */
/* irqlatd's journal entries other than outliers (src/outlier.c): life cycle, attach/detach,
 * reloads, drops, the periodic summary and module tracepoint events. Each kind has its own
 * MESSAGE_ID, explained in docs/irqlatd.catalog (journalctl -x). */
#ifndef IRQLAT_JOURNAL_H
#define IRQLAT_JOURNAL_H

#include <stdint.h>
#include "daemon/collect/collect.h"
#include "irqlat_abi.h"
#include "daemon/config/config.h"


void journal_started(const struct daemon_config *c, const char *attach_style, uint32_t max_cells);
/* signo: what stopped the daemon (0: the event loop ended by itself) */
/* handlers: the hard-IRQ handlers the answers show (status's "handlers") */
void journal_stopped(int signo, uint64_t uptime_ns, unsigned handlers, uint64_t outliers_logged,
		     uint64_t outliers_held, uint64_t outliers_not_logged, uint64_t drops);
void journal_reloaded(const struct daemon_config *c);
void journal_reload_failed(const char *config_path, const char *why);
/* the attach/detach entries of every latency program the loader attached */
void journal_links(const struct loader *l, bool attached);

/* One entry per program attached to (or detached from) a tracepoint, e.g.
 * ("irq:irq_handler_entry", "tp_btf", "irq_entry_btf"). */
void journal_attached(const char *tracepoint, const char *style, const char *program);
void journal_detached(const char *tracepoint, const char *style, const char *program);

/* A module tracepoint event from the ring buffer (RB_TRACEPOINT): TRACEPOINT=system:event, one
 * ARG_<NAME> field per argument (name upper-cased, non-alphanumerics as '_'; ARG<i> when
 * arg_names or arg_names[i] is NULL), CPU, PID, COMM, EVENT_TS_NS. priority: the daemon's
 * tracepoint-priority (LOG_DEBUG by default). */
void journal_tracepoint_event(const char *system, const char *event, const char *const *arg_names,
			      const struct tracepoint_event *e, int priority);
/* n event entries of tracepoint held back in one second by the limit of limit a second. */
void journal_tracepoint_suppressed(const char *tracepoint, uint64_t n, unsigned limit, int priority);
/* comm[pid] tried to unload module and the kernel refused: irqlatd holds it through
 * tracepoints (space-separated names). */
void journal_module_held(const char *module, const char *tracepoints, unsigned pid, const char *comm);

/* The periodic summary: per handler, the histogram since the previous summary. */
struct summary_state {
	struct tick_buf prev;	/* each handler's totals at the previous summary, as sparse records */
	uint64_t prev_ns;	/* CLOCK_MONOTONIC of the previous summary (or of the start) */
	uint64_t prev_drops[DROP_KINDS];
	uint64_t prev_logged, prev_suppressed;
};
void summary_init(struct summary_state *s, uint64_t now);
void summary_free(struct summary_state *s);
void journal_summary(struct summary_state *s, const struct collector *c, uint64_t outliers_logged,
		     uint64_t outliers_suppressed);

/* "12 handlers, 15.2k IRQ/s, worst p99 3.1 us (IRQ 36 virtio1-req.0), 0 drops" over the last
 * 10 s: systemd's STATUS= line. */
void status_line(char *buf, size_t len, const struct collector *c);

/* 950, 15.2k, 1.3M */
void format_rate(char *buf, size_t len, double per_s);

#endif
