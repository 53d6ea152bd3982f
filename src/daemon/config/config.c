// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <pwd.h>
#include <stddef.h>
#include <syslog.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "daemon/config/config.h"
#include "daemon/config/kind_keys.h"
#include "common/macro.h"

int config_fail(struct config_error *e, int r, enum config_source source, const char *fmt, ...)
{
	va_list ap;

	if (e) {
		char text[sizeof(e->text)];

		e->source = source;
		va_start(ap, fmt);
		vsnprintf(text, sizeof(text), fmt, ap);
		va_end(ap);
		/* the values it quotes are the user's: still one line, and UTF-8 for the journal */
		text_escape(e->text, sizeof(e->text), text, strlen(text));
	}
	return r;
}

/* A key's refusal in the words of where it was read: "--KEY why" or "FILE:LINE: KEY: why". */
static int key_fail(struct config_error *e, int r, const struct config_origin *at, const char *key,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int key_fail(struct config_error *e, int r, const struct config_origin *at, const char *key,
		    const char *fmt, ...)
{
	char why[sizeof(e->text)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (at->file)
		return config_fail(e, r, CONFIG_FILE, "%s:%u: %s: %s", at->file, at->line, key, why);
	return config_fail(e, r, CONFIG_COMMAND_LINE, "--%s %s", key, why);
}

void daemon_config_defaults(struct daemon_config *c)
{
	memset(c, 0, sizeof(*c));
	for (unsigned k = 0; k < KINDS; k++)
		c->threshold_ns[k] = (uint64_t)kind_get(k)->threshold.default_us * 1000;
	c->max_wakeup_cells = MAX_WAKEUP_CELLS_DEFAULT;
	c->interval_ms = 1000;
	snprintf(c->socket_path, sizeof(c->socket_path), "%s", DEFAULT_SOCKET);
	c->attach = ATTACH_AUTO;
	c->ringbuf_kb = 256;
	c->outlier_rate = 10;
	c->outlier_cap = OUTLIER_CAP_DEFAULT;
	c->log_wakeups = LOG_WAKEUPS_RT;
	c->exited_task_grace_s = EXITED_TASK_GRACE_S_DEFAULT;
	c->log_target = LOG_TARGET_AUTO;
	snprintf(c->tracepoints[0].name, TP_NAME_MAX, "%s", DEFAULT_TRACEPOINT);
	snprintf(c->tracepoints[0].module, TP_MODULE_MAX, "%s", DEFAULT_TRACEPOINT_MODULE);
	c->tracepoints[0].builtin = true;
	c->ntracepoints = 1;
	snprintf(c->config_path, sizeof(c->config_path), "%s", DEFAULT_CONFIG);
	c->summary_interval_s = 600;
	c->tracepoint_priority = LOG_DEBUG;
	c->max_clients = 64;
	c->max_clients_per_uid = 16;
	c->client_idle_timeout_s = 30;
	c->max_subscribers = 16;
	c->client_queue_kb = 1024;
	c->max_request_kb = 64;
	c->max_http_connections = 16;
	c->metrics_le_factor = METRICS_LE_FACTOR_DEFAULT;
	c->http_timeout_s = 10;
	c->socket_mode = 0660;
	snprintf(c->socket_group, sizeof(c->socket_group), "%s", DEFAULT_SOCKET_GROUP);
	c->tracepoint_rate = TRACEPOINT_RATE_DEFAULT;
	c->event_history = EVENT_HISTORY_DEFAULT;
	c->action_interval_ms = ACTION_INTERVAL_MS_DEFAULT;
	c->trace_buffer_kb = TRACE_BUFFER_KB_DEFAULT;
	c->capture_budget_kb = CAPTURE_BUDGET_KB_DEFAULT;
}

bool config_kind_on(const struct daemon_config *c, enum lat_kind k)
{
	for (unsigned j = 0; j < KINDS; j++)
		if (c->disabled[j] && (j == (unsigned)k || (kind_get(j)->disable.also & KIND_BIT(k))))
			return false;
	return true;
}

uint32_t default_max_cells(unsigned ncpus, uint32_t max_wakeup_cells)
{
	uint32_t cells = max_wakeup_cells;	/* the tasks' own wake-up cells */

	for (unsigned k = 0; k < KINDS; k++) {
		const struct kind_cells *c = &kind_get(k)->cells;

		cells += ncpus * c->per_cpu > c->at_least ? ncpus * c->per_cpu : c->at_least;
	}
	return cells;
}

int attach_mode_parse(const char *s, enum attach_mode *m)
{
	if (!strcmp(s, "auto"))
		*m = ATTACH_AUTO;
	else if (!strcmp(s, "tp_btf"))
		*m = ATTACH_TP_BTF;
	else if (!strcmp(s, "raw_tp"))
		*m = ATTACH_RAW_TP;
	else
		return -EINVAL;
	return 0;
}

static const char *const log_wakeups_names[] = { "rt", "named", "all" };

int log_wakeups_parse(const char *s, enum log_wakeups *w)
{
	for (size_t i = 0; i < ELEMENTSOF(log_wakeups_names); i++)
		if (!strcmp(s, log_wakeups_names[i])) {
			*w = (enum log_wakeups)i;
			return 0;
		}
	return -EINVAL;
}

const char *log_wakeups_name(enum log_wakeups w)
{
	return (unsigned)w < ELEMENTSOF(log_wakeups_names) ? log_wakeups_names[w] : "?";
}

static const char *const threaded_run_names[] = { "auto", "handler", "on-cpu" };

int threaded_run_mode_parse(const char *s, enum threaded_run_mode *m)
{
	for (size_t i = 0; i < ELEMENTSOF(threaded_run_names); i++)
		if (!strcmp(s, threaded_run_names[i])) {
			*m = (enum threaded_run_mode)i;
			return 0;
		}
	return -EINVAL;
}

const char *threaded_run_mode_name(enum threaded_run_mode m)
{
	return (unsigned)m < ELEMENTSOF(threaded_run_names) ? threaded_run_names[m] : "?";
}

int parse_duration_ns(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t mult; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	for (size_t i = 0; i < ELEMENTSOF(units); i++)
		if (!strcmp(end, units[i].unit)) {
			if (v == 0 || v > UINT64_MAX / units[i].mult || v * units[i].mult > 3600000000000ull)
				return -EINVAL;
			*ns = v * units[i].mult;
			return 0;
		}
	return -EINVAL;
}

static const char *const priority_names[] = {
	"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
};

int priority_parse(const char *s, int *prio)
{
	for (int i = 0; i < 8; i++)
		if (!strcmp(s, priority_names[i])) {
			*prio = i;
			return 0;
		}
	if (!strcmp(s, "error"))
		*prio = LOG_ERR;
	else
		return -EINVAL;
	return 0;
}

const char *priority_name(int prio)
{
	return priority_names[prio & 7];
}

/* A name, or a number (what ls -n shows) */
static int id_number(const char *s, uint64_t *v)
{
	return parse_u64(s, 0, UINT32_MAX - 1, v);
}

int user_lookup(const char *s, uid_t *uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	uint64_t v;

	if (!*s)
		return -EINVAL;
	if (id_number(s, &v) == 0) {
		*uid = (uid_t)v;
		return 0;
	}
	if (getpwnam_r(s, &pw, buf, sizeof(buf), &res) != 0 || !res)
		return -ENOENT;
	*uid = res->pw_uid;
	return 0;
}

int group_lookup(const char *s, gid_t *gid)
{
	struct group gr, *res = NULL;
	char buf[16384];
	uint64_t v;

	if (!*s)
		return -EINVAL;
	if (id_number(s, &v) == 0) {
		*gid = (gid_t)v;
		return 0;
	}
	if (getgrnam_r(s, &gr, buf, sizeof(buf), &res) != 0 || !res)
		return -ENOENT;
	*gid = res->gr_gid;
	return 0;
}

/* "0660", "660", "0o660": an octal mode of the socket file's permission bits */
static int parse_mode(const char *s, uint32_t *mode)
{
	char *end;
	unsigned long v;

	if (!strncmp(s, "0o", 2))
		s += 2;
	if (*s < '0' || *s > '7')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 8);
	if (errno || *end || v > 0777)
		return -EINVAL;
	*mode = (uint32_t)v;
	return 0;
}

/* The limits: whole numbers in [min, max] */
static const struct limit_key {
	const char *key;
	size_t offset;
	uint32_t min, max;
} limit_keys[] = {
	{ "max-clients", offsetof(struct daemon_config, max_clients), 1, 65536 },
	{ "max-clients-per-uid", offsetof(struct daemon_config, max_clients_per_uid), 1, 65536 },
	{ "client-idle-timeout-s", offsetof(struct daemon_config, client_idle_timeout_s), 1, 86400 },
	{ "max-subscribers", offsetof(struct daemon_config, max_subscribers), 0, 65536 },
	{ "client-queue-kb", offsetof(struct daemon_config, client_queue_kb), 64, 1u << 20 },
	{ "max-request-kb", offsetof(struct daemon_config, max_request_kb), 1, 1024 },
	{ "max-http-connections", offsetof(struct daemon_config, max_http_connections), 1, 4096 },
	{ "http-timeout-s", offsetof(struct daemon_config, http_timeout_s), 1, 3600 },
	{ "action-interval-ms", offsetof(struct daemon_config, action_interval_ms), 10, 3600000 },
	{ "trace-buffer-kb", offsetof(struct daemon_config, trace_buffer_kb), 16, 1u << 20 },
	{ "capture-budget-kb", offsetof(struct daemon_config, capture_budget_kb), 64, 1u << 30 },
};

static int parse_bool(const char *value, int *out)
{
	if (!strcmp(value, "1") || !strcmp(value, "yes") || !strcmp(value, "true") || !strcmp(value, "on"))
		*out = 1;
	else if (!strcmp(value, "0") || !strcmp(value, "no") || !strcmp(value, "false") || !strcmp(value, "off"))
		*out = 0;
	else
		return -EINVAL;
	return 0;
}

int metrics_addr_parse(const char *s, struct sockaddr_storage *sa, unsigned *salen)
{
	char host[INET6_ADDRSTRLEN];
	const char *colon, *h = s;
	size_t hlen;
	uint64_t port;

	memset(sa, 0, sizeof(*sa));
	if (*s == '[') {
		const char *end = strchr(s, ']');

		if (!end || end[1] != ':')
			return -EINVAL;
		h = s + 1;
		hlen = (size_t)(end - h);
		colon = end + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || strchr(s, ':') != colon)	/* a bare IPv6 address needs its brackets */
			return -EINVAL;
		hlen = (size_t)(colon - s);
	}
	if (!hlen || hlen >= sizeof(host) || parse_u64(colon + 1, 1, 65535, &port) < 0)
		return -EINVAL;
	memcpy(host, h, hlen);
	host[hlen] = 0;
	if (*s == '[') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)sa;

		if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
			return -EINVAL;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		*salen = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)sa;

		if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
			return -EINVAL;
		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		*salen = sizeof(*a);
	}
	return 0;
}

