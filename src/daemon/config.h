/* SPDX-License-Identifier: GPL-2.0 */
/* irqlatd's settings: every key, its default and what it accepts. The command line
 * (options.c) and the configuration file (config_file.c) both set keys through config_set(),
 * so `threshold-us = 50` in the file means `--threshold-us 50`, checked by the same code. */
#ifndef IRQLAT_CONFIG_H
#define IRQLAT_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "loader.h"
#include "log.h"
#include "common/util.h"

#define DEFAULT_CONFIG "/etc/irqlatd/irqlatd.conf"

/* Module (or any) tracepoints to consume: "SYSTEM:EVENT", with optional per-tracepoint
 * settings. Names are checked when the daemon starts, so a bad one is reported there and does
 * not stop the others. */
#define MAX_TRACEPOINTS 32
#define TP_NAME_MAX 128
#define TP_ARG_NAME_MAX 32
#define DEFAULT_TRACEPOINT "silly:me_silly"

#define DEFAULT_TRACEPOINT_MODULE "sillymod"	/* the module that defines DEFAULT_TRACEPOINT */
#define TP_MODULE_MAX 56	/* the kernel's MODULE_NAME_LEN */

/* what a tracepoint's events write to the journal */
enum tp_journal { TP_JOURNAL_DEFAULT, TP_JOURNAL_OFF, TP_JOURNAL_DEBUG, TP_JOURNAL_INFO };

struct tp_config {
	char name[TP_NAME_MAX];
	uint64_t period_ns;		/* 0: estimated from the first intervals */
	char counter[TP_ARG_NAME_MAX];	/* argument checked for gaps; "" means "count" */
	enum tp_journal journal;	/* DEFAULT: an entry at tracepoint-priority */
	char module[TP_MODULE_MAX];	/* the module that defines it, for "waiting for module X"; "": learnt at its load */
};

#define EVENT_HISTORY_DEFAULT 4096	/* events kept for `irqlat events` */
#define TRACEPOINT_RATE_DEFAULT 20	/* journal entries per tracepoint per second */

struct daemon_config {
	uint64_t threshold_ns;		/* hard-IRQ handler runs (threshold-us) */
	uint64_t softirq_threshold_ns;	/* softirq runs (softirq-threshold-us) */
	uint64_t softirq_raise_threshold_ns;	/* softirq raise-to-run latency */
	uint64_t vector_threshold_ns;	/* vector interrupt runs */
	uint64_t timer_threshold_ns;	/* hrtimer lateness (timer-threshold-us) */
	uint64_t wakeup_threshold_ns;	/* hrtimer_wakeup expiry to the task running */
	int no_softirqs, no_vectors;	/* kinds switched off (docs/irqlatd.8) */
	int no_timers, no_wakeups;
	uint32_t max_wakeup_cells;	/* wake-up cells of tasks of their own (task x CPU) */
	uint64_t threaded_threshold_ns;	/* threaded IRQs: wake-to-run latency */
	uint64_t threaded_run_threshold_ns;	/* threaded IRQs: the thread handler's run time */
	int no_threaded;
	enum threaded_run_mode threaded_run;	/* where the thread's run time comes from (threaded-run) */
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
	/* systemd integration (docs/systemd.md) */
	char config_path[4096];
	int config_explicit;		/* --config given: a missing file is an error */
	uint32_t summary_interval_s;	/* periodic journal summary; 0: off */
	int tracepoint_priority;	/* LOG_* of tracepoint event entries */
	uint32_t tracepoint_rate;	/* of them per tracepoint per second, then counted; 0: no limit */
	uint32_t event_history;		/* recent events kept for `irqlat events`; 0: none */
	int bpf_stats;		/* hold a bpf_enable_stats() fd: BPF run-time stats for the cost */
	char metrics[64];	/* Prometheus endpoint "HOST:PORT" / "[V6]:PORT"; "": off (docs/metrics.md) */
	uint32_t metrics_le_factor;	/* the text format's le bounds: every Nth schema-3 bound */
	/* What any client can make the daemon hold (irqlatd(8), LIMITS) */
	uint32_t max_clients;		/* on the socket at once */
	uint32_t max_subscribers;	/* of those, subscribed */
	uint32_t client_queue_kb;	/* answers waiting for one client */
	uint32_t max_request_kb;	/* one request line */
	uint32_t max_http_connections;	/* on --metrics at once */
	uint32_t http_timeout_s;	/* to send a request, and of silence in one */
	/* Who may connect to the socket: its file's owner, group and mode */
	uint32_t socket_mode;
	char socket_user[64];		/* a name or uid; "": the daemon's */
	char socket_group[64];		/* a name or gid; "": the daemon's */
	int socket_group_set;		/* given (file or command line): a missing group is an error */
};

