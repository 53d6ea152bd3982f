// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "daemon/base/log.h"
#include "daemon/capture/trace_instance.h"
#include "common/macro.h"

/* What interrupted or delayed the CPU: the hard IRQs and the CPU's own vectors, softirqs,
 * timers, and who ran and who was woken. A group that is not there (irq_vectors outside x86)
 * is left out. */
static const char *const trace_events[] = {
	"irq/irq_handler_entry", "irq/irq_handler_exit", "irq/softirq_entry", "irq/softirq_exit",
	"irq_vectors", "sched/sched_switch", "sched/sched_wakeup", "timer/hrtimer_expire_entry",
	"timer/hrtimer_expire_exit",
};

static int write_file(const char *dir, const char *name, const char *value)
{
	char path[256];
	_cleanup_close_ int fd = -1;
	size_t n = strlen(value);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, n) != (ssize_t)n)
		return -errno;
	return 0;
}

/* tracefs where the tracepoint code looks for it (src/daemon/tracepoints/tp_resolve.c), mounted
 * when it is not */
static int tracefs_ready(void)
{
	struct statfs sf;

	if (statfs(TRACE_INSTANCE_ROOT, &sf) < 0)
		return -errno;
	if (sf.f_type != TRACEFS_MAGIC && mount("nodev", TRACE_INSTANCE_ROOT, "tracefs", 0, NULL) < 0)
		return -errno;
	return 0;
}

int trace_instance_resize(struct trace_instance *t, unsigned buffer_kb)
{
	char v[32];
	int r;

	snprintf(v, sizeof(v), "%u", buffer_kb);
	r = write_file(t->path, "buffer_size_kb", v);
	if (r < 0)
		return log_warning_errno(r, "trace action: cannot set %s/buffer_size_kb to %u: %m", t->path, buffer_kb);
	return 0;
}

int trace_instance_open(struct trace_instance *t, unsigned buffer_kb)
{
	int r;

	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), TRACE_INSTANCE_ROOT "/instances/" TRACE_INSTANCE_NAME);
	r = tracefs_ready();
	if (r < 0)
		return log_error_errno(r, "trace action: tracefs is not mounted on " TRACE_INSTANCE_ROOT " and cannot be: %m");
	/* a daemon that was killed left its instance: ours, since the name is */
	if (rmdir(t->path) < 0 && errno != ENOENT)
		return log_error_errno(-errno, "trace action: cannot remove the old instance %s: %m", t->path);
	if (mkdir(t->path, 0700) < 0)
		return log_error_errno(-errno, "trace action: cannot make the tracefs instance %s: %m", t->path);
	t->on = true;
	r = write_file(t->path, "tracing_on", "0");
	if (r >= 0)
		r = write_file(t->path, "trace_clock", "mono");
	if (r < 0) {
		log_error_errno(r, "trace action: cannot set the mono clock of %s: %m", t->path);
		trace_instance_close(t);
		return r;
	}
	r = trace_instance_resize(t, buffer_kb);
	if (r < 0) {
		trace_instance_close(t);
		return r;
	}
	for (size_t i = 0; i < ELEMENTSOF(trace_events); i++) {
		char name[96];

		snprintf(name, sizeof(name), "events/%s/enable", trace_events[i]);
		r = write_file(t->path, name, "1");
		if (r >= 0)
			t->events++;
		else if (r != -ENOENT)
			log_warning_errno(r, "trace action: cannot enable %s in %s: %m", trace_events[i], t->path);
	}
	if (!t->events) {
		log_error("trace action: none of the interrupt and scheduler events could be enabled in %s", t->path);
		trace_instance_close(t);
		return -ENOENT;
	}
	r = write_file(t->path, "tracing_on", "1");
	if (r < 0) {
		log_error_errno(r, "trace action: cannot turn %s on: %m", t->path);
		trace_instance_close(t);
		return r;
	}
	log_info("trace action: tracefs instance %s records %u event groups, %u KiB a CPU", t->path, t->events, buffer_kb);
	return 0;
}

