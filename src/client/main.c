// SPDX-License-Identifier: GPL-2.0
/* irqlat: the client of irqlatd. Every subcommand is a request on the daemon's socket; the
 * screen is top*.c, the text of `irqlat status` status.c. Functions return 0 or a negative
 * errno, having said what went wrong; main() alone turns that into an exit code (irqlat(1)). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "captures.h"
#include "cli.h"
#include "conn.h"
#include "cpulat.h"
#include "cpuload.h"
#include "firstlines.h"
#include "cpuline.h"
#include "escape.h"
#include "notes.h"
#include "status.h"
#include "stop.h"
#include "table.h"
#include "tptable.h"
#include "top.h"
#include "why.h"
#include "common/evline.h"
#include "common/json.h"
#include "common/kinds/kind.h"
#include "common/template.h"
#include "common/util.h"

#define REQUEST_TIMEOUT_MS 5000

static void print_json_line(json_object *o)
{
	json_object_object_del(o, "ok");
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
}

/* What went wrong reading from the daemon, in one line */
static void read_error(const struct irqlat_conn *conn, int r)
{
	if (r == -EMSGSIZE)
		fprintf(stderr, "irqlat: the answer from %s is longer than %zu MiB (--max-answer-mb): not read\n", conn->path,
			conn->max_answer >> 20);
	else if (r == -EBADMSG)
		fprintf(stderr, "irqlat: %s answered a line that is not one JSON object: is irqlatd what listens there?\n", conn->path);
	else
		fprintf(stderr, "irqlat: lost the connection to irqlatd: %s\n", strerror(-r));
}

/* The request of a one-shot command and its answer in *ret; says once what went wrong. */
static int ask(struct irqlat_conn *conn, json_object *req, json_object **ret)
{
	int r = conn_request(conn, req, REQUEST_TIMEOUT_MS, ret);

	if (r == -EREMOTEIO) {
		if (conn->refusal[0])
			fprintf(stderr, "irqlat: irqlatd says: %s\n", conn->refusal);
	} else if (r < 0) {
		read_error(conn, r);
	}
	return r;
}

#define FIRST_CPUS_BATCH 64	/* CPU lines of a snapshot at most: then "... N more" */

