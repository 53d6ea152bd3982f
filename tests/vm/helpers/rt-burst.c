// SPDX-License-Identifier: GPL-2.0
/* A real-time task busy in bursts on one CPU: the known cause of late wake-ups that
 * tests/vm/initramfs/72-timerlat.sh makes for rtla's timerlat thread (the host's
 * tests/host/11-why-host.t does it with chrt, taskset and python3, which the initramfs guests
 * do not have).
 *
 *   rt-burst CPU PRIO BUSY_US PERIOD_US SECONDS
 *
 * Pins itself to CPU, takes SCHED_FIFO PRIO, then at the start of every PERIOD_US (absolute
 * CLOCK_MONOTONIC deadlines, so the bursts do not drift with the sleeps' own latency) spins on
 * the clock for BUSY_US and sleeps again, for SECONDS in all; a period missed is skipped. Prints "rt-burst: N bursts" at
 * the end. Exit 0, or 1 with one line on stderr. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static long arg(const char *s, const char *what, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "rt-burst: %s must be a whole number from %ld to %ld, not '%s'\n", what, lo, hi, s);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { 0 };
	unsigned long long busy_ns, period_ns, next, end;
	unsigned long bursts = 0;
	struct timespec ts;
	cpu_set_t set;
	int cpu;

	if (argc != 6) {
		fprintf(stderr, "usage: rt-burst CPU PRIO BUSY_US PERIOD_US SECONDS\n");
		return 1;
	}
	cpu = (int)arg(argv[1], "CPU", 0, CPU_SETSIZE - 1);
	sp.sched_priority = (int)arg(argv[2], "PRIO", 1, 99);
	busy_ns = (unsigned long long)arg(argv[3], "BUSY_US", 1, 1000000) * 1000;
	period_ns = (unsigned long long)arg(argv[4], "PERIOD_US", 1, 10000000) * 1000;
	end = mono_ns() + (unsigned long long)arg(argv[5], "SECONDS", 1, 3600) * 1000000000ULL;
	if (busy_ns >= period_ns) {
		fprintf(stderr, "rt-burst: BUSY_US must be shorter than PERIOD_US\n");
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "rt-burst: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
		return 1;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "rt-burst: cannot take SCHED_FIFO %d: %s\n", sp.sched_priority, strerror(errno));
		return 1;
	}
	for (next = mono_ns(); next < end; next += period_ns) {
		unsigned long long now;

		ts.tv_sec = (time_t)(next / 1000000000ULL);
		ts.tv_nsec = (long)(next % 1000000000ULL);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		while ((now = mono_ns()) < next + busy_ns)
			;
		bursts++;
		/* periods missed (a host that held the emulated CPU for longer than one) are skipped,
		 * as timerlat skips its own: one burst, not a catch-up of bursts back to back */
		while (next + period_ns < now)
			next += period_ns;
	}
	printf("rt-burst: %lu bursts\n", bursts);
	return 0;
}
