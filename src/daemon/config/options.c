// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "daemon/config/kind_keys.h"
#include "daemon/config/options.h"
#include "common/macro.h"

/* The possible CPUs as libbpf counts them (the cell pool's size depends on them): the last
 * number of /sys/devices/system/cpu/possible, plus one */
static unsigned possible_cpus(void)
{
	char buf[256];
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	const char *last;
	long ncpus;

	if (f)
		fclose(f);
	buf[n] = 0;
	last = buf + strcspn(buf, "\n");
	while (last > buf && (last[-1] >= '0' && last[-1] <= '9'))
		last--;
	if (n && *last >= '0' && *last <= '9')
		return (unsigned)strtoul(last, NULL, 10) + 1;
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	return ncpus > 0 ? (unsigned)ncpus : 1;
}

#define HELP_WIDTH 80
#define HELP_COLUMN 26	/* where an option's text starts */

/* One option of --help: "  -t, --KEY N" and its text from HELP_COLUMN on, wrapped at
 * HELP_WIDTH */
static void help_item(FILE *f, char short_opt, const char *option, const char *text)
{
	char left[96];
	int col;

	if (short_opt)
		snprintf(left, sizeof(left), "  -%c, --%s", short_opt, option);
	else
		snprintf(left, sizeof(left), "      --%s", option);
	col = fprintf(f, "%s", left);
	col += fprintf(f, "%*s", col + 2 <= HELP_COLUMN ? HELP_COLUMN - col : 2, "");
	for (const char *w = text + strspn(text, " "); *w; w += strspn(w, " ")) {
		int n = (int)strcspn(w, " ");

		if (w != text && col + 1 + n > HELP_WIDTH)
			col = fprintf(f, "\n%*s", HELP_COLUMN, "") - 1;
		else if (w != text)
			col += fprintf(f, " ");
		col += fprintf(f, "%.*s", n, w);
		w += n;
	}
	fputc('\n', f);
}

/* The latency kinds' keys, from the kind table */
static void kind_usage(FILE *f)
{
	unsigned n;
	const struct kind_key *keys = kind_keys(&n);

	for (unsigned i = 0; i < n; i++) {
		const struct kind_key *k = &keys[i];
		const struct kind_desc *d = kind_get(k->kind);
		const struct kind_key *alias = i + 1 < n && keys[i + 1].alias ? &keys[i + 1] : NULL;
		char option[64], text[256], also[64] = "";

		if (k->alias)
			continue;
		if (alias)
			snprintf(also, sizeof(also), "; also --%s", alias->name);
		if (k->what == KIND_KEY_THRESHOLD) {
			snprintf(option, sizeof(option), "%s N", k->name);
			snprintf(text, sizeof(text), "log %s of N us or more as outliers (default %u; 0: off%s)",
				 d->threshold.help, d->threshold.default_us, also);
		} else if (k->what == KIND_KEY_ON_THRESHOLD) {
			snprintf(option, sizeof(option), "%s ACTIONS", k->name);
			snprintf(text, sizeof(text), "what each of its outliers sets off: trace, signal,num=N,pid=P, "
				 "shell,command=CMD, continue (default none)");
		} else {
			snprintf(option, sizeof(option), "%s", k->name);
			snprintf(text, sizeof(text), "do not measure %s%s", d->disable.help, also);
		}
		help_item(f, alias ? alias->short_opt : 0, option, text);
	}
}

