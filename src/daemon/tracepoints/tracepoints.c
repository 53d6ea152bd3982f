// SPDX-License-Identifier: GPL-2.0
/* The set of consumed tracepoints on the daemon's loop: starting and stopping it (and the
 * module watcher, tp_watch.c), the once-a-second timer (the tracefs check, which finds what
 * the watcher cannot or missed; event rates; ring-buffer drops), the short drain timer, and
 * SIGUSR1, which detaches them all. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "daemon/collect/collect.h"
#include "daemon/loader/loader.h"
#include "daemon/base/log.h"
#include "daemon/tracepoints/tracepoints.h"
#include "daemon/tracepoints/tp_resolve.h"
#include "daemon/tracepoints/tp_attach.h"
#include "daemon/tracepoints/tp_watch.h"
#include "daemon/tracepoints/tp_events.h"

#define TICK_US 1000000ull	/* presence check and rate cadence: attach within 2 s of a load */
/* The programs wake the daemon at most once per 10 ms (tp_attach.c); DRAIN_US picks up what
 * came after. */
#define DRAIN_US 100000ull

static void tick_rates(struct tp_set *s)
{
	unsigned slot = (unsigned)(s->tick % TP_RATE_SECONDS);

	for (unsigned i = 0; i < s->n; i++) {
		struct tracepoint *t = &s->tps[i];

		t->rate_ring[(slot + 1) % TP_RATE_SECONDS] = 0;	/* the slot the next second fills */
		if (t->state == TP_ATTACHED)
			t->rate_ticks++;
	}
	s->tick++;
}

/* The collector reads the shared drop counters for its own kinds; this one is ours. */
static int check_drops(struct tp_set *s)
{
	uint64_t sum;
	int r = loader_read_drop(s->drops_fd, DROP_TRACEPOINT, &sum);

	if (r < 0)
		return r;
	if (sum > s->dropped)
		log_warning("%llu tracepoint events lost in the last second: the ring buffer was full (raise --ringbuf-kb; %llu since start)",
			    (unsigned long long)(sum - s->dropped), (unsigned long long)sum);
	s->dropped = sum;
	return 0;
}

static int rearm(sd_event_source *src, uint64_t usec)
{
	int r = sd_event_source_set_time(src, usec);

	if (r < 0)
		return log_error_errno(r, "cannot re-arm the tracepoint timer: %m");
	return sd_event_source_set_enabled(src, SD_EVENT_ON);
}

static bool any_attached(const struct tp_set *s)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->tps[i].state == TP_ATTACHED)
			return true;
	return false;
}

static int on_timer(sd_event_source *src, uint64_t usec, void *userdata)
{
	struct tp_set *s = userdata;
	int r = check_drops(s), on = SD_EVENT_OFF;

	if (r < 0)	/* not while the daemon runs: its drops map is open for as long */
		log_full_errno(LOG_DEBUG, r, "cannot read the tracepoint drop counter: %m");
	tick_rates(s);
	tp_journal_flush(s, now_ns());
	/* a failed attach is logged by tp_attach() and shown in the tracepoint's state */
	for (unsigned i = 0; i < s->n; i++)
		tp_check(s, &s->tps[i]);
	/* the drain timer sleeps while nothing is attached (a daemon waiting for a module does
	 * not wake ten times a second for it): a tracepoint attached since wakes it */
	if (any_attached(s) && sd_event_source_get_enabled(s->drain, &on) >= 0 && on == SD_EVENT_OFF) {
		r = rearm(s->drain, usec + DRAIN_US);
		if (r < 0)
			return r;
	}
	return rearm(src, usec + TICK_US);
}

static int on_drain(sd_event_source *src, uint64_t usec, void *userdata)
{
	struct tp_set *s = userdata;

	/* also right after the last detach: the records written just before it woke nobody. A
	 * look at the ring buffer's positions, no system call when it is empty */
	if (s->rb)
		ring_buffer__consume(s->rb);	/* an error is the daemon's to see, on its own read */
	if (!any_attached(s))	/* then it sleeps (no wake-ups at rest): on_timer wakes it */
		return sd_event_source_set_enabled(src, SD_EVENT_OFF);
	return rearm(src, usec + DRAIN_US);
}

static int on_sigusr1(sd_event_source *src, const struct signalfd_siginfo *si, void *userdata)
{
	struct tp_set *s = userdata;
	(void)src;
	(void)si;

	for (unsigned i = 0; i < s->n; i++)
		tp_detach_logged(&s->tps[i], "SIGUSR1");
	return 0;
}

/* Parses vmlinux's BTF once and keeps it when a tracepoint is not in it (a module's, or
 * one not there yet): the attach at a module's load then reads only that module's BTF. */
