// SPDX-License-Identifier: GPL-2.0
/* The JSON the daemon answers (summary, hist, status), built over a hand-made collector whose
 * per-tick histograms and tick times the test knows, serialized as the server sends it and
 * parsed back with json-c. The client's side, table_rows(), is tests/unit/client/test_table.c.
 * Beside the cells: a window without runs has null latencies, a storm (storm.c) and the CPU
 * lists (cpu_topology.c, from files the test writes under a root of its own) are passed on. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../fake_bpf.h"
#include "../../helpers/hist_sample.h"
#include "../../helpers/json_fields.h"
#include "daemon/system/ksym.h"
#include "daemon/sinks/report.h"

#define NTICKS 12	/* fewer than WINDOW_TICKS_MAX: the windows reach back to the start */
#define NHANDLERS 3
#define NS 1000000000ull

/* What the test fed in, per handler and tick: the reference the answers are checked against. */
struct expect {
	struct hist tick[NTICKS], total;
	uint64_t cpu_tick[2][NTICKS], cpu_total[2];
};

struct fixture {
	struct fake_bpf bpf;
	struct collector c;
	uint32_t cell[NHANDLERS][2];
	struct expect want[NHANDLERS];
};

static const struct {
	uint32_t irq;
	const char *name;
	unsigned ncpus;
} handlers[NHANDLERS] = {
	{ 25, "virtio1-req.0", 2 },
	{ 25, "shared-on-25", 1 },	/* a second handler on the same line */
	{ 1, "i8042", 1 },
};

/* Samples of handler k in tick t: a deterministic spread, more in later ticks; handler 2
 * has one run in the overflow bucket (5 s) in the last tick. */
static unsigned samples(unsigned k, unsigned t, uint64_t *v)
{
	unsigned n = (t + 1) * (k == 0 ? 50 : 7);

	for (unsigned i = 0; i < n; i++)
		v[i] = 300 + (i * 7919u + t * 104729u + k * 13u) % (k == 0 ? 60000 : 4000);
	if (k == 2 && t == NTICKS - 1)
		v[n++] = 5 * NS;
	return n;
}

/* NTICKS ticks, one a second on the collector's clock, of runs written into the cells as the
 * exit program would: handler 0 alternating CPUs, handler 1 with t of its runs spurious. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	uint64_t v[1024];

	fake_bpf_init(&f->bpf, 64);
	assert_int_equal(collector_init(&f->c, &f->bpf.l), 0);
	fake_clock_ns = f->c.start_ns = 1000 * NS;
	f->c.clock = fake_clock;
	for (unsigned k = 0; k < NHANDLERS; k++)
		for (unsigned i = 0; i < handlers[k].ncpus; i++)
			f->cell[k][i] = fake_bpf_new_cell(&f->bpf, handlers[k].irq, i, 0xffff000000000000ull + k,
							  handlers[k].name);
	for (unsigned t = 0; t < NTICKS; t++) {
		for (unsigned k = 0; k < NHANDLERS; k++) {
			struct expect *e = &f->want[k];
			unsigned n = samples(k, t, v);

			for (unsigned i = 0; i < n; i++) {
				unsigned cpu = i % handlers[k].ncpus, spurious = k == 1 && i < t;

				fake_bpf_run(&f->bpf, f->cell[k][cpu], v[i], spurious);
				add_sample(&e->tick[t], v[i]);
				add_sample(&e->total, v[i]);
				e->tick[t].aux += spurious;
				e->total.aux += spurious;
				e->cpu_tick[cpu][t]++;
				e->cpu_total[cpu]++;
			}
		}
		fake_clock_ns += NS;
		collector_tick(&f->c);
	}
	/* the drops map has no fd here: the counts stay as set */
	f->c.drops[DROP_OUTLIER] = 3;
	f->c.drops[DROP_TRACEPOINT] = 5;
	f->c.drops[DROP_NO_CELL] = 7;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	collector_free(&f->c);
	fake_bpf_free(&f->bpf);
	free(f);
	return 0;
}

/* Serialized as server.c sends it, parsed back as a client would. The series arrays are
 * written element by element (report.c): their text must be the one json-c makes of the same
 * tree, byte for byte, so the parsed answer, serialized again by json-c alone, is the same text. */
static json_object *roundtrip(json_object *o)
{
	const int flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;
	const char *s = json_object_to_json_string_ext(o, flags);
	json_object *back;

	assert_null(strchr(s, '\n'));	/* one answer, one line */
	back = json_tokener_parse(s);
	assert_non_null(back);
	assert_string_equal(json_object_to_json_string_ext(back, flags), s);
	json_object_put(o);
	return back;
}

/* The window the test expects: the last n ticks, summed here, not by collect.c. */
static void expected_window(const struct expect *e, unsigned n, struct hist *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned t = NTICKS - n; t < NTICKS; t++)
		hist_add(out, &e->tick[t]);
}

