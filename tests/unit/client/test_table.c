// SPDX-License-Identifier: GPL-2.0
/* The client's side of a summary: table_rows() on an answer written here as the daemon sends
 * it (docs/architecture.md, section 4: two handlers sharing IRQ 25, one of them on two CPUs,
 * and IRQ 1), each row against the JSON fields it came from; table_sort() by p99 and by IRQ;
 * and an answer that is not a summary. Then what a row must not pretend, on a summary with an
 * idle handler (null latencies), one with a few runs, an isolated CPU, an IRQ outside its
 * affinity, storms and other BPF programs: the cells, flags, orders, the scope line, the
 * per-CPU lines and the notes, each against text written here by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../helpers/json_fields.h"
#include "client/cpuline.h"
#include "client/notes.h"
#include "client/table.h"
#include "client/why.h"
#include "common/json.h"

#define NHANDLERS 3

static const char summary_json[] =
	"{\"ok\":true,\"time\":1764768000.25,\"uptime_s\":13.0,\"window\":\"10s\",\"window_s\":10.0,"
	"\"rate\":480.1,\"handlers\":3,\"drops\":{\"outliers\":3,\"tracepoint_events\":5,\"no_cell\":7},\"irqs\":["
	"{\"irq\":25,\"name\":\"virtio1-req.0\",\"count\":3900,\"total_ns\":118261050,\"spurious\":0,"
	"\"rate\":375.0,\"window_count\":3750,\"window_ns\":113712600,\"time_share\":0.0113712600,"
	"\"avg_ns\":30323,\"p50_ns\":30112,\"p90_ns\":54311,\"p99_ns\":59583,\"p999_ns\":60102,\"max_ns\":60287,"
	"\"cpus\":[{\"cpu\":0,\"count\":1950,\"window_count\":1875},{\"cpu\":1,\"count\":1950,\"window_count\":1875}]},"
	"{\"irq\":25,\"name\":\"shared-on-25\",\"count\":546,\"total_ns\":1213944,\"spurious\":66,"
	"\"rate\":52.5,\"window_count\":525,\"window_ns\":1167337,\"time_share\":0.0001167337,"
	"\"avg_ns\":2223,\"p50_ns\":2201,\"p90_ns\":3895,\"p99_ns\":4201,\"p999_ns\":4290,\"max_ns\":4299,"
	"\"cpus\":[{\"cpu\":0,\"count\":546,\"window_count\":525}]},"
	"{\"irq\":1,\"name\":\"i8042\",\"count\":547,\"total_ns\":5001214950,\"spurious\":0,"
	"\"rate\":52.6,\"window_count\":526,\"window_ns\":5001168318,\"time_share\":0.5001168318,"
	"\"avg_ns\":9507924,\"p50_ns\":2188,\"p90_ns\":3887,\"p99_ns\":4263,\"p999_ns\":4294967296,\"max_ns\":5000000000,"
	"\"cpus\":[{\"cpu\":0,\"count\":547,\"window_count\":526}]}]}";

static void test_table_rows(void **state)
{
	json_object *s = json_tokener_parse(summary_json);
	json_object *irqs = field(s, "irqs", json_type_array);
	struct row *rows;
	int n;

	(void)state;
	n = table_rows(s, &rows);
	assert_non_null(rows);
	assert_int_equal(n, NHANDLERS);
	for (int i = 0; i < n; i++) {
		json_object *o = find_irq(irqs, rows[i].name);

		assert_int_equal(rows[i].irq, json_object_get_int(field(o, "irq", json_type_int)));
		assert_int_equal(rows[i].count, u64(o, "count"));
		assert_int_equal(rows[i].spurious, u64(o, "spurious"));
		assert_int_equal(rows[i].total_ns, u64(o, "total_ns"));
		assert_float_equal(rows[i].rate, dbl(o, "rate"), 0);
		assert_float_equal(rows[i].time_share, dbl(o, "time_share"), 0);
		assert_int_equal(rows[i].avg_ns, u64(o, "avg_ns"));
		assert_int_equal(rows[i].p50_ns, u64(o, "p50_ns"));
		assert_int_equal(rows[i].p90_ns, u64(o, "p90_ns"));
		assert_int_equal(rows[i].p99_ns, u64(o, "p99_ns"));
		assert_int_equal(rows[i].p999_ns, u64(o, "p999_ns"));
		assert_int_equal(rows[i].max_ns, u64(o, "max_ns"));
	}
	/* the CPUs a handler ran on, as a list */
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].name, "virtio1-req.0"))
			assert_string_equal(rows[i].cpus, "0,1");

	/* sorted by p99, highest first; by IRQ, lowest first; reversed */
	table_sort(rows, n, SORT_P99, 0);
	for (int i = 1; i < n; i++)
		assert_true(rows[i - 1].p99_ns >= rows[i].p99_ns);
	table_sort(rows, n, SORT_IRQ, 0);
	assert_int_equal(rows[0].irq, 1);
	table_sort(rows, n, SORT_IRQ, 1);
	assert_int_equal(rows[n - 1].irq, 1);
	free(rows);
	json_object_put(s);

	/* not a summary: no rows, no crash */
	s = json_tokener_parse("{\"ok\":false,\"error\":\"x\"}");
	n = table_rows(s, &rows);
	assert_int_equal(n, 0);
	free(rows);
	json_object_put(s);
}