static void print_header(json_object *s, const struct row *rows, int nrows, const enum column *cols, int ncols)
{
	json_object *bpf;
	struct notes notes;
	char rate[96];

	table_irq_rate(rate, sizeof(rate), s);
	printf("irqlat - up %.0fs, window %s, %s, %d handlers, %llu drops", json_get_double(s, "uptime_s", 0),
	       json_get_str(s, "window", "?"), rate, nrows, (unsigned long long)table_drops(s));
	/* the cumulative average: batch output has no earlier snapshot to take a delta from */
	if (json_object_object_get_ex(s, "bpf", &bpf) && json_get_double(bpf, "run_cnt", 0) > 0)
		printf(", cost %.0f ns/IRQ " COST_MEANING "\n", json_get_double(bpf, "ns_per_irq", 0));
	else
		printf(", cost n/a (sysctl kernel.bpf_stats_enabled=1)\n");
	{	/* what answers first: the worst of every view, each CPU */
		char first[1 + FIRST_CPUS_BATCH][FIRSTLINE_LEN];
		int nfirst = first_lines(s, first, 1 + FIRST_CPUS_BATCH);

		for (int i = 0; i < nfirst; i++)
			printf("%s\n", first[i]);
	}
	notes_collect(&notes, s, rows, nrows, cols, ncols);
	for (int i = 0; i < notes.n; i++)
		printf("%s\n", notes.line[i]);
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - floor(s)) * 1e9) };

	while (!stop_requested() && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* -C: only the rows that ran on those CPUs, in place */
static void keep_on_cpus(struct row *rows, int *n, json_object *s, const char *cpus)
{
	int kept = 0;

	if (!cpus)
		return;
	for (int i = 0; i < *n; i++)
		if (cpuline_ran_on(table_row_object(s, &rows[i]), cpus))
			rows[kept++] = rows[i];
	*n = kept;
}

/* A task's element kept by --rt-only and --cgroup; cli: the struct cli (json_keep's argument) */
static bool task_kept(json_object *el, const void *cli)
{
	const struct cli *c = cli;

	return table_task_kept(el, c->rt_only, c->cgroup);
}

/* --rt-only and --cgroup: of the tasks' rows, those they keep (the other kinds' rows are not
 * tasks) */
static void keep_tasks(struct row *rows, int *n, json_object *s, const struct cli *c)
{
	int kept = 0;

	if (!c->rt_only && !c->cgroup)
		return;
	for (int i = 0; i < *n; i++)
		if (rows[i].kind != KIND_WAKEUP || task_kept(table_row_object(s, &rows[i]), c))
			rows[kept++] = rows[i];
	*n = kept;
}

/* The other kinds' sections under the handlers (softirqs, vectors, ...): their default
 * columns, the same sort */
static int print_sections(json_object *s, const struct cli *c)
{
	for (enum lat_kind src = kind_next_table(KIND_HARDIRQ); src != KIND_HARDIRQ; src = kind_next_table(src)) {
		_cleanup_free_ struct row *rows = NULL;
		enum column cols[COL_COUNT_];
		int ncols = table_source_columns(src, false, cols, COL_COUNT_);
		int n = table_rows_of(s, src, &rows);

		if (n < 0) {
			fprintf(stderr, "irqlat: %s\n", strerror(-n));
			return n;
		}
		keep_on_cpus(rows, &n, s, c->cpus);
		keep_tasks(rows, &n, s, c);
		if (!n)
			continue;
		why_rows_causes(s, rows, n);
		table_sort(rows, n, (enum sort_key)table_sort_key(c->sort), c->reverse);
		printf("\n%s\n", kind_get(src)->table.title);
		table_print(stdout, s, rows, n, cols, ncols, c->cpus);
	}
	return 0;
}

static int print_snapshot(json_object *s, const struct cli *c, const enum column *cols, int ncols, bool first)
{
	_cleanup_free_ struct row *rows = NULL;
	int n = table_rows(s, &rows);

	if (n < 0) {
		fprintf(stderr, "irqlat: %s\n", strerror(-n));
		return n;
	}
	keep_on_cpus(rows, &n, s, c->cpus);
	table_sort(rows, n, (enum sort_key)table_sort_key(c->sort), c->reverse);
	if (!first)
		putchar('\n');
	print_header(s, rows, n, cols, ncols);
	table_print(stdout, s, rows, n, cols, ncols, c->cpus);
	if ((n = print_sections(s, c)) < 0)
		return n;
	cpulat_print(stdout, s, 0);
	cpuload_print(stdout, s, 0);
	tp_print_section(stdout, s, 0);
	fflush(stdout);
	return 0;
}

/* parent[key] without the elements keep refuses; nothing when it is not an array */
static void json_keep(json_object *parent, const char *key, bool (*keep)(json_object *el, const void *arg),
		      const void *arg)
{
	json_object *arr, *kept;

	if (!parent || !json_object_object_get_ex(parent, key, &arr) || !json_object_is_type(arr, json_type_array))
		return;
	kept = json_object_new_array();
	for (size_t i = 0; i < json_array_len(arr); i++) {
		json_object *el = json_array_at(arr, i);

		if (keep(el, arg))
			json_object_array_add(kept, json_object_get(el));
	}
	json_object_object_add(parent, key, kept);
}

static bool ran_on(json_object *h, const void *cpus)
{
	return cpuline_ran_on(h, cpus);
}

/* -C with --json: the summary without the handlers that never ran on those CPUs (each kept
 * one whole, all its CPUs, so its counts still add up) */
static void json_keep_on_cpus(json_object *s, const char *cpus)
{
	if (cpus)
		json_keep(s, kind_get(KIND_HARDIRQ)->table.array, ran_on, cpus);
}

/* --rt-only and --cgroup with --json: the tasks woken by their hrtimer that they keep (the
 * timers object's "wakeups") */
static void json_keep_tasks(json_object *s, const struct cli *c)
{
	if (c->rt_only || c->cgroup)
		json_keep(json_object_object_get(s, "timers"), kind_get(KIND_WAKEUP)->table.array, task_kept, c);
}

static bool waiter_rt(json_object *w, const void *arg)
{
	(void)arg;
	return json_get_i64(w, "waiter_prio", 120) < 100;
}

/* --rt-only with why: the waits of real-time waiters alone (the kernel's prio below 100 at the
 * wake-up; deadline is -1) */
static void why_keep_rt(json_object *answer, bool rt_only)
{
	if (rt_only)
		json_keep(answer, "waits", waiter_rt, NULL);
}

/* The explained waits beside a text snapshot, for the wake-up rows' TOP CAUSE: a daemon that
 * explains none (an older one, or why off) leaves the column "-" */
static void add_why_waits(struct irqlat_conn *conn, json_object *s, const char *cpus)
{
	_cleanup_json_ json_object *req = why_rows_request(cpus), *a = NULL;
	json_object *waits;

	if (req && conn_request(conn, req, REQUEST_TIMEOUT_MS, &a) == 0 && json_object_object_get_ex(a, "waits", &waits))
		json_object_object_add(s, WHY_ROWS_KEY, json_object_get(waits));
}

static int cmd_top_batch(struct irqlat_conn *conn, const struct cli *c)
{
	enum column cols[COL_COUNT_];
	int ncols = table_columns(c->columns, false, cols, COL_COUNT_);
	uint64_t last_end = 0;

	for (long i = 0; !stop_requested() && (!c->iterations || i < c->iterations); i++) {
		_cleanup_json_ json_object *req = conn_new_request("summary", c->window), *s = NULL;
		int r;

		conn_add_cpus(req, c->cpus);

		if (i)
			sleep_s(c->delay_s);
		if (stop_requested())
			break;
		r = ask(conn, req, &s);
		if (r < 0)
			return r;
		/* with -d raised to the daemon's interval, a tick a little late would give the last
		 * snapshot again: wait for the next one (40 x 50 ms at most) */
		for (int k = 0; c->delay_asked_s > 0 && i && k < 40 && !stop_requested() &&
				json_get_u64(s, "snapshot_end_ns", 0) == last_end; k++) {
			json_object_put(s);
			s = NULL;
			sleep_s(0.05);
			r = ask(conn, req, &s);
			if (r < 0)
				return r;
		}
		last_end = json_get_u64(s, "snapshot_end_ns", 0);
		if (c->json) {
			json_keep_on_cpus(s, c->cpus);
			json_keep_tasks(s, c);
			print_json_line(s);
			continue;
		}
		add_why_waits(conn, s, c->cpus);
		answer_escape(s);
		if ((r = print_snapshot(s, c, cols, ncols, i == 0)) < 0)
			return r;
	}
	return 0;
}

/* One histogram of an element of a hist answer: the value fields under prefix ("run_p50_ns"),
 * how many values in count_key (noun: what they are), its buckets in prefix + "buckets";
 * title says whose it is. */
static void print_hist(json_object *h, const char *title, const char *noun, const char *count_key,
		       const char *prefix)
{
	json_object *buckets;
	uint64_t peak = 0;
	char lo[16], hi[16], key[32];
	size_t nb;

	snprintf(key, sizeof(key), "%sbuckets", prefix);
	if (!json_object_object_get_ex(h, key, &buckets))
		return;
	nb = json_array_len(buckets);
	for (size_t i = 0; i < nb; i++) {
		uint64_t n = json_object_get_uint64(json_array_at(json_array_at(buckets, i), 2));

		if (n > peak)
			peak = n;
	}
	uint64_t runs = json_get_u64(h, count_key, 0);
	uint64_t q[3] = { table_field(h, prefix, "p50_ns"), table_field(h, prefix, "p99_ns"),
			  table_field(h, prefix, "p999_ns") };
	char p50[16], p99[16], p999[16], max[16];

	/* "-" for a window without runs, '*' on a percentile of too few runs (table.h) */
	fmt_latency(p50, sizeof(p50), q[0], runs, 0.5);
	fmt_latency(p99, sizeof(p99), q[1], runs, 0.99);
	fmt_latency(p999, sizeof(p999), q[2], runs, 0.999);
	fmt_latency(max, sizeof(max), table_field(h, prefix, "max_ns"), runs, 0);
	printf("%s: %llu %s in window, p50 %s, p99 %s, p99.9 %s, max %s\n", title, (unsigned long long)runs, noun,
	       p50, p99, p999, max);
	for (size_t i = 0; i < nb; i++) {
		json_object *b = json_array_at(buckets, i);
		uint64_t l = json_object_get_uint64(json_array_at(b, 0));
		uint64_t u = json_object_get_uint64(json_array_at(b, 1));
		uint64_t n = json_object_get_uint64(json_array_at(b, 2));
		int bar = peak ? (int)((n * 40 + peak - 1) / peak) : 0;
		char marks[32] = "";

		hist_row_labels(l, u, q, lo, hi, sizeof(lo), marks, sizeof(marks));
		printf("  %7s - %-7s %10llu |%-40.*s%s\n", lo, hi, (unsigned long long)n, bar,
		       "########################################", marks);
	}
}

/* Every histogram of a hist answer: each kind's table in the kind table's order (handlers,
 * softirq vectors, vector interrupts, timer functions, tasks' wake-ups, threaded IRQs), and in
 * an element the histogram of each kind in it (a softirq's run time, then its raise-to-run
 * latency). The number of elements printed. */
static size_t print_hists(json_object *s)
{
	size_t shown = 0;
	char title[96], count_key[64];

	for (unsigned k = 0; k < KINDS; k++) {
		json_object *arr = kind_has_table(k) ? table_source_array(s, k) : NULL;

		for (size_t i = 0; arr && i < json_array_len(arr); i++, shown++) {
			json_object *h = json_array_at(arr, i);

			if (shown)
				putchar('\n');
			for (unsigned j = 0; j < KINDS; j++) {
				const struct kind_desc *d = kind_get(j);

				if (d->join != k || !d->hist_title)
					continue;
				tmpl_render(title, sizeof(title), d->hist_title, h);
				/* a kind that joins another's element has its counts under its prefix */
				snprintf(count_key, sizeof(count_key), "%swindow_count", j == k ? "" : d->prefix);
				print_hist(h, title, d->count_noun, count_key, d->prefix);
			}
		}
	}
	return shown;
}

/* "handler, softirq vector, ... or threaded IRQ": what irqlat hist can name, from the kinds'
 * tables' nouns */
static void hist_nouns(char *buf, size_t len)
{
	const char *nouns[KINDS];
	unsigned n = 0;
	size_t off = 0;

	for (unsigned k = 0; k < KINDS; k++)
		if (kind_has_table(k) && kind_get(k)->table.noun)
			nouns[n++] = kind_get(k)->table.noun;
	buf[0] = 0;
	for (unsigned i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", !i ? "" : i + 1 == n ? " or " : ", ", nouns[i]);
}

static int cmd_hist(struct irqlat_conn *conn, const struct cli *c)
{
	_cleanup_json_ json_object *req = conn_new_request("hist", c->window), *s = NULL;
	size_t n;
	int r;

	conn_add_cpus(req, c->cpus);

	if (c->target) {
		char *end;
		long irq = strtol(c->target, &end, 10);
		bool pid = !strncmp(c->target, "pid:", 4);

		if (pid)
			irq = strtol(c->target + 4, &end, 10);
		if (*end == 0 && end != c->target + (pid ? 4 : 0))
			json_object_object_add(req, pid ? "pid" : "irq", json_object_new_int((int)irq));
		else
			json_object_object_add(req, "name", json_object_new_string(c->target));
	}
	r = ask(conn, req, &s);
	if (r < 0)
		return r;
	if (c->json) {
		print_json_line(s);
		return 0;
	}
	answer_escape(s);
	n = print_hists(s);
	if (!n && c->target) {
		char nouns[256];

		hist_nouns(nouns, sizeof(nouns));
		fprintf(stderr, "irqlat: no %s matches '%s' (yet): see 'irqlat --top -b -n 1' for the list\n", nouns, c->target);
	}
	return c->target && n == 0 ? -ENOENT : 0;
}

static int cmd_status(struct irqlat_conn *conn, const struct cli *c)
{
	_cleanup_json_ json_object *req = conn_new_request("status", c->window), *s = NULL;
	int r = ask(conn, req, &s);

	if (r < 0)
		return r;
	if (c->json) {
		print_json_line(s);
	} else {
		answer_escape(s);
		status_print(stdout, s);
	}
	return 0;
}

/* hist and status: once, or --iterations times every --delay, like the table */
static int repeat(struct irqlat_conn *conn, const struct cli *c, int (*fn)(struct irqlat_conn *, const struct cli *))
{
	long n = c->iterations ? c->iterations : 1;
	int r = 0;

	for (long i = 0; i < n && !stop_requested() && r >= 0; i++) {
		if (i) {
			sleep_s(c->delay_s);
			if (stop_requested())
				break;
			if (!c->json)
				putchar('\n');
		}
		r = fn(conn, c);
		fflush(stdout);
	}
	return r;
}

/* A tracepoint event as ftrace prints it, its time in the clock asked for: the daemon's own
 * "line" has the monotonic one. */
static void print_tracepoint(json_object *e, enum ev_clock clock)
{
	const char *name = json_get_str(e, "tracepoint", "?"), *event = strchr(name, ':');
	char time[48], line[1024];
	json_object *args;
	int off;

	if (clock == EV_CLOCK_MONO && json_object_object_get_ex(e, "line", &args)) {
		puts(json_object_get_string(args));
		return;
	}
	ev_time(time, sizeof(time), json_get_u64(e, clock == EV_CLOCK_WALL ? "wall_ns" : clock == EV_CLOCK_BOOT ? "boot_ns" : "ts_ns", 0),
		clock);
	off = ev_context(line, sizeof(line), json_get_str(e, "comm", "?"), (unsigned)json_get_u64(e, "pid", 0),
			 (unsigned)json_get_u64(e, "cpu", 0), time);
	off += snprintf(line + off, sizeof(line) - (size_t)off, " %s:", event ? event + 1 : name);
	if (json_object_object_get_ex(e, "args", &args) && json_is_object(args)) {
		/* in the order the daemon put them: the tracepoint's */
		json_object_object_foreach(args, k, v) {
			char key[4 * 32 + 1];	/* an argument's name, from the kernel too */

			if ((size_t)off >= sizeof(line))
				break;
			text_escape(key, sizeof(key), k, strlen(k));
			off += snprintf(line + off, sizeof(line) - (size_t)off, " %s=%s", key, json_object_get_string(v));
		}
	}
	puts(line);
}

static void print_event(json_object *e, const struct cli *c)
{
	json_object *v;

	if (c->json) {
		puts(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		return;
	}
	answer_escape(e);
	if (json_object_object_get_ex(e, "lost", &v)) {
		printf("irqlat: %llu events lost: this client read too slowly\n", (unsigned long long)json_object_get_uint64(v));
		return;
	}
	if (!strcmp(json_get_str(e, "type", ""), "tracepoint")) {
		print_tracepoint(e, c->clock);
		return;
	}
	if (!strcmp(json_get_str(e, "type", ""), "outlier")) {
		int k = kind_by_name(json_get_str(e, "kind", ""));
		const struct kind_desc *d = kind_get(k >= 0 && kind_get(k)->event_line ? (enum lat_kind)k : KIND_HARDIRQ);
		const char *tp = d->event_task_prefix ? d->event_task_prefix : "";	/* a wake-up's own are the woken task's */
		char time[48], ctx[128], what[96], pid[32], comm[32];
		size_t n = tmpl_render(what, sizeof(what), d->event_line, e);

		if (d->event_aux_key && json_has(e, d->event_aux_key) && n < sizeof(what))
			snprintf(what + n, sizeof(what) - n, " %s=%d", d->event_aux_key, (int)json_get_i64(e, d->event_aux_key, 0));
		ev_time(time, sizeof(time),
			json_get_u64(e, c->clock == EV_CLOCK_WALL ? "wall_ns" : c->clock == EV_CLOCK_BOOT ? "boot_ns" : "ts_ns", 0),
			c->clock);
		snprintf(pid, sizeof(pid), "%spid", tp);
		snprintf(comm, sizeof(comm), "%scomm", tp);
		ev_context(ctx, sizeof(ctx), json_get_str(e, comm, "?"), (unsigned)json_get_u64(e, pid, 0),
			   (unsigned)json_get_u64(e, "cpu", 0), time);
		printf("%s outlier: %s\n", ctx, what);
		/* why it was late, when the daemon explained it (irqlat why has the parts) */
		if (json_object_object_get_ex(e, "why", &v)) {
			struct why_named w;

			printf("%*s why: %s\n", 16, "", json_get_str(v, "summary", "?"));
			/* --detail: the parts and the timeline, as irqlat why --timeline has them */
			if (c->detail && why_from_json(v, &w) == 0) {
				why_print_wait(stdout, &w, json_get_u64(e, "ts_ns", 0), EV_CLOCK_MONO);
				why_print_timeline(stdout, &w);
			}
		}
	}
}

/* The events of an answer ("events": the kept ones asked for), oldest first. */
static void print_kept(json_object *answer, const struct cli *c)
{
	json_object *arr;

	if (!json_object_object_get_ex(answer, "events", &arr))
		return;
	for (size_t i = 0; i < json_array_len(arr); i++)
		print_event(json_array_at(arr, i), c);
	fflush(stdout);
}

/* A --since older than the oldest event the daemon still keeps: say so on stderr (the events
 * on stdout stay what they are), with how many are gone and what keeps more */
static void note_truncated(json_object *answer, const struct cli *c)
{
	uint64_t oldest = json_get_u64(answer, "oldest_wall_ns", 0);
	time_t t = (time_t)(oldest / 1000000000ull);
	char when[32] = "?";
	struct tm tm;

	if (!c->since_wall_ns || !json_get_i64(answer, "truncated", 0))
		return;
	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%F %T", &tm);
	fprintf(stderr, "irqlat: the events asked for begin before the oldest the daemon still keeps (%s): "
		"%llu older events are gone, irqlatd keeps the last %llu (event-history)\n",
		when, (unsigned long long)json_get_u64(answer, "gone", 0), (unsigned long long)json_get_u64(answer, "capacity", 0));
}

/* Without --follow: the kept events (-n the last N, --since from then on), and done. With it:
 * those --since selects, then each as it comes (-n: stop after N). */
static int cmd_events(struct irqlat_conn *conn, const struct cli *c)
{
	_cleanup_json_ json_object *req = conn_new_request(c->follow ? "subscribe" : "events", NULL), *s = NULL;
	long n = 0;
	int r;

	if (c->since_wall_ns || !c->follow)
		json_object_object_add(req, "since_wall_ns", json_object_new_uint64(c->since_wall_ns));
	if (!c->follow && c->iterations)
		json_object_object_add(req, "n", json_object_new_int64(c->iterations));
	if (c->detail)	/* the outliers' timelines and stacks: sent only to who asks */
		json_object_object_add(req, "detail", json_object_new_boolean(true));
	r = ask(conn, req, &s);
	if (r < 0)
		return r;
	print_kept(s, c);
	note_truncated(s, c);
	while (c->follow && !stop_requested()) {
		_cleanup_json_ json_object *e = NULL;

		r = conn_read(conn, 500, &e);
		if (r == -ETIMEDOUT)
			continue;
		if (r < 0) {
			if (stop_requested())
				return 0;
			read_error(conn, r);
			return r;
		}
		print_event(e, c);
		fflush(stdout);
		if (c->iterations && ++n >= c->iterations)
			break;
	}
	return 0;
}

/* The recent explained waits of a task, comm or CPU (or all), broken down */
static int cmd_why(struct irqlat_conn *conn, const struct cli *c)
{
	const char *err = NULL;
	_cleanup_json_ json_object *req = why_client_request(c->target, c->iterations, &err), *s = NULL;
	int r;

	if (!req) {
		fprintf(stderr, "irqlat: why %s: %s\n", c->target, err);
		return -EINVAL;
	}
	if (c->cpus && *c->cpus)	/* -C: the waits on those CPUs */
		json_object_object_add(req, "cpus", json_object_new_string(c->cpus));
	if (c->timeline)
		json_object_object_add(req, "timeline", json_object_new_boolean(true));
	r = ask(conn, req, &s);
	if (r < 0)
		return r;
	why_keep_rt(s, c->rt_only);
	if (c->json)
		print_json_line(s);
	else
		why_print_answer(stdout, s, c->clock, c->timeline);
	return 0;
}

static int cmd_tracepoint(struct irqlat_conn *conn, const struct cli *c)
{
	const char *cmd = c->cmd == CMD_DETACH ? "detach" : "attach";
	_cleanup_json_ json_object *req = conn_new_request(cmd, NULL), *s = NULL;
	int r;

	json_object_object_add(req, "tracepoint", json_object_new_string(c->target));
	r = ask(conn, req, &s);
	if (r < 0)
		return r;
	if (c->json) {
		print_json_line(s);
	} else {
		answer_escape(s);
		tp_print_result(stdout, s, cmd, c->target);
	}
	return 0;
}

static int cmd_captures(struct irqlat_conn *conn, const struct cli *c)
{
	_cleanup_json_ json_object *req = conn_new_request("captures", NULL), *s = NULL;
	int r = ask(conn, req, &s);

	if (r < 0)
		return r;
	if (c->json)
		print_json_line(s);
	else
		captures_print(stdout, s);
	return 0;
}

/* What the user was doing was talking to the daemon: say why it is not there. */
static int connect_error(int r, const char *path)
{
	if (r == -ENAMETOOLONG)
		fprintf(stderr, "irqlat: socket path %s is too long\n", path);
	else if (r == -ENOENT || r == -ECONNREFUSED)
		fprintf(stderr, "irqlat: irqlatd is not running (no daemon at %s): start it with 'systemctl start irqlatd' or 'sudo irqlatd'\n", path);
	else if (r == -EACCES)
		fprintf(stderr, "irqlat: no permission to connect to %s: run as root, or as a member of the socket's group "
			"(irqlat by default: ask to be added to it)\n", path);
	else if (r == -ETIMEDOUT)
		fprintf(stderr, "irqlat: irqlatd at %s did not take the connection within %d s (its queue is full): try again later\n",
			path, CONN_TIMEOUT_MS / 1000);
	else if (r == -EINTR && stop_requested())
		fprintf(stderr, "irqlat: interrupted while connecting to irqlatd at %s\n", path);
	else
		fprintf(stderr, "irqlat: cannot connect to irqlatd at %s: %s\n", path, strerror(-r));
	return r;
}

/* -d under the daemon's interval would print the same snapshot again (its figures change once
 * a tick): raised to the interval, and said once (on the screen: top.c, from delay_asked_s) */
static void delay_within_interval(struct irqlat_conn *conn, struct cli *c, bool screen)
{
	_cleanup_json_ json_object *req = conn_new_request("status", NULL), *s = NULL;
	json_object *cfg;
	double interval;

	if (!c->delay_given || c->iterations == 1 || conn_request(conn, req, REQUEST_TIMEOUT_MS, &s) < 0 ||
	    !json_object_object_get_ex(s, "config", &cfg))
		return;
	interval = json_get_double(cfg, "interval_ms", 0) / 1000;
	if (!(c->delay_s < interval))
		return;
	c->delay_asked_s = c->delay_s;
	c->delay_s = interval;
	if (!screen)
		fprintf(stderr, "irqlat: irqlatd refreshes its figures every %g s: -d %g would repeat a snapshot, so every %g s\n",
			interval, c->delay_asked_s, interval);
}

static int run(const struct cli *given)
{
	_cleanup_(conn_close) struct irqlat_conn conn = IRQLAT_CONN_NULL;
	struct cli copy = *given, *c = &copy;
	bool screen = !c->batch && !c->json && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	int r;

	stop_on_signal(SIGINT);
	stop_on_signal(SIGTERM);
	signal(SIGPIPE, SIG_IGN);	/* a closed connection or stdout reader: EPIPE, said once */
	r = conn_open(&conn, c->socket_path, (size_t)c->max_answer_mb << 20);
	if (r < 0)
		return connect_error(r, c->socket_path);
	if (c->cmd == CMD_TOP || c->cmd == CMD_HIST || c->cmd == CMD_STATUS)
		delay_within_interval(&conn, c, screen && c->cmd == CMD_TOP);
	switch (c->cmd) {
	case CMD_HIST:
		return repeat(&conn, c, cmd_hist);
	case CMD_STATUS:
		return repeat(&conn, c, cmd_status);
	case CMD_EVENTS:
		return cmd_events(&conn, c);
	case CMD_WHY:
		return cmd_why(&conn, c);
	case CMD_DETACH:
	case CMD_ATTACH:
		return cmd_tracepoint(&conn, c);
	case CMD_CAPTURES:
		return cmd_captures(&conn, c);
	default:
		/* the screen needs a terminal on both sides; anything else gets the text (like top -b) */
		if (screen)
			return top_run(&conn, c);
		return cmd_top_batch(&conn, c);
	}
}

int main(int argc, char **argv)
{
	struct cli c;
	int r;

	r = cli_parse(&c, argc, argv, stdout, stderr);
	if (r < 0)
		return EXIT_USAGE;
	if (r > 0)	/* --help, --version */
		return EXIT_SUCCESS;
	return run(&c) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