static struct tp_config *tp_config_find(struct daemon_config *c, const char *name, size_t len)
{
	for (unsigned i = 0; i < c->ntracepoints; i++)
		if (strlen(c->tracepoints[i].name) == len && !strncmp(c->tracepoints[i].name, name, len))
			return &c->tracepoints[i];
	return NULL;
}

int config_tracepoint_add(struct daemon_config *c, const char *name, size_t len, const struct config_origin *at,
			  struct config_error *e)
{
	struct tp_config *t;

	if (!len || len >= TP_NAME_MAX)
		return key_fail(e, -EINVAL, at, "tracepoint", "takes SYSTEM:EVENT of 1 to %d bytes", TP_NAME_MAX - 1);
	if (tp_config_find(c, name, len))
		return 0;	/* named twice: once is enough */
	if (c->ntracepoints == MAX_TRACEPOINTS)
		return key_fail(e, -EINVAL, at, "tracepoint", "names more than %d tracepoints", MAX_TRACEPOINTS);
	t = &c->tracepoints[c->ntracepoints++];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, TP_NAME_MAX, "%.*s", (int)len, name);
	if (!strcmp(t->name, DEFAULT_TRACEPOINT))	/* ours: its module is known */
		snprintf(t->module, TP_MODULE_MAX, "%s", DEFAULT_TRACEPOINT_MODULE);
	return 0;
}

