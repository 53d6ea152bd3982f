/* SPDX-License-Identifier: GPL-2.0 */
/* Logging for irqlatd: one call site per message, routed to stderr or the journal. */
#ifndef IRQLAT_LOG_H
#define IRQLAT_LOG_H

#include <stdbool.h>
#include <syslog.h>

#define LOG_JOURNAL_SOCKET "/run/systemd/journal/socket"

enum log_target {
	LOG_TARGET_AUTO,	/* the journal when its socket exists, else stderr */
	LOG_TARGET_STDERR,
	LOG_TARGET_JOURNAL,
};

int log_target_parse(const char *s, enum log_target *t);
/* Chooses where messages go. -ENOENT (and a message on stderr) when the journal was asked for
 * and its socket does not exist: the caller decides whether that is fatal. */
int log_setup(enum log_target t, int max_priority);
bool log_to_journal(void);
int log_max_priority(void);

/* printf-like; %m prints strerror(errno). Return 0. */
int log_full(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same, with errno set from the negative error r for %m; returns r so callers can
 * `return log_error_errno(r, "Failed to ...: %m");` */
int log_full_errno(int priority, int r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Structured entries: fields "KEY=value" collected with jf_add(), then log_struct() sends
 * MESSAGE, MESSAGE_ID, PRIORITY, SYSLOG_IDENTIFIER=irqlatd and the fields to the journal. On
 * stderr only the message is printed (filtered by the priority, like log_full). */
#define JF_MAX 256	/* the held-back outliers' entry names 32 sources, up to 7 fields each */
struct jfields {
	unsigned n;
	size_t used;
	char *field[JF_MAX];
	char buf[16384];
};

void jf_add(struct jfields *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int log_struct(int priority, const char *message_id, const struct jfields *f, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#define log_debug(...) log_full(LOG_DEBUG, __VA_ARGS__)
#define log_info(...) log_full(LOG_INFO, __VA_ARGS__)
#define log_notice(...) log_full(LOG_NOTICE, __VA_ARGS__)
#define log_warning(...) log_full(LOG_WARNING, __VA_ARGS__)
#define log_error(...) log_full(LOG_ERR, __VA_ARGS__)
#define log_error_errno(r, ...) log_full_errno(LOG_ERR, (r), __VA_ARGS__)
#define log_warning_errno(r, ...) log_full_errno(LOG_WARNING, (r), __VA_ARGS__)

#endif