static void check_handler(json_object *o, const struct fixture *f, unsigned k, unsigned nticks, double secs)
{
	const struct expect *e = &f->want[k];
	struct hist w;
	uint64_t cpu_sum = 0;

	expected_window(e, nticks, &w);
	assert_int_equal(json_object_get_int(field(o, "irq", json_type_int)), handlers[k].irq);
	assert_string_equal(json_object_get_string(field(o, "name", json_type_string)), handlers[k].name);
	/* cumulative since start, whatever the window */
	assert_int_equal(u64(o, "count"), e->total.count);
	assert_int_equal(u64(o, "total_ns"), e->total.sum_ns);
	assert_int_equal(u64(o, "spurious"), e->total.aux);
	/* the window */
	assert_int_equal(u64(o, "window_count"), w.count);
	assert_int_equal(u64(o, "window_ns"), w.sum_ns);
	assert_float_equal(dbl(o, "rate"), (double)w.count / secs, 1e-9 * w.count);
	assert_float_equal(dbl(o, "time_share"), (double)w.sum_ns / (secs * 1e9), 1e-12);
	assert_int_equal(u64(o, "avg_ns"), w.sum_ns / w.count);
	assert_int_equal(u64(o, "p50_ns"), hist_quantile(&w, 0.50));
	assert_int_equal(u64(o, "p90_ns"), hist_quantile(&w, 0.90));
	assert_int_equal(u64(o, "p99_ns"), hist_quantile(&w, 0.99));
	assert_int_equal(u64(o, "p999_ns"), hist_quantile(&w, 0.999));
	assert_int_equal(u64(o, "max_ns"), w.max_ns);
	/* per CPU: count since start and in the window; together, the handler's count */
	json_object *cpus = field(o, "cpus", json_type_array);
	assert_int_equal(json_object_array_length(cpus), handlers[k].ncpus);
	for (unsigned i = 0; i < handlers[k].ncpus; i++) {
		json_object *co = json_object_array_get_idx(cpus, i);
		uint64_t wc = 0;

		for (unsigned t = NTICKS - nticks; t < NTICKS; t++)
			wc += e->cpu_tick[i][t];
		assert_int_equal(json_object_get_int(field(co, "cpu", json_type_int)), i);
		assert_int_equal(u64(co, "count"), e->cpu_total[i]);
		assert_int_equal(u64(co, "window_count"), wc);
		cpu_sum += u64(co, "count");
	}
	assert_int_equal(cpu_sum, u64(o, "count"));
}

static void check_header(json_object *o, const char *window, double secs)
{
	json_object *drops = field(o, "drops", json_type_object);

	assert_string_equal(json_object_get_string(field(o, "window", json_type_string)), window);
	assert_float_equal(dbl(o, "window_s"), secs, 1e-9);
	/* every figure is as of the last tick: its time, and its read of the cells */
	assert_float_equal(dbl(o, "uptime_s"), NTICKS, 1e-9);
	assert_true(dbl(o, "time") > 1.7e9);	/* wall clock, seconds since 1970 */
	assert_int_equal(u64(o, "snapshot_begin_ns"), 1000 * NS + NTICKS * NS);
	assert_int_equal(u64(o, "snapshot_end_ns"), 1000 * NS + NTICKS * NS);
	assert_int_equal(u64(drops, "outliers"), 3);
	assert_int_equal(u64(drops, "tracepoint_events"), 5);
	assert_int_equal(u64(drops, "no_cell"), 7);
}

static void test_summary_windows(void **state)
{
	struct fixture *f = *state;
	static const struct {
		enum window w;
		const char *name;
		unsigned nticks;
		double secs;
	} cases[] = {
		{ WINDOW_1S, "1s", 1, 1 },
		{ WINDOW_10S, "10s", 10, 10 },
		{ WINDOW_60S, "60s", NTICKS, NTICKS },	/* not 60 s old yet: since start */
		{ WINDOW_TOTAL, "total", NTICKS, NTICKS },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_object *s = roundtrip(report_summary(&f->c, cases[i].w));
		json_object *irqs = field(s, "irqs", json_type_array);
		double rate = 0;

		check_header(s, cases[i].name, cases[i].secs);
		assert_int_equal(json_object_array_length(irqs), NHANDLERS);
		for (unsigned k = 0; k < NHANDLERS; k++) {
			check_handler(find_irq(irqs, handlers[k].name), f, k, cases[i].nticks, cases[i].secs);
			rate += dbl(find_irq(irqs, handlers[k].name), "rate");
		}
		/* the machine's rate: all handlers */
		assert_float_equal(dbl(s, "rate"), rate, 1e-6);
		json_object_put(s);
	}
}

