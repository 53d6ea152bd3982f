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
	snprintf(c->config_path, sizeof(c->config_path), "%s", DEFAULT_CONFIG);
	c->summary_interval_s = 600;
	c->tracepoint_priority = LOG_DEBUG;
}

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
		"  -c, --config PATH       configuration file (default " DEFAULT_CONFIG ";\n"
		"                          its keys are these long options; the command line wins)\n"
		"      --summary-interval-s N  journal a summary of the worst handlers every N s\n"
		"                          (default 600; 0: off)\n"
		"      --tracepoint-priority LEVEL  journal priority of tracepoint events\n"
		"                          (default debug)\n"
		"  -v, --verbose           also log debug messages\n"
		"  -h, --help              show this help\n"
		"  -V, --version           show the version\n\n"
		"Exit status: 0 stopped cleanly, 1 could not start or run (message says why),\n"
		"2 bad command line, 78 bad configuration file.\n"
		"SIGHUP re-reads the configuration; the histograms are kept.\n");
}

enum { OPT_ATTACH = 256, OPT_MAX_CELLS, OPT_RINGBUF_KB, OPT_OUTLIER_RATE, OPT_LOG_TARGET,
       OPT_SUMMARY_INTERVAL, OPT_TRACEPOINT_PRIORITY };

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
		{ "config", required_argument, NULL, 'c' },
		{ "summary-interval-s", required_argument, NULL, OPT_SUMMARY_INTERVAL },
		{ "tracepoint-priority", required_argument, NULL, OPT_TRACEPOINT_PRIORITY },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	char why[256];
	uint64_t v;
	int o;

	optind = 0;	/* reset, so tests can parse more than once */
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":t:i:s:c:vhV", opts, NULL)) != -1) {
		switch (o) {
		case 't':
			if (parse_u64(optarg, 0, 60000000, &v) < 0) {
				fprintf(err, "irqlatd: --threshold-us takes a whole number of microseconds from 0 to 60000000, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c->threshold_ns = v * 1000;
			break;
		case 'i':
			if (parse_u64(optarg, 10, 60000, &v) < 0) {
				fprintf(err, "irqlatd: --interval-ms takes a whole number from 10 to 60000, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c->interval_ms = (uint32_t)v;
			break;
		case 's':
			if (!*optarg || strlen(optarg) >= sizeof(c->socket_path)) {
				fprintf(err, "irqlatd: --socket takes a path of 1 to %zu bytes\n", sizeof(c->socket_path) - 1);
				return EXIT_USAGE;
			}
			snprintf(c->socket_path, sizeof(c->socket_path), "%s", optarg);
			break;
		case OPT_ATTACH:
			if (attach_mode_parse(optarg, &c->attach) < 0) {
				fprintf(err, "irqlatd: --attach takes auto, tp_btf or raw_tp, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_MAX_CELLS:
			if (parse_u64(optarg, 1, 1u << 20, &v) < 0) {
				fprintf(err, "irqlatd: --max-cells takes a whole number from 1 to 1048576, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c->max_cells = (uint32_t)v;
			break;
		case OPT_RINGBUF_KB:
			if (parse_u64(optarg, 4, 1u << 20, &v) < 0 || (v & (v - 1))) {
				fprintf(err, "irqlatd: --ringbuf-kb takes a power of two from 4 to 1048576, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c->ringbuf_kb = (uint32_t)v;
			break;
		case OPT_OUTLIER_RATE:
			if (parse_u64(optarg, 0, 1000000, &v) < 0) {
				fprintf(err, "irqlatd: --outlier-rate takes a whole number from 0 to 1000000, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c->outlier_rate = (uint32_t)v;
			break;
		case OPT_LOG_TARGET:
			if (log_target_parse(optarg, &c->log_target) < 0) {
				fprintf(err, "irqlatd: --log-target takes auto, journal or stderr, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'c':
			if (!*optarg || strlen(optarg) >= sizeof(c->config_path)) {
				fprintf(err, "irqlatd: --config takes a file path\n");
				return EXIT_USAGE;
			}
			snprintf(c->config_path, sizeof(c->config_path), "%s", optarg);
			c->config_explicit = 1;
			break;
		case OPT_SUMMARY_INTERVAL:
		case OPT_TRACEPOINT_PRIORITY: {
			const char *key = o == OPT_SUMMARY_INTERVAL ? "summary-interval-s" : "tracepoint-priority";

			if (config_set(c, key, optarg, why, sizeof(why)) < 0) {
				fprintf(err, "irqlatd: --%s %s\n", key, why);
				return EXIT_USAGE;
			}
			break;
		}
		case 'v':
			c->verbose = 1;
			break;
		case 'h':
			usage(out);
			return -1;
		case 'V':
			fprintf(out, "irqlatd %s\n", IRQLAT_VERSION);
			return -1;
		case ':':
			fprintf(err, "irqlatd: option %s needs a value; see irqlatd --help\n", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			fprintf(err, "irqlatd: unknown option '%s'; see irqlatd --help\n", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(err, "irqlatd: unexpected argument '%s'; see irqlatd --help\n", argv[optind]);
		return EXIT_USAGE;
	}
	return 0;
}
