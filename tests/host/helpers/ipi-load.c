// SPDX-License-Identifier: GPL-2.0
/* Function-call IPIs (CAL in /proc/interrupts) on demand, for tests/host/13-vectors.t: one
 * thread pinned on CPU B keeps touching a page of a shared mapping, so the process's mm is
 * live there; the main thread, pinned on CPU A, asks the kernel for an expedited private
 * memory barrier (membarrier(2)), which it carries out with a function-call IPI to every CPU
 * running the mm (smp_call_function_many), and changes that mapping's protection, which must
 * flush CPU B's TLB (x86: flush_tlb_mm_range). The barrier is what makes the IPIs here: on a
 * paravirtualized guest (this project's machines, "Hypervisor detected: PVM") remote TLB
 * flushes go through the hypervisor and raise no IPI at all (0 to 5 CAL in 2 s of
 * protection changes), where the barrier raised about 15,000 per 200,000 calls.
 * Usage: ipi-load CPU_A CPU_B SECONDS; prints the rounds (barrier + protection change) made. */
#define _GNU_SOURCE
#include <pthread.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_int stop;
static volatile char *page;

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *toucher(void *arg)
{
	if (pin(*(int *)arg) < 0) {
		perror("ipi-load: sched_setaffinity");
		exit(1);
	}
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		(void)page[0];	/* a read: allowed under both protections */
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec t0, t;
	long changes = 0;
	pthread_t th;
	int cpu_b;

	if (argc != 4) {
		fprintf(stderr, "usage: ipi-load CPU_A CPU_B SECONDS\n");
		return 2;
	}
	cpu_b = atoi(argv[2]);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED || pin(atoi(argv[1])) < 0) {
		perror("ipi-load");
		return 1;
	}
	page[0] = 1;	/* populated: every protection change has a PTE to flush */
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) < 0) {
		perror("ipi-load: membarrier register");
		return 1;
	}
	if (pthread_create(&th, NULL, toucher, &cpu_b)) {
		perror("ipi-load: pthread_create");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) < 0) {
			perror("ipi-load: membarrier");
			return 1;
		}
		mprotect((void *)page, 4096, changes & 1 ? PROT_READ | PROT_WRITE : PROT_READ);
		changes++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < atof(argv[3]));
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	printf("%ld\n", changes);
	return 0;
}