static void test_summary_empty(void **state)
{
	struct fixture *f = *state;
	struct collector c = f->c;
	json_object *s;

	c.nseries = 0;
	s = roundtrip(report_summary(&c, WINDOW_10S));
	assert_int_equal(json_object_array_length(field(s, "irqs", json_type_array)), 0);
	assert_float_equal(dbl(s, "rate"), 0, 0);
	check_header(s, "10s", 10);
	json_object_put(s);

	/* before the first tick: nothing measured, no window yet */
	c.tick = 0;
	s = roundtrip(report_summary(&c, WINDOW_1S));
	assert_float_equal(dbl(s, "window_s"), 0, 0);
	json_object_put(s);
}

/* root/path with text in it, the directories made */
static void write_file(const char *root, const char *path, const char *text)
{
	char full[512], cmd[600];
	FILE *fp;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", full);
	assert_int_equal(system(cmd), 0);
	assert_non_null(fp = fopen(full, "w"));
	fputs(text, fp);
	fclose(fp);
}

static void test_summary_idle_storm_cpus(void **state)
{
	struct fixture *f = *state;
	char root[] = "/tmp/irqlat-test-report.XXXXXX";
	struct cpu_topology topo = { 0 }, *own = f->c.topology;	/* collector_init's, put back after */
	json_object *s, *irqs, *h, *st;

	assert_non_null(mkdtemp(root));
	write_file(root, "/sys/devices/system/cpu/isolated", "1\n");
	write_file(root, "/sys/devices/system/cpu/nohz_full", "(null)\n");	/* no nohz_full= given */
	write_file(root, "/proc/irq/25/smp_affinity_list", "0-1\n");
	write_file(root, "/proc/irq/25/effective_affinity_list", "1\n");
	topo.root = root;
	f->c.topology = &topo;
	/* one more tick in which handler 1 does not run and handler 2 runs once, for 5 s; then
	 * handler 2's storm state made anew (the ticks fed it their own rates): a rate storm,
	 * 2000 runs a second for STORM_SUSTAIN_S after 5 a second */
	fake_bpf_run(&f->bpf, f->cell[2][0], 5 * NS, 0);
	fake_clock_ns += NS;
	collector_tick(&f->c);
	storm_free(&f->c.storms);
	memset(&f->c.storms, 0, sizeof(f->c.storms));
	for (unsigned t = 0; t < 9 + (unsigned)STORM_SUSTAIN_S; t++) {
		assert_int_equal(storm_feed(&f->c.storms, 2, 1, "i8042", t < 9 ? 5 : 2000, 0), 0);
		storm_tick(&f->c.storms, 1.0, f->c.start_ns + (t + 1) * NS, NULL, NULL);
	}
	s = roundtrip(report_summary(&f->c, WINDOW_1S));
	irqs = field(s, "irqs", json_type_array);
	h = find_irq(irqs, "shared-on-25");
	assert_int_equal(u64(h, "window_count"), 0);
	for (const char *const *k = (const char *const[]){ "avg_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns", NULL }; *k; k++)
		assert_true(json_object_is_type(field(h, *k, json_type_null), json_type_null));
	assert_true(json_object_is_type(field(h, "storm", json_type_null), json_type_null));
	/* the kernel's lists, without their newline; IRQ 1 has no files here: no fields */
	assert_string_equal(json_object_get_string(field(h, "affinity", json_type_string)), "0-1");
	assert_string_equal(json_object_get_string(field(h, "effective_affinity", json_type_string)), "1");
	assert_string_equal(json_object_get_string(field(s, "isolated_cpus", json_type_string)), "1");
	assert_string_equal(json_object_get_string(field(s, "nohz_full_cpus", json_type_string)), "");
	json_object_put(s);
	/* a kernel without CONFIG_NO_HZ_FULL has no nohz_full file (this project's host): still
	 * the field, no CPU in it, as isolated_cpus when none is isolated */
	char path[256];

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/nohz_full", root);
	assert_int_equal(unlink(path), 0);
	write_file(root, "/sys/devices/system/cpu/isolated", "\n");
	topo.read_ns = 0;
	s = roundtrip(report_summary(&f->c, WINDOW_1S));
	assert_string_equal(json_object_get_string(field(s, "isolated_cpus", json_type_string)), "");
	assert_string_equal(json_object_get_string(field(s, "nohz_full_cpus", json_type_string)), "");
	irqs = field(s, "irqs", json_type_array);
	h = find_irq(irqs, "i8042");
	assert_false(json_object_object_get_ex(h, "affinity", NULL));
	assert_true(u64(h, "max_ns") >= 5 * NS);	/* ran in the window: numbers (its 5 s run) */
	st = field(h, "storm", json_type_object);
	assert_string_equal(json_object_get_string(field(st, "kind", json_type_string)), "rate");
	assert_float_equal(dbl(st, "rate"), 2000, 0.01);
	assert_float_equal(dbl(st, "baseline_rate"), 5, 0.01);
	assert_float_equal(dbl(st, "since_s"), 9, 1e-6);	/* from the first tick of the high rate */
	json_object_put(s);
	storm_free(&f->c.storms);
	topology_free(&topo);
	f->c.topology = own;
	char cmd[640];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void test_hist_buckets(void **state)
{
	struct fixture *f = *state;
	json_object *s = roundtrip(report_hist(&f->c, WINDOW_60S, 1, -1, NULL));
	json_object *irqs = field(s, "irqs", json_type_array), *b;
	struct hist w;
	uint64_t sum = 0;

	assert_int_equal(json_object_array_length(irqs), 1);
	check_handler(json_object_array_get_idx(irqs, 0), f, 2, NTICKS, NTICKS);
	expected_window(&f->want[2], NTICKS, &w);
	b = field(json_object_array_get_idx(irqs, 0), "buckets", json_type_array);
	/* [lower_ns, upper_ns, count] of each non-empty bucket, in order; upper 0 = unbounded */
	unsigned k = 0;
	for (unsigned bk = 0; bk < HIST_BUCKETS; bk++) {
		if (!w.bucket[bk])
			continue;
		json_object *row = json_object_array_get_idx(b, k++);

		assert_non_null(row);
		assert_int_equal(json_object_array_length(row), 3);
		assert_int_equal(json_object_get_uint64(json_object_array_get_idx(row, 0)), hist_lower_ns(bk));
		assert_int_equal(json_object_get_uint64(json_object_array_get_idx(row, 1)),
				 bk == HIST_OVERFLOW ? 0 : hist_upper_ns(bk));
		assert_int_equal(json_object_get_uint64(json_object_array_get_idx(row, 2)), w.bucket[bk]);
		sum += w.bucket[bk];
	}
	assert_int_equal(json_object_array_length(b), k);
	assert_int_equal(sum, w.count);
	/* the 5 s run is in the overflow bucket, last */
	json_object *last = json_object_array_get_idx(b, k - 1);
	assert_int_equal(json_object_get_uint64(json_object_array_get_idx(last, 0)), 4000000001ull);
	assert_int_equal(json_object_get_uint64(json_object_array_get_idx(last, 1)), 0);
	json_object_put(s);
}

static void test_hist_filters(void **state)
{
	struct fixture *f = *state;
	json_object *s;

	/* by IRQ number: both handlers of the shared line */
	s = roundtrip(report_hist(&f->c, WINDOW_10S, 25, -1, NULL));
	assert_int_equal(json_object_array_length(field(s, "irqs", json_type_array)), 2);
	json_object_put(s);
	/* by name: one */
	s = roundtrip(report_hist(&f->c, WINDOW_10S, -1, -1, "shared-on-25"));
	assert_int_equal(json_object_array_length(field(s, "irqs", json_type_array)), 1);
	check_handler(json_object_array_get_idx(field(s, "irqs", json_type_array), 0), f, 1, 10, 10);
	json_object_put(s);
	/* neither: all */
	s = roundtrip(report_hist(&f->c, WINDOW_10S, -1, -1, NULL));
	assert_int_equal(json_object_array_length(field(s, "irqs", json_type_array)), NHANDLERS);
	json_object_put(s);
	/* no match: empty, and the header still describes the window asked for */
	s = roundtrip(report_hist(&f->c, WINDOW_10S, 99, -1, NULL));
	assert_int_equal(json_object_array_length(field(s, "irqs", json_type_array)), 0);
	check_header(s, "10s", 10);
	json_object_put(s);
}

static void test_status(void **state)
{
	struct fixture *f = *state;
	struct daemon_info info = {
		.version = "9.8.7", .attach_style = "raw_tp", .threshold_ns = { 250000, 600000, 700000, 800000 },
		.interval_ms = 500,
		.max_cells = 64, .ringbuf_bytes = 262144, .socket_path = "/tmp/x.sock", .pid = 4242,
	};
	json_object *s, *cfg, *progs, *kinds;

	/* what the loader attached, in its order (exits first), and the kinds it loaded */
	snprintf(f->bpf.l.attached[0].tracepoint, sizeof(f->bpf.l.attached[0].tracepoint), "irq:irq_handler_exit");
	snprintf(f->bpf.l.attached[1].tracepoint, sizeof(f->bpf.l.attached[1].tracepoint), "irq:irq_handler_entry");
	f->bpf.l.nattached = 2;
	s = roundtrip(report_status(&f->c, &info));

	assert_string_equal(json_object_get_string(field(s, "version", json_type_string)), "9.8.7");
	assert_int_equal(u64(s, "pid"), 4242);
	assert_true(dbl(s, "uptime_s") >= 0);	/* the daemon's, now: not a measurement */
	assert_string_equal(json_object_get_string(field(s, "attach", json_type_string)), "raw_tp");
	progs = field(s, "programs", json_type_array);
	assert_int_equal(json_object_array_length(progs), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(progs, 0)), "irq:irq_handler_exit");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(progs, 1)), "irq:irq_handler_entry");
	kinds = field(s, "kinds", json_type_array);	/* the fake loader has no object: no kind */
	assert_int_equal(json_object_array_length(kinds), 0);
	assert_false(json_object_object_get_ex(s, "threaded_run", NULL));	/* no threaded object either */
	assert_int_equal(u64(s, "handlers"), NHANDLERS);
	assert_int_equal(u64(s, "cells_used"), 4);
	assert_int_equal(u64(field(s, "drops", json_type_object), "no_cell"), 7);
	cfg = field(s, "config", json_type_object);
	assert_int_equal(u64(cfg, "threshold_ns"), 250000);
	assert_int_equal(u64(cfg, "softirq_threshold_ns"), 600000);
	assert_int_equal(u64(cfg, "softirq_raise_threshold_ns"), 700000);
	assert_int_equal(u64(cfg, "vector_threshold_ns"), 800000);
	assert_int_equal(u64(cfg, "interval_ms"), 500);
	assert_int_equal(u64(cfg, "max_cells"), 64);
	assert_int_equal(u64(cfg, "ringbuf_bytes"), 262144);
	assert_string_equal(json_object_get_string(field(cfg, "socket", json_type_string)), "/tmp/x.sock");
	json_object_put(s);

	/* the BPF side may run past the pool (next counts attempts): capped */
	f->bpf.pool.next = 1000;
	s = roundtrip(report_status(&f->c, &info));
	assert_int_equal(u64(s, "cells_used"), 64);
	json_object_put(s);
	f->bpf.pool.next = 4;
}

