// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>
#include "daemon/base/log.h"
#include "common/util.h"

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

int log_setup(enum log_target t, int max_priority)
{
	bool journal_there = access(LOG_JOURNAL_SOCKET, W_OK) == 0;

	max_prio = max_priority;
	if (t == LOG_TARGET_JOURNAL && !journal_there) {
		/* asked for the journal: saying so beats writing entries nobody will ever see */
		use_journal = false;
		fprintf(stderr, "irqlatd: error: --log-target journal, but " LOG_JOURNAL_SOCKET
			" does not exist: start systemd-journald, or use --log-target auto or stderr\n");
		return -ENOENT;
	}
	use_journal = t == LOG_TARGET_JOURNAL || (t == LOG_TARGET_AUTO && journal_there);
	return 0;
}

bool log_to_journal(void)
{
	return use_journal;
}

int log_max_priority(void)
{
	return max_prio;
}

static const char *const prio_prefix[] = {
	"emerg", "alert", "crit", "error", "warning", "notice", "info", "debug",
};

static void to_stderr(int priority, const char *msg)
{
	fprintf(stderr, "irqlatd: %s: %s\n", prio_prefix[priority & 7], msg);
}

/* The journal went away under us (journald stopped): the entry goes to stderr rather than
 * nowhere, and we say so once. */
static void journal_failed(int r, int priority, const char *msg)
{
	static bool warned;

	if (!warned) {
		fprintf(stderr, "irqlatd: warning: cannot write to the journal (%s): entries go to stderr until it is back\n",
			strerror(-r));
		warned = true;
	}
	to_stderr(priority, msg);
}

void jf_add(struct jfields *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (f->n >= JF_MAX || f->used >= sizeof(f->buf))
		return;
	va_start(ap, fmt);
	n = vsnprintf(f->buf + f->used, sizeof(f->buf) - f->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(f->buf) - f->used)
		return;	/* does not fit: never send a truncated field */
	f->field[f->n++] = f->buf + f->used;
	f->used += (size_t)n + 1;
}

static int send_struct(int priority, const char *message_id, const struct jfields *f, const char *msg)
{
	char m[sizeof("MESSAGE=") + 4 * 1024], p[16], mid[48];
	struct iovec iov[JF_MAX + 4];
	unsigned n = 0;

	snprintf(m, sizeof(m), "MESSAGE=%s", msg);
	snprintf(p, sizeof(p), "PRIORITY=%d", priority & 7);
	iov[n++] = (struct iovec){ m, strlen(m) };
	iov[n++] = (struct iovec){ p, strlen(p) };
	iov[n++] = (struct iovec){ (char *)"SYSLOG_IDENTIFIER=irqlatd", strlen("SYSLOG_IDENTIFIER=irqlatd") };
	if (message_id) {
		snprintf(mid, sizeof(mid), "MESSAGE_ID=%s", message_id);
		iov[n++] = (struct iovec){ mid, strlen(mid) };
	}
	for (unsigned i = 0; f && i < f->n; i++)
		iov[n++] = (struct iovec){ f->field[i], strlen(f->field[i]) };
	return sd_journal_sendv(iov, (int)n);
}

static void log_msg(int priority, const char *message_id, const struct jfields *f, const char *raw)
{
	char msg[4 * 1024];
	int r;

	/* a line is one line of text, whatever names the kernel gave (a task's comm, a handler's
	 * or a tracepoint's string): their control characters as \xNN, as journalctl and ps show
	 * them (journalctl would show a line holding one as a blob). The journal's own fields
	 * (jf_add) keep the exact bytes, as JSON does. */
	text_escape(msg, sizeof(msg), raw, strlen(raw));

	if (use_journal) {
		r = send_struct(priority, message_id, f, msg);
		if (r < 0)
			journal_failed(r, priority, msg);
		return;
	}
	if (priority <= max_prio)
		to_stderr(priority, msg);
}

int log_struct(int priority, const char *message_id, const struct jfields *f, const char *fmt, ...)
{
	int saved = errno;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_msg(priority, message_id, f, msg);
	errno = saved;
	return 0;
}

static void log_va(int priority, const char *fmt, va_list ap)
{
	char msg[1024];

	if (priority > max_prio)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	log_msg(priority, NULL, NULL, msg);
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
