// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "daemon/config/config_build.h"
#include "daemon/config/config_file.h"
#include "daemon/config/kind_keys.h"
#include "daemon/base/log.h"
#include "daemon/config/options.h"

int config_build(struct daemon_config *c, int argc, char **argv, FILE *out, struct config_error *e)
{
	struct daemon_config cmdline;
	int r;

	/* once to find --config (and refuse a bad command line before reading any file) ... */
	daemon_config_defaults(&cmdline);
	r = daemon_options_parse(&cmdline, argc, argv, out, e);
	if (r != 0)
		return r;
	daemon_config_defaults(c);
	snprintf(c->config_path, sizeof(c->config_path), "%s", cmdline.config_path);
	c->config_explicit = cmdline.config_explicit;
	r = config_file_load(c, c->config_path, c->config_explicit, e);
	if (r < 0)
		return r;
	/* ... and again over the file's values: the command line wins */
	return daemon_options_parse(c, argc, argv, out, e);
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
	for (unsigned k = 0; k < KINDS; k++) {
		if (n->disabled[k] != o->disabled[k])
			log_warning("%s: %s changed from %s to %s: %s", n->config_path, kind_key_name(k, KIND_KEY_DISABLE),
				    o->disabled[k] ? "yes" : "no", n->disabled[k] ? "yes" : "no", restart);
		n->disabled[k] = o->disabled[k];
	}
	if (n->max_wakeup_cells != o->max_wakeup_cells)
		log_warning("%s: max-wakeup-cells changed from %u to %u: %s", n->config_path, o->max_wakeup_cells,
			    n->max_wakeup_cells, restart);
	n->max_wakeup_cells = o->max_wakeup_cells;
	if (n->threaded_run != o->threaded_run)
		log_warning("%s: threaded-run changed from %s to %s: %s", n->config_path, threaded_run_mode_name(o->threaded_run),
			    threaded_run_mode_name(n->threaded_run), restart);
	n->threaded_run = o->threaded_run;
	if (n->event_history != o->event_history)
		log_warning("%s: event-history changed from %u to %u: %s", n->config_path, o->event_history,
			    n->event_history, restart);
	if (strcmp(n->metrics, o->metrics))
		log_warning("%s: metrics changed from '%s' to '%s': %s", n->config_path, o->metrics, n->metrics, restart);
	if (strcmp(n->metrics_tls_cert, o->metrics_tls_cert) || strcmp(n->metrics_tls_key, o->metrics_tls_key) ||
	    strcmp(n->metrics_auth_file, o->metrics_auth_file))
		log_warning("%s: metrics-tls-cert, metrics-tls-key or metrics-auth-file changed: %s", n->config_path, restart);
	memcpy(n->metrics_tls_cert, o->metrics_tls_cert, sizeof(n->metrics_tls_cert));
	memcpy(n->metrics_tls_key, o->metrics_tls_key, sizeof(n->metrics_tls_key));
	memcpy(n->metrics_auth_file, o->metrics_auth_file, sizeof(n->metrics_auth_file));
	if (n->socket_mode != o->socket_mode || strcmp(n->socket_user, o->socket_user) ||
	    strcmp(n->socket_group, o->socket_group))
		log_warning("%s: the socket's mode, user or group changed: %s", n->config_path, restart);
	if (n->max_http_connections != o->max_http_connections || n->http_timeout_s != o->http_timeout_s)
		log_warning("%s: max-http-connections or http-timeout-s changed: %s", n->config_path, restart);
	n->socket_mode = o->socket_mode;
	memcpy(n->socket_user, o->socket_user, sizeof(n->socket_user));
	memcpy(n->socket_group, o->socket_group, sizeof(n->socket_group));
	n->socket_group_set = o->socket_group_set;
	n->max_http_connections = o->max_http_connections;
	n->http_timeout_s = o->http_timeout_s;
	memcpy(n->metrics, o->metrics, sizeof(n->metrics));
	n->bpf_stats = o->bpf_stats;	/* the stats descriptor is taken at start */
	n->max_cells = o->max_cells;
	n->ringbuf_kb = o->ringbuf_kb;
	n->event_history = o->event_history;	/* the ring is allocated at start */
	n->attach = o->attach;
	memcpy(n->socket_path, o->socket_path, sizeof(n->socket_path));
	n->ntracepoints = o->ntracepoints;
	memcpy(n->tracepoints, o->tracepoints, sizeof(n->tracepoints));
}

int config_reload(const struct daemon_config *old, int argc, char **argv, struct daemon_config *n,
		  struct config_error *e)
{
	/* no --help here: the daemon would not be running; out is NULL all the same */
	int r = config_build(n, argc, argv, NULL, e);

	if (r < 0)
		return r;
	if (n->log_target == LOG_TARGET_JOURNAL && access(LOG_JOURNAL_SOCKET, W_OK) != 0)
		return config_fail(e, -ENOENT, CONFIG_FILE,
				   "%s: log-target journal, but " LOG_JOURNAL_SOCKET " does not exist", n->config_path);
	keep_for_restart(n, old);
	return 0;
}
