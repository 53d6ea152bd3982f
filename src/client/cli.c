// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "conn.h"
#include "common/cpulist.h"
#include "common/macro.h"
#include "common/util.h"
#include "common/window.h"
#include "table.h"
#include "why.h"

static const char *const commands[] = {
	[CMD_TOP] = "top", [CMD_HIST] = "hist", [CMD_STATUS] = "status",
	[CMD_EVENTS] = "events", [CMD_DETACH] = "detach", [CMD_ATTACH] = "attach", [CMD_WHY] = "why",
	[CMD_CAPTURES] = "captures",
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
		"       irqlat hist [IRQ|NAME|pid:N] [OPTIONS]  latency histogram of one handler (or\n"
		"                                         softirq, vector, timer function or class, task),\n"
		"                                         or of all\n"
		"       irqlat status [OPTIONS]           the daemon's state, cost and configuration\n"
		"       irqlat events [OPTIONS]           the recent outliers and tracepoint events\n"
		"                                         (-n the last N, --since), or as they come (-f)\n"
		"       irqlat detach SYSTEM:EVENT|all    stop consuming a tracepoint, so its module can\n"
		"                                         be unloaded (root); re-attached on reload\n"
		"       irqlat attach SYSTEM:EVENT|all    consume a detached tracepoint again (root)\n"
		"       irqlat why [PID|COMM|cpuN]        why the recent late wake-ups, threaded IRQs and\n"
		"                                         timers were late: each wait's parts (-n the last N)\n\n"
		"       irqlat captures [-J]              the outliers' captures the trace action saved\n"
		"                                         (KIND-on-threshold=trace): time, kind, CPU,\n"
		"                                         latency, size and file\n\n"
		"  -b, --batch            text snapshots one after another instead of the screen (top -b)\n"
		"  -n, --iterations N     stop after N snapshots or screen refreshes; events, why: the last N\n"
		"                         (with -f: stop after N); hist and status: repeat N times\n"
		"                         (default: top until interrupted, else once)\n"
		"  -d, --delay SECS       seconds between snapshots and screen refreshes (default 1)\n"
		"  -J, --json             JSON, one object per line, as the daemon sends it\n"
		"  -w, --window W         " WINDOW_CHOICES ": the window of rates and percentiles\n"
		"                         (default 10s)\n"
		"  -s, --sort KEY         %s (default " SORT_DEFAULT ": share of\n"
		"                         time in the handler, what costs the CPU most first)\n"
		"  -R, --reverse          reverse the sort\n"
		"  -o, --output COLS      columns, comma-separated, from: %s\n"
		"                         (text and screen; JSON has every field)\n"
		"  -C, --cpus LIST        these CPUs (0-3,8) alone: what ran there, every figure\n"
		"                         (count, rate, percentiles, max) of those CPUs' own, each\n"
		"                         with a line per CPU of LIST; a CPU the machine lacks is\n"
		"                         a bad command line\n"
		"      --rt-only          the tasks woken by their hrtimer that run real-time (FIFO,\n"
		"                         RR, deadline) alone, in the table, the JSON and why\n"
		"      --cgroup PATH      the tasks woken by their hrtimer in cgroup v2 PATH or below\n"
		"                         it alone (/system.slice/rt.service), in the table and JSON\n"
		"  -f, --follow           events: keep printing as events arrive (after those --since\n"
		"                         selects, when given)\n"
		"      --since WHEN       events: from WHEN on: 30s, 5m, 2h (that long ago), @EPOCH,\n"
		"                         'YYYY-MM-DD HH:MM[:SS]' or HH:MM[:SS] today (local time)\n"
		"      --timeline         why: each wait's timeline, the events its CPU's flight\n"
		"                         recorder holds of it, one a line, in us from its start\n"
		"                         (< before it, | in it, > after its end)\n"
		"      --detail           events: each outlier's explanation in full, with its\n"
		"                         stacks and timeline (those irqlatd still keeps)\n"
		"      --time CLOCK       events: the time column in mono (default, ftrace's mono\n"
		"                         clock), boot (CLOCK_BOOTTIME) or wall (local date and time)\n"
		"  -S, --socket PATH      the daemon's socket (default " DEFAULT_SOCKET ")\n"
		"      --max-answer-mb N  read answers of at most N MiB, 1 to 4096 (default %d)\n"
		"  -h, --help             show this help\n"
		"  -V, --version          show the version\n\n"
		"Keys on the screen: %s sort by %s;\n"
		"R reverse; w window; c per-CPU; C CPUs; up/down select; Enter histogram; / filter; ? help;\n"
		"q quit.\n"
		"NO_COLOR set: no colours.\n\n"
		"Exit status: 0 success, 1 daemon not reachable or refused the request, 2 bad command line.\n",
		sorts, columns, CONN_MAX_ANSWER_MB, keys, sort_list);
}