/* Softirq run time and raise latency are two kinds joined in one element per vector; vector
 * interrupts have their own array; both named from the kernel's tables, not by their programs. */
static void test_joined_kinds(void **state)
{
	struct fake_bpf bpf;
	struct collector c;
	uint32_t run0, run1, raise0, raise_block, loc;
	json_object *s, *arr, *el, *cpus;
	(void)state;

	fake_bpf_init(&bpf, 16);
	assert_int_equal(collector_init(&c, &bpf.l), 0);
	fake_clock_ns = c.start_ns = 1000 * NS;
	c.clock = fake_clock;
	run0 = fake_bpf_new_kind_cell(&bpf, KIND_SOFTIRQ, 3, 0);	/* NET_RX */
	run1 = fake_bpf_new_kind_cell(&bpf, KIND_SOFTIRQ, 3, 1);
	raise0 = fake_bpf_new_kind_cell(&bpf, KIND_SOFTIRQ_RAISE, 3, 0);
	raise_block = fake_bpf_new_kind_cell(&bpf, KIND_SOFTIRQ_RAISE, 4, 1);	/* BLOCK, no run yet */
	loc = fake_bpf_new_kind_cell(&bpf, KIND_VECTOR, VEC_LOC, 1);
	for (unsigned i = 0; i < 10; i++) {
		fake_bpf_run(&bpf, run0, 1000 + i, 0);
		fake_bpf_run(&bpf, raise0, 50000, 0);
	}
	for (unsigned i = 0; i < 4; i++)
		fake_bpf_run(&bpf, run1, 2000, 0);
	fake_bpf_run(&bpf, raise_block, 7000, 0);
	for (unsigned i = 0; i < 5; i++)
		fake_bpf_run(&bpf, loc, 3000, 0);
	fake_clock_ns += NS;
	collector_tick(&c);

	s = roundtrip(report_hist(&c, WINDOW_TOTAL, -1, -1, NULL));
	assert_int_equal(json_object_array_length(field(s, "irqs", json_type_array)), 0);
	arr = field(s, "softirqs", json_type_array);
	assert_int_equal(json_object_array_length(arr), 2);
	el = json_object_array_get_idx(arr, 0);
	assert_string_equal(json_object_get_string(field(el, "vector", json_type_string)), "NET_RX");
	assert_false(json_object_object_get_ex(el, "irq", NULL));	/* the vector's number is not shown */
	assert_int_equal(u64(el, "count"), 14);
	assert_int_equal(u64(el, "window_count"), 14);
	assert_int_equal(u64(el, "run_total_ns"), 10 * 1000 + 45 + 4 * 2000);
	assert_int_equal(u64(el, "run_max_ns"), 2000);
	assert_int_equal(u64(el, "raise_count"), 10);
	assert_int_equal(u64(el, "raise_max_ns"), 50000);
	assert_true(u64(el, "raise_p50_ns") <= 50000 && u64(el, "raise_p50_ns") * 1.0905 >= 50000);
	assert_false(json_object_object_get_ex(el, "raise_time_share", NULL));
	assert_int_equal(json_object_array_length(field(el, "run_buckets", json_type_array)), 2);	/* 1000..1009 and 2000 ns */
	assert_int_equal(json_object_array_length(field(el, "raise_buckets", json_type_array)), 1);
	cpus = field(el, "cpus", json_type_array);
	assert_int_equal(json_object_array_length(cpus), 2);	/* CPU 0's raise line joins its run line */
	assert_int_equal(u64(json_object_array_get_idx(cpus, 0), "count"), 10);
	assert_int_equal(u64(json_object_array_get_idx(cpus, 0), "raise_count"), 10);
	assert_int_equal(u64(json_object_array_get_idx(cpus, 1), "count"), 4);
	assert_false(json_object_object_get_ex(json_object_array_get_idx(cpus, 1), "raise_count", NULL));
	el = json_object_array_get_idx(arr, 1);	/* a raise latency whose run has no cell yet */
	assert_string_equal(json_object_get_string(field(el, "vector", json_type_string)), "BLOCK");
	assert_int_equal(u64(el, "raise_count"), 1);
	assert_false(json_object_object_get_ex(el, "count", NULL));
	arr = field(s, "vectors", json_type_array);
	assert_int_equal(json_object_array_length(arr), 1);
	el = json_object_array_get_idx(arr, 0);
	assert_string_equal(json_object_get_string(field(el, "name", json_type_string)), "LOC");
	assert_int_equal(u64(el, "count"), 5);
	assert_int_equal(u64(el, "max_ns"), 3000);
	json_object_put(s);

	/* each CPU's load: vectors on CPU 1 (LOC 5 x 3000 ns), softirqs on both (the raise latency
	 * is a wait, not time taken), over the one-second window */
	s = roundtrip(report_summary(&c, WINDOW_1S));
	arr = field(s, "cpu_load", json_type_array);
	assert_int_equal(json_object_array_length(arr), 2);	/* the loader's possible CPUs */
	el = json_object_array_get_idx(arr, 0);
	assert_int_equal(u64(el, "softirq_ns"), 10 * 1000 + 45);
	assert_int_equal(u64(el, "vector_ns"), 0);
	assert_true(json_object_object_get_ex(el, "vector_worst", &cpus) && !cpus);
	assert_string_equal(json_object_get_string(field(field(el, "softirq_worst", json_type_object), "vector", json_type_string)),
			    "NET_RX");
	el = json_object_array_get_idx(arr, 1);
	assert_int_equal(u64(el, "softirq_ns"), 4 * 2000);
	assert_int_equal(u64(el, "vector_ns"), 5 * 3000);
	assert_true(dbl(el, "vector_share") > 5 * 3000 / 1.01e9 && dbl(el, "vector_share") < 5 * 3000 / 0.99e9);
	assert_string_equal(json_object_get_string(field(field(el, "vector_worst", json_type_object), "name", json_type_string)),
			    "LOC");
	json_object_put(s);

	/* a name selects across kinds; an IRQ number only hard IRQs */
	s = roundtrip(report_hist(&c, WINDOW_TOTAL, -1, -1, "NET_RX"));
	assert_int_equal(json_object_array_length(field(s, "softirqs", json_type_array)), 1);
	assert_int_equal(json_object_array_length(field(s, "vectors", json_type_array)), 0);
	json_object_put(s);
	s = roundtrip(report_hist(&c, WINDOW_TOTAL, 3, -1, NULL));
	assert_int_equal(json_object_array_length(field(s, "softirqs", json_type_array)), 0);
	json_object_put(s);
	collector_free(&c);
	fake_bpf_free(&bpf);
}

