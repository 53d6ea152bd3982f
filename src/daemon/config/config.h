/* SPDX-License-Identifier: GPL-2.0 */
/* irqlatd's settings: every key, its default and what it accepts. The command line
 * (options.c) and the configuration file (config_file.c) both set keys through config_set(),
 * so `threshold-us = 50` in the file means `--threshold-us 50`, checked by the same code. The
 * latency kinds' keys come from the kind table (kind_keys.h). */
#ifndef IRQLAT_CONFIG_H
#define IRQLAT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "irqlat_abi.h"
#include "daemon/base/log.h"
#include "common/util.h"
#include "daemon/config/on_threshold.h"

#define DEFAULT_CONFIG "/etc/irqlatd/irqlatd.conf"

/* How the programs attach (attach): tp_btf, raw_tp, or auto (tp_btf when BTF has it) */
enum attach_mode { ATTACH_AUTO, ATTACH_TP_BTF, ATTACH_RAW_TP };
/* Where a threaded IRQ's run time comes from (threaded-run): the thread handler, fentry/fexit
 * on genirq's wrappers; or the thread's on-CPU time, from sched_switch pairs; auto: the
 * handler where the kernel lets those programs load and attach, else on-CPU time */
enum threaded_run_mode { THREADED_RUN_AUTO, THREADED_RUN_HANDLER, THREADED_RUN_ON_CPU };

int attach_mode_parse(const char *s, enum attach_mode *m);
int threaded_run_mode_parse(const char *s, enum threaded_run_mode *m);
const char *threaded_run_mode_name(enum threaded_run_mode m);

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
	bool builtin;			/* the default no one named (DEFAULT_TRACEPOINT): screens keep quiet while it waits */
};

/* Which tasks' wake-up outliers the journal gets (log-wakeups): the real-time ones (SCHED_FIFO,
 * SCHED_RR, SCHED_DEADLINE) and those of log-tasks; only those of log-tasks; every task's */
enum log_wakeups { LOG_WAKEUPS_RT, LOG_WAKEUPS_NAMED, LOG_WAKEUPS_ALL };
int log_wakeups_parse(const char *s, enum log_wakeups *w);
const char *log_wakeups_name(enum log_wakeups w);
/* A task of log-tasks: a pid, a comm pattern (fnmatch(3), e.g. "cyclictest", "irq/[0-9]*"), or
 * a cgroup v2 path ("/system.slice/rt.service": the tasks in it and below it) */
#define MAX_LOG_TASKS 64
#define LOG_TASK_PATTERN_MAX 64
struct log_task {
	uint32_t pid;			/* 0: pattern */
	bool cgroup;			/* pattern is a cgroup path */
	char pattern[LOG_TASK_PATTERN_MAX];
};
#define OUTLIER_CAP_DEFAULT 3		/* outlier and storm entries a minute, then one saying what was held back */
#define EXITED_TASK_GRACE_S_DEFAULT 60	/* a wake-up series of a task that exited, kept that long */

#define ACTION_INTERVAL_MS_DEFAULT 1000
#define TRACE_BUFFER_KB_DEFAULT 1024
#define CAPTURE_BUDGET_KB_DEFAULT 65536
#define EVENT_HISTORY_DEFAULT 4096	/* events kept for `irqlat events` */
#define TRACEPOINT_RATE_DEFAULT 20	/* journal entries per tracepoint per second */

struct daemon_config {
	uint64_t threshold_ns[KINDS];	/* each kind's outliers (KIND-threshold-us); 0: off */
	int disabled[KINDS];		/* no-KIND, on the kind whose key it is (config_kind_on) */
	struct on_threshold on_threshold[KINDS];	/* what its outliers set off (KIND-on-threshold) */
	uint32_t action_interval_ms;	/* each kind's actions at most this often, each on its own */
	uint32_t trace_buffer_kb;	/* the trace action's tracefs instance, per CPU */
	uint32_t capture_budget_kb;	/* the captures folder's size, the oldest removed first */
	uint32_t max_wakeup_cells;	/* wake-up cells of tasks of their own (task x CPU) */
	enum threaded_run_mode threaded_run;	/* where the thread's run time comes from (threaded-run) */
	uint32_t interval_ms;
	char socket_path[108];
	enum attach_mode attach;
	uint32_t max_cells;	/* 0: derived from the CPU count */
	uint32_t ringbuf_kb;
	uint32_t outlier_rate;
	/* the journal's outliers (irqlatd(8), JOURNAL) */
	uint32_t outlier_cap;		/* entries a minute, all sources together; 0: no cap */
	enum log_wakeups log_wakeups;
	int log_idle;			/* log the outliers that delayed no task (idle CPUs) too */
	struct log_task log_tasks[MAX_LOG_TASKS];
	unsigned nlog_tasks;
	uint32_t exited_task_grace_s;	/* wake-up series of exited tasks leave the answers and /metrics then */
	enum log_target log_target;
	int verbose;
	struct tp_config tracepoints[MAX_TRACEPOINTS];
	unsigned ntracepoints;
	unsigned tp_file_line, no_tp_file_line;	/* where the file set tracepoint, no-tracepoints yes (0: not) */
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
	int metrics_cpu_label;	/* a cpu label on every family: a series per series and CPU */
	char metrics_tls_cert[4096];	/* PEM files: HTTPS; "": plain HTTP */
	char metrics_tls_key[4096];
	char metrics_auth_file[4096];	/* USER:PASSWORD: basic authentication; "": none */
	/* What any client can make the daemon hold (irqlatd(8), LIMITS) */
	uint32_t max_clients;		/* on the socket at once */
	uint32_t max_clients_per_uid;	/* of them, of one uid but root's and the daemon's */
	uint32_t client_idle_timeout_s;	/* to send a request and read its answer */
	uint32_t max_subscribers;	/* of those, subscribed */
	uint32_t client_queue_kb;	/* events waiting for one subscriber */
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
/* Whether kind k is measured: no disable key that covers it (its own, or one that turns it
 * off with its owner's: no-timer covers the wake-ups) is set */
bool config_kind_on(const struct daemon_config *c, enum lat_kind k);
/* The cell pool when max-cells is not set: each kind's share (kind_cells: max(1024, 32 x CPUs)
 * for the handlers, 30 x CPUs for softirqs and vectors, 17 x CPUs for 15 timer functions and two
 * wake-up cells, pid 0's and all tasks') + max_wakeup_cells */
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
