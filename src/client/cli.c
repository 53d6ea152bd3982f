// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "common/util.h"
#include "table.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: irqlat [--top] [OPTIONS]          IRQ handler latency, like top (full screen on a\n"
		"                                         terminal; text with -b, -J or without a terminal)\n"
		"       irqlat hist [IRQ|NAME] [OPTIONS]  latency histogram of one handler, or of all\n"
		"       irqlat status [OPTIONS]           the daemon's state, cost and configuration\n"
		"       irqlat events [--follow] [OPTIONS] outliers and tracepoint events as they come\n"
		"       irqlat detach SYSTEM:EVENT|all    stop consuming a tracepoint, so its module can\n"
		"                                         be unloaded (root); re-attached on reload\n"
		"       irqlat attach SYSTEM:EVENT|all    consume a detached tracepoint again (root)\n\n"
		"  -b, --batch            text snapshots one after another instead of the screen (top -b)\n"
		"  -n, --iterations N     stop after N snapshots, screen refreshes, or events (hist and\n"
		"                         status: repeat N times; default: top until interrupted, else once)\n"
		"  -d, --delay SECS       seconds between snapshots and screen refreshes (default 1)\n"
		"  -J, --json             JSON, one object per line, as the daemon sends it\n"
		"  -w, --window W         1s, 10s, 60s or total: the window of rates and percentiles\n"
		"                         (default 10s)\n"
		"  -s, --sort KEY         p99, max, rate, count, time, irq or name (default p99)\n"
		"  -R, --reverse          reverse the sort\n"
		"  -o, --output COLS      columns, comma-separated, from: %s\n"
		"                         (text and screen; JSON has every field)\n"
		"  -f, --follow           events: keep printing as events arrive\n"
		"  -S, --socket PATH      the daemon's socket (default " DEFAULT_SOCKET ")\n"
		"  -h, --help             show this help\n"
		"  -V, --version          show the version\n\n"
		"Keys on the screen: p m r n t i a sort by p99, max, rate, count, time, irq, name;\n"
		"R reverse; w window; c per-CPU; up/down select; Enter histogram; / filter; ? help; q quit.\n"
		"NO_COLOR set: no colours.\n\n"
		"Exit status: 0 success, 1 daemon not reachable or refused the request, 2 bad command line.\n",
		table_all_columns());
}

int cli_parse(struct cli *c, int argc, char **argv, FILE *out, FILE *err)
{
	static const struct option opts[] = {
		{ "top", no_argument, NULL, 't' },
		{ "batch", no_argument, NULL, 'b' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "delay", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'J' },
		{ "window", required_argument, NULL, 'w' },
		{ "sort", required_argument, NULL, 's' },
		{ "reverse", no_argument, NULL, 'R' },
		{ "output", required_argument, NULL, 'o' },
		{ "follow", no_argument, NULL, 'f' },
		{ "socket", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	static const char shortopts[] = ":tbn:d:Jw:s:Ro:fS:hV";
	char bad[4];
	uint64_t v;
	char *end;
	int o;

	memset(c, 0, sizeof(*c));
	c->cmd = CMD_TOP;
	c->delay_s = 1;
	c->socket_path = DEFAULT_SOCKET;
	c->window = "10s";
	c->sort = "p99";
	optind = 0;
	opterr = 0;
	while ((o = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (o) {
		case 't':
			c->cmd = CMD_TOP;
			break;
		case 'b':
			c->batch = 1;
			break;
		case 'n':
			if (parse_u64(optarg, 1, 1000000000, &v) < 0) {
				fprintf(err, "irqlat: --iterations takes a whole number of at least 1, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c->iterations = (long)v;
			break;
		case 'd':
			c->delay_s = strtod(optarg, &end);
			if (*end || end == optarg || !(c->delay_s >= 0.05 && c->delay_s <= 3600)) {
				fprintf(err, "irqlat: --delay takes seconds from 0.05 to 3600, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'J':
			c->json = 1;
			break;
		case 'w':
			if (strcmp(optarg, "1s") && strcmp(optarg, "10s") && strcmp(optarg, "60s") && strcmp(optarg, "total")) {
				fprintf(err, "irqlat: --window takes 1s, 10s, 60s or total, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c->window = optarg;
			break;
		case 's':
			if (table_sort_key(optarg) < 0) {
				fprintf(err, "irqlat: --sort takes p99, max, rate, count, time, irq or name, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c->sort = optarg;
			break;
		case 'R':
			c->reverse = 1;
			break;
		case 'o':
			if (table_columns_check(optarg, err) < 0)
				return EXIT_USAGE;
			c->columns = optarg;
			break;
		case 'f':
			c->follow = 1;
			break;
		case 'S':
			c->socket_path = optarg;
			break;
		case 'h':
			usage(out);
			return -1;
		case 'V':
			fprintf(out, "irqlat %s\n", IRQLAT_VERSION);
			return -1;
		case ':':
			fprintf(err, "irqlat: option %s needs a value; see irqlat --help\n",
				getopt_bad_option(o, argv, shortopts, bad, sizeof(bad)));
			return EXIT_USAGE;
		default:
			fprintf(err, "irqlat: unknown option '%s'; see irqlat --help\n",
				getopt_bad_option(o, argv, shortopts, bad, sizeof(bad)));
			return EXIT_USAGE;
		}
	}
	/* GNU getopt moves the operands last, so options may come before or after them */
	if (optind < argc) {
		const char *sub = argv[optind++];

		if (!strcmp(sub, "top"))
			c->cmd = CMD_TOP;
		else if (!strcmp(sub, "hist"))
			c->cmd = CMD_HIST;
		else if (!strcmp(sub, "status"))
			c->cmd = CMD_STATUS;
		else if (!strcmp(sub, "events"))
			c->cmd = CMD_EVENTS;
		else if (!strcmp(sub, "detach"))
			c->cmd = CMD_DETACH;
		else if (!strcmp(sub, "attach"))
			c->cmd = CMD_ATTACH;
		else {
			fprintf(err, "irqlat: unknown command '%s': use top, hist, status, events, detach or attach\n", sub);
			return EXIT_USAGE;
		}
		if ((c->cmd == CMD_HIST || c->cmd == CMD_DETACH || c->cmd == CMD_ATTACH) && optind < argc)
			c->target = argv[optind++];
		if ((c->cmd == CMD_DETACH || c->cmd == CMD_ATTACH) && !c->target) {
			fprintf(err, "irqlat: %s needs a tracepoint: SYSTEM:EVENT (e.g. silly:me_silly) or all\n", sub);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(err, "irqlat: unexpected argument '%s'; see irqlat --help\n", argv[optind]);
		return EXIT_USAGE;
	}
	return 0;
}
