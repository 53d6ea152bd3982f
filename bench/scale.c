// SPDX-License-Identifier: GPL-2.0
/* irqlat-bench-scale: the daemon at scale without such a machine (make bench-scale, part of
 * make bench; docs/bench.md). For each size, in a child process of its own so that its memory
 * is its own, H handlers on C CPUs write synthetic runs into a cell pool of the daemon's
 * layout (struct lat_cell and its metadata, in memory, as the BPF programs fill the mmap'ed
 * maps: tests/unit/daemon/fake_bpf.h), and the real collector ticks over it and the real
 * answers are built and serialized as the socket sends them. Each handler fires on two CPUs
 * (h mod C and h + 1 mod C, or the one there is), every tick, RUNS runs with log-normal
 * durations around a median of its own (1 to 30 us). The pool is the one irqlatd sizes for C
 * CPUs, by the same function (default_max_cells(): 32 cells a CPU for handlers, at least
 * 1024, and 30 a CPU for softirqs and vector interrupts); its handlers' part is full at 4096
 * handlers on 256 CPUs; the softirq and vector cells stay empty (hard-IRQ cells only). After
 * WARM ticks (the 60 s window full), it prints
 *   scale: handlers H cpus C rss_mib R tick_ms T answer_ms A
 * R: the peak RSS (VmHWM) of the child, cells included, which the daemon maps from the kernel,
 * with one /metrics page and one journal summary made along the way, as the daemon makes them;
 * T: the median of the collector_tick() times; A: the median time to build and serialize the
 * 60 s summary (the answer that reads the most ticks). No privileges needed.
 * Usage: irqlat-bench-scale [H C]...   (default: 8 2  256 64  4096 256). Exit 1 on failure. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <json-c/json.h>
#include "daemon/collect.h"
#include "daemon/config.h"
#include "daemon/journal.h"
#include "daemon/log.h"
#include "daemon/metrics.h"
#include "daemon/report.h"
#include "daemon/heap.h"
#include "../tests/unit/daemon/fake_bpf.h"

#define RUNS 64		/* runs per cell per tick */
#define WARM 60		/* ticks before measuring: the longest window's */
#define MEASURE 20	/* ticks measured */

static uint64_t rng_state = 0x5ca1ab1e2026ull;

static uint64_t rng_next(void)	/* splitmix64 */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double rng_normal(void)
{
	double u = ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static double ms_since(uint64_t t0)
{
	return (double)(now_ns() - t0) / 1e6;
}

static long status_kib(const char *key)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	fclose(f);
	return v;
}

