// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "daemon/base/log.h"
#include "daemon/capture/actions.h"
#include "daemon/capture/capture_store.h"
#include "common/kinds/kind.h"
#include "common/macro.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool any_trace(const struct daemon_config *cfg)
{
	for (unsigned k = 0; k < KINDS; k++)
		if (cfg->on_threshold[k].actions & ACTION_TRACE)
			return true;
	return false;
}

/* The instance runs while a kind has trace */
static void trace_follow(struct actions *a)
{
	bool want = any_trace(a->cfg);

	if (want && !a->trace.on) {
		int r = capture_dir_make(a->dir);

		if (r < 0)
			log_error_errno(r, "trace action: cannot make the captures folder %s: %m", a->dir);
		(void)trace_instance_open(&a->trace, a->cfg->trace_buffer_kb);	/* logged */
	} else if (!want && a->trace.on) {
		trace_instance_close(&a->trace);
	} else if (want) {
		(void)trace_instance_resize(&a->trace, a->cfg->trace_buffer_kb);
	}
}

int actions_start(struct actions *a, sd_event *ev, const struct daemon_config *cfg)
{
	memset(a, 0, sizeof(*a));
	a->ev = ev;
	a->cfg = cfg;
	capture_dir(a->dir, sizeof(a->dir));
	trace_follow(a);
	return 0;
}

void actions_configure(struct actions *a, const struct daemon_config *cfg)
{
	a->cfg = cfg;
	trace_follow(a);
}

/* Whether kind k's action act may run at now (and it is counted as run), or is skipped */
static bool due(struct actions *a, enum lat_kind k, unsigned act, uint64_t now)
{
	uint64_t every = (uint64_t)a->cfg->action_interval_ms * 1000000ull;

	if (a->last_ns[k][act] && now - a->last_ns[k][act] < every) {
		a->skipped[act]++;
		return false;
	}
	a->last_ns[k][act] = now;
	return true;
}

/* The capture of o: its CPU's events from CAPTURE_BEFORE_NS before the wait began */
static int save_trace(struct actions *a, const struct outlier *o, char *file, size_t len)
{
	const struct kind_desc *k = kind_get(o->kind);
	uint64_t now = clock_ns(CLOCK_MONOTONIC), wall = clock_ns(CLOCK_REALTIME);
	uint64_t from = o->ts_ns - (o->value_ns < o->ts_ns ? o->value_ns : 0);
	uint64_t o_wall = wall - (now > o->ts_ns ? now - o->ts_ns : 0);
	char name[CAPTURE_NAME_MAX], tmp[512], path[512];
	_cleanup_fclose_ FILE *f = NULL;
	int r, fd;

	from = from > CAPTURE_BEFORE_NS ? from - CAPTURE_BEFORE_NS : 0;
	snprintf(name, sizeof(name), "%019llu-%s-cpu%u" CAPTURE_SUFFIX, (unsigned long long)o_wall, k->name, o->cpu);
	snprintf(path, sizeof(path), "%s/%s", a->dir, name);
	/* written under a name the listing skips, then renamed: no half capture is ever listed */
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", a->dir, name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		close(fd);
		unlink(tmp);
		return r;
	}
	fprintf(f, "# irqlatd capture\n# kind: %s\n# cpu: %u\n# latency_ns: %llu\n# threshold_ns: %llu\n"
		"# ts_ns: %llu\n# wall_ns: %llu\n# name: %s\n# window: CPU %u's events of tracefs instance "
		TRACE_INSTANCE_NAME " from %llu ns (mono clock) on\n",
		k->name, o->cpu, (unsigned long long)o->value_ns, (unsigned long long)a->cfg->threshold_ns[o->kind],
		(unsigned long long)o->ts_ns, (unsigned long long)o_wall, o->name, o->cpu, (unsigned long long)from);
	r = trace_instance_save(&a->trace, o->cpu, from, o->ts_ns, f);
	if (r >= 0 && (fflush(f) != 0 || ferror(f)))
		r = -EIO;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	if (rename(tmp, path) < 0) {
		r = -errno;
		unlink(tmp);
		return r;
	}
	snprintf(file, len, "%s", path);
	r = capture_store_enforce(a->dir, (uint64_t)a->cfg->capture_budget_kb * 1024);
	if (r > 0)
		a->removed += (uint64_t)r;
	if (access(path, F_OK) < 0) {	/* larger than the whole budget: it went too */
		file[0] = 0;
		return -EFBIG;
	}
	return 0;
}

static int on_shell_exit(sd_event_source *s, const siginfo_t *si, void *userdata)
{
	struct actions *a = userdata;

	if (si->si_code != CLD_EXITED || si->si_status != 0) {
		a->failed[ACT_SHELL]++;
		log_notice("shell action: its command (pid %d) %s %d", (int)si->si_pid,
			   si->si_code == CLD_EXITED ? "exited with" : "was killed by signal", si->si_status);
	}
	sd_event_source_disable_unref(s);
	a->shell_src = NULL;
	a->shell_pid = 0;
	return 0;
}