void trace_instance_close(struct trace_instance *t)
{
	if (!t->on)
		return;
	(void)write_file(t->path, "tracing_on", "0");
	/* rmdir removes the instance with its events; it is busy only while a file of it is open */
	if (rmdir(t->path) < 0)
		log_warning_errno(-errno, "trace action: cannot remove %s: %m", t->path);
	t->on = false;
}

int trace_line_ts(const char *line, uint64_t *ns)
{
	/* "comm-pid [cpu] flags secs.usecs: event: ...": the last number before the first ": "
	 * that follows the "]" of the CPU; a comm may hold blanks and brackets, not "] " followed
	 * by the flags and a time */
	const char *colon, *p, *dot;
	uint64_t s = 0, frac = 0;
	unsigned digits = 0;

	if (*line == '#')
		return -EINVAL;
	p = strstr(line, "] ");
	if (!p)
		return -EINVAL;
	colon = strstr(p, ": ");
	if (!colon)
		return -EINVAL;
	/* back from the colon over the fraction, the dot and the seconds */
	dot = colon;
	while (dot > p && dot[-1] >= '0' && dot[-1] <= '9')
		dot--;
	if (dot == colon || dot <= p || dot[-1] != '.')
		return -EINVAL;
	for (const char *q = dot; q < colon; q++, digits++)
		frac = frac * 10 + (uint64_t)(*q - '0');
	p = dot - 1;
	while (p > line && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == dot - 1)
		return -EINVAL;
	for (const char *q = p; q < dot - 1; q++)
		s = s * 10 + (uint64_t)(*q - '0');
	while (digits < 9) {
		frac *= 10;
		digits++;
	}
	*ns = s * 1000000000ull + frac;
	return 0;
}

/* One read of CPU cpu's events from from_ns on into *buf (its header lines first); the number
 * of event lines, *first_ns the first one's time */
static int save_once(struct trace_instance *t, unsigned cpu, uint64_t from_ns, char **buf, uint64_t *first_ns)
{
	char path[192];
	_cleanup_fclose_ FILE *in = NULL, *out = NULL;
	_cleanup_free_ char *line = NULL;
	size_t cap = 0, len = 0;
	ssize_t n;
	int lines = 0;

	*buf = NULL;
	*first_ns = UINT64_MAX;
	/* the non-consuming view: opening it pauses this instance's recording until it is closed
	 * (options/pause-on-trace), so the window is not overwritten while it is copied */
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace", t->path, cpu);
	in = fopen(path, "re");
	if (!in)
		return -errno;
	out = open_memstream(buf, &len);
	if (!out)
		return -errno;
	while ((n = getline(&line, &cap, in)) > 0) {
		uint64_t ts;

		if (*line == '#') {
			fputs(line, out);
			continue;
		}
		if (trace_line_ts(line, &ts) < 0 || ts < from_ns)
			continue;
		if (!lines)
			*first_ns = ts;
		fputs(line, out);
		lines++;
	}
	if (ferror(in) || fflush(out) != 0)
		return -EIO;
	return lines;
}

int trace_instance_save(struct trace_instance *t, unsigned cpu, uint64_t from_ns, uint64_t at_ns, FILE *out)
{
	_cleanup_free_ char *best = NULL;
	uint64_t best_first = UINT64_MAX;
	int best_lines = 0;

	if (!t->on)
		return -ENOTCONN;
	/* a read that does not reach back to at_ns is made again, twice at most, and the one that
	 * reaches furthest back kept: under an IRQ flood the view has come back empty at times, or
	 * with a few events after at_ns only, though the CPU's events were recorded before */
	for (int i = 0; i < 3 && best_first > at_ns; i++) {
		char *buf;
		uint64_t first;
		int r = save_once(t, cpu, from_ns, &buf, &first);

		if (r < 0) {
			free(buf);
			if (!best)
				return r;
			break;
		}
		if (!best || first < best_first) {
			free(best);
			best = buf;
			best_first = first;
			best_lines = r;
		} else {
			free(buf);
		}
	}
	if (best && fputs(best, out) < 0)
		return -EIO;
	return best_lines;
}