static void usage(FILE *f, unsigned ncpus, uint32_t max_wakeup_cells)
{
	fprintf(f,
		"Usage: irqlatd [OPTIONS]\n"
		"Measures how long every hard-IRQ handler, softirq and vector interrupt (the CPU's own:\n"
		"local timer, IPIs) runs, how late hrtimers fire and how long their sleepers wait to\n"
		"run, with eBPF, and serves the summaries to irqlat(1) on a Unix socket. Needs root\n"
		"(CAP_BPF and CAP_PERFMON).\n\n");
	kind_usage(f);
	fprintf(f,
		"      --max-wakeup-cells N  wake-up cells of tasks of their own, one per task per\n"
		"                          CPU (default 512); past them a CPU's wake-ups share pid 0\n"
		"      --threaded-run SOURCE  threaded IRQs' run time: handler (fentry/fexit on the\n"
		"                          thread function), on-cpu (the thread's on-CPU time,\n"
		"                          sched_switch) or auto (default: handler where the kernel\n"
		"                          allows it)\n"
		"  -i, --interval-ms N     read the kernel's histograms every N ms (default 1000)\n"
		"  -s, -S, --socket PATH   client socket (default " DEFAULT_SOCKET "; -S as in irqlat)\n"
		"      --attach MODE       auto, tp_btf or raw_tp (default auto: tp_btf when BTF has it)\n"
		"      --max-cells N       histogram cells, one per series per CPU it fires on\n"
		"                          (default max(1024, 32 x CPUs) + 49 x CPUs +\n"
		"                          --max-wakeup-cells: %u on this machine)\n"
		"      --ringbuf-kb N      ring buffer size in KiB, a power of two (default 256)\n"
		"      --outlier-rate N    outlier log entries per series per second before they are\n"
		"                          held back (default 10; 0: no limit)\n"
		"      --outlier-cap N     outlier and storm entries a minute, all series together,\n"
		"                          then one entry saying what was held back (default 3;\n"
		"                          0: no cap)\n"
		"      --log-wakeups WHICH wake-up outliers of which tasks are logged: rt (SCHED_FIFO,\n"
		"                          SCHED_RR, SCHED_DEADLINE and --log-tasks; default), named\n"
		"                          (--log-tasks only) or all\n"
		"      --log-idle          log the outliers that delayed no task too: a timer late\n"
		"                          on an idle CPU that woke none, a vector that interrupted\n"
		"                          the idle task (default: counted, not logged)\n"
		"      --log-tasks LIST    tasks whose wake-up outliers are logged whatever their\n"
		"                          policy: pids, comm patterns and cgroup v2 paths\n"
		"                          (e.g. 'myapp,irq/*,1234,/system.slice/rt.service')\n"
		"      --exited-task-grace-s N  a task's wake-up series stays N s after it exited,\n"
		"                          then leaves the answers and /metrics (default 60)\n"
		"      --log-target T      auto, journal or stderr (default auto)\n"
		"      --tracepoint SYSTEM:EVENT\n"
		"                          consume this tracepoint (repeatable; default " DEFAULT_TRACEPOINT "):\n"
		"                          events, gaps and lateness; waits for its module to load\n"
		"      --no-tracepoints    consume no tracepoint\n"
		"      --tracepoint-period SYSTEM:EVENT=DURATION\n"
		"                          the event's nominal period (e.g. 1000ms), for lateness\n"
		"                          (default: the shortest of its first 16 intervals)\n"
		"      --tracepoint-counter SYSTEM:EVENT=ARG\n"
		"                          the argument that counts events, for gaps (default count)\n"
		"      --tracepoint-journal SYSTEM:EVENT=off|debug|info\n"
		"                          its events in the journal: none, or entries at that priority\n"
		"                          (default: --tracepoint-priority)\n"
		"      --tracepoint-module SYSTEM:EVENT=MODULE\n"
		"                          the module that defines it, named while it waits (default:\n"
		"                          learnt at its load; " DEFAULT_TRACEPOINT_MODULE " for " DEFAULT_TRACEPOINT ")\n"
		"      --tracepoint-rate N tracepoint event entries per tracepoint per second before\n"
		"                          they are counted instead (default 20; 0: no limit)\n"
		"      --event-history N   recent events kept for 'irqlat events' (default 4096;\n"
		"                          0: none)\n"
		"      --action-interval-ms N  each kind's on-threshold actions run at most once every\n"
		"                          N ms, each action on its own (default 1000)\n"
		"      --trace-buffer-kb N the trace action's tracefs buffer, KiB per CPU\n"
		"                          (default 1024)\n"
		"      --capture-budget-kb N  disk the captures may take, the oldest removed first\n"
		"                          (default 65536: 64 MiB)\n"
		"  -c, --config PATH       configuration file (default " DEFAULT_CONFIG ";\n"
		"                          its keys are these long options; the command line wins)\n"
		"      --summary-interval-s N  journal a summary of the worst handlers every N s\n"
		"                          (default 600; 0: off)\n"
		"      --tracepoint-priority LEVEL  journal priority of tracepoint events\n"
		"                          (default debug)\n"
		"      --bpf-stats         turn on the kernel's BPF run-time statistics while running,\n"
		"                          so irqlat can show the daemon's cost per IRQ\n"
		"      --metrics ADDR:PORT serve Prometheus metrics on http://ADDR:PORT/metrics\n"
		"                          (e.g. 127.0.0.1:9669 or [::1]:9669; default off)\n"
		"      --metrics-le-factor N  the text format's classic le bounds: every Nth bound of\n"
		"                          the histogram, 1 to 64 (default 8: powers of two in seconds)\n"
		"      --metrics-cpu-label a cpu label on every per-handler family: one series per\n"
		"                          CPU a handler (vector, softirq, task) ran on (default off)\n"
		"      --metrics-tls-cert FILE  serve /metrics over HTTPS with this PEM certificate\n"
		"      --metrics-tls-key FILE   and its key (not readable by every user)\n"
		"      --metrics-auth-file FILE  basic authentication: the file's line USER:PASSWORD\n"
		"                          (not readable by every user; default none)\n"
		"      --socket-mode MODE  permissions of the socket file (default 0660)\n"
		"      --socket-user USER  owner of the socket file (default: irqlatd's)\n"
		"      --socket-group GROUP  group of the socket file, whose members may connect\n"
		"                          (default " DEFAULT_SOCKET_GROUP " when it exists)\n"
		"      --max-clients N     clients connected at once (default 64)\n"
		"      --max-clients-per-uid N  of them, of one user but root (default 16)\n"
		"      --client-idle-timeout-s N  seconds a client has to send a request and read\n"
		"                          its answer before it is closed (default 30)\n"
		"      --max-subscribers N clients subscribed to events at once (default 16)\n"
		"      --client-queue-kb N events waiting for one subscriber before it loses some\n"
		"                          (default 1024)\n"
		"      --max-request-kb N  longest request line (default 64)\n"
		"      --max-http-connections N  --metrics connections at once (default 16)\n"
		"      --http-timeout-s N  seconds a --metrics client has to send its request\n"
		"                          (default 10)\n"
		"  -v, --verbose           also log debug messages\n"
		"  -h, --help              show this help\n"
		"  -V, --version           show the version\n\n"
		"Exit status: 0 stopped cleanly, 1 could not start or run (message says why),\n"
		"2 bad command line, 78 bad configuration file.\n"
		"SIGHUP re-reads the configuration; the histograms are kept. SIGUSR1 detaches the\n"
		"tracepoints. SIGTERM and SIGINT stop it. The other signals that would end or stop it\n"
		"are ignored, but for program errors and SIGQUIT (irqlatd(8), SIGNALS).\n",
		default_max_cells(ncpus, max_wakeup_cells));
}