enum { OPT_SINCE = 256, OPT_TIME, OPT_MAX_ANSWER_MB, OPT_RT_ONLY, OPT_CGROUP, OPT_TIMELINE, OPT_DETAIL };

const char *cli_possible_cpus = CLI_POSSIBLE_CPUS;

int cli_cpus_exist(const char *list, char *why, size_t n)
{
	char possible[256] = "";
	unsigned missing = 0;
	FILE *f = fopen(cli_possible_cpus, "re");

	/* unreadable: the daemon, which knows its CPUs, says so instead */
	if (!f)
		return 0;
	if (!fgets(possible, sizeof(possible), f))
		possible[0] = 0;
	fclose(f);
	if (cpulist_within(list, possible, &missing) != -ERANGE)
		return 0;
	possible[strcspn(possible, "\n")] = 0;
	snprintf(why, n, "CPU %u does not exist: this machine's CPUs are %s", missing, possible);
	return -ERANGE;
}

/* "30s", "500ms", "5m", "2h", "1d": ns, or -EINVAL */
static int parse_ago(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "ms", 1000000ull }, { "s", 1000000000ull }, { "m", 60000000000ull },
		{ "h", 3600000000000ull }, { "d", 86400000000000ull },
	};
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	for (size_t i = 0; !errno && i < ELEMENTSOF(units); i++)
		if (!strcmp(end, units[i].unit) && v <= 366ull * 86400000000000ull / units[i].ns) {
			*ns = v * units[i].ns;
			return 0;
		}
	return -EINVAL;
}

/* 2286-11-20: later times do not fit a uint64_t of ns (2554) with room to spare */
#define SINCE_MAX_S 10000000000ll