/* Timers: a series per function and CPU, named from kallsyms (here a file written by the
 * test), shaped into the timers object by class and by CPU; wake-ups per task, with pid 0 for
 * the tasks past the bound; hist by class and by pid. */
static void test_timers(void **state)
{
	char path[] = "/tmp/test_report_kallsyms.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct fake_bpf bpf;
	struct collector c;
	uint32_t tick0, tick1, wake0, other1, task, other_tasks;
	json_object *s, *t, *arr, *el;
	(void)state;

	assert_non_null(f);
	fprintf(f, "ffffffff81000000 T _text\nffffffff81100000 t hrtimer_wakeup\nffffffff81200000 t tick_nohz_handler\n"
		   "ffffffff81300000 t timerfd_tmrproc\nffffffff81400000 d some_data\n");
	fclose(f);
	ksym_set_path(path);
	fake_bpf_init(&bpf, 16);
	assert_int_equal(collector_init(&c, &bpf.l), 0);
	fake_clock_ns = c.start_ns = 1000 * NS;
	c.clock = fake_clock;
	tick0 = fake_bpf_new_id_cell(&bpf, KIND_TIMER, 0xffffffff81200000ull, 0, 0, NULL);
	tick1 = fake_bpf_new_id_cell(&bpf, KIND_TIMER, 0xffffffff81200000ull, 1, 1, NULL);
	wake0 = fake_bpf_new_id_cell(&bpf, KIND_TIMER, 0xffffffff81100000ull, 0, 0, NULL);
	other1 = fake_bpf_new_id_cell(&bpf, KIND_TIMER, 0xffffffff81300010ull, 1, 1, NULL);	/* inside a function */
	task = fake_bpf_new_id_cell(&bpf, KIND_WAKEUP, 4242, 4242, 0, "cyclictest");
	other_tasks = fake_bpf_new_id_cell(&bpf, KIND_WAKEUP, 0, 0, 1, NULL);
	for (unsigned i = 0; i < 10; i++) {
		fake_bpf_run(&bpf, tick0, 20000, 0);
		fake_bpf_run(&bpf, wake0, 5000, 0);
		fake_bpf_run(&bpf, task, 30000, 0);
	}
	for (unsigned i = 0; i < 4; i++)
		fake_bpf_run(&bpf, tick1, 40000, 0);
	fake_bpf_run(&bpf, other1, 0, 0);	/* early inside its slack */
	fake_bpf_run(&bpf, other_tasks, 70000, 0);
	fake_clock_ns += NS;
	collector_tick(&c);

	s = roundtrip(report_summary(&c, WINDOW_TOTAL));
	assert_false(json_object_object_get_ex(s, "wakeups", NULL));	/* moved into timers */
	t = field(s, "timers", json_type_object);
	arr = field(t, "classes", json_type_array);
	assert_int_equal(json_object_array_length(arr), 3);
	el = json_object_array_get_idx(arr, 0);
	assert_string_equal(json_object_get_string(field(el, "function", json_type_string)), "tick_nohz_handler");
	assert_string_equal(json_object_get_string(field(el, "class", json_type_string)), "tick");
	assert_int_equal(u64(el, "count"), 14);
	assert_int_equal(u64(el, "lateness_max_ns"), 40000);
	assert_true(u64(el, "lateness_p50_ns") <= 20000 * 1.0905 && u64(el, "lateness_p50_ns") * 1.0905 >= 20000);
	assert_int_equal(json_object_array_length(field(el, "cpus", json_type_array)), 2);
	el = json_object_array_get_idx(field(el, "cpus", json_type_array), 1);
	assert_int_equal(u64(el, "cpu"), 1);
	assert_int_equal(u64(el, "count"), 4);
	assert_int_equal(u64(el, "lateness_max_ns"), 40000);
	el = json_object_array_get_idx(arr, 1);
	assert_string_equal(json_object_get_string(field(el, "function", json_type_string)), "hrtimer_wakeup");
	assert_string_equal(json_object_get_string(field(el, "class", json_type_string)), "sleep");
	el = json_object_array_get_idx(arr, 2);
	assert_string_equal(json_object_get_string(field(el, "function", json_type_string)), "timerfd_tmrproc+0x10");
	assert_string_equal(json_object_get_string(field(el, "class", json_type_string)), "other");
	assert_int_equal(u64(el, "lateness_max_ns"), 0);
	arr = field(t, "cpus", json_type_array);
	assert_int_equal(json_object_array_length(arr), 2);
	assert_int_equal(u64(json_object_array_get_idx(arr, 0), "count"), 20);	/* tick and sleep on CPU 0 */
	assert_int_equal(u64(json_object_array_get_idx(arr, 1), "count"), 5);
	assert_int_equal(u64(json_object_array_get_idx(arr, 1), "lateness_max_ns"), 40000);
	arr = field(t, "wakeups", json_type_array);
	assert_int_equal(json_object_array_length(arr), 2);
	el = json_object_array_get_idx(arr, 0);
	assert_int_equal(u64(el, "pid"), 4242);
	assert_string_equal(json_object_get_string(field(el, "comm", json_type_string)), "cyclictest");
	assert_int_equal(u64(el, "count"), 10);
	assert_int_equal(u64(el, "latency_max_ns"), 30000);
	assert_false(json_object_object_get_ex(el, "time_share", NULL));	/* a latency's share of time means nothing */
	el = json_object_array_get_idx(arr, 1);
	assert_int_equal(u64(el, "pid"), 0);
	assert_string_equal(json_object_get_string(field(el, "comm", json_type_string)), "(other)");
	json_object_put(s);

	/* hist: a class selects its functions; a pid its task */
	s = roundtrip(report_hist(&c, WINDOW_TOTAL, -1, -1, "tick"));
	t = field(s, "timers", json_type_object);
	assert_int_equal(json_object_array_length(field(t, "classes", json_type_array)), 1);
	el = json_object_array_get_idx(field(t, "classes", json_type_array), 0);
	assert_int_equal(json_object_array_length(field(el, "lateness_buckets", json_type_array)), 2);
	assert_int_equal(json_object_array_length(field(t, "wakeups", json_type_array)), 0);
	json_object_put(s);
	s = roundtrip(report_hist(&c, WINDOW_TOTAL, -1, 4242, NULL));
	t = field(s, "timers", json_type_object);
	assert_int_equal(json_object_array_length(field(t, "classes", json_type_array)), 0);
	assert_int_equal(json_object_array_length(field(t, "wakeups", json_type_array)), 1);
	el = json_object_array_get_idx(field(t, "wakeups", json_type_array), 0);
	assert_int_equal(json_object_array_length(field(el, "latency_buckets", json_type_array)), 1);
	json_object_put(s);
	collector_free(&c);
	fake_bpf_free(&bpf);
	ksym_set_path(NULL);
	unlink(path);
}

