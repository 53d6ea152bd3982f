// SPDX-License-Identifier: GPL-2.0
/* The kernel's own interrupt counts, read over and over with CLOCK_MONOTONIC stamps around
 * each reading, for the guest checks that bracket irqlatd's snapshots with them
 * (tests/vm/initramfs/65-counts.sh; on the host, tests/host/helpers/snapshot_bracket.py does
 * the same in Python, which the initramfs guests do not have).
 *
 *   proc-sample SECONDS
 *
 * One line per reading, every millisecond or so, for SECONDS at most, or until SIGTERM or
 * SIGINT, which end it after its reading in progress (the caller stops it once it has what it
 * came for, however slow the guest was):
 *   T0 T1 S:NAME=COUNT ... I:NAME=COUNT ...
 * T0/T1: CLOCK_MONOTONIC ns before and after reading /proc/softirqs (S:, each vector summed
 * over the CPUs) and /proc/interrupts (I:, each row's per-CPU columns summed: numbered IRQs
 * and the named ones, LOC, CAL...). irqlatd's snapshot_begin_ns/snapshot_end_ns are
 * CLOCK_MONOTONIC too. Exit 0, or 1 with one line on stderr. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t stopped;

static void on_stop(int sig)
{
	(void)sig;
	stopped = 1;
}

static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* Reads all of PATH into buf (the files are a few KiB); returns its length or -1. */
static long slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = 0;
	return (long)n;
}

/* Each row after the header: "NAME: c0 c1 ... [chip and handler names]"; the leading
 * numbers (at most ncpu of them) are summed. */
static void print_rows(const char *tag, char *text)
{
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	int ncpu = 0;

	for (char *h = line; h && *h; ) {	/* the header: one CPUn per online CPU */
		while (*h == ' ')
			h++;
		if (!*h)
			break;
		ncpu++;
		while (*h && *h != ' ')
			h++;
	}
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *p = line, *colon, *end;
		unsigned long long sum = 0;

		while (*p == ' ')
			p++;
		colon = strchr(p, ':');
		if (!colon)
			continue;
		*colon = 0;
		end = colon + 1;
		for (int i = 0; i < ncpu; i++) {
			unsigned long long v;

			errno = 0;
			v = strtoull(end, &p, 10);
			if (p == end || errno)
				break;
			sum += v;
			end = p;
		}
		printf(" %s:%s=%llu", tag, line + strspn(line, " "), sum);
	}
}

int main(int argc, char **argv)
{
	static char soft[1 << 16], intr[1 << 18];
	unsigned long long stop, t0, t1;
	struct timespec pause = { 0, 1000000 };
	double secs;

	if (argc != 2 || (secs = strtod(argv[1], NULL)) <= 0) {
		fprintf(stderr, "usage: proc-sample SECONDS\n");
		return 1;
	}
	/* no SA_RESTART: the pause ends at the signal */
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	stop = mono_ns() + (unsigned long long)(secs * 1e9);
	do {
		t0 = mono_ns();
		if (slurp("/proc/softirqs", soft, sizeof(soft)) < 0 || slurp("/proc/interrupts", intr, sizeof(intr)) < 0) {
			fprintf(stderr, "proc-sample: cannot read /proc/softirqs or /proc/interrupts: %s\n", strerror(errno));
			return 1;
		}
		t1 = mono_ns();
		printf("%llu %llu", t0, t1);
		print_rows("S", soft);
		print_rows("I", intr);
		putchar('\n');
		nanosleep(&pause, NULL);
	} while (t1 < stop && !stopped);
	return fflush(stdout) ? 1 : 0;
}