/* CPU 1 isolated and nohz_full (lists with the newline the kernel writes, as in IRQ 36's). IRQ 36: busy on the isolated CPU 1 (its effective affinity),
 * 20 runs on CPU 0 before; IRQ 41: idle in the window (the daemon sends null latencies);
 * IRQ 50: 20 runs, on CPU 0 while its effective affinity is CPU 1, in a rate storm; IRQ 9:
 * mostly unhandled. Window 10 s. */
static const char marks_json[] =
	"{\"ok\":true,\"uptime_s\":60.0,\"window\":\"10s\",\"window_s\":10.0,\"rate\":1302.0,\"handlers\":4,"
	"\"isolated_cpus\":\"1\",\"nohz_full_cpus\":\"1\n\","
	"\"bpf\":{\"shared\":{\"known\":true,\"programs\":[{\"id\":51,\"name\":\"irq_handler_en\","
	"\"tracepoint\":\"irq_handler_entry\",\"comm\":\"hardirqs\"},{\"id\":53,\"name\":\"irq_handler_ex\","
	"\"tracepoint\":\"irq_handler_exit\",\"comm\":\"hardirqs\"},{\"id\":52,\"name\":\"pinned\",\"tracepoint\":\"irq_handler_exit\"}]}},\"irqs\":["
	"{\"irq\":36,\"name\":\"virtio1-req.0\",\"count\":13020,\"window_count\":12000,\"rate\":1200.0,"
	"\"time_share\":0.0030,\"avg_ns\":2500,\"p50_ns\":2400,\"p90_ns\":3000,\"p99_ns\":4400,\"p999_ns\":9200,"
	"\"max_ns\":94000,\"affinity\":\"0-1\\n\",\"effective_affinity\":\"1\\n\",\"storm\":null,"
	"\"cpus\":[{\"cpu\":0,\"count\":20,\"window_count\":0},{\"cpu\":1,\"count\":13000,\"window_count\":12000}]},"
	"{\"irq\":41,\"name\":\"virtio3-rx\",\"count\":11,\"window_count\":0,\"rate\":0,\"time_share\":0,"
	"\"avg_ns\":null,\"p50_ns\":null,\"p90_ns\":null,\"p99_ns\":null,\"p999_ns\":null,\"max_ns\":null,"
	"\"affinity\":\"0-1\",\"effective_affinity\":\"0\",\"cpus\":[{\"cpu\":0,\"count\":11,\"window_count\":0}]},"
	"{\"irq\":50,\"name\":\"noisy\",\"count\":20,\"window_count\":20,\"rate\":2.0,\"time_share\":0.0000500,"
	"\"avg_ns\":25000,\"p50_ns\":18000,\"p90_ns\":40000,\"p99_ns\":219000,\"p999_ns\":219000,\"max_ns\":219000,"
	"\"affinity\":\"1\",\"effective_affinity\":\"1\",\"storm\":{\"kind\":\"rate\",\"rate\":2.0,\"baseline_rate\":0.1},"
	"\"cpus\":[{\"cpu\":0,\"count\":20,\"window_count\":20}]},"
	"{\"irq\":9,\"name\":\"acpi\",\"count\":1000,\"window_count\":1000,\"rate\":100.0,\"time_share\":0.0001,"
	"\"avg_ns\":1000,\"p50_ns\":900,\"p90_ns\":1100,\"p99_ns\":1500,\"p999_ns\":1600,\"max_ns\":1600,"
	"\"storm\":{\"kind\":\"unhandled\",\"rate\":100.0,\"unhandled_share\":0.97},"
	"\"cpus\":[{\"cpu\":0,\"count\":1000,\"window_count\":1000}]}]}";

