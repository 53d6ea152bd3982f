/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat's command line. */
#ifndef IRQLAT_CLI_H
#define IRQLAT_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "common/evline.h"

#define CLI_CPUS_MAX 63	/* the longest -C list */
#define CLI_POSSIBLE_CPUS "/sys/devices/system/cpu/possible"
/* Where -C is checked: CLI_POSSIBLE_CPUS, another file in the unit tests */
extern const char *cli_possible_cpus;

enum cli_cmd { CMD_TOP, CMD_HIST, CMD_STATUS, CMD_EVENTS, CMD_DETACH, CMD_ATTACH, CMD_WHY, CMD_CAPTURES };

struct cli {
	enum cli_cmd cmd;
	int batch;
	long iterations;	/* 0: until interrupted */
	double delay_s;
	double delay_asked_s;	/* -d as given when it was under the daemon's interval (run() raised
				 * delay_s to that), else 0 */
	int delay_given;	/* -d was on the command line */
	int json;
	int follow;
	const char *socket_path;
	unsigned max_answer_mb;	/* the longest answer read from the daemon */
	const char *window;	/* 1s, 10s, 60s, total */
	const char *sort;	/* p99, max, rate, count, time (default), irq, name */
	int reverse;
	const char *columns;	/* -o */
	const char *cpus;	/* -C: a CPU list ("1", "0-3,8"), NULL: every CPU */
	int rt_only;		/* --rt-only: of the tasks woken by their hrtimer, the real-time ones */
	const char *cgroup;	/* --cgroup: of those tasks, the ones in this cgroup v2 path or below; NULL all */
	int timeline;		/* why --timeline: each wait's timeline under its parts */
	int detail;		/* events --detail: each outlier's explanation and timeline in full */
	const char *target;	/* hist IRQ|NAME; detach/attach SYSTEM:EVENT|all; why PID|COMM|cpuN */
	uint64_t since_wall_ns;	/* events --since: CLOCK_REALTIME ns; 0: not given */
	enum ev_clock clock;	/* events --time: the clock of the time column */
};

/* --since WHEN into CLOCK_REALTIME ns, now_ns being the wall clock now: a duration ago ("30s",
 * "500ms", "5m", "2h", "1d"), "@SECONDS[.FRACTION]" since the epoch, or a local date and time
 * "YYYY-MM-DD HH:MM[:SS]" (also with a T), or "HH:MM[:SS]" today. 0 or -EINVAL. */
int cli_parse_since(const char *s, uint64_t now_ns, uint64_t *wall_ns);

/* 0 to run; 1 after --help/--version (printed on out: nothing left to do); -EINVAL for a bad
 * command line, with one line on err saying what is wrong. */
int cli_parse(struct cli *c, int argc, char **argv, FILE *out, FILE *err);
/* Whether every CPU of list is one of this machine's (cli_possible_cpus): 0, or -ERANGE with
 * why[] naming the CPU it lacks. 0 when the kernel's list cannot be read. */
int cli_cpus_exist(const char *list, char *why, size_t n);

#endif