static void setenvf(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void setenvf(const char *key, const char *fmt, ...)
{
	char v[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	setenv(key, v, 1);
}

/* The child: the outlier in its environment, the daemon's descriptors and blocked signals not
 * inherited, then the shell */
static _Noreturn void shell_child(const struct actions *a, const struct outlier *o, const char *command,
				  const char *file)
{
	const struct kind_desc *k = kind_get(o->kind);
	sigset_t none;
	int fd;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != STDIN_FILENO) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	close_range(3, ~0u, 0);
	setenvf("IRQLAT_KIND", "%s", k->name);
	setenvf("IRQLAT_CPU", "%u", o->cpu);
	setenvf("IRQLAT_LATENCY_NS", "%llu", (unsigned long long)o->value_ns);
	setenvf("IRQLAT_THRESHOLD_NS", "%llu", (unsigned long long)a->cfg->threshold_ns[o->kind]);
	setenvf("IRQLAT_NAME", "%s", o->name);
	setenvf("IRQLAT_SUB", "%u", o->sub);
	setenvf("IRQLAT_PID", "%u", o->pid);
	setenvf("IRQLAT_COMM", "%s", o->comm);
	setenvf("IRQLAT_TS_NS", "%llu", (unsigned long long)o->ts_ns);
	if (o->woken_pid)
		setenvf("IRQLAT_WOKEN_PID", "%u", o->woken_pid);
	if (*file)
		setenvf("IRQLAT_CAPTURE_FILE", "%s", file);
	execl("/bin/sh", "sh", "-c", command, (char *)NULL);
	_exit(127);
}

static int run_shell(struct actions *a, const struct outlier *o, const char *command, const char *file)
{
	pid_t pid;
	int r;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		shell_child(a, o, command, file);
	a->shell_pid = pid;
	r = sd_event_add_child(a->ev, &a->shell_src, pid, WEXITED, on_shell_exit, a);
	if (r < 0) {
		/* nothing would reap it: wait for it here, the one time this happens */
		log_error_errno(r, "shell action: cannot watch pid %d: %m; waiting for it", (int)pid);
		(void)waitpid(pid, NULL, 0);
		a->shell_pid = 0;
	}
	return 0;
}

void actions_run(struct actions *a, const struct outlier *o, char *file, size_t len)
{
	const struct on_threshold *on = &a->cfg->on_threshold[o->kind];
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	int r;

	file[0] = 0;
	if (a->stopped || !on->actions)
		return;
	if ((on->actions & ACTION_TRACE) && due(a, o->kind, ACT_TRACE, now)) {
		r = a->trace.on ? save_trace(a, o, file, len) : -ENOTCONN;
		if (r < 0) {
			a->failed[ACT_TRACE]++;
			log_warning_errno(r, "trace action: cannot save CPU %u's events to %s: %m", o->cpu, a->dir);
		} else {
			a->ran[ACT_TRACE]++;
		}
	}
	if ((on->actions & ACTION_SIGNAL) && due(a, o->kind, ACT_SIGNAL, now)) {
		pid_t pid = on->pid == ON_THRESHOLD_PARENT ? getppid() : on->pid;

		if (kill(pid, on->signal) < 0) {
			a->failed[ACT_SIGNAL]++;
			log_warning_errno(-errno, "signal action: cannot send signal %d to pid %d: %m", on->signal, (int)pid);
		} else {
			a->ran[ACT_SIGNAL]++;
		}
	}
	if (on->actions & ACTION_SHELL) {
		if (a->shell_pid) {	/* one at a time */
			a->skipped[ACT_SHELL]++;
		} else if (due(a, o->kind, ACT_SHELL, now)) {
			r = run_shell(a, o, on->command, file);
			if (r < 0) {
				a->failed[ACT_SHELL]++;
				log_warning_errno(r, "shell action: cannot start /bin/sh: %m");
			} else {
				a->ran[ACT_SHELL]++;
			}
		}
	}
}

json_object *actions_captures_json(const struct actions *a)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "folder", json_object_new_string(a->dir));
	json_object_object_add(o, "budget_bytes", json_object_new_uint64((uint64_t)a->cfg->capture_budget_kb * 1024));
	json_object_object_add(o, "captures", capture_store_list(a->dir));
	return o;
}

json_object *actions_status_json(const struct actions *a)
{
	static const char *const names[ACTS] = { "trace", "signal", "shell" };
	json_object *o = json_object_new_object();

	for (unsigned i = 0; i < ACTS; i++) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "ran", json_object_new_uint64(a->ran[i]));
		json_object_object_add(x, "skipped", json_object_new_uint64(a->skipped[i]));
		json_object_object_add(x, "failed", json_object_new_uint64(a->failed[i]));
		json_object_object_add(o, names[i], x);
	}
	json_object_object_add(o, "trace_instance", a->trace.on ? json_object_new_string(a->trace.path) : NULL);
	json_object_object_add(o, "captures_removed", json_object_new_uint64(a->removed));
	return o;
}

void actions_stop(struct actions *a)
{
	a->stopped = true;
	trace_instance_close(&a->trace);
	sd_event_source_disable_unref(a->shell_src);
	a->shell_src = NULL;
}
