// SPDX-License-Identifier: GPL-2.0
#include <signal.h>
#include "stop.h"

/* a signal handler can reach nothing but a global */
static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

void stop_on_signal(int sig)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

bool stop_requested(void)
{
	return stop;
}
