// SPDX-License-Identifier: GPL-2.0
/* irqlat-bench-scale: the daemon at scale without such a machine (make bench-scale, part of
 * make bench; docs/bench.md). For each size, in a child process of its own so that its memory
 * is its own, H handlers on C CPUs write synthetic runs into a cell pool of the daemon's
 * layout (struct lat_cell and its metadata, in memory, as the BPF programs fill the mmap'ed
 * maps: tests/unit/daemon/fake_bpf.h), and the real collector ticks over it and the real
 * answers are built and serialized as the socket sends them. Every kind irqlatd measures by
 * default has cells, each firing every tick, RUNS runs with log-normal values around a median
 * of its own (1 to 30 us):
 *   hard IRQs     H handlers, each on two CPUs (h mod C and h + 1 mod C, or the one there is)
 *   softirqs      every vector on every CPU, run time and raise latency
 *   vectors       every label on every CPU
 *   timers        TIMER_FNS timer functions, each on two CPUs, named from a kallsyms of the
 *                 bench's own (ksym.c reads it as it reads /proc/kallsyms)
 *   wake-ups      WOKEN tasks, each on one CPU (a cell of its own: the default max-wakeup-cells),
 *                 and every CPU's all-tasks cell
 * and, once the window is full, the explained waits the daemon keeps (every CPU's share of
 * them, each with a whole timeline and both stacks) and the event history filled with such
 * outliers' JSON, up to its bounds (EVENT_RING_DEFAULT events, EVENT_RING_BYTES of text)
 * (threaded IRQs only on a kernel with threadirqs: not in the model). The pool is the one
 * irqlatd sizes for C CPUs, by the same function (default_max_cells()); its handlers' part is
 * full at 4096 handlers on 256 CPUs. After WARM ticks (the 60 s window full), it prints
 *   scale: handlers H cpus C rss_mib R tick_ms T answer_ms A
 * R: the peak RSS (VmHWM) of the child, cells included, which the daemon maps from the kernel,
 * with one /metrics page (its snapshot, then its text a piece at a time, as metrics_http.c sends
 * it) and one journal summary made along the way, as the daemon makes them;
 * T: the median of the collector_tick() times; A: the median time to build and serialize the
 * 60 s summary (the answer that reads the most ticks). Then a target line for the size the budget
 * is for: at 4096 handlers on 256 CPUs, every kind, the peak at most SCALE_BUDGET_MIB. No
 * privileges needed.
 * Usage: irqlat-bench-scale [H C]...   (default: 8 2  256 64  4096 256). Exit 1 on failure. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <json-c/json.h>
#include "common/why.h"
#include "daemon/collect/collect.h"
#include "daemon/collect/why.h"
#include "daemon/sinks/event_ring.h"
#include "daemon/config/config.h"
#include "daemon/sinks/journal.h"
#include "daemon/base/log.h"
#include "daemon/sinks/metrics_stream.h"
#include "daemon/sinks/report.h"
#include "daemon/base/heap.h"
#include "daemon/system/ksym.h"
#include "../tests/unit/daemon/fake_bpf.h"

#define RUNS 64		/* runs per cell per tick */
#define WARM 60		/* ticks before measuring: the longest window's */
#define MEASURE 20	/* ticks measured */
#define TIMER_FNS 300	/* hrtimer functions that fire, each on two CPUs */
#define WOKEN MAX_WAKEUP_CELLS_DEFAULT	/* tasks woken by their timers, each with a cell */
#define SCALE_BUDGET_MIB 64	/* the peak at 4096 handlers x 256 CPUs, every kind */
#define KSYM_BASE 0xffffffff81000000ull	/* the model's timer functions, 64 bytes apart */

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

/* One cell of the model: which, and the median of its values */
struct model_cell {
	uint32_t cell;
	double median_ns;
};

static double some_median(void)	/* 1 to 30 us, log-uniform */
{
	return 1000 * exp(log(30) * (double)(rng_next() % 1000) / 1000.0);
}

/* A kallsyms of the model's timer functions, for ksym.c to name them from */
static int write_kallsyms(char *path)
{
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f)
		return -errno;
	for (unsigned i = 0; i < TIMER_FNS; i++)
		fprintf(f, "%016llx t timer_fn_%u\n", (unsigned long long)(KSYM_BASE + 64ull * i), i);
	return fclose(f) ? -errno : 0;
}