#define DEFAULT_SOCKET_GROUP "irqlat"
#define METRICS_LE_FACTOR_DEFAULT 8	/* every 8th schema-3 bound: the powers of two in seconds */

/* Where a value was read, so that its refusal names it: the command line (file NULL) or a
 * line of the configuration file. */
struct config_origin {
	const char *file;
	unsigned line;
};

/* A refused configuration: one line saying what is wrong, without the "irqlatd: " that
 * stderr adds ("--threshold-us takes ...", "/etc/irqlatd/irqlatd.conf:3: threshold-us: takes
 * ..."), and where it came from. main prints it and chooses the exit code from source; a
 * reload journals it. */
enum config_source { CONFIG_COMMAND_LINE = 1, CONFIG_FILE };
struct config_error {
	enum config_source source;
	char text[512];
};

/* Fills e (when not NULL) with the formatted line and its source; returns r, a negative errno,
 * so callers can `return config_fail(e, -EINVAL, CONFIG_FILE, "...")`. */
int config_fail(struct config_error *e, int r, enum config_source source, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

void daemon_config_defaults(struct daemon_config *c);
/* Each kind's outlier threshold (0: off), by enum lat_kind */
void config_thresholds(const struct daemon_config *c, uint64_t out[KINDS]);
/* max(1024, 32 x CPUs) + 30 x CPUs (softirqs, vectors) + 17 x CPUs (15 timer functions, two
 * wake-up cells: pid 0's, all tasks') + max_wakeup_cells: the cell pool when max-cells is not set */
uint32_t default_max_cells(unsigned ncpus, uint32_t max_wakeup_cells);
#define MAX_WAKEUP_CELLS_DEFAULT 512

/* Sets one key (a long option without its dashes) from its text value; no_argument options
 * take yes/no ("1", "true", "on", ...). 0, or a negative errno (-ENOENT: unknown key) with e
 * saying why in the words of the origin: "--KEY why" or "FILE:LINE: KEY: why". */
int config_set(struct daemon_config *c, const char *key, const char *value, const struct config_origin *at,
	       struct config_error *e);
/* Adds the tracepoint name[0..len) to the list (once); -EINVAL (e filled, key "tracepoint")
 * when it is not 1 to TP_NAME_MAX - 1 bytes or the list is full. */
int config_tracepoint_add(struct daemon_config *c, const char *name, size_t len, const struct config_origin *at,
			  struct config_error *e);

/* The uid of a user name or number, the gid of a group name or number: 0, -ENOENT (no
 * such user or group), -EINVAL. */
int user_lookup(const char *s, uid_t *uid);
int group_lookup(const char *s, gid_t *gid);

/* Parses "1000ms", "1s", "250us", "5000000ns" into ns; 0 or -EINVAL. */
int parse_duration_ns(const char *s, uint64_t *ns);
/* syslog level names (emerg ... debug, and "error") <-> LOG_* numbers */
int priority_parse(const char *s, int *prio);
const char *priority_name(int prio);
/* "127.0.0.1:9669", "[::1]:9669": a numeric IPv4 or bracketed IPv6 address (no host names: no
 * resolver at start) and a port 1..65535, into *sa. 0 or -EINVAL. */
struct sockaddr_storage;
int metrics_addr_parse(const char *s, struct sockaddr_storage *sa, unsigned *salen);

#endif
