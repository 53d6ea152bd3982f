// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "daemon/config/on_threshold.h"
#include "common/util.h"

#define ACTIONS_WORDS "trace, signal,num=N,pid=P, shell,command=CMD or continue"

static int fail(char *why, size_t len, const char *fmt, const char *arg)
{
	snprintf(why, len, fmt, arg);
	return -EINVAL;
}

/* "num=10" after signal: 0, or -EINVAL (why filled) */
static int signal_arg(struct on_threshold *a, const char *w, size_t n, char *why, size_t len)
{
	char v[32];
	uint64_t x;

	if (n >= sizeof(v) + 4)
		return fail(why, len, "signal takes num=N and pid=P, not '%s'", w);
	if (!strncmp(w, "num=", 4)) {
		snprintf(v, sizeof(v), "%.*s", (int)(n - 4), w + 4);
		if (parse_u64(v, 1, (uint64_t)SIGRTMAX, &x) < 0)
			return fail(why, len, "signal's num= takes a signal number from 1 to 64, not '%s'", v);
		a->signal = (int)x;
	} else if (!strncmp(w, "pid=", 4)) {
		snprintf(v, sizeof(v), "%.*s", (int)(n - 4), w + 4);
		if (!strcmp(v, "parent"))
			a->pid = ON_THRESHOLD_PARENT;
		else if (parse_u64(v, 1, 4194304, &x) < 0)	/* PID_MAX_LIMIT */
			return fail(why, len, "signal's pid= takes a pid from 1 to 4194304 or parent, not '%s'", v);
		else
			a->pid = (int)x;
	} else {
		snprintf(v, sizeof(v), "%.*s", (int)(n < sizeof(v) ? n : sizeof(v) - 1), w);
		return fail(why, len, "signal takes num=N and pid=P, not '%s'", v);
	}
	return 0;
}

int on_threshold_parse(const char *s, struct on_threshold *a, char *why, size_t len)
{
	static const struct { const char *word; unsigned bit; } words[] = {
		{ "trace", ACTION_TRACE }, { "signal", ACTION_SIGNAL }, { "shell", ACTION_SHELL },
		{ "continue", ACTION_CONTINUE },
	};
	unsigned last = 0;	/* the action the arguments that follow belong to */

	memset(a, 0, sizeof(*a));
	if (!*s || !strcmp(s, "none"))
		return 0;
	for (const char *p = s;; p++) {
		size_t n = strcspn(p, ",");
		char w[32];
		unsigned bit = 0;

		snprintf(w, sizeof(w), "%.*s", (int)(n < sizeof(w) ? n : sizeof(w) - 1), p);
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (n == strlen(words[i].word) && !strncmp(p, words[i].word, n))
				bit = words[i].bit;
		if (bit) {
			if (a->actions & bit)
				return fail(why, len, "names %s twice", w);
			if (last == ACTION_SIGNAL && (!a->signal || !a->pid))
				return fail(why, len, "%s", "signal needs num=N and pid=P (or pid=parent)");
			a->actions |= bit;
			last = bit;
		} else if (last == ACTION_SIGNAL) {
			if (signal_arg(a, p, n, why, len) < 0)
				return -EINVAL;
		} else if (last == ACTION_SHELL && !strncmp(p, "command=", 8)) {
			/* the rest of the value, commas and all: a command is free text */
			const char *cmd = p + 8;

			if (!*cmd || strlen(cmd) >= sizeof(a->command))
				return fail(why, len, "shell's command= takes a command of 1 to %s bytes", "511");
			snprintf(a->command, sizeof(a->command), "%s", cmd);
			return 0;
		} else if (!n) {
			return fail(why, len, "%s", "has an empty action between commas: use " ACTIONS_WORDS);
		} else if (last == ACTION_SHELL) {
			return fail(why, len, "shell takes command=CMD, not '%s'", w);
		} else {
			return fail(why, len, "names no action '%s': use " ACTIONS_WORDS, w);
		}
		p += n;
		if (!*p)
			break;
	}
	if (last == ACTION_SIGNAL && (!a->signal || !a->pid))
		return fail(why, len, "%s", "signal needs num=N and pid=P (or pid=parent)");
	if (a->actions & ACTION_SHELL)
		return fail(why, len, "%s", "shell needs command=CMD (the rest of the value, after shell)");
	return 0;
}

void on_threshold_format(char *buf, size_t len, const struct on_threshold *a)
{
	size_t n = 0;

	buf[0] = 0;
	if (a->actions & ACTION_TRACE)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%strace", n ? "," : "");
	if ((a->actions & ACTION_SIGNAL) && a->pid == ON_THRESHOLD_PARENT)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%ssignal,num=%d,pid=parent", n ? "," : "", a->signal);
	else if (a->actions & ACTION_SIGNAL)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%ssignal,num=%d,pid=%d", n ? "," : "", a->signal, a->pid);
	if (a->actions & ACTION_CONTINUE)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%scontinue", n ? "," : "");
	if (a->actions & ACTION_SHELL)
		snprintf(buf + n, n < len ? len - n : 0, "%sshell,command=%s", n ? "," : "", a->command);
}
