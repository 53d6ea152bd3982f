// SPDX-License-Identifier: GPL-2.0
/* Task churn for 64-metrics-churn.t: N short-lived sleepers, at most P alive at once, each a
 * child that sleeps MS ms (default 1) three times (clock_nanosleep: three hrtimer_wakeup
 * wake-ups) and exits. Prints the children started and those that exited 0: every one is a
 * task irqlatd gave wake-up cells to, that then exited.  Usage: churn N P [MS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000, p = argc > 2 ? atol(argv[2]) : 32, alive = 0, started = 0, ok = 0;
	long ms = argc > 3 ? atol(argv[3]) : 1;
	int st;

	while (started < n || alive) {
		if (started < n && alive < p) {
			pid_t c = fork();

			if (c == 0) {
				struct timespec t = { ms / 1000, ms % 1000 * 1000000 };

				for (int i = 0; i < 3; i++)
					nanosleep(&t, NULL);
				_exit(0);
			}
			if (c > 0) {
				started++;
				alive++;
				continue;
			}
		}
		if (wait(&st) > 0) {
			alive--;
			ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
		}
	}
	printf("%ld %ld\n", started, ok);
	return 0;
}