/* A threaded IRQ: the wake-to-run latency (its cells named by the irqaction) and the thread
 * handler's run time (named by the thread) in one element, joined by irqaction and IRQ; the
 * hist request finds the element by either name. */
static void test_threaded(void **state)
{
	struct fake_bpf bpf;
	struct collector c;
	uint32_t wake, run, other;
	json_object *s, *arr, *el;
	(void)state;

	fake_bpf_init(&bpf, 16);
	assert_int_equal(collector_init(&c, &bpf.l), 0);
	fake_clock_ns = c.start_ns = 1000 * NS;
	c.clock = fake_clock;
	wake = fake_bpf_new_cell(&bpf, 24, 0, 0xabc0, "virtio0");
	bpf.meta[wake].kind = KIND_THREADED;
	run = fake_bpf_new_cell(&bpf, 24, 0, 0xabc0, "irq/24-virtio0");
	bpf.meta[run].kind = KIND_THREADED_RUN;
	other = fake_bpf_new_cell(&bpf, 24, 1, 0xdef0, "irq/24-other");	/* another action on the line */
	bpf.meta[other].kind = KIND_THREADED_RUN;
	for (unsigned i = 0; i < 8; i++) {
		fake_bpf_run(&bpf, wake, 20000, 0);
		fake_bpf_run(&bpf, run, 3000, 0);
	}
	fake_bpf_run(&bpf, other, 5000, 0);
	fake_clock_ns += NS;
	collector_tick(&c);

	s = roundtrip(report_summary(&c, WINDOW_TOTAL));
	arr = field(s, "threaded", json_type_array);
	assert_int_equal(json_object_array_length(arr), 2);
	el = json_object_array_get_idx(arr, 0);
	assert_int_equal(u64(el, "irq"), 24);
	assert_string_equal(json_object_get_string(field(el, "name", json_type_string)), "virtio0");
	assert_string_equal(json_object_get_string(field(el, "thread", json_type_string)), "irq/24-virtio0");
	assert_int_equal(u64(el, "count"), 8);
	assert_int_equal(u64(el, "wakeup_max_ns"), 20000);
	assert_true(u64(el, "wakeup_p50_ns") <= 20000 && u64(el, "wakeup_p99_ns") * 1.0905 >= 20000);
	assert_int_equal(u64(el, "run_count"), 8);
	assert_true(u64(el, "run_p99_ns") <= 3000 && u64(el, "run_p99_ns") * 1.0905 >= 3000);
	assert_false(json_object_object_get_ex(el, "time_share", NULL));	/* of a latency: meaningless */
	el = json_object_array_get_idx(arr, 1);	/* the other action's runs are not joined to the first */
	assert_string_equal(json_object_get_string(field(el, "thread", json_type_string)), "irq/24-other");
	assert_int_equal(u64(el, "run_count"), 1);
	assert_false(json_object_object_get_ex(el, "count", NULL));
	assert_false(json_object_object_get_ex(el, "run_source", NULL));	/* run time not measured */
	json_object_put(s);

	bpf.l.kind_source[KIND_THREADED_RUN] = "on-cpu";	/* the loader's fallback: the thread's on-CPU time */
	s = roundtrip(report_summary(&c, WINDOW_TOTAL));
	arr = field(s, "threaded", json_type_array);
	for (unsigned i = 0; i < 2; i++)	/* the joined element and the run-only one */
		assert_string_equal(json_object_get_string(field(json_object_array_get_idx(arr, i), "run_source", json_type_string)),
				    "on-cpu");
	json_object_put(s);

	s = roundtrip(report_hist(&c, WINDOW_TOTAL, -1, -1, "irq/24-virtio0"));
	arr = field(s, "threaded", json_type_array);
	assert_int_equal(json_object_array_length(arr), 1);
	el = json_object_array_get_idx(arr, 0);
	assert_int_equal(json_object_array_length(field(el, "wakeup_buckets", json_type_array)), 1);
	assert_int_equal(json_object_array_length(field(el, "run_buckets", json_type_array)), 1);
	json_object_put(s);
	collector_free(&c);
	fake_bpf_free(&bpf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_summary_windows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_summary_idle_storm_cpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hist_buckets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hist_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status, setup, teardown),
		cmocka_unit_test(test_joined_kinds),
		cmocka_unit_test(test_timers),
		cmocka_unit_test(test_threaded),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