/* An explained wait as large as one gets: a whole timeline, both stacks at their longest */
static void big_wait(struct why_named *w, unsigned cpu, uint64_t ts)
{
	memset(w, 0, sizeof(*w));
	w->cls = WHY_CLASS_WAKEUP;
	w->ts_ns = ts;
	w->total_ns = 2000000;
	w->part_ns[WHY_BLOCKING] = 2000000;
	w->cpu = w->wake_cpu = cpu;
	w->pid = 1000 + cpu;
	snprintf(w->comm, sizeof(w->comm), "sleeper%u", cpu % 10000);
	w->blocker_pid = 2000 + cpu;
	snprintf(w->blocker_comm, sizeof(w->blocker_comm), "hog%u", cpu % 10000);
	w->start_ns = ts - w->total_ns;
	for (w->ntl = 0; w->ntl < WHY_TIMELINE_MAX; w->ntl++) {
		struct why_tl *e = &w->tl[w->ntl];

		e->t_ns = (int64_t)w->ntl * 40000;
		e->type = FL_IRQ;
		e->a = 5000;
		snprintf(e->name, sizeof(e->name), "IRQ %u dev%u-q%u", 32 + w->ntl, w->ntl / 8, w->ntl % 8);
	}
	w->stack_pid = w->blocker_pid;
	for (size_t off = 0; off + 40 < sizeof(w->kstack);)
		off += (size_t)snprintf(w->kstack + off, sizeof(w->kstack) - off, "%sa_kernel_function_%02zu+0x1f", off ? ";" : "", off / 40);
	for (size_t off = 0; off + 80 < sizeof(w->ustack);)
		off += (size_t)snprintf(w->ustack + off, sizeof(w->ustack) - off, "%s/usr/lib/x86_64-linux-gnu/libsomething.so.6+0x%06zx", off ? ";" : "", off);
}

static int run(unsigned handlers, unsigned cpus)
{
	uint32_t pool = default_max_cells(cpus, MAX_WAKEUP_CELLS_DEFAULT), ncells = 0;
	unsigned per_kind[KINDS] = { 0 };
	struct fake_bpf bpf;
	struct collector c;
	double tick_ms[MEASURE], answer_ms[MEASURE];
	struct model_cell *cells = calloc(pool, sizeof(*cells));
	size_t answer_len = 0, page_len = 0, page_held = 0;
	double page_ms = 0;
	struct summary_state summary;
	char ksyms[] = "/tmp/irqlat-bench-scale.XXXXXX";
	long ticks_kib = 0, answer_kib = 0;

	if (!cells)
		return -ENOMEM;
	if (write_kallsyms(ksyms) < 0)
		return -errno;
	ksym_set_path(ksyms);
	fake_bpf_init(&bpf, pool);
	bpf.l.ncpus = cpus;	/* as the loader finds them */
	if (!bpf.cells || !bpf.meta || collector_init(&c, &bpf.l) < 0)
		return -ENOMEM;
#define ADD(kind, expr) do {								\
		if (ncells < pool) {							\
			cells[ncells].median_ns = some_median();			\
			cells[ncells++].cell = (expr);					\
			per_kind[kind]++;						\
		}								\
	} while (0)
	for (unsigned h = 0; h < handlers; h++) {
		char name[IRQ_NAME_LEN];
		double m = some_median();

		snprintf(name, sizeof(name), "dev%u-q%u", h / 8, h % 8);
		for (unsigned k = 0; k < (cpus > 1 ? 2u : 1u); k++) {
			ADD(KIND_HARDIRQ, fake_bpf_new_cell(&bpf, 32 + h, (h + k) % cpus, 0xffff888000000000ull + 64ull * h, name));
			cells[ncells - 1].median_ns = m;	/* one handler, one median on every CPU */
		}
	}
	for (unsigned cpu = 0; cpu < cpus; cpu++) {
		for (unsigned v = 0; v < SOFTIRQ_VECTORS; v++) {
			ADD(KIND_SOFTIRQ, fake_bpf_new_kind_cell(&bpf, KIND_SOFTIRQ, v, cpu));
			ADD(KIND_SOFTIRQ_RAISE, fake_bpf_new_kind_cell(&bpf, KIND_SOFTIRQ_RAISE, v, cpu));
		}
		for (unsigned v = 0; v < VECTOR_LABELS; v++)
			ADD(KIND_VECTOR, fake_bpf_new_kind_cell(&bpf, KIND_VECTOR, v, cpu));
		ADD(KIND_WAKEUP_CPU, fake_bpf_new_id_cell(&bpf, KIND_WAKEUP_CPU, cpu, cpu, cpu, NULL));
	}
	for (unsigned f = 0; f < TIMER_FNS; f++)
		for (unsigned k = 0; k < (cpus > 1 ? 2u : 1u); k++)
			ADD(KIND_TIMER, fake_bpf_new_id_cell(&bpf, KIND_TIMER, KSYM_BASE + 64ull * f, (f + k) % cpus, (f + k) % cpus, NULL));
	for (unsigned t = 0; t < WOKEN; t++) {
		char comm[IRQ_NAME_LEN];

		snprintf(comm, sizeof(comm), "sleeper%u", t);
		ADD(KIND_WAKEUP, fake_bpf_new_id_cell(&bpf, KIND_WAKEUP, 1000 + t, 1000 + t, t % cpus, comm));
	}
