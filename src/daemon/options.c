// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <string.h>
#include "options.h"
#include "common/macro.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: irqlatd [OPTIONS]\n"
		"Measures how long every hard-IRQ handler, softirq and vector interrupt (the CPU's own:\n"
		"local timer, IPIs) runs, how late hrtimers fire and how long their sleepers wait to\n"
		"run, with eBPF, and serves the summaries to irqlat(1) on a Unix socket. Needs root\n"
		"(CAP_BPF and CAP_PERFMON).\n\n"
		"  -t, --threshold-us N    log handler runs of N us or more as outliers (default 100; 0: off)\n"
		"      --softirq-threshold-us N  the same for softirq runs (default 500)\n"
		"      --softirq-raise-threshold-us N  and for softirq raise-to-run latency\n"
		"                          (default 2000)\n"
		"      --vector-threshold-us N  and for vector interrupt runs (default 100)\n"
		"      --no-softirqs       do not measure softirqs\n"
		"      --no-vectors        do not measure vector interrupts (irq_vectors:*, x86)\n"
		"      --timer-threshold-us N  and for hrtimer lateness (default 500)\n"
		"      --wakeup-threshold-us N  and for wake-up latency after hrtimer_wakeup\n"
		"                          (default 1000)\n"
		"      --no-timers         do not measure hrtimer lateness (nor wake-ups)\n"
		"      --no-wakeups        do not measure wake-up latency (sched_switch)\n"
		"      --max-wakeup-cells N  wake-up cells of tasks of their own, one per task per\n"
		"                          CPU (default 512); past them a CPU's wake-ups share pid 0\n"
		"      --threaded-threshold-us N  outliers of threaded IRQs' wake-to-run latency\n"
		"                          (default 500)\n"
		"      --threaded-run-threshold-us N  and of their thread handlers' run time\n"
		"                          (default 1000)\n"
		"      --no-threaded       do not measure threaded IRQs (nor their sched_switch program)\n"
		"      --threaded-run SOURCE  their run time: handler (fentry/fexit on the thread\n"
		"                          function), on-cpu (the thread's on-CPU time, sched_switch)\n"
		"                          or auto (default: handler where the kernel allows it)\n"
		"  -i, --interval-ms N     read the kernel's histograms every N ms (default 1000)\n"
		"  -s, --socket PATH       client socket (default " DEFAULT_SOCKET ")\n"
		"      --attach MODE       auto, tp_btf or raw_tp (default auto: tp_btf when BTF has it)\n"
		"      --max-cells N       histogram cells, one per handler per CPU it fires on\n"
		"                          (default max(1024, 32 x CPUs))\n"
		"      --ringbuf-kb N      ring buffer size in KiB, a power of two (default 256)\n"
		"      --outlier-rate N    outlier log entries per IRQ per second before they are\n"
		"                          summarized (default 10; 0: no limit)\n"
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
		"      --socket-mode MODE  permissions of the socket file (default 0660)\n"
		"      --socket-user USER  owner of the socket file (default: irqlatd's)\n"
		"      --socket-group GROUP  group of the socket file, whose members may connect\n"
		"                          (default " DEFAULT_SOCKET_GROUP " when it exists)\n"
		"      --max-clients N     clients connected at once (default 64)\n"
		"      --max-subscribers N clients subscribed to events at once (default 16)\n"
		"      --client-queue-kb N answers waiting for one client before it is dropped\n"
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
		"tracepoints. SIGTERM and SIGINT stop it.\n");
}

enum { OPT_ATTACH = 256, OPT_MAX_CELLS, OPT_RINGBUF_KB, OPT_OUTLIER_RATE, OPT_LOG_TARGET,
       OPT_TRACEPOINT, OPT_NO_TRACEPOINTS, OPT_TP_PERIOD, OPT_TP_COUNTER,
       OPT_SUMMARY_INTERVAL, OPT_TRACEPOINT_PRIORITY, OPT_BPF_STATS, OPT_METRICS,
       OPT_SOCKET_MODE, OPT_SOCKET_USER, OPT_SOCKET_GROUP, OPT_MAX_CLIENTS, OPT_MAX_SUBSCRIBERS,
       OPT_CLIENT_QUEUE_KB, OPT_MAX_REQUEST_KB, OPT_MAX_HTTP_CONNECTIONS, OPT_HTTP_TIMEOUT,
       OPT_SOFTIRQ_THRESHOLD, OPT_SOFTIRQ_RAISE_THRESHOLD, OPT_VECTOR_THRESHOLD, OPT_NO_SOFTIRQS,
       OPT_NO_VECTORS, OPT_TP_JOURNAL, OPT_TP_MODULE, OPT_TRACEPOINT_RATE, OPT_EVENT_HISTORY,
       OPT_TIMER_THRESHOLD, OPT_WAKEUP_THRESHOLD, OPT_NO_TIMERS, OPT_NO_WAKEUPS, OPT_MAX_WAKEUP_CELLS,
       OPT_THREADED_THRESHOLD, OPT_THREADED_RUN_THRESHOLD, OPT_NO_THREADED, OPT_THREADED_RUN, OPT_METRICS_LE_FACTOR };

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

