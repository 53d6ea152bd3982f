/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat's one "stop" flag: SIGINT and SIGTERM (and SIGHUP on the screen) set it, every loop
 * (batch snapshots, repeats, events, the screen) checks it and ends cleanly. */
#ifndef IRQLAT_STOP_H
#define IRQLAT_STOP_H

#include <stdbool.h>

/* Catches sig to set the flag. Without SA_RESTART: a blocking read() or send() returns EINTR
 * at once (poll() and nanosleep() do in any case), so the loop sees the flag. */
void stop_on_signal(int sig);
bool stop_requested(void);

#endif
