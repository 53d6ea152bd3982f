// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>
#include "log.h"

static bool use_journal;
static int max_prio = LOG_INFO;

int log_target_parse(const char *s, enum log_target *t)
{
	if (!strcmp(s, "auto"))
		*t = LOG_TARGET_AUTO;
	else if (!strcmp(s, "stderr"))
		*t = LOG_TARGET_STDERR;
	else if (!strcmp(s, "journal"))
		*t = LOG_TARGET_JOURNAL;
	else
		return -EINVAL;
	return 0;
}

void log_setup(enum log_target t, int max_priority)
{
	max_prio = max_priority;
	if (t == LOG_TARGET_AUTO)
		use_journal = access("/run/systemd/journal/socket", W_OK) == 0;
	else
		use_journal = t == LOG_TARGET_JOURNAL;
}

bool log_to_journal(void)
{
	return use_journal;
}

int log_max_priority(void)
{
	return max_prio;
}

static void log_va(int priority, const char *fmt, va_list ap)
{
	static const char *const prefix[] = {
		"emerg", "alert", "crit", "error", "warning", "notice", "info", "debug",
	};

	if (priority > max_prio)
		return;
	if (use_journal) {
		sd_journal_printv(priority, fmt, ap);
		return;
	}
	fprintf(stderr, "irqlatd: %s: ", prefix[priority & 7]);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int log_full(int priority, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	log_va(priority, fmt, ap);
	va_end(ap);
	errno = saved;
	return 0;
}

int log_full_errno(int priority, int r, const char *fmt, ...)
{
	va_list ap;

	errno = r < 0 ? -r : r;
	va_start(ap, fmt);
	log_va(priority, fmt, ap);
	va_end(ap);
	return r < 0 ? r : -r;
}