static const struct row *row_of(const struct row *rows, int n, int irq)
{
	for (int i = 0; i < n; i++)
		if (rows[i].irq == irq)
			return &rows[i];
	fail_msg("no row for IRQ %d", irq);
	return NULL;
}

static void assert_cell(const struct row *r, enum column col, const char *want)
{
	char cell[64];

	table_cell(cell, sizeof(cell), r, col);
	if (strcmp(cell, want))
		fail_msg("IRQ %d, column %s: \"%s\", expected \"%s\"", r->irq, column_defs[col].name, cell, want);
}

static void test_table_marks(void **state)
{
	json_object *s = json_tokener_parse(marks_json);
	struct row *rows;
	int n;

	(void)state;
	assert_non_null(s);
	n = table_rows(s, &rows);
	assert_int_equal(n, 4);

	/* idle: no latency is a measurement; rate and share are true zeros */
	const struct row *idle = row_of(rows, n, 41), *busy = row_of(rows, n, 36), *few = row_of(rows, n, 50);
	const struct row *unhandled = row_of(rows, n, 9);

	assert_true(idle->idle);
	for (enum column c = COL_AVG; c <= COL_MAX; c++)
		assert_cell(idle, c, "-");
	assert_cell(idle, COL_RATE, "0.0");
	assert_cell(idle, COL_TIME, "0.00");
	assert_cell(idle, COL_CPUS, "0");
	assert_cell(idle, COL_FLAGS, "");

	/* 20 runs: p50 and p90 are percentiles, p99 and p99.9 are the slowest run */
	assert_false(few->idle);
	assert_cell(few, COL_P50, "18us");
	assert_cell(few, COL_P90, "40us");
	assert_cell(few, COL_P99, "219us*");
	assert_cell(few, COL_P999, "219us*");
	assert_cell(few, COL_MAX, "219us");
	assert_cell(few, COL_AVG, "25us");
	/* on CPU 0, outside its affinity (1), in the window; and in a rate storm */
	assert_cell(few, COL_CPUS, "0!");
	assert_cell(few, COL_FLAGS, "SA");
	assert_cell(few, COL_TIME, "0.005");

	/* 12000 runs: every percentile is one; on the isolated CPU 1 in the window (I), its
	 * effective affinity; CPU 0, outside it, only before the window (no A) */
	assert_cell(busy, COL_P999, "9.2us");
	assert_cell(busy, COL_P99, "4.4us");
	assert_cell(busy, COL_CPUS, "0,1!");	/* 0: outside the affinity, but not in the window */
	assert_cell(busy, COL_FLAGS, "I");
	assert_cell(busy, COL_RATE, "1200");
	assert_cell(busy, COL_TIME, "0.30");
	assert_cell(unhandled, COL_FLAGS, "U");
	/* no affinity known (IRQ 9 sends none): nothing is outside it */
	assert_cell(unhandled, COL_CPUS, "0");

	/* the default order (time share): the busy handler first, whatever the p99 of a few runs */
	table_sort(rows, n, (enum sort_key)table_sort_key(SORT_DEFAULT), false);
	assert_int_equal(rows[0].irq, 36);
	assert_int_equal(rows[n - 1].irq, 41);
	/* by p99: real p99s (1.5us of IRQ 9 and 4.4us of 36), then the 20-run one, then idle */
	table_sort(rows, n, SORT_P99, false);
	assert_int_equal(rows[0].irq, 36);
	assert_int_equal(rows[1].irq, 9);
	assert_int_equal(rows[2].irq, 50);
	assert_int_equal(rows[3].irq, 41);
	/* reversed: the others reversed, the idle row still last (nothing to see in it) */
	table_sort(rows, n, SORT_P99, true);
	assert_int_equal(rows[0].irq, 50);
	assert_int_equal(rows[2].irq, 36);
	assert_int_equal(rows[3].irq, 41);

	/* per-CPU lines: affinity, marks, idle CPUs, the share of the handler's runs; -C */
	char line[512];
	int k;

	busy = row_of(rows, n, 36);
	k = cpuline_text(line, sizeof(line), s, busy, NULL);
	assert_int_equal(k, 2);
	/* CPU 0 is outside the affinity, but nothing ran there in the window: no mark */
	assert_string_equal(line, "affinity 0-1, effective 1 | cpu 0: 20, idle | cpu 1 (isolated, nohz_full)!: 13000, 1200/s, 100%");
	k = cpuline_text(line, sizeof(line), s, busy, "1");
	assert_int_equal(k, 1);
	assert_string_equal(line, "affinity 0-1, effective 1 | cpu 1 (isolated, nohz_full)!: 13000, 1200/s, 100%");
	few = row_of(rows, n, 50);
	cpuline_text(line, sizeof(line), s, few, NULL);
	assert_string_equal(line, "affinity 1, effective 1 | cpu 0 (outside affinity)!: 20, 2.0/s, 100%");
	json_object *irqs = field(s, "irqs", json_type_array);
	assert_true(cpuline_ran_on(json_object_array_get_idx(irqs, 0), "1"));
	assert_true(cpuline_ran_on(json_object_array_get_idx(irqs, 0), "0-3"));
	assert_false(cpuline_ran_on(json_object_array_get_idx(irqs, 1), "1"));

	/* the notes: the other BPF program, both storms, the CPUs, the '*' (P99 and P99.9 marked) */
	enum column cols[] = { COL_IRQ, COL_NAME, COL_P50, COL_P99, COL_P999, COL_FLAGS };
	struct notes notes;

	notes_collect(&notes, s, rows, n, cols, 6);
	assert_int_equal(notes.n, 4);
	assert_int_equal(notes.warnings, 2);
	assert_string_equal(notes.line[0], "! every time shown includes the cost of 3 other BPF programs on the IRQ "
					   "tracepoints: hardirqs, id 52");
	assert_string_equal(notes.line[1], "! storm: IRQ 50 noisy 2.0/s, 20x its recent 0.1/s;"
					   " IRQ 9 acpi 97% of 100/s unhandled (IRQ_NONE)");
	assert_string_equal(notes.line[2], "isolated CPUs 1, nohz_full 1: a handler that runs there is marked ! (FLAGS I)");
	assert_string_equal(notes.line[3], "*: too few runs in the window for that percentile (P99 needs 100, P99.9 1000),"
					   " so it is their slowest run");
	free(rows);
	json_object_put(s);
}

