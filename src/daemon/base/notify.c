// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include "daemon/base/log.h"
#include "daemon/base/notify.h"

static char last_status[256];

int notify_watchdog(sd_event *ev)
{
	uint64_t usec = 0;
	int r;

	r = sd_event_set_watchdog(ev, 1);
	if (r < 0)
		return log_error_errno(r, "cannot arm the systemd watchdog (WATCHDOG_USEC=%s): %m",
				       getenv("WATCHDOG_USEC") ?: "");
	if (r > 0 && sd_watchdog_enabled(0, &usec) > 0)
		log_debug("systemd watchdog on: the event loop pings it every %llu ms",
			  (unsigned long long)(usec / 2000));
	return 0;
}

static void send_state(const char *state)
{
	int r = sd_notify(0, state);

	/* under systemd a lost READY=1 means a start timeout later: say why now */
	if (r < 0)
		log_warning_errno(r, "cannot notify the service manager (%s): %m", getenv("NOTIFY_SOCKET") ?: "");
}

void notify_ready(const char *status)
{
	char buf[300];

	snprintf(buf, sizeof(buf), "READY=1\nSTATUS=%s", status);
	snprintf(last_status, sizeof(last_status), "%s", status);
	send_state(buf);
}

void notify_status(const char *status)
{
	char buf[300];

	if (!strcmp(status, last_status))
		return;
	snprintf(last_status, sizeof(last_status), "%s", status);
	snprintf(buf, sizeof(buf), "STATUS=%s", status);
	send_state(buf);
}

void notify_reloading(void)
{
	send_state("RELOADING=1\nSTATUS=reloading the configuration");
	last_status[0] = 0;
}

void notify_stopping(void)
{
	send_state("STOPPING=1\nSTATUS=stopping");
}
