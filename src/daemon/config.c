// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <syslog.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <ini.h>
#include "config.h"
#include "log.h"

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

static int bad(char *why, size_t len, const char *fmt, const char *value)
{
	snprintf(why, len, fmt, value);
	return -EINVAL;
}

static int set_bool(int *out, const char *value)
{
	if (!strcmp(value, "1") || !strcmp(value, "yes") || !strcmp(value, "true") || !strcmp(value, "on"))
		*out = 1;
	else if (!strcmp(value, "0") || !strcmp(value, "no") || !strcmp(value, "false") || !strcmp(value, "off"))
		*out = 0;
	else
		return -EINVAL;
	return 0;
}

static struct tp_config *tp_config_find(struct daemon_config *c, const char *name, size_t len)
{
	for (unsigned i = 0; i < c->ntracepoints; i++)
		if (strlen(c->tracepoints[i].name) == len && !strncmp(c->tracepoints[i].name, name, len))
			return &c->tracepoints[i];
	return NULL;
}

int tracepoint_add(struct daemon_config *c, const char *name, size_t len, char *why, size_t wlen)
{
	if (!len || len >= TP_NAME_MAX) {
		snprintf(why, wlen, "takes SYSTEM:EVENT of 1 to %d bytes", TP_NAME_MAX - 1);
		return -EINVAL;
	}
	if (tp_config_find(c, name, len))
		return 0;	/* named twice: once is enough */
	if (c->ntracepoints == MAX_TRACEPOINTS) {
		snprintf(why, wlen, "names more than %d tracepoints", MAX_TRACEPOINTS);
		return -EINVAL;
	}
	memset(&c->tracepoints[c->ntracepoints], 0, sizeof(c->tracepoints[0]));
	snprintf(c->tracepoints[c->ntracepoints++].name, TP_NAME_MAX, "%.*s", (int)len, name);
	return 0;
}