#undef ADD
	for (unsigned t = 0; t < WARM + MEASURE; t++) {
		for (uint32_t i = 0; i < ncells; i++)
			for (unsigned r = 0; r < RUNS; r++)
				fake_bpf_run(&bpf, cells[i].cell, (uint64_t)(cells[i].median_ns * exp(0.3 * rng_normal())), r == 0);
		uint64_t t0 = now_ns();

		collector_tick(&c);
		if (t >= WARM)
			tick_ms[t - WARM] = ms_since(t0);
		if (t == WARM - 1)
			ticks_kib = status_kib("VmRSS:");
		if (t < WARM)
			continue;
		t0 = now_ns();
		json_object *o = report_summary(&c, WINDOW_60S);
		const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

		if (t == WARM)
			answer_kib = status_kib("VmRSS:");

		answer_len = strlen(s);
		json_object_put(o);
		heap_after_answer(answer_len);	/* as the daemon's socket does */
		answer_ms[t - WARM] = ms_since(t0);
		if (t == WARM) {	/* a scrape and a periodic summary, for their memory */
			struct metrics_sources src = { .col = &c };
			struct metrics_stream *page;
			static char piece[METRICS_STREAM_BLOCK];
			ssize_t n;

			/* as metrics_http.c serves it: the snapshot, then the page piece by piece */
			t0 = now_ns();
			if (metrics_stream_new(&src, METRICS_TEXT, &page) < 0)
				return -ENOMEM;
			while ((n = metrics_stream_read(page, piece, sizeof(piece))) > 0) {
				page_len += (size_t)n;
				if (metrics_stream_held(page) > page_held)
					page_held = metrics_stream_held(page);
			}
			metrics_stream_free(page);
			if (n < 0)
				return -ENOMEM;
			page_ms = ms_since(t0);
			summary_init(&summary, now_ns());
			journal_summary(&summary, &c, 0, 0);
		} else if (t == WARM + 1) {
			journal_summary(&summary, &c, 0, 0);
		}
	}
	/* the explained waits and the event history, full (they fill as outliers come) */
	struct why_store why;
	struct event_ring ring;
	static struct why_named w;
	long before_why_kib = status_kib("VmRSS:"), why_kib, ring_kib;

	if (why_store_init(&why, cpus) < 0 || event_ring_init(&ring, EVENT_RING_DEFAULT) < 0)
		return -ENOMEM;
	for (unsigned cpu = 0; cpu < cpus; cpu++)
		for (unsigned i = 0; i < why.per_cpu; i++) {
			big_wait(&w, cpu, 1000000000ull + i);
			why_add(&why, &w, true);
		}
	why_kib = status_kib("VmRSS:") - before_why_kib;
	for (unsigned i = 0; i < EVENT_RING_DEFAULT; i++) {
		json_object *o = why_json(&w);

		event_ring_add(&ring, o, 1000 + i);
		json_object_put(o);
	}
	ring_kib = status_kib("VmRSS:") - before_why_kib - why_kib;
	size_t store = 0;
	for (unsigned t = 0; t < WINDOW_TICKS_MAX; t++)
		store += c.ticks[t].len;	/* what it holds (the capacity past it is not touched) */
	double peak = (double)status_kib("VmHWM:") / 1024;

	printf("scale: handlers %u cpus %u rss_mib %.1f tick_ms %.2f answer_ms %.2f\n", handlers, cpus,
	       peak, median(tick_ms, MEASURE), median(answer_ms, MEASURE));
	printf("#   %u cells of a pool of %u (%.1f MiB of cells, as mapped from the kernel): %u hard-IRQ, %u softirq, %u softirq raise, %u vector, %u timer, %u wake-up, %u per-CPU wake-up; %u series; the 60 ticks' store %.1f MiB; RSS %.1f MiB after them, %.1f MiB with the 60 s answer built and serialized (%zu bytes); a /metrics page %zu bytes in %.1f ms (sent in pieces from a snapshot of %.1f MiB); steady RSS %.1f MiB; the explained waits %.1f MiB (%u a CPU), the event history %.1f MiB (%u events, %.1f MiB of text)\n",
	       ncells, pool, (double)pool * (sizeof(struct lat_cell) + sizeof(struct lat_cell_meta)) / (1 << 20),
	       per_kind[KIND_HARDIRQ], per_kind[KIND_SOFTIRQ], per_kind[KIND_SOFTIRQ_RAISE], per_kind[KIND_VECTOR],
	       per_kind[KIND_TIMER], per_kind[KIND_WAKEUP], per_kind[KIND_WAKEUP_CPU],
	       c.nseries, (double)store / (1 << 20), (double)ticks_kib / 1024, (double)answer_kib / 1024, answer_len, page_len,
	       page_ms, (double)page_held / (1 << 20), (double)status_kib("VmRSS:") / 1024, (double)why_kib / 1024, why.per_cpu,
	       (double)ring_kib / 1024, ring.len, (double)ring.bytes / (1 << 20));
	if (handlers == 4096 && cpus == 256)
		printf("target: 4096 handlers x 256 CPUs, every kind, peak RSS <= %d MiB: %.1f MiB  %s\n", SCALE_BUDGET_MIB,
		       peak, peak <= SCALE_BUDGET_MIB ? "PASS" : "FAIL");
	fflush(stdout);
	summary_free(&summary);
	why_store_free(&why);
	event_ring_free(&ring);
	collector_free(&c);
	fake_bpf_free(&bpf);
	free(cells);
	unlink(ksyms);
	ksym_free();
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
