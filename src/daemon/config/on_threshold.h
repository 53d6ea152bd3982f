/* SPDX-License-Identifier: GPL-2.0 */
/* What a kind's outlier sets off (KIND-on-threshold), in rtla's words (rtla-timerlat(1),
 * --on-threshold): one or more of
 *   trace                     save the outlier's CPU's events of irqlatd's tracefs instance
 *   signal,num=N,pid=P        kill(P, N); pid=parent: irqlatd's parent
 *   shell,command=CMD         /bin/sh -c CMD with the outlier in IRQLAT_* variables; CMD is
 *                             the rest of the value, commas included, so shell comes last
 *   continue                  accepted as rtla spells it: irqlatd always goes on measuring
 * separated by commas ("trace,signal,num=10,pid=42,shell,command=logger late"); "none" or
 * "" clears them. The daemon side is src/daemon/capture/actions.c. */
#ifndef IRQLAT_ON_THRESHOLD_H
#define IRQLAT_ON_THRESHOLD_H

#include <stdbool.h>
#include <stddef.h>

enum on_threshold_action {
	ACTION_TRACE = 1u << 0,
	ACTION_SIGNAL = 1u << 1,
	ACTION_SHELL = 1u << 2,
	ACTION_CONTINUE = 1u << 3,
};

#define ON_THRESHOLD_COMMAND_MAX 512
#define ON_THRESHOLD_PARENT (-1)	/* signal's pid=parent */

struct on_threshold {
	unsigned actions;	/* ACTION_* bits; 0: none */
	int signal;		/* signal's num */
	int pid;		/* signal's pid, or ON_THRESHOLD_PARENT */
	char command[ON_THRESHOLD_COMMAND_MAX];	/* shell's */
};

/* Parses s into a (cleared first): 0, or -EINVAL with why[] saying what is wrong in a few
 * words ("signal needs num=N and pid=P"). */
int on_threshold_parse(const char *s, struct on_threshold *a, char *why, size_t len);
/* The actions as they were given, for status ("trace,shell,command=..."); "" for none */
void on_threshold_format(char *buf, size_t len, const struct on_threshold *a);

#endif