int cli_parse_since(const char *s, uint64_t now_ns, uint64_t *wall_ns)
{
	static const char *const formats[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M",
					       "%Y-%m-%dT%H:%M", "%H:%M:%S", "%H:%M" };
	uint64_t ago;
	char *end;

	if (parse_ago(s, &ago) == 0) {
		*wall_ns = ago < now_ns ? now_ns - ago : 1;
		return 0;
	}
	if (*s == '@') {
		double secs = strtod(s + 1, &end);

		if (end == s + 1 || *end || !(secs > 0 && secs < SINCE_MAX_S))
			return -EINVAL;
		*wall_ns = (uint64_t)(secs * 1e9);
		return 0;
	}
	for (size_t i = 0; i < ELEMENTSOF(formats); i++) {
		time_t now = (time_t)(now_ns / 1000000000ull), t;
		struct tm tm;

		localtime_r(&now, &tm);	/* HH:MM: today's date */
		tm.tm_sec = 0;
		end = strptime(s, formats[i], &tm);
		if (!end || *end)
			continue;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t <= 0 || t >= SINCE_MAX_S)
			return -EINVAL;
		*wall_ns = (uint64_t)t * 1000000000ull;
		return 0;
	}
	return -EINVAL;
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
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "max-answer-mb", required_argument, NULL, OPT_MAX_ANSWER_MB },
		{ "rt-only", no_argument, NULL, OPT_RT_ONLY },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "timeline", no_argument, NULL, OPT_TIMELINE },
		{ "detail", no_argument, NULL, OPT_DETAIL },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	static const char shortopts[] = ":tbn:d:Jw:s:Ro:C:fS:hV";
	enum window w;
	char why[160];
	uint64_t v;
	char *end;
	int o;

	memset(c, 0, sizeof(*c));
	c->cmd = CMD_TOP;
	c->delay_s = 1;
	c->socket_path = DEFAULT_SOCKET;
	c->max_answer_mb = CONN_MAX_ANSWER_MB;
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
			if (parse_u64(optarg, 1, 1000000000, &v) < 0)
				return fail_line(err, "irqlat", "--iterations takes a whole number of at least 1, not '%s'", optarg);
			c->iterations = (long)v;
			break;
		case 'd':
			c->delay_s = strtod(optarg, &end);
			if (*end || end == optarg || !(c->delay_s >= 0.05 && c->delay_s <= 3600))
				return fail_line(err, "irqlat", "--delay takes seconds from 0.05 to 3600, not '%s'", optarg);
			c->delay_given = 1;
			break;
		case 'J':
			c->json = 1;
			break;
		case 'w':
			if (window_parse(optarg, &w) < 0)
				return fail_line(err, "irqlat", "--window takes " WINDOW_CHOICES ", not '%s'", optarg);
			c->window = optarg;
			break;
		case 's':
			if (table_sort_key(optarg) < 0) {
				char sorts[128];

				table_sort_names(sorts, sizeof(sorts), " or ");
				return fail_line(err, "irqlat", "--sort takes %s, not '%s'", sorts, optarg);
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
			if (cpulist_check(optarg) < 0 || cpulist_empty(optarg) || strlen(optarg) > CLI_CPUS_MAX)
				return fail_line(err, "irqlat", "--cpus takes a CPU list such as 1 or 0-3,8 (at most %d characters), not '%s'", CLI_CPUS_MAX, optarg);
			if (cli_cpus_exist(optarg, why, sizeof(why)) < 0)
				return fail_line(err, "irqlat", "%s", why);
			c->cpus = optarg;
			break;
		case 'f':
			c->follow = 1;
			break;
		case 'S':
			c->socket_path = optarg;
			break;
		case OPT_SINCE: {
			struct timespec now;

			clock_gettime(CLOCK_REALTIME, &now);
			if (cli_parse_since(optarg, (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec,
					    &c->since_wall_ns) < 0)
				return fail_line(err, "irqlat", "--since takes a duration ago (30s, 5m, 2h, 1d), @EPOCH_SECONDS, "
						 "'YYYY-MM-DD HH:MM[:SS]' or HH:MM[:SS], not '%s'", optarg);
			break;
		}
		case OPT_MAX_ANSWER_MB:
			if (parse_u64(optarg, 1, 4096, &v) < 0)
				return fail_line(err, "irqlat", "--max-answer-mb takes a whole number of MiB from 1 to 4096, not '%s'", optarg);
			c->max_answer_mb = (unsigned)v;
			break;
		case OPT_RT_ONLY:
			c->rt_only = 1;
			break;
		case OPT_TIMELINE:
			c->timeline = 1;
			break;
		case OPT_DETAIL:
			c->detail = 1;
			break;
		case OPT_CGROUP:
			if (optarg[0] != '/' || strlen(optarg) > 4096)
				return fail_line(err, "irqlat", "--cgroup takes a cgroup v2 path such as /system.slice/rt.service, not '%s'", optarg);
			c->cgroup = optarg;
			break;
		case OPT_TIME:
			if (ev_clock_parse(optarg, &c->clock) < 0)
				return fail_line(err, "irqlat", "--time takes mono, boot or wall, not '%s'", optarg);
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
			return fail_line(err, "irqlat", "unknown command '%s': use %s", sub, names);
		}
		c->cmd = (enum cli_cmd)cmd;
		if ((c->cmd == CMD_HIST || c->cmd == CMD_DETACH || c->cmd == CMD_ATTACH || c->cmd == CMD_WHY) && optind < argc)
			c->target = argv[optind++];
		if (c->cmd == CMD_WHY && c->target) {
			const char *why = NULL;
			json_object *req = why_client_request(c->target, 0, &why);

			if (!req)
				return fail_line(err, "irqlat", "why takes a pid, a comm or cpuN, not '%s': %s", c->target, why);
			json_object_put(req);
		}
		if ((c->cmd == CMD_DETACH || c->cmd == CMD_ATTACH) && !c->target)
			return fail_line(err, "irqlat", "%s needs a tracepoint: SYSTEM:EVENT (e.g. silly:me_silly) or all", sub);
	}
	return getopt_no_operands("irqlat", argc, argv, err);
}
