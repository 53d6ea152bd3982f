// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <time.h>
#include "daemon/base/listen_pause.h"
#include "daemon/base/log.h"

bool accept_error_is_resource(int err)
{
	return err == -EMFILE || err == -ENFILE || err == -ENOBUFS || err == -ENOMEM;
}

void listen_pause_init(struct listen_pause *p, sd_event_source *io, const char *what)
{
	*p = (struct listen_pause){ .io = io, .what = what };
}

void listen_pause_resume(struct listen_pause *p)
{
	if (!p->paused)
		return;
	p->paused = false;
	if (p->timer)
		(void)sd_event_source_set_enabled(p->timer, SD_EVENT_OFF);
	/* a failure here leaves it paused until the timer; the next close tries again */
	if (sd_event_source_set_enabled(p->io, SD_EVENT_ON) < 0)
		p->paused = true;
}

static int on_pause_over(sd_event_source *s, uint64_t usec, void *userdata)
{
	(void)s;
	(void)usec;
	listen_pause_resume(userdata);
	return 0;
}

int listen_pause_start(struct listen_pause *p, int err, unsigned connections)
{
	sd_event *ev = sd_event_source_get_event(p->io);
	uint64_t now;
	int r;

	r = sd_event_source_set_enabled(p->io, SD_EVENT_OFF);
	if (r < 0)
		return log_error_errno(r, "cannot stop accepting on %s: %m", p->what);
	r = sd_event_now(ev, CLOCK_MONOTONIC, &now);
	if (r < 0)
		return r;
	/* one line per episode: a limit that lasts would otherwise log at every retry */
	if (!p->logged_us || now - p->logged_us >= LISTEN_PAUSE_LOG_US) {
		log_warning_errno(err, "cannot accept on %s: %m, with %u connections open; accepting again when one closes or in %d ms "
				  "(raise LimitNOFILE= or lower the connection limits, irqlatd(8) LIMITS)",
				  p->what, connections, LISTEN_PAUSE_US / 1000);
		p->logged_us = now;
	}
	p->paused = true;
	p->pauses++;
	if (!p->timer)
		r = sd_event_add_time(ev, &p->timer, CLOCK_MONOTONIC, now + LISTEN_PAUSE_US, 10000, on_pause_over, p);
	else if ((r = sd_event_source_set_time(p->timer, now + LISTEN_PAUSE_US)) >= 0)
		r = sd_event_source_set_enabled(p->timer, SD_EVENT_ONESHOT);
	if (r < 0)
		return log_error_errno(r, "cannot arm the accept pause timer of %s: %m", p->what);
	return 0;
}

void listen_pause_free(struct listen_pause *p)
{
	sd_event_source_disable_unref(p->timer);
	p->timer = NULL;
}