enum { OPT_ATTACH = 256, OPT_MAX_CELLS, OPT_RINGBUF_KB, OPT_OUTLIER_RATE, OPT_LOG_TARGET,
       OPT_TRACEPOINT, OPT_NO_TRACEPOINTS, OPT_TP_PERIOD, OPT_TP_COUNTER,
       OPT_SUMMARY_INTERVAL, OPT_TRACEPOINT_PRIORITY, OPT_BPF_STATS, OPT_METRICS,
       OPT_SOCKET_MODE, OPT_SOCKET_USER, OPT_SOCKET_GROUP, OPT_MAX_CLIENTS, OPT_MAX_SUBSCRIBERS,
       OPT_CLIENT_QUEUE_KB, OPT_MAX_REQUEST_KB, OPT_MAX_HTTP_CONNECTIONS, OPT_HTTP_TIMEOUT,
       OPT_TP_JOURNAL, OPT_TP_MODULE, OPT_TRACEPOINT_RATE, OPT_EVENT_HISTORY, OPT_MAX_WAKEUP_CELLS,
       OPT_THREADED_RUN, OPT_METRICS_LE_FACTOR, OPT_OUTLIER_CAP, OPT_LOG_WAKEUPS, OPT_LOG_IDLE, OPT_LOG_TASKS,
       OPT_EXITED_TASK_GRACE, OPT_METRICS_CPU_LABEL, OPT_MAX_CLIENTS_PER_UID, OPT_CLIENT_IDLE_TIMEOUT,
       OPT_METRICS_TLS_CERT, OPT_METRICS_TLS_KEY, OPT_METRICS_AUTH_FILE, OPT_ACTION_INTERVAL,
       OPT_TRACE_BUFFER_KB, OPT_CAPTURE_BUDGET_KB,
       OPT_KIND_KEY /* the kinds' keys: OPT_KIND_KEY + i: last */ };

/* --tracepoint-period, -counter, -journal, -module: "SYSTEM:EVENT=VALUE", applied after all
 * --tracepoint options so their order does not matter. */
struct tp_setting {
	const char *key;
	const char *value;
};

