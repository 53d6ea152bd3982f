/* SPDX-License-Identifier: GPL-2.0 */
/* irqlatd's settings: built-in defaults, then the command line. */
#ifndef IRQLAT_OPTIONS_H
#define IRQLAT_OPTIONS_H

#include <stdint.h>
#include <stdio.h>
#include "loader.h"
#include "log.h"
#include "common/util.h"

/* Module (or any) tracepoints to consume: "SYSTEM:EVENT", with optional per-tracepoint
 * settings. A config file maps its keys onto the same list. Names are checked when the daemon
 * starts, so a bad one is reported there and does not stop the others. */
#define MAX_TRACEPOINTS 32
#define TP_NAME_MAX 128
#define TP_ARG_NAME_MAX 32
#define DEFAULT_TRACEPOINT "silly:me_silly"

struct tp_config {
	char name[TP_NAME_MAX];
	uint64_t period_ns;		/* 0: estimated from the first intervals */
	char counter[TP_ARG_NAME_MAX];	/* argument checked for gaps; "" means "count" */
};

struct daemon_config {
	uint64_t threshold_ns;
	uint32_t interval_ms;
	char socket_path[108];
	enum attach_mode attach;
	uint32_t max_cells;	/* 0: derived from the CPU count */
	uint32_t ringbuf_kb;
	uint32_t outlier_rate;
	enum log_target log_target;
	int verbose;
	struct tp_config tracepoints[MAX_TRACEPOINTS];
	unsigned ntracepoints;
	/* systemd integration (src/config.c, docs/systemd.md) */
	char config_path[4096];
	int config_explicit;		/* --config given: a missing file is an error */
	uint32_t summary_interval_s;	/* periodic journal summary; 0: off */
	int tracepoint_priority;	/* LOG_* of tracepoint event entries */
	int bpf_stats;		/* hold a bpf_enable_stats() fd: BPF run-time stats for the cost */
	char metrics[64];	/* Prometheus endpoint "HOST:PORT" / "[V6]:PORT"; "": off (docs/metrics.md) */
};

/* Parses "1000ms", "1s", "250us", "5000000ns" into ns; 0 or -EINVAL. */
int parse_duration_ns(const char *s, uint64_t *ns);

void daemon_config_defaults(struct daemon_config *c);
/* 0 to run; otherwise the exit code, with the message already printed to err (help and
 * version print to out and give -1, meaning exit 0). */
int daemon_options_parse(struct daemon_config *c, int argc, char **argv, FILE *out, FILE *err);
uint32_t default_max_cells(unsigned ncpus);

#endif