static void test_table_units(void **state)
{
	static const struct {
		double v;
		const char *rate, *count;
	} cases[] = {
		{ 0, "0.0", "0" }, { 0.04, "0.0", "0" }, { 1, "1.0", "1" }, { 52.6, "52.6", "53" }, { 99.94, "99.9", "100" },
		{ 99.96, "100", "100" }, { 375, "375", "375" }, { 12901.4, "12901", "12901" }, { 129000, "129.0k", "129.0k" },
		{ 1.3e6, "1300.0k", "1300.0k" }, { 1.3e7, "13.0M", "13.0M" },
	};
	char buf[32];

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_rate(buf, sizeof(buf), cases[i].v);
		if (strcmp(buf, cases[i].rate))
			fail_msg("fmt_rate(%g) = \"%s\", expected \"%s\"", cases[i].v, buf, cases[i].rate);
		fmt_count(buf, sizeof(buf), cases[i].v);
		if (strcmp(buf, cases[i].count))
			fail_msg("fmt_count(%g) = \"%s\", expected \"%s\"", cases[i].v, buf, cases[i].count);
	}
	/* the runs each percentile needs: 1 / (1 - q) */
	assert_int_equal(table_quantile_min_runs(0.5), 2);
	assert_int_equal(table_quantile_min_runs(0.9), 10);
	assert_int_equal(table_quantile_min_runs(0.99), 100);
	assert_int_equal(table_quantile_min_runs(0.999), 1000);
	fmt_latency(buf, sizeof(buf), 4400, 99, 0.99);
	assert_string_equal(buf, "4.4us*");
	fmt_latency(buf, sizeof(buf), 4400, 100, 0.99);
	assert_string_equal(buf, "4.4us");
	fmt_latency(buf, sizeof(buf), 0, 0, 0.99);
	assert_string_equal(buf, "-");
	fmt_latency(buf, sizeof(buf), 7, 1, 0);	/* not a percentile: a max of one run is a max */
	assert_string_equal(buf, "7ns");
	/* runs of no measurable length (wake-ups clamped to 0): less than a nanosecond, not "0ns" */
	fmt_latency(buf, sizeof(buf), 0, 500, 0.5);
	assert_string_equal(buf, "<1ns");
	fmt_latency(buf, sizeof(buf), 0, 5, 0.99);
	assert_string_equal(buf, "<1ns*");
}