static void keep_vmlinux_btf(struct tp_set *s)
{
	struct tracepoint probe = { 0 };

	s->vmlinux_btf = btf__load_vmlinux_btf();
	if (!s->vmlinux_btf)
		return;	/* each attach tries again, and says why it cannot */
	for (unsigned i = 0; i < s->n; i++) {
		if (tp_name_split(s->cfg->tracepoints[i].name, probe.system, sizeof(probe.system), probe.event,
				  sizeof(probe.event)) < 0)
			continue;
		if (tp_args_from_btf(&probe, s->vmlinux_btf) < 0)
			return;	/* not the kernel's own: keep it */
	}
	btf__free(s->vmlinux_btf);
	s->vmlinux_btf = NULL;
}

int tracepoints_start(struct tp_set *s, sd_event *ev, struct server *srv, struct event_ring *ring,
		      const struct daemon_config *cfg, struct ring_buffer *rb, int ringbuf_fd, int drops_fd)
{
	uint64_t now;
	sigset_t mask;
	int r;

	memset(s, 0, sizeof(*s));
	s->ev = ev;
	s->srv = srv;
	s->ring = ring;
	s->rb = rb;
	s->ringbuf_fd = ringbuf_fd;
	s->drops_fd = drops_fd;
	s->cfg = cfg;
	if (!cfg->ntracepoints)
		return 0;
	s->tps = calloc(cfg->ntracepoints, sizeof(*s->tps));
	if (!s->tps)
		return log_error_errno(-ENOMEM, "cannot allocate the table of %u tracepoints: %m", cfg->ntracepoints);
	s->n = cfg->ntracepoints;

	if (tp_tracefs_ready(s) < 0)
		log_error("%s; tracepoints are not consumed", s->tracefs_error);
	for (unsigned i = 0; i < s->n; i++) {
		s->tps[i].link_fd = s->tps[i].prog_fd = -1;
		s->tps[i].style = "raw_tp";
	}
	/* the watcher first: a module loaded after this is announced, one loaded before is
	 * found by the checks below */
	if (!s->tracefs_error[0])
		keep_vmlinux_btf(s);
	if (!s->tracefs_error[0] && s->ringbuf_fd >= 0)
		tp_watch_start(s);
	if (!s->watch) {
		btf__free(s->vmlinux_btf);
		s->vmlinux_btf = NULL;
	}
	for (unsigned i = 0; i < s->n; i++) {
		struct tracepoint *t = &s->tps[i];

		t->cfg = cfg->tracepoints[i];
		t->counter_arg = -1;
		t->period_ns = t->cfg.period_ns;
		snprintf(t->module, sizeof(t->module), "%s", t->cfg.module);	/* "waiting for module X" */
		if (tp_name_split(t->cfg.name, t->system, sizeof(t->system), t->event, sizeof(t->event)) < 0) {
			t->state = TP_INVALID;
			snprintf(t->error, sizeof(t->error), "not SYSTEM:EVENT (letters, digits and _ on both sides of one ':')");
			log_error("tracepoint '%s' is malformed: give SYSTEM:EVENT, e.g. " DEFAULT_TRACEPOINT "; the others are consumed", t->cfg.name);
			continue;
		}
		if (s->tracefs_error[0]) {
			/* said once above; irqlat --top shows it per tracepoint */
			t->state = TP_FAILED;
			snprintf(t->error, sizeof(t->error), "%s", s->tracefs_error);
			continue;
		}
		t->state = TP_WAITING;
		tp_check(s, t);	/* logs what it finds */
	}

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	r = sd_event_add_signal(ev, &s->sigusr1, SIGUSR1, on_sigusr1, s);
	if (r < 0)
		return log_error_errno(r, "cannot watch SIGUSR1: %m");
	sd_event_now(ev, CLOCK_MONOTONIC, &now);
	r = sd_event_add_time(ev, &s->timer, CLOCK_MONOTONIC, now + TICK_US, 10000, on_timer, s);
	if (r < 0)
		return log_error_errno(r, "cannot arm the tracepoint timer: %m");
	r = sd_event_add_time(ev, &s->drain, CLOCK_MONOTONIC, now + DRAIN_US, 10000, on_drain, s);
	if (r < 0)
		return log_error_errno(r, "cannot arm the tracepoint timer: %m");
	return 0;
}

void tracepoints_stop(struct tp_set *s)
{
	sd_event_source_disable_unref(s->timer);
	sd_event_source_disable_unref(s->sigusr1);
	sd_event_source_disable_unref(s->drain);
	tp_watch_stop(s);
	tp_journal_flush(s, UINT64_MAX);
	for (unsigned i = 0; i < s->n; i++)
		tp_detach(&s->tps[i]);
	btf__free(s->vmlinux_btf);
	free(s->tps);
	memset(s, 0, sizeof(*s));
}
