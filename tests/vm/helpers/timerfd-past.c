// SPDX-License-Identifier: GPL-2.0
/* Timers armed with an expiry already gone: the case bpf/timer.bpf.c's started_ns is for.
 * sd-event arms "at once" as an absolute 1 ns; a CLOCK_REALTIME timer may be set to a date
 * past. A thread blocks in read() on a timerfd; then the main thread arms it with an absolute
 * expiry of 1 ns, CLOCK_MONOTONIC and CLOCK_REALTIME by turns, N times. The kernel runs
 * timerfd_tmrproc as soon as the timer is armed, and its wake-up of the reader ends the read.
 * Each one is bracketed by this program's own clock, from just before the arming to just
 * after read() returned: a span that holds the callback and the reader's wait for its CPU.
 * Used by tests/host/26-timer-armed-past.t and tests/vm/initramfs/71-timers-armed-past.sh.
 *
 *   timerfd-past N
 *
 * Prints "tid TID n N max_ns NS" (TID: the reader's thread id, NS: the longest span). Exit 0,
 * or 1 with one line on stderr. */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/timerfd.h>

static int fds[2];
static long n;
static sem_t go, done;
static pid_t reader_tid;
static uint64_t read_ns;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *reader(void *unused)
{
	uint64_t expirations;

	(void)unused;
	reader_tid = gettid();
	for (long i = 0; i < n; i++) {
		sem_wait(&go);
		if (read(fds[i % 2], &expirations, sizeof(expirations)) != sizeof(expirations)) {
			perror("timerfd-past: read");
			exit(1);
		}
		read_ns = mono_ns();
		sem_post(&done);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const struct itimerspec past = { .it_value = { .tv_sec = 0, .tv_nsec = 1 } };	/* the epoch's first ns */
	const struct timespec settle = { .tv_nsec = 5000000 };
	uint64_t max = 0;
	pthread_t t;

	n = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
	if (n <= 0) {
		fprintf(stderr, "usage: timerfd-past N\n");
		return 1;
	}
	fds[0] = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	fds[1] = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC);
	if (fds[0] < 0 || fds[1] < 0 || sem_init(&go, 0, 0) || sem_init(&done, 0, 0) ||
	    pthread_create(&t, NULL, reader, NULL)) {
		perror("timerfd-past");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		uint64_t armed;

		sem_post(&go);
		nanosleep(&settle, NULL);	/* the reader is asleep in read() by now, emulated too */
		armed = mono_ns();
		if (timerfd_settime(fds[i % 2], TFD_TIMER_ABSTIME, &past, NULL) < 0) {
			perror("timerfd-past: timerfd_settime");
			return 1;
		}
		sem_wait(&done);
		if (read_ns - armed > max)
			max = read_ns - armed;
	}
	pthread_join(t, NULL);
	printf("tid %d n %ld max_ns %llu\n", (int)reader_tid, n, (unsigned long long)max);
	return 0;
}
