/* SPDX-License-Identifier: GPL-2.0 */
/* The service manager protocol (sd_notify): READY=1 once programs are attached and the socket
 * listens, STATUS= kept current, RELOADING=1/READY=1 around a reload, STOPPING=1, and the
 * watchdog, which the event loop itself pings (sd_event_set_watchdog). Without NOTIFY_SOCKET
 * (not started by systemd) all of these do nothing. */
#ifndef IRQLAT_NOTIFY_H
#define IRQLAT_NOTIFY_H

#include <systemd/sd-event.h>

/* Turns the watchdog on when systemd asked for one (WATCHDOG_USEC); 0 or negative errno. */
int notify_watchdog(sd_event *ev);
void notify_ready(const char *status);
/* Sends STATUS= when it differs from the last one sent. */
void notify_status(const char *status);
void notify_reloading(void);
void notify_stopping(void);

#endif