static int run(unsigned handlers, unsigned cpus)
{
	uint32_t pool = default_max_cells(cpus, MAX_WAKEUP_CELLS_DEFAULT), ncells = 0;
	struct fake_bpf bpf;
	struct collector c;
	double tick_ms[MEASURE], answer_ms[MEASURE];
	uint32_t *cells = calloc((size_t)handlers * 2, sizeof(*cells));
	double *median_ns = calloc(handlers, sizeof(*median_ns));
	size_t answer_len = 0, page_len = 0;
	double page_ms = 0;
	struct summary_state summary;

	if (!cells || !median_ns)
		return -ENOMEM;
	fake_bpf_init(&bpf, pool);
	bpf.l.ncpus = cpus;	/* as the loader finds them */
	if (!bpf.cells || !bpf.meta || collector_init(&c, &bpf.l) < 0)
		return -ENOMEM;
	for (unsigned h = 0; h < handlers; h++) {
		char name[IRQ_NAME_LEN];

		snprintf(name, sizeof(name), "dev%u-q%u", h / 8, h % 8);
		median_ns[h] = 1000 * exp(log(30) * (double)(rng_next() % 1000) / 1000.0);
		for (unsigned k = 0; k < (cpus > 1 ? 2u : 1u) && ncells < pool; k++)
			cells[ncells++] = fake_bpf_new_cell(&bpf, 32 + h, (h + k) % cpus, 0xffff888000000000ull + 64ull * h, name);
	}
	for (unsigned t = 0; t < WARM + MEASURE; t++) {
		for (uint32_t i = 0; i < ncells; i++) {
			double m = median_ns[(i < handlers * 2 ? i : 0) / (cpus > 1 ? 2 : 1)];

			for (unsigned r = 0; r < RUNS; r++)
				fake_bpf_run(&bpf, cells[i], (uint64_t)(m * exp(0.3 * rng_normal())), r == 0);
		}
		uint64_t t0 = now_ns();

		collector_tick(&c);
		if (t >= WARM)
			tick_ms[t - WARM] = ms_since(t0);
		if (t < WARM)
			continue;
		t0 = now_ns();
		json_object *o = report_summary(&c, WINDOW_60S);
		const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

		answer_len = strlen(s);
		json_object_put(o);
		heap_after_answer(answer_len);	/* as the daemon's socket does */
		answer_ms[t - WARM] = ms_since(t0);
		if (t == WARM) {	/* a scrape and a periodic summary, for their memory */
			struct metrics_sources src = { .col = &c };

			t0 = now_ns();
			free(metrics_render(&src, &page_len));
			page_ms = ms_since(t0);
			summary_init(&summary, now_ns());
			journal_summary(&summary, &c, 0, 0);
		} else if (t == WARM + 1) {
			journal_summary(&summary, &c, 0, 0);
		}
	}
	size_t store = 0;
	for (unsigned t = 0; t < WINDOW_TICKS_MAX; t++)
		store += c.ticks[t].cap;
	printf("scale: handlers %u cpus %u rss_mib %.1f tick_ms %.2f answer_ms %.2f\n", handlers, cpus,
	       (double)status_kib("VmHWM:") / 1024, median(tick_ms, MEASURE), median(answer_ms, MEASURE));
	printf("#   %u cells of a pool of %u (%.1f MiB of cells, as mapped from the kernel); %u series; the 60 ticks' store %.1f MiB; the answer %zu bytes; a /metrics page %zu bytes in %.1f ms; steady RSS %.1f MiB\n",
	       ncells, pool, (double)pool * (sizeof(struct lat_cell) + sizeof(struct lat_cell_meta)) / (1 << 20),
	       c.nseries, (double)store / (1 << 20), answer_len, page_len, page_ms, (double)status_kib("VmRSS:") / 1024);
	fflush(stdout);
	summary_free(&summary);
	collector_free(&c);
	fake_bpf_free(&bpf);
	free(cells);
	free(median_ns);
	return 0;
}

int main(int argc, char **argv)
{
	static const unsigned sizes[][2] = { { 8, 2 }, { 256, 64 }, { 4096, 256 } };
	unsigned n = argc > 1 ? (unsigned)(argc - 1) / 2 : 3, rc = 0;

	if (argc > 1 && argc % 2 == 0) {
		fprintf(stderr, "usage: irqlat-bench-scale [HANDLERS CPUS]...\n");
		return 2;
	}
	log_setup(LOG_TARGET_STDERR, LOG_WARNING);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (unsigned i = 0; i < n; i++) {
		unsigned h = argc > 1 ? (unsigned)atoi(argv[1 + 2 * i]) : sizes[i][0];
		unsigned cp = argc > 1 ? (unsigned)atoi(argv[2 + 2 * i]) : sizes[i][1];
		int status;
		pid_t pid;

		if (!h || !cp) {
			fprintf(stderr, "irqlat-bench-scale: HANDLERS and CPUS are positive integers\n");
			return 2;
		}
		pid = fork();
		if (pid < 0) {
			perror("irqlat-bench-scale: fork");
			return 1;
		}
		if (pid == 0)
			_exit(run(h, cp) < 0 ? 1 : 0);
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "irqlat-bench-scale: the run of %u handlers on %u CPUs failed\n", h, cp);
			rc = 1;
		}
	}
	return (int)rc;
}