static const struct option *option_of(const struct option *opts, int val)
{
	for (; opts->name; opts++)
		if (opts->val == val)
			return opts;
	return NULL;
}

/* The getopt tail irqlat shares (src/common/util.h), as a refusal of the command line */
static int getopt_fail(struct config_error *e, int o, char *const *argv, const char *shortopts)
{
	char why[sizeof(e->text)];

	return config_fail(e, getopt_reason(why, sizeof(why), "irqlatd", o, argv, shortopts), CONFIG_COMMAND_LINE,
			   "%s", why);
}

/* opts: the kinds' keys (kind_keys.h), then fixed[n]; shortopts: the kinds' short options
 * and the fixed ones */
static void options_table(struct option *opts, const struct option *fixed, size_t n, char *shortopts, size_t len)
{
	unsigned nk, j = 0;
	const struct kind_key *keys = kind_keys(&nk);
	size_t off = (size_t)snprintf(shortopts, len, ":");

	for (unsigned i = 0; i < nk; i++) {
		opts[j++] = (struct option){ keys[i].name, keys[i].what == KIND_KEY_DISABLE ? no_argument : required_argument,
					     NULL, keys[i].short_opt ? keys[i].short_opt : OPT_KIND_KEY + (int)i };
		if (keys[i].short_opt && off + 2 < len)
			off += (size_t)snprintf(shortopts + off, len - off, "%c%s", keys[i].short_opt,
						keys[i].what == KIND_KEY_THRESHOLD ? ":" : "");
	}
	memcpy(&opts[j], fixed, n * sizeof(*fixed));
	snprintf(shortopts + off, len - off, "i:s:S:c:vhV");
}

