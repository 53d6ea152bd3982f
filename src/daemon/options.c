// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "options.h"

void daemon_config_defaults(struct daemon_config *c)
{
	memset(c, 0, sizeof(*c));
	c->threshold_ns = 100000;
	c->interval_ms = 1000;
	snprintf(c->socket_path, sizeof(c->socket_path), "%s", DEFAULT_SOCKET);
	c->attach = ATTACH_AUTO;
	c->ringbuf_kb = 256;
	c->outlier_rate = 10;
	c->log_target = LOG_TARGET_AUTO;
	snprintf(c->tracepoints[0].name, TP_NAME_MAX, "%s", DEFAULT_TRACEPOINT);
	c->ntracepoints = 1;
	snprintf(c->config_path, sizeof(c->config_path), "%s", DEFAULT_CONFIG);
	c->summary_interval_s = 600;
	c->tracepoint_priority = LOG_DEBUG;
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
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			if (v == 0 || v > UINT64_MAX / units[i].mult || v * units[i].mult > 3600000000000ull)
				return -EINVAL;
			*ns = v * units[i].mult;
			return 0;
		}
	return -EINVAL;
}

/* --tracepoint-period / --tracepoint-counter: "SYSTEM:EVENT=VALUE", applied after all
 * --tracepoint options so their order does not matter. */
struct tp_setting {
	const char *opt;	/* the key, without dashes */
	const char *arg;
};

uint32_t default_max_cells(unsigned ncpus)
{
	/* most handlers fire on one CPU; 32 per CPU covers a busy server, 1024 a small one */
	return ncpus * 32 > 1024 ? ncpus * 32 : 1024;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: irqlatd [OPTIONS]\n"
		"Measures how long every hard-IRQ handler runs, with eBPF, and serves the summaries\n"
		"to irqlat(1) on a Unix socket. Needs root (CAP_BPF and CAP_PERFMON).\n\n"
		"  -t, --threshold-us N    log handler runs of N us or more as outliers (default 100; 0: off)\n"
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
		"  -v, --verbose           also log debug messages\n"
		"  -h, --help              show this help\n"
		"  -V, --version           show the version\n\n"
		"Exit status: 0 stopped cleanly, 1 could not start or run (message says why),\n"
		"2 bad command line, 78 bad configuration file.\n"
		"SIGHUP re-reads the configuration; the histograms are kept.\n");
}

enum { OPT_ATTACH = 256, OPT_MAX_CELLS, OPT_RINGBUF_KB, OPT_OUTLIER_RATE, OPT_LOG_TARGET,
       OPT_TRACEPOINT, OPT_NO_TRACEPOINTS, OPT_TP_PERIOD, OPT_TP_COUNTER,
       OPT_SUMMARY_INTERVAL, OPT_TRACEPOINT_PRIORITY, OPT_BPF_STATS, OPT_METRICS };

static const char *long_name(const struct option *opts, int val)
{
	for (; opts->name; opts++)
		if (opts->val == val)
			return opts->name;
	return "?";
}

int daemon_options_parse(struct daemon_config *c, int argc, char **argv, FILE *out, FILE *err)
{
	static const struct option opts[] = {
		{ "threshold-us", required_argument, NULL, 't' },
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
		{ "config", required_argument, NULL, 'c' },
		{ "summary-interval-s", required_argument, NULL, OPT_SUMMARY_INTERVAL },
		{ "tracepoint-priority", required_argument, NULL, OPT_TRACEPOINT_PRIORITY },
		{ "bpf-stats", no_argument, NULL, OPT_BPF_STATS },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	static const char shortopts[] = ":t:i:s:c:vhV";
	struct tp_setting settings[2 * MAX_TRACEPOINTS];
	unsigned nsettings = 0;
	int tp_given = 0;
	char why[256];
	int o;

	optind = 0;	/* reset, so tests can parse more than once */
	opterr = 0;
	while ((o = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (o) {
		case 't':
		case 'i':
		case 's':
		case OPT_ATTACH:
		case OPT_MAX_CELLS:
		case OPT_RINGBUF_KB:
		case OPT_OUTLIER_RATE:
		case OPT_LOG_TARGET:
		case OPT_SUMMARY_INTERVAL:
		case OPT_TRACEPOINT_PRIORITY:
		case OPT_METRICS: {
			/* one meaning per key: the configuration file's keys are these options */
			const char *key = long_name(opts, o);

			if (config_set(c, key, optarg, why, sizeof(why)) < 0) {
				fprintf(err, "irqlatd: --%s %s\n", key, why);
				return EXIT_USAGE;
			}
			break;
		}
		case OPT_TRACEPOINT:
			if (!tp_given) {	/* the first one replaces the built-in default */
				c->ntracepoints = 0;
				tp_given = 1;
			}
			if (!*optarg || strlen(optarg) >= TP_NAME_MAX) {
				fprintf(err, "irqlatd: --tracepoint takes SYSTEM:EVENT of 1 to %d bytes\n", TP_NAME_MAX - 1);
				return EXIT_USAGE;
			}
			if (tracepoint_add(c, optarg, strlen(optarg), why, sizeof(why)) < 0) {
				fprintf(err, "irqlatd: --tracepoint %s\n", why);
				return EXIT_USAGE;
			}
			break;
		case OPT_NO_TRACEPOINTS:
			c->ntracepoints = 0;
			tp_given = 1;
			break;
		case OPT_TP_PERIOD:
		case OPT_TP_COUNTER:
			if (nsettings == sizeof(settings) / sizeof(settings[0])) {
				fprintf(err, "irqlatd: too many --tracepoint-period/--tracepoint-counter options\n");
				return EXIT_USAGE;
			}
			settings[nsettings++] = (struct tp_setting){
				o == OPT_TP_PERIOD ? "tracepoint-period" : "tracepoint-counter", optarg };
			break;
		case OPT_BPF_STATS:
			c->bpf_stats = 1;
			break;
		case 'c':
			if (!*optarg || strlen(optarg) >= sizeof(c->config_path)) {
				fprintf(err, "irqlatd: --config takes a file path\n");
				return EXIT_USAGE;
			}
			snprintf(c->config_path, sizeof(c->config_path), "%s", optarg);
			c->config_explicit = 1;
			break;
		case 'v':
			c->verbose = 1;
			break;
		case 'h':
			usage(out);
			return -1;
		case 'V':
			fprintf(out, "irqlatd %s\n", IRQLAT_VERSION);
			return -1;
		default:	/* '?' or ':' */
			getopt_error("irqlatd", o, argv, shortopts, err);
			return EXIT_USAGE;
		}
	}
	if (getopt_no_operands("irqlatd", argc, argv, err) < 0)
		return EXIT_USAGE;
	for (unsigned i = 0; i < nsettings; i++)
		if (config_set(c, settings[i].opt, settings[i].arg, why, sizeof(why)) < 0) {
			fprintf(err, "irqlatd: --%s %s\n", settings[i].opt, why);
			return EXIT_USAGE;
		}
	return 0;
}