int daemon_options_parse(struct daemon_config *c, int argc, char **argv, FILE *out, struct config_error *e)
{
	/* the long names are the configuration keys */
	static const struct option opts[] = {
		{ "threshold-us", required_argument, NULL, 't' },
		{ "softirq-threshold-us", required_argument, NULL, OPT_SOFTIRQ_THRESHOLD },
		{ "softirq-raise-threshold-us", required_argument, NULL, OPT_SOFTIRQ_RAISE_THRESHOLD },
		{ "vector-threshold-us", required_argument, NULL, OPT_VECTOR_THRESHOLD },
		{ "no-softirqs", no_argument, NULL, OPT_NO_SOFTIRQS },
		{ "no-vectors", no_argument, NULL, OPT_NO_VECTORS },
		{ "timer-threshold-us", required_argument, NULL, OPT_TIMER_THRESHOLD },
		{ "wakeup-threshold-us", required_argument, NULL, OPT_WAKEUP_THRESHOLD },
		{ "no-timers", no_argument, NULL, OPT_NO_TIMERS },
		{ "no-wakeups", no_argument, NULL, OPT_NO_WAKEUPS },
		{ "max-wakeup-cells", required_argument, NULL, OPT_MAX_WAKEUP_CELLS },
		{ "threaded-threshold-us", required_argument, NULL, OPT_THREADED_THRESHOLD },
		{ "threaded-run-threshold-us", required_argument, NULL, OPT_THREADED_RUN_THRESHOLD },
		{ "no-threaded", no_argument, NULL, OPT_NO_THREADED },
		{ "threaded-run", required_argument, NULL, OPT_THREADED_RUN },
		{ "interval-ms", required_argument, NULL, 'i' },
		{ "socket", required_argument, NULL, 's' },
		{ "attach", required_argument, NULL, OPT_ATTACH },
		{ "max-cells", required_argument, NULL, OPT_MAX_CELLS },
		{ "ringbuf-kb", required_argument, NULL, OPT_RINGBUF_KB },
		{ "outlier-rate", required_argument, NULL, OPT_OUTLIER_RATE },
		{ "log-target", required_argument, NULL, OPT_LOG_TARGET },
		{ "tracepoint", required_argument, NULL, OPT_TRACEPOINT },
		{ "no-tracepoints", no_argument, NULL, OPT_NO_TRACEPOINTS },
		{ "tracepoint-period", required_argument, NULL, OPT_TP_PERIOD },
		{ "tracepoint-counter", required_argument, NULL, OPT_TP_COUNTER },
		{ "tracepoint-journal", required_argument, NULL, OPT_TP_JOURNAL },
		{ "tracepoint-module", required_argument, NULL, OPT_TP_MODULE },
		{ "tracepoint-rate", required_argument, NULL, OPT_TRACEPOINT_RATE },
		{ "event-history", required_argument, NULL, OPT_EVENT_HISTORY },
		{ "config", required_argument, NULL, 'c' },
		{ "summary-interval-s", required_argument, NULL, OPT_SUMMARY_INTERVAL },
		{ "tracepoint-priority", required_argument, NULL, OPT_TRACEPOINT_PRIORITY },
		{ "bpf-stats", no_argument, NULL, OPT_BPF_STATS },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "metrics-le-factor", required_argument, NULL, OPT_METRICS_LE_FACTOR },
		{ "socket-mode", required_argument, NULL, OPT_SOCKET_MODE },
		{ "socket-user", required_argument, NULL, OPT_SOCKET_USER },
		{ "socket-group", required_argument, NULL, OPT_SOCKET_GROUP },
		{ "max-clients", required_argument, NULL, OPT_MAX_CLIENTS },
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
	static const char shortopts[] = ":t:i:s:c:vhV";
	static const struct config_origin cmdline = { 0 };
	struct tp_setting settings[4 * MAX_TRACEPOINTS];
	unsigned nsettings = 0;
	bool tp_given = false;
	int o, r;

	optind = 0;	/* reset, so tests can parse more than once */
	opterr = 0;
	while ((o = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		const struct option *opt = option_of(opts, o);

		switch (o) {
		case 'h':
			if (out)
				usage(out);
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
				tp_given = true;
			/* a flag is the key set to yes */
			r = config_set(c, opt->name, opt->has_arg ? optarg : "yes", &cmdline, e);
			if (r < 0)
				return r;
		}
	}
	if (optind < argc)
		return getopt_fail(e, 0, argv, shortopts);
	for (unsigned i = 0; i < nsettings; i++) {
		r = config_set(c, settings[i].key, settings[i].value, &cmdline, e);
		if (r < 0)
			return r;
	}
	return 0;
}