/* "SYSTEM:EVENT=VALUE" for a tracepoint already in the list: tracepoint-period,
 * tracepoint-counter, tracepoint-journal, tracepoint-module */
static int tp_setting(struct daemon_config *c, const char *key, const char *value, const struct config_origin *at,
		      struct config_error *e)
{
	static const char *const journal_names[] = { [TP_JOURNAL_OFF] = "off", [TP_JOURNAL_DEBUG] = "debug",
						      [TP_JOURNAL_INFO] = "info" };
	static const char *const examples[] = { "DURATION (e.g. silly:me_silly=1000ms)", "ARG (e.g. silly:me_silly=count)",
						"off, debug or info (e.g. silly:me_silly=info)",
						"MODULE (e.g. silly:me_silly=sillymod)" };
	static const char *const keys[] = { "tracepoint-period", "tracepoint-counter", "tracepoint-journal",
					    "tracepoint-module" };
	unsigned which = 0;
	const char *eq = strchr(value, '=');
	struct tp_config *t;
	uint64_t ns;

	while (which < ELEMENTSOF(keys) - 1 && strcmp(key, keys[which]))
		which++;
	bool period = which == 0;
	if (!eq || eq == value || !eq[1])
		return key_fail(e, -EINVAL, at, key, "takes SYSTEM:EVENT=%s, not '%s'", examples[which], value);
	t = tp_config_find(c, value, (size_t)(eq - value));
	if (!t)
		return key_fail(e, -EINVAL, at, key, "names %.*s, which is not a consumed tracepoint: add --tracepoint %.*s",
				(int)(eq - value), value, (int)(eq - value), value);
	if (period) {
		if (parse_duration_ns(eq + 1, &ns) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a duration with a unit (ns, us, ms, s) up to 1h, not '%s'", eq + 1);
		t->period_ns = ns;
	} else if (which == 2) {
		unsigned j = TP_JOURNAL_OFF;

		while (j < ELEMENTSOF(journal_names) && strcmp(eq + 1, journal_names[j]))
			j++;
		if (j == ELEMENTSOF(journal_names))
			return key_fail(e, -EINVAL, at, key, "takes SYSTEM:EVENT=off, debug or info, not '%s'", value);
		t->journal = (enum tp_journal)j;
	} else if (which == 3) {
		if (strlen(eq + 1) >= TP_MODULE_MAX || strcspn(eq + 1, "/ \t") != strlen(eq + 1))
			return key_fail(e, -EINVAL, at, key, "takes a module name of 1 to %d bytes, not '%s'", TP_MODULE_MAX - 1, eq + 1);
		snprintf(t->module, sizeof(t->module), "%s", eq + 1);
	} else {
		if (strlen(eq + 1) >= TP_ARG_NAME_MAX)
			return key_fail(e, -EINVAL, at, key, "argument name '%s' is too long", eq + 1);
		snprintf(t->counter, sizeof(t->counter), "%s", eq + 1);
	}
	return 0;
}

/* log-tasks: pids, comm patterns and cgroup paths (a word starting with '/'), separated by
 * commas or blanks, added to the list */
static int log_tasks_add(struct daemon_config *c, const char *value, const struct config_origin *at,
			 struct config_error *e)
{
	for (const char *p = value + strspn(value, ", \t"); *p; p += strspn(p, ", \t")) {
		size_t n = strcspn(p, ", \t");
		struct log_task t = { 0 };
		char word[LOG_TASK_PATTERN_MAX];
		uint64_t pid;

		if (n >= sizeof(word))
			return key_fail(e, -EINVAL, at, "log-tasks", "takes pids and comm patterns of 1 to %d bytes, not '%.*s'",
					LOG_TASK_PATTERN_MAX - 1, (int)n, p);
		memcpy(word, p, n);
		word[n] = 0;
		p += n;
		if (*word >= '0' && *word <= '9') {
			if (parse_u64(word, 1, 4194304, &pid) < 0)	/* PID_MAX_LIMIT */
				return key_fail(e, -EINVAL, at, "log-tasks", "takes pids from 1 to 4194304 and comm patterns, not '%s'", word);
			t.pid = (uint32_t)pid;
		} else {
			snprintf(t.pattern, sizeof(t.pattern), "%s", word);
			t.cgroup = *word == '/';
		}
		if (c->nlog_tasks == MAX_LOG_TASKS)
			return key_fail(e, -EINVAL, at, "log-tasks", "names more than %d tasks", MAX_LOG_TASKS);
		c->log_tasks[c->nlog_tasks++] = t;
	}
	return 0;
}

/* One meaning per key, wherever it is set: the ranges here are those irqlatd --help states. */
int config_set(struct daemon_config *c, const char *key, const char *value, const struct config_origin *at,
	       struct config_error *e)
{
	const struct kind_key *kk = kind_key_find(key);
	uint64_t v;