static void test_table_scope_line(void **state)
{
	enum column cols[] = { COL_IRQ, COL_NAME, COL_COUNT, COL_RATE, COL_P99 };
	int widths[] = { 5, 20, 10, 9, 7 };
	char line[256];

	(void)state;
	/* COUNT alone (10 wide) has room for "from start" only; RATE and P99 share one span */
	table_scope_line(line, sizeof(line), cols, widths, 5, "10s");
	assert_string_equal(line, "                           from start --- last 10s ----");
	/* the total window: everything since start, one span */
	table_scope_line(line, sizeof(line), cols, widths, 5, "total");
	assert_string_equal(line, "                           ------- since start --------");
	/* a span too narrow for either label is dashes */
	enum column one[] = { COL_IRQ, COL_P99 };
	int w1[] = { 5, 2 };
	table_scope_line(line, sizeof(line), one, w1, 2, "60s");
	assert_string_equal(line, "      --");
	/* ... the short one alone when it just fits */
	w1[1] = 4;
	table_scope_line(line, sizeof(line), one, w1, 2, "60s");
	assert_string_equal(line, "      60s");
}

/* A summary's softirqs and vectors, as the daemon sends them (docs/architecture.md, section
 * 4): rows named by the vector and the label, run-time figures from the run_ fields, the raise
 * latency from the raise_ fields, an idle raise latency shown as "-", no IRQ number. */
static void test_table_sources(void **state)
{
	static const char text[] =
		"{\"window\":\"10s\",\"window_s\":10.0,\"irqs\":[],\"softirqs\":["
		"{\"vector\":\"NET_RX\",\"count\":900,\"rate\":80.0,\"window_count\":800,\"time_share\":0.002,"
		"\"run_total_ns\":9000000,\"run_window_ns\":8000000,\"run_avg_ns\":10000,\"run_p50_ns\":9000,"
		"\"run_p90_ns\":15000,\"run_p99_ns\":31000,\"run_p999_ns\":40000,\"run_max_ns\":41000,"
		"\"raise_count\":700,\"raise_rate\":70.0,\"raise_window_count\":700,\"raise_p99_ns\":52000,"
		"\"raise_max_ns\":90000,\"cpus\":[{\"cpu\":1,\"count\":900,\"window_count\":800}]},"
		"{\"vector\":\"TIMER\",\"count\":5,\"rate\":0.5,\"window_count\":5,\"time_share\":0.0,"
		"\"run_avg_ns\":2000,\"run_p99_ns\":3000,\"run_max_ns\":3000,\"raise_count\":0,"
		"\"raise_window_count\":0,\"raise_p99_ns\":null,\"raise_max_ns\":null,"
		"\"cpus\":[{\"cpu\":0,\"count\":5,\"window_count\":5}]}],"
		"\"vectors\":[{\"name\":\"LOC\",\"count\":2500,\"rate\":250.0,\"window_count\":2500,"
		"\"time_share\":0.004,\"avg_ns\":16000,\"p99_ns\":40000,\"max_ns\":90000,"
		"\"cpus\":[{\"cpu\":0,\"count\":2500,\"window_count\":2500}]}]}";
	json_object *s = json_tokener_parse(text);
	struct row *rows;
	enum column cols[COL_COUNT_];
	char cell[32];
	int n, ncols;
	(void)state;

	assert_non_null(s);
	n = table_rows_of(s, KIND_SOFTIRQ, &rows);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].name, "NET_RX");
	assert_int_equal(rows[0].irq, -1);
	assert_int_equal(rows[0].count, 900);
	assert_int_equal(rows[0].p99_ns, 31000);
	assert_int_equal(rows[0].max_ns, 41000);
	assert_int_equal(rows[0].total_ns, 9000000);
	assert_false(rows[0].idle);
	table_cell(cell, sizeof(cell), &rows[0], COL_IRQ);
	assert_string_equal(cell, "-");
	table_cell(cell, sizeof(cell), &rows[0], COL_RAISE_P99);
	assert_string_equal(cell, "52us");
	table_cell(cell, sizeof(cell), &rows[0], COL_RAISE_MAX);
	assert_string_equal(cell, "90us");
	table_cell(cell, sizeof(cell), &rows[1], COL_RAISE_MAX);	/* no raise in the window */
	assert_string_equal(cell, "-");
	table_cell(cell, sizeof(cell), &rows[1], COL_P99);	/* 5 runs: a p99 of too few */
	assert_string_equal(cell, "3.0us*");
	assert_non_null(table_row_object(s, &rows[1]));
	assert_string_equal(json_get_str(table_row_object(s, &rows[1]), "vector", ""), "TIMER");
	free(rows);
	n = table_rows_of(s, KIND_VECTOR, &rows);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].name, "LOC");
	assert_int_equal(rows[0].p99_ns, 40000);
	free(rows);
	/* the sections' columns: no IRQ or SPURIOUS; softirqs add the raise latency's */
	ncols = table_source_columns(KIND_SOFTIRQ, false, cols, COL_COUNT_);
	bool raise = false;
	for (int i = 0; i < ncols; i++) {
		assert_true(cols[i] != COL_IRQ && cols[i] != COL_SPURIOUS);
		raise |= cols[i] == COL_RAISE_P99;
	}
	assert_true(raise);
	ncols = table_source_columns(KIND_VECTOR, false, cols, COL_COUNT_);
	for (int i = 0; i < ncols; i++)
		assert_true(cols[i] != COL_RAISE_P99 && cols[i] != COL_IRQ);
	json_object_put(s);
}

