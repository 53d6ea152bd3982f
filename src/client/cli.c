// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "common/cpulist.h"
#include "common/macro.h"
#include "common/util.h"
#include "common/window.h"
#include "table.h"

static const char *const commands[] = {
	[CMD_TOP] = "top", [CMD_HIST] = "hist", [CMD_STATUS] = "status",
	[CMD_EVENTS] = "events", [CMD_DETACH] = "detach", [CMD_ATTACH] = "attach",
};

static int command_of(const char *s)
{
	for (int i = 0; i < (int)ELEMENTSOF(commands); i++)
		if (!strcmp(s, commands[i]))
			return i;
	return -EINVAL;
}

static void usage(FILE *f)
{
	char columns[256], sorts[128], sort_list[128], keys[64];

	table_column_names(columns, sizeof(columns));
	table_sort_names(sorts, sizeof(sorts), " or ");
	table_sort_names(sort_list, sizeof(sort_list), ", ");
	table_sort_keys(keys, sizeof(keys));
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
		"  -w, --window W         " WINDOW_CHOICES ": the window of rates and percentiles\n"
		"                         (default 10s)\n"
		"  -s, --sort KEY         %s (default " SORT_DEFAULT ": share of\n"
		"                         time in the handler, what costs the CPU most first)\n"
		"  -R, --reverse          reverse the sort\n"
		"  -o, --output COLS      columns, comma-separated, from: %s\n"
		"                         (text and screen; JSON has every field)\n"
		"  -C, --cpus LIST        only handlers that ran on these CPUs (0-3,8), each with a\n"
		"                         line per CPU of LIST; JSON: only those handlers\n"
		"  -f, --follow           events: keep printing as events arrive\n"
		"  -S, --socket PATH      the daemon's socket (default " DEFAULT_SOCKET ")\n"
		"  -h, --help             show this help\n"
		"  -V, --version          show the version\n\n"
		"Keys on the screen: %s sort by %s;\n"
		"R reverse; w window; c per-CPU; C CPUs; up/down select; Enter histogram; / filter; ? help;\n"
		"q quit.\n"
		"NO_COLOR set: no colours.\n\n"
		"Exit status: 0 success, 1 daemon not reachable or refused the request, 2 bad command line.\n",
		sorts, columns, keys, sort_list);
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
		{ "cpus", required_argument, NULL, 'C' },
		{ "follow", no_argument, NULL, 'f' },
		{ "socket", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	static const char shortopts[] = ":tbn:d:Jw:s:Ro:C:fS:hV";
	enum window w;
	uint64_t v;
	char *end;
	int o;

	memset(c, 0, sizeof(*c));
	c->cmd = CMD_TOP;
	c->delay_s = 1;
	c->socket_path = DEFAULT_SOCKET;
	c->window = window_name(WINDOW_10S);
	c->sort = SORT_DEFAULT;
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
				return -EINVAL;
			}
			c->iterations = (long)v;
			break;
		case 'd':
			c->delay_s = strtod(optarg, &end);
			if (*end || end == optarg || !(c->delay_s >= 0.05 && c->delay_s <= 3600)) {
				fprintf(err, "irqlat: --delay takes seconds from 0.05 to 3600, not '%s'\n", optarg);
				return -EINVAL;
			}
			break;
		case 'J':
			c->json = 1;
			break;
		case 'w':
			if (window_parse(optarg, &w) < 0) {
				fprintf(err, "irqlat: --window takes " WINDOW_CHOICES ", not '%s'\n", optarg);
				return -EINVAL;
			}
			c->window = optarg;
			break;
		case 's':
			if (table_sort_key(optarg) < 0) {
				char sorts[128];

				table_sort_names(sorts, sizeof(sorts), " or ");
				fprintf(err, "irqlat: --sort takes %s, not '%s'\n", sorts, optarg);
				return -EINVAL;
			}
			c->sort = optarg;
			break;
		case 'R':
			c->reverse = 1;
			break;
		case 'o':
			if (table_columns_check(optarg, err) < 0)
				return -EINVAL;
			c->columns = optarg;
			break;
		case 'C':
			if (cpulist_check(optarg) < 0 || cpulist_empty(optarg) || strlen(optarg) > CLI_CPUS_MAX) {
				fprintf(err, "irqlat: --cpus takes a CPU list such as 1 or 0-3,8 (at most %d characters), not '%s'\n", CLI_CPUS_MAX, optarg);
				return -EINVAL;
			}
			c->cpus = optarg;
			break;
		case 'f':
			c->follow = 1;
			break;
		case 'S':
			c->socket_path = optarg;
			break;
		case 'h':
			usage(out);
			return 1;
		case 'V':
			fprintf(out, "irqlat %s\n", IRQLAT_VERSION);
			return 1;
		default:	/* '?' or ':' */
			return getopt_error("irqlat", o, argv, shortopts, err);
		}
	}
	/* GNU getopt moves the operands last, so options may come before or after them */
	if (optind < argc) {
		const char *sub = argv[optind++];

		int cmd = command_of(sub);

		if (cmd < 0) {
			char names[128];
			size_t off = 0;

			for (int i = 0; i < (int)ELEMENTSOF(commands); i++)
				off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
							!i ? "" : i == (int)ELEMENTSOF(commands) - 1 ? " or " : ", ", commands[i]);
			fprintf(err, "irqlat: unknown command '%s': use %s\n", sub, names);
			return -EINVAL;
		}
		c->cmd = (enum cli_cmd)cmd;
		if ((c->cmd == CMD_HIST || c->cmd == CMD_DETACH || c->cmd == CMD_ATTACH) && optind < argc)
			c->target = argv[optind++];
		if ((c->cmd == CMD_DETACH || c->cmd == CMD_ATTACH) && !c->target) {
			fprintf(err, "irqlat: %s needs a tracepoint: SYSTEM:EVENT (e.g. silly:me_silly) or all\n", sub);
			return -EINVAL;
		}
	}
	return getopt_no_operands("irqlat", argc, argv, err);
}