int daemon_options_parse(struct daemon_config *c, int argc, char **argv, FILE *out, struct config_error *e)
{
	/* the long names are the configuration keys; the kinds' come first (options_table) */
	static const struct option fixed[] = {
		{ "max-wakeup-cells", required_argument, NULL, OPT_MAX_WAKEUP_CELLS },
		{ "threaded-run", required_argument, NULL, OPT_THREADED_RUN },
		{ "interval-ms", required_argument, NULL, 'i' },
		{ "socket", required_argument, NULL, 's' },
		{ "attach", required_argument, NULL, OPT_ATTACH },
		{ "max-cells", required_argument, NULL, OPT_MAX_CELLS },
		{ "ringbuf-kb", required_argument, NULL, OPT_RINGBUF_KB },
		{ "outlier-rate", required_argument, NULL, OPT_OUTLIER_RATE },
		{ "outlier-cap", required_argument, NULL, OPT_OUTLIER_CAP },
		{ "log-wakeups", required_argument, NULL, OPT_LOG_WAKEUPS },
		{ "log-idle", no_argument, NULL, OPT_LOG_IDLE },
		{ "log-tasks", required_argument, NULL, OPT_LOG_TASKS },
		{ "exited-task-grace-s", required_argument, NULL, OPT_EXITED_TASK_GRACE },
		{ "log-target", required_argument, NULL, OPT_LOG_TARGET },
		{ "tracepoint", required_argument, NULL, OPT_TRACEPOINT },
		{ "no-tracepoints", no_argument, NULL, OPT_NO_TRACEPOINTS },
		{ "tracepoint-period", required_argument, NULL, OPT_TP_PERIOD },
		{ "tracepoint-counter", required_argument, NULL, OPT_TP_COUNTER },
		{ "tracepoint-journal", required_argument, NULL, OPT_TP_JOURNAL },
		{ "tracepoint-module", required_argument, NULL, OPT_TP_MODULE },
		{ "tracepoint-rate", required_argument, NULL, OPT_TRACEPOINT_RATE },
		{ "event-history", required_argument, NULL, OPT_EVENT_HISTORY },
		{ "action-interval-ms", required_argument, NULL, OPT_ACTION_INTERVAL },
		{ "trace-buffer-kb", required_argument, NULL, OPT_TRACE_BUFFER_KB },
		{ "capture-budget-kb", required_argument, NULL, OPT_CAPTURE_BUDGET_KB },
		{ "config", required_argument, NULL, 'c' },
		{ "summary-interval-s", required_argument, NULL, OPT_SUMMARY_INTERVAL },
		{ "tracepoint-priority", required_argument, NULL, OPT_TRACEPOINT_PRIORITY },
		{ "bpf-stats", no_argument, NULL, OPT_BPF_STATS },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "metrics-le-factor", required_argument, NULL, OPT_METRICS_LE_FACTOR },
		{ "metrics-cpu-label", no_argument, NULL, OPT_METRICS_CPU_LABEL },
		{ "metrics-tls-cert", required_argument, NULL, OPT_METRICS_TLS_CERT },
		{ "metrics-tls-key", required_argument, NULL, OPT_METRICS_TLS_KEY },
		{ "metrics-auth-file", required_argument, NULL, OPT_METRICS_AUTH_FILE },
		{ "socket-mode", required_argument, NULL, OPT_SOCKET_MODE },
		{ "socket-user", required_argument, NULL, OPT_SOCKET_USER },
		{ "socket-group", required_argument, NULL, OPT_SOCKET_GROUP },
		{ "max-clients", required_argument, NULL, OPT_MAX_CLIENTS },
		{ "max-clients-per-uid", required_argument, NULL, OPT_MAX_CLIENTS_PER_UID },
		{ "client-idle-timeout-s", required_argument, NULL, OPT_CLIENT_IDLE_TIMEOUT },
		{ "max-subscribers", required_argument, NULL, OPT_MAX_SUBSCRIBERS },
		{ "client-queue-kb", required_argument, NULL, OPT_CLIENT_QUEUE_KB },
		{ "max-request-kb", required_argument, NULL, OPT_MAX_REQUEST_KB },
		{ "max-http-connections", required_argument, NULL, OPT_MAX_HTTP_CONNECTIONS },
		{ "http-timeout-s", required_argument, NULL, OPT_HTTP_TIMEOUT },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	static struct option opts[KIND_KEYS_MAX + ELEMENTSOF(fixed)];
	static char shortopts[32];
	static const struct config_origin cmdline = { 0 };
	struct tp_setting settings[4 * MAX_TRACEPOINTS];
	unsigned nsettings = 0;
	bool tp_given = false, no_tp = false;
	const char *tp_named = NULL;
	int o, r, index = -1;

	options_table(opts, fixed, ELEMENTSOF(fixed), shortopts, sizeof(shortopts));
	optind = 0;	/* reset, so tests can parse more than once */
	opterr = 0;
	while ((o = getopt_long(argc, argv, shortopts, opts, &index)) != -1) {
		if (o == 'S')	/* irqlat's letter for the socket (its -s is --sort) */
			o = 's';
		/* the key as it was written: a long option by its own name, a short one by the
		 * first long option it stands for (-t: threshold-us) */
		const struct option *opt = index >= 0 ? &opts[index] : option_of(opts, o);

		index = -1;

		switch (o) {
		case 'h':
			if (out)
				usage(out, possible_cpus(), c->max_wakeup_cells);
			return 1;
		case 'V':
			if (out)
				fprintf(out, "irqlatd %s\n", IRQLAT_VERSION);
			return 1;
		case ':':
		case '?':
			return getopt_fail(e, o, argv, shortopts);
		case OPT_TRACEPOINT:
			if (!tp_given) {	/* the first one replaces the built-in default (or the file's) */
				c->ntracepoints = 0;
				tp_given = true;
			}
			r = config_tracepoint_add(c, optarg, strlen(optarg), &cmdline, e);
			if (r < 0)
				return r;
			tp_named = optarg;
			break;
		case OPT_TP_PERIOD:
		case OPT_TP_COUNTER:
		case OPT_TP_JOURNAL:
		case OPT_TP_MODULE:
			if (nsettings == ELEMENTSOF(settings))
				return config_fail(e, -E2BIG, CONFIG_COMMAND_LINE,
						   "too many --tracepoint-period/-counter/-journal/-module options");
			settings[nsettings++] = (struct tp_setting){ opt->name, optarg };
			break;
		default:
			if (o == OPT_NO_TRACEPOINTS)
				tp_given = no_tp = true;
			/* a flag is the key set to yes */
			r = config_set(c, opt->name, opt->has_arg ? optarg : "yes", &cmdline, e);
			if (r < 0)
				return r;
		}
	}
	if (optind < argc)
		return getopt_fail(e, 0, argv, shortopts);
	/* one of them was not meant: which one is the user's to say */
	if (no_tp && tp_named)
		return config_fail(e, -EINVAL, CONFIG_COMMAND_LINE,
				   "--no-tracepoints and --tracepoint %s contradict each other: give one of them", tp_named);
	for (unsigned i = 0; i < nsettings; i++) {
		r = config_set(c, settings[i].key, settings[i].value, &cmdline, e);
		if (r < 0)
			return r;
	}
	return 0;
}