	for (size_t i = 0; i < ELEMENTSOF(limit_keys); i++) {
		const struct limit_key *l = &limit_keys[i];

		if (strcmp(key, l->key))
			continue;
		if (parse_u64(value, l->min, l->max, &v) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a whole number from %u to %u, not '%s'", l->min, l->max, value);
		*(uint32_t *)((char *)c + l->offset) = (uint32_t)v;
		return 0;
	}
	if (kk && kk->what == KIND_KEY_THRESHOLD) {
		if (parse_u64(value, 0, 60000000, &v) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a whole number of microseconds from 0 to 60000000, not '%s'", value);
		c->threshold_ns[kk->kind] = v * 1000;
	} else if (kk && kk->what == KIND_KEY_ON_THRESHOLD) {
		char why[160];

		if (on_threshold_parse(value, &c->on_threshold[kk->kind], why, sizeof(why)) < 0)
			return key_fail(e, -EINVAL, at, key, "%s (e.g. trace,shell,command=logger late)", why);
	} else if (kk) {
		if (parse_bool(value, &c->disabled[kk->kind]) < 0)
			return key_fail(e, -EINVAL, at, key, "takes yes or no, not '%s'", value);
	} else if (!strcmp(key, "max-wakeup-cells")) {
		if (parse_u64(value, 0, 1u << 20, &v) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a whole number from 0 to 1048576, not '%s'", value);
		c->max_wakeup_cells = (uint32_t)v;
	} else if (!strcmp(key, "threaded-run")) {
		if (threaded_run_mode_parse(value, &c->threaded_run) < 0)
			return key_fail(e, -EINVAL, at, key, "takes auto, handler or on-cpu, not '%s'", value);
	} else if (!strcmp(key, "interval-ms")) {
		if (parse_u64(value, 10, 60000, &v) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a whole number from 10 to 60000, not '%s'", value);
		c->interval_ms = (uint32_t)v;
	} else if (!strcmp(key, "socket")) {
		if (!*value || strlen(value) >= sizeof(c->socket_path))
			return key_fail(e, -EINVAL, at, key, "takes a path of 1 to 107 bytes");
		snprintf(c->socket_path, sizeof(c->socket_path), "%s", value);
	} else if (!strcmp(key, "attach")) {
		if (attach_mode_parse(value, &c->attach) < 0)
			return key_fail(e, -EINVAL, at, key, "takes auto, tp_btf or raw_tp, not '%s'", value);
	} else if (!strcmp(key, "max-cells")) {
		if (parse_u64(value, 1, 1u << 20, &v) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a whole number from 1 to 1048576, not '%s'", value);
		c->max_cells = (uint32_t)v;
	} else if (!strcmp(key, "ringbuf-kb")) {
		if (parse_u64(value, 4, 1u << 20, &v) < 0 || (v & (v - 1)))
			return key_fail(e, -EINVAL, at, key, "takes a power of two from 4 to 1048576, not '%s'", value);
		c->ringbuf_kb = (uint32_t)v;
	} else if (!strcmp(key, "outlier-rate")) {
		if (parse_u64(value, 0, 1000000, &v) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a whole number from 0 to 1000000, not '%s'", value);
		c->outlier_rate = (uint32_t)v;
	} else if (!strcmp(key, "outlier-cap")) {
		if (parse_u64(value, 0, 1000000, &v) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a whole number of entries a minute from 0 (no cap) to 1000000, not '%s'", value);
		c->outlier_cap = (uint32_t)v;
	} else if (!strcmp(key, "log-wakeups")) {
		if (log_wakeups_parse(value, &c->log_wakeups) < 0)
			return key_fail(e, -EINVAL, at, key, "takes rt, named or all, not '%s'", value);
	} else if (!strcmp(key, "log-tasks")) {
		return log_tasks_add(c, value, at, e);
	} else if (!strcmp(key, "exited-task-grace-s")) {
		if (parse_u64(value, 0, 86400, &v) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a whole number of seconds from 0 to 86400, not '%s'", value);
		c->exited_task_grace_s = (uint32_t)v;
	} else if (!strcmp(key, "log-target")) {
		if (log_target_parse(value, &c->log_target) < 0)
			return key_fail(e, -EINVAL, at, key, "takes auto, journal or stderr, not '%s'", value);
	} else if (!strcmp(key, "summary-interval-s")) {
		if (parse_u64(value, 0, 86400 * 7, &v) < 0 || (v > 0 && v < 10))
			return key_fail(e, -EINVAL, at, key, "takes 0 (off) or a whole number of seconds from 10 to 604800, not '%s'", value);
		c->summary_interval_s = (uint32_t)v;
	} else if (!strcmp(key, "tracepoint-priority")) {
		if (priority_parse(value, &c->tracepoint_priority) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a syslog level (emerg, alert, crit, err, warning, notice, info, debug), not '%s'", value);
	} else if (!strcmp(key, "tracepoint")) {
		/* a list, separated by commas or blanks, that replaces the built-in default */
		if (at->file && c->no_tp_file_line)
			return key_fail(e, -EINVAL, at, key, "contradicts no-tracepoints = yes (line %u): give one of them",
					c->no_tp_file_line);
		if (at->file)
			c->tp_file_line = at->line;
		c->ntracepoints = 0;
		for (const char *p = value + strspn(value, ", \t"); *p; p += strspn(p, ", \t")) {
			size_t n = strcspn(p, ", \t");
			int r = config_tracepoint_add(c, p, n, at, e);

			if (r < 0)
				return r;
			p += n;
		}
	} else if (!strcmp(key, "no-tracepoints")) {
		int none;

		if (parse_bool(value, &none) < 0)
			return key_fail(e, -EINVAL, at, key, "takes yes or no, not '%s'", value);
		if (none && at->file && c->tp_file_line)
			return key_fail(e, -EINVAL, at, key, "contradicts tracepoint (line %u): give one of them", c->tp_file_line);
		if (none && at->file)
			c->no_tp_file_line = at->line;
		if (none)
			c->ntracepoints = 0;
	} else if (!strcmp(key, "tracepoint-period") || !strcmp(key, "tracepoint-counter") ||
		   !strcmp(key, "tracepoint-journal") || !strcmp(key, "tracepoint-module")) {
		return tp_setting(c, key, value, at, e);
	} else if (!strcmp(key, "tracepoint-rate")) {
		if (parse_u64(value, 0, 1000000, &v) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a whole number from 0 to 1000000, not '%s'", value);
		c->tracepoint_rate = (uint32_t)v;
	} else if (!strcmp(key, "event-history")) {
		if (parse_u64(value, 0, 1048576, &v) < 0 || (v && v < 16))
			return key_fail(e, -EINVAL, at, key, "takes 0 (none) or a number of events from 16 to 1048576, not '%s'", value);
		c->event_history = (uint32_t)v;
	} else if (!strcmp(key, "log-idle")) {
		if (parse_bool(value, &c->log_idle) < 0)
			return key_fail(e, -EINVAL, at, key, "takes yes or no, not '%s'", value);
	} else if (!strcmp(key, "bpf-stats")) {
		if (parse_bool(value, &c->bpf_stats) < 0)
			return key_fail(e, -EINVAL, at, key, "takes yes or no, not '%s'", value);
	} else if (!strcmp(key, "metrics")) {
		struct sockaddr_storage sa;
		unsigned salen;

		/* "" or "off" in a file turns it off again; the command line has no use for that */
		if (!*value || !strcmp(value, "off")) {
			c->metrics[0] = 0;
			return 0;
		}
		if (strlen(value) >= sizeof(c->metrics) || metrics_addr_parse(value, &sa, &salen) < 0)
			return key_fail(e, -EINVAL, at, key, "takes ADDRESS:PORT with a numeric address and a port from 1 to 65535 "
					"(e.g. 127.0.0.1:9669 or [::1]:9669), not '%s'", value);
		snprintf(c->metrics, sizeof(c->metrics), "%s", value);
	} else if (!strcmp(key, "metrics-cpu-label")) {
		if (parse_bool(value, &c->metrics_cpu_label) < 0)
			return key_fail(e, -EINVAL, at, key, "takes yes or no, not '%s'", value);
	} else if (!strcmp(key, "metrics-tls-cert") || !strcmp(key, "metrics-tls-key") || !strcmp(key, "metrics-auth-file")) {
		char *dst = !strcmp(key, "metrics-auth-file") ? c->metrics_auth_file :
			    !strcmp(key, "metrics-tls-cert") ? c->metrics_tls_cert : c->metrics_tls_key;

		/* "" in a file turns it off again; the files are read when the endpoint starts */
		if (strlen(value) >= sizeof(c->metrics_auth_file) || (*value && *value != '/'))
			return key_fail(e, -EINVAL, at, key, "takes an absolute file path, not '%s'", value);
		snprintf(dst, sizeof(c->metrics_auth_file), "%s", value);
	} else if (!strcmp(key, "metrics-le-factor")) {
		if (parse_u64(value, 1, 64, &v) < 0)
			return key_fail(e, -EINVAL, at, key, "takes a whole number from 1 to 64 (every Nth bound of the histogram; 8: powers of two), not '%s'", value);
		c->metrics_le_factor = (uint32_t)v;
	} else if (!strcmp(key, "socket-mode")) {
		if (parse_mode(value, &c->socket_mode) < 0)
			return key_fail(e, -EINVAL, at, key, "takes an octal mode from 0000 to 0777 (e.g. 0660), not '%s'", value);
	} else if (!strcmp(key, "socket-user") || !strcmp(key, "socket-group")) {
		bool group = key[7] == 'g';
		uid_t uid;
		gid_t gid;
		int r;

		/* "" gives the socket to the daemon's own user or group */
		if (strlen(value) >= sizeof(c->socket_user))
			return key_fail(e, -EINVAL, at, key, "takes a %s name or number", group ? "group" : "user");
		r = !*value ? 0 : group ? group_lookup(value, &gid) : user_lookup(value, &uid);
		if (r < 0)
			return key_fail(e, -EINVAL, at, key, "names no %s of this system: '%s'%s", group ? "group" : "user", value,
					group ? " (create it: groupadd --system NAME)" : "");
		snprintf(group ? c->socket_group : c->socket_user, sizeof(c->socket_user), "%s", value);
		if (group)
			c->socket_group_set = 1;
	} else if (!strcmp(key, "verbose")) {
		if (parse_bool(value, &c->verbose) < 0)
			return key_fail(e, -EINVAL, at, key, "takes yes or no, not '%s'", value);
	} else if (!strcmp(key, "config")) {
		/* which file to read is the command line's to say, not the file's */
		if (at->file)
			return key_fail(e, -EINVAL, at, key, "cannot be set inside a configuration file (only --config on the command line)");
		if (!*value || strlen(value) >= sizeof(c->config_path))
			return key_fail(e, -EINVAL, at, key, "takes a file path");
		snprintf(c->config_path, sizeof(c->config_path), "%s", value);
		c->config_explicit = 1;
	} else {
		return key_fail(e, -ENOENT, at, key, "unknown key; the keys are the long options of irqlatd --help without their dashes");
	}
	return 0;
}