/* A name cut for the screen: a task's pid stays whole, a cut says so, no character is split */
static void test_table_cut(void **state)
{
	char buf[64];
	(void)state;

	table_cut(buf, sizeof(buf), "cyclictest[4242]", 20);
	assert_string_equal(buf, "cyclictest[4242]");	/* fits: as it is */
	table_cut(buf, sizeof(buf), "cyclictest[4242]", 12);
	assert_string_equal(buf, "cycli~[4242]");
	table_cut(buf, sizeof(buf), "cyclictest[4242]", 8);
	assert_string_equal(buf, "c~[4242]");	/* one byte of the comm at least */
	table_cut(buf, sizeof(buf), "cyclictest[4242]", 7);
	assert_string_equal(buf, "cyclic~");	/* no room for the pid: an ordinary cut */
	table_cut(buf, sizeof(buf), "virtio1-req.0", 8);
	assert_string_equal(buf, "virtio1~");	/* not a task: cut at the end */
	table_cut(buf, sizeof(buf), "x[]", 2);
	assert_string_equal(buf, "x~");	/* "[]" holds no pid */
	table_cut(buf, sizeof(buf), "ab\\x1bcd[7]", 8);
	assert_string_equal(buf, "ab~[7]");	/* not inside an escape (ESC as text_escape writes it) */
	table_cut(buf, sizeof(buf), "\xce\xbb\xce\xbb\xce\xbb", 4);
	assert_string_equal(buf, "\xce\xbb~");	/* nor inside a character */
}

/* The header's rate: devices' handlers and the kernel's vectors together, each said */
static void test_table_irq_rate(void **state)
{
	json_object *with = json_tokener_parse("{\"rate\":25.7,\"vectors\":[{\"name\":\"LOC\",\"rate\":1500.0},"
					       "{\"name\":\"RES\",\"rate\":600.5}]}");
	json_object *without = json_tokener_parse("{\"rate\":25.7}");
	char buf[96];
	(void)state;

	table_irq_rate(buf, sizeof(buf), with);
	assert_string_equal(buf, "2126 IRQ/s (25.7 device, 2100 vector)");
	table_irq_rate(buf, sizeof(buf), without);
	assert_string_equal(buf, "25.7 IRQ/s");
	json_object_put(with);
	json_object_put(without);
}

/* A wake-up row's TOP CAUSE from the waits kept beside the summary: the cause with the most
 * time over the task's waits (a part and who: the blocking task, the top interrupt), its share
 * of their time; other tasks' waits and other classes left out; a task with none "-" */