/* "SYSTEM:EVENT=VALUE" for a tracepoint already in the list */
static int tp_setting(struct daemon_config *c, const char *key, const char *value, char *why, size_t len)
{
	bool period = !strcmp(key, "tracepoint-period");
	const char *eq = strchr(value, '=');
	struct tp_config *t;
	uint64_t ns;

	if (!eq || eq == value || !eq[1]) {
		snprintf(why, len, "takes SYSTEM:EVENT=%s, not '%s'",
			 period ? "DURATION (e.g. silly:me_silly=1000ms)" : "ARG (e.g. silly:me_silly=count)", value);
		return -EINVAL;
	}
	t = tp_config_find(c, value, (size_t)(eq - value));
	if (!t) {
		snprintf(why, len, "names %.*s, which is not a consumed tracepoint: add --tracepoint %.*s",
			 (int)(eq - value), value, (int)(eq - value), value);
		return -EINVAL;
	}
	if (period) {
		if (parse_duration_ns(eq + 1, &ns) < 0)
			return bad(why, len, "takes a duration with a unit (ns, us, ms, s) up to 1h, not '%s'", eq + 1);
		t->period_ns = ns;
	} else {
		if (strlen(eq + 1) >= TP_ARG_NAME_MAX)
			return bad(why, len, "argument name '%s' is too long", eq + 1);
		snprintf(t->counter, sizeof(t->counter), "%s", eq + 1);
	}
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

/* The ranges are the command line's (src/options.c): one meaning per key, wherever it is set. */
int config_set(struct daemon_config *c, const char *key, const char *value, char *why, size_t len)
{
	uint64_t v;

	if (!strcmp(key, "threshold-us")) {
		if (parse_u64(value, 0, 60000000, &v) < 0)
			return bad(why, len, "takes a whole number of microseconds from 0 to 60000000, not '%s'", value);
		c->threshold_ns = v * 1000;
	} else if (!strcmp(key, "interval-ms")) {
		if (parse_u64(value, 10, 60000, &v) < 0)
			return bad(why, len, "takes a whole number from 10 to 60000, not '%s'", value);
		c->interval_ms = (uint32_t)v;
	} else if (!strcmp(key, "socket")) {
		if (!*value || strlen(value) >= sizeof(c->socket_path))
			return bad(why, len, "takes a path of 1 to 107 bytes%s", "");
		snprintf(c->socket_path, sizeof(c->socket_path), "%s", value);
	} else if (!strcmp(key, "attach")) {
		if (attach_mode_parse(value, &c->attach) < 0)
			return bad(why, len, "takes auto, tp_btf or raw_tp, not '%s'", value);
	} else if (!strcmp(key, "max-cells")) {
		if (parse_u64(value, 1, 1u << 20, &v) < 0)
			return bad(why, len, "takes a whole number from 1 to 1048576, not '%s'", value);
		c->max_cells = (uint32_t)v;
	} else if (!strcmp(key, "ringbuf-kb")) {
		if (parse_u64(value, 4, 1u << 20, &v) < 0 || (v & (v - 1)))
			return bad(why, len, "takes a power of two from 4 to 1048576, not '%s'", value);
		c->ringbuf_kb = (uint32_t)v;
	} else if (!strcmp(key, "outlier-rate")) {
		if (parse_u64(value, 0, 1000000, &v) < 0)
			return bad(why, len, "takes a whole number from 0 to 1000000, not '%s'", value);
		c->outlier_rate = (uint32_t)v;
	} else if (!strcmp(key, "log-target")) {
		if (log_target_parse(value, &c->log_target) < 0)
			return bad(why, len, "takes auto, journal or stderr, not '%s'", value);
	} else if (!strcmp(key, "summary-interval-s")) {
		if (parse_u64(value, 0, 86400 * 7, &v) < 0 || (v > 0 && v < 10))
			return bad(why, len, "takes 0 (off) or a whole number of seconds from 10 to 604800, not '%s'", value);
		c->summary_interval_s = (uint32_t)v;
	} else if (!strcmp(key, "tracepoint-priority")) {
		if (priority_parse(value, &c->tracepoint_priority) < 0)
			return bad(why, len, "takes a syslog level (emerg, alert, crit, err, warning, notice, info, debug), not '%s'", value);
	} else if (!strcmp(key, "tracepoint")) {
		/* a list, separated by commas or blanks, that replaces the built-in default */
		c->ntracepoints = 0;
		for (const char *p = value + strspn(value, ", \t"); *p; p += strspn(p, ", \t")) {
			size_t n = strcspn(p, ", \t");

			if (tracepoint_add(c, p, n, why, len) < 0)
				return -EINVAL;
			p += n;
		}
	} else if (!strcmp(key, "no-tracepoints")) {
		int none;

		if (set_bool(&none, value) < 0)
			return bad(why, len, "takes yes or no, not '%s'", value);
		if (none)
			c->ntracepoints = 0;
	} else if (!strcmp(key, "tracepoint-period") || !strcmp(key, "tracepoint-counter")) {
		return tp_setting(c, key, value, why, len);
	} else if (!strcmp(key, "bpf-stats")) {
		if (set_bool(&c->bpf_stats, value) < 0)
			return bad(why, len, "takes yes or no, not '%s'", value);
	} else if (!strcmp(key, "metrics")) {
		struct sockaddr_storage sa;
		unsigned salen;

		/* "" or "off" in a file turns it off again; the command line has no use for that */
		if (!*value || !strcmp(value, "off")) {
			c->metrics[0] = 0;
			return 0;
		}
		if (strlen(value) >= sizeof(c->metrics) || metrics_addr_parse(value, &sa, &salen) < 0)
			return bad(why, len, "takes ADDRESS:PORT with a numeric address and a port from 1 to 65535 "
				   "(e.g. 127.0.0.1:9669 or [::1]:9669), not '%s'", value);
		snprintf(c->metrics, sizeof(c->metrics), "%s", value);
	} else if (!strcmp(key, "verbose")) {
		if (set_bool(&c->verbose, value) < 0)
			return bad(why, len, "takes yes or no, not '%s'", value);
	} else if (!strcmp(key, "config")) {
		return bad(why, len, "cannot be set inside a configuration file (only --config on the command line)%s", "");
	} else {
		snprintf(why, len, "unknown key; the keys are the long options of irqlatd --help without their dashes");
		return -ENOENT;
	}
	return 0;
}

struct load_ctx {
	struct daemon_config *cfg;
	FILE *f;
	int line;		/* of the line inih last read */
	int err_line;		/* first key that failed, or 0 */
	char err_key[64];
	char why[192];
};

/* inih's reader callback, only so we know the line a failing key is on: the handler sees keys,
 * not line numbers, and inih reports only the first failing line. */
static char *read_line(char *buf, int size, void *stream)
{
	struct load_ctx *ctx = stream;
	char *s = fgets(buf, size, ctx->f);

	if (s)
		ctx->line++;
	return s;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
	struct load_ctx *ctx = user;
	char why[192];
	int r;

	if (*section && strcmp(section, "irqlatd")) {
		r = -EINVAL;
		snprintf(why, sizeof(why), "is in section [%s]; irqlatd reads only keys before any section or in [irqlatd]", section);
	} else {
		r = config_set(ctx->cfg, key, value, why, sizeof(why));
	}
	if (r < 0 && !ctx->err_line) {
		ctx->err_line = ctx->line;
		snprintf(ctx->err_key, sizeof(ctx->err_key), "%s", key);
		snprintf(ctx->why, sizeof(ctx->why), "%s", why);
	}
	return r < 0 ? 0 : 1;
}

int config_load(struct daemon_config *c, const char *path, int explicit, char *err, size_t len)
{
	struct load_ctx ctx = { .cfg = c };
	int r;

	ctx.f = fopen(path, "re");
	if (!ctx.f) {
		r = -errno;
		if (r == -ENOENT && !explicit)
			return 0;	/* no file: built-in defaults and the command line */
		snprintf(err, len, "%s: cannot read the configuration file: %s", path, strerror(-r));
		return r;
	}
	/* an indented "key = value" is a key, not the continuation of the previous value */
	ini_allow_multiline = false;
	r = ini_parse_stream(read_line, &ctx, on_key, &ctx);
	fclose(ctx.f);
	if (r == 0)
		return 0;
	if (r < 0) {
		snprintf(err, len, "%s: cannot parse the configuration file (out of memory)", path);
		return -ENOMEM;
	}
	if (ctx.err_line && ctx.err_line <= r)
		snprintf(err, len, "%s:%d: %s: %s", path, ctx.err_line, ctx.err_key, ctx.why);
	else
		snprintf(err, len, "%s:%d: not a 'key = value' line or a [section] header", path, r);
	return -EINVAL;
}

int config_build(struct daemon_config *c, int argc, char **argv, FILE *out, FILE *err)
{
	struct daemon_config cmdline;
	char msg[512];
	int r;

	/* once to find --config (and reject a bad command line before reading any file) ... */
	daemon_config_defaults(&cmdline);
	r = daemon_options_parse(&cmdline, argc, argv, out, err);
	if (r)
		return r;
	daemon_config_defaults(c);
	snprintf(c->config_path, sizeof(c->config_path), "%s", cmdline.config_path);
	c->config_explicit = cmdline.config_explicit;
	if (config_load(c, c->config_path, c->config_explicit, msg, sizeof(msg)) < 0) {
		fprintf(err, "irqlatd: %s\n", msg);
		return EXIT_CONFIG;
	}
	/* ... and again over the file's values: the command line wins */
	return daemon_options_parse(c, argc, argv, out, err);
}

/* Settings the running BPF programs or the open socket were built with: a reload cannot
 * change them, so it says so and keeps the running value. */
static void keep_for_restart(struct daemon_config *n, const struct daemon_config *o)
{
	static const char *const attach_names[] = { "auto", "tp_btf", "raw_tp" };
	static const char restart[] = "that takes effect only after a restart (systemctl restart irqlatd)";

	if (n->max_cells != o->max_cells)
		log_warning("%s: max-cells changed from %u to %u: %s", n->config_path, o->max_cells, n->max_cells, restart);
	if (n->ringbuf_kb != o->ringbuf_kb)
		log_warning("%s: ringbuf-kb changed from %u to %u: %s", n->config_path, o->ringbuf_kb, n->ringbuf_kb, restart);
	if (n->attach != o->attach)
		log_warning("%s: attach changed from %s to %s: %s", n->config_path, attach_names[o->attach],
			    attach_names[n->attach], restart);
	if (n->ntracepoints != o->ntracepoints ||
	    memcmp(n->tracepoints, o->tracepoints, n->ntracepoints * sizeof(n->tracepoints[0])))
		log_warning("%s: the tracepoints to consume changed: %s", n->config_path, restart);
	if (strcmp(n->socket_path, o->socket_path))
		log_warning("%s: socket changed from %s to %s: %s", n->config_path, o->socket_path, n->socket_path, restart);
	if (n->bpf_stats != o->bpf_stats)
		log_warning("%s: bpf-stats changed from %s to %s: %s", n->config_path, o->bpf_stats ? "yes" : "no",
			    n->bpf_stats ? "yes" : "no", restart);
	if (strcmp(n->metrics, o->metrics))
		log_warning("%s: metrics changed from '%s' to '%s': %s", n->config_path, o->metrics, n->metrics, restart);
	memcpy(n->metrics, o->metrics, sizeof(n->metrics));
	n->bpf_stats = o->bpf_stats;	/* the stats descriptor is taken at start */
	n->max_cells = o->max_cells;
	n->ringbuf_kb = o->ringbuf_kb;
	n->attach = o->attach;
	memcpy(n->socket_path, o->socket_path, sizeof(n->socket_path));
	n->ntracepoints = o->ntracepoints;
	memcpy(n->tracepoints, o->tracepoints, sizeof(n->tracepoints));
}

int config_reload(const struct daemon_config *old, int argc, char **argv, struct daemon_config *n,
		  char *why, size_t len)
{
	char *buf = NULL;
	size_t blen = 0;
	FILE *err = open_memstream(&buf, &blen), *out = fopen("/dev/null", "we");
	int r = -ENOMEM;

	if (err && out)
		r = config_build(n, argc, argv, out, err);
	if (err)
		fclose(err);
	if (out)
		fclose(out);
	if (r != 0) {
		const char *m = buf && *buf ? buf : "out of memory";

		if (!strncmp(m, "irqlatd: ", 9))
			m += 9;
		snprintf(why, len, "%.*s", (int)strcspn(m, "\n"), m);
		free(buf);
		return -EINVAL;
	}
	free(buf);
	if (n->log_target == LOG_TARGET_JOURNAL && access("/run/systemd/journal/socket", W_OK) != 0) {
		snprintf(why, len, "%s: log-target journal, but /run/systemd/journal/socket does not exist", n->config_path);
		return -EINVAL;
	}
	keep_for_restart(n, old);
	return 0;
}