static void test_table_causes(void **state)
{
	struct why_named a = { .cls = WHY_CLASS_WAKEUP, .pid = 10, .comm = "cyclictest", .total_ns = 800,
			       .blocker_pid = 99, .blocker_comm = "python3", .blocker_policy = 1, .blocker_prio = 0 };
	struct why_named b = { .cls = WHY_CLASS_WAKEUP, .pid = 10, .comm = "cyclictest", .total_ns = 300,
			       .top = { [RECENT_IRQ] = "IRQ 36 virtio1-req.0" } };
	struct why_named c = { .cls = WHY_CLASS_WAKEUP, .pid = 10, .comm = "cyclictest", .blocker_pid = 98,
			       .blocker_comm = "stress", .blocker_policy = 1, .blocker_prio = 0 };
	struct why_named other = { .cls = WHY_CLASS_WAKEUP, .pid = 11, .comm = "sleeper", .total_ns = 5000 };
	struct why_named timer = { .cls = WHY_CLASS_TIMER, .pid = 10, .comm = "cyclictest", .total_ns = 9000 };
	json_object *summary = json_object_new_object(), *waits = json_object_new_array();
	struct row rows[3] = { { .kind = KIND_WAKEUP, .key = 10 }, { .kind = KIND_WAKEUP, .key = 12 },
			       { .kind = KIND_HARDIRQ, .key = 10 } };
	char cell[128];
	(void)state;

	a.part_ns[WHY_BLOCKING] = 700;
	a.part_ns[WHY_IRQ] = 100;
	b.part_ns[WHY_IRQ] = 300;
	other.part_ns[WHY_IRQ] = 5000;
	timer.part_ns[WHY_IRQ] = 9000;
	json_object_array_add(waits, why_json(&a));
	json_object_array_add(waits, why_json(&b));
	json_object_array_add(waits, why_json(&other));
	json_object_array_add(waits, why_json(&timer));
	json_object_object_add(summary, WHY_ROWS_KEY, waits);
	why_rows_causes(summary, rows, 3);
	assert_string_equal(rows[0].cause, "64% blocking task python3[99] (FIFO 99)");	/* 700 of 1100 */
	table_cell(cell, sizeof(cell), &rows[1], COL_CAUSE);
	assert_string_equal(cell, "-");
	assert_string_equal(rows[2].cause, "");	/* not a wake-up row */
	a.part_ns[WHY_IRQ] = 500;	/* the IRQ part now the larger: one cause where the same IRQ was top */
	a.part_ns[WHY_BLOCKING] = 300;
	snprintf(a.top[RECENT_IRQ], sizeof(a.top[RECENT_IRQ]), "IRQ 36 virtio1-req.0");
	waits = json_object_new_array();
	json_object_array_add(waits, why_json(&a));
	json_object_array_add(waits, why_json(&b));
	json_object_object_add(summary, WHY_ROWS_KEY, waits);
	why_rows_causes(summary, rows, 1);
	assert_string_equal(rows[0].cause, "73% IRQ 36 virtio1-req.0");	/* 800 of 1100 */
	/* two blocking tasks are two causes, not one named after either: python3's 600 goes
	 * before the IRQ's 550 and stress's 500 (the blocking part, 1100 of 1650, is not the
	 * cause) */
	memset(a.part_ns, 0, sizeof(a.part_ns));
	a.part_ns[WHY_BLOCKING] = a.total_ns = 600;
	b.part_ns[WHY_IRQ] = b.total_ns = 550;
	c.part_ns[WHY_BLOCKING] = c.total_ns = 500;
	waits = json_object_new_array();
	json_object_array_add(waits, why_json(&a));
	json_object_array_add(waits, why_json(&b));
	json_object_array_add(waits, why_json(&c));
	json_object_object_add(summary, WHY_ROWS_KEY, waits);
	why_rows_causes(summary, rows, 1);
	assert_string_equal(rows[0].cause, "36% blocking task python3[99] (FIFO 99)");
	json_object_put(summary);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_table_marks),
		cmocka_unit_test(test_table_units),
		cmocka_unit_test(test_table_scope_line),
		cmocka_unit_test(test_table_sources),
		cmocka_unit_test(test_table_cut),
		cmocka_unit_test(test_table_irq_rate),
		cmocka_unit_test(test_table_causes),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
