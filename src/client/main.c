// SPDX-License-Identifier: GPL-2.0
/* irqlat: the client of irqlatd. Every subcommand is a request on the daemon's socket. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "conn.h"
#include "table.h"
#include "tptable.h"
#include "top.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static json_object *request(const char *cmd, const struct cli *c)
{
	json_object *req = json_object_new_object();

	json_object_object_add(req, "cmd", json_object_new_string(cmd));
	json_object_object_add(req, "window", json_object_new_string(c->window));
	return req;
}

static void print_json_line(json_object *o)
{
	json_object_object_del(o, "ok");
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
}

static double get_d(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_double(v) : 0;
}

static void print_header(json_object *s, int nrows)
{
	json_object *drops, *v;
	uint64_t lost = 0;
	char rate[32];

	if (json_object_object_get_ex(s, "drops", &drops)) {
		json_object_object_foreach(drops, k, dv) {
			(void)k;
			lost += json_object_get_uint64(dv);
		}
	}
	fmt_count(rate, sizeof(rate), get_d(s, "rate"));
	printf("irqlat - up %.0fs, window %s, %s IRQ/s, %d handlers, %llu drops", get_d(s, "uptime_s"),
	       json_object_object_get_ex(s, "window", &v) ? json_object_get_string(v) : "?", rate, nrows,
	       (unsigned long long)lost);
	/* the cumulative average: batch output has no earlier snapshot to take a delta from */
	if (json_object_object_get_ex(s, "bpf", &v) && get_d(v, "run_cnt") > 0)
		printf(", cost %.0f ns/IRQ\n", get_d(v, "ns_per_irq"));
	else
		printf(", cost n/a (sysctl kernel.bpf_stats_enabled=1)\n");
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - floor(s)) * 1e9) };

	while (!stop && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int cmd_top_batch(struct irqlat_conn *conn, const struct cli *c)
{
	enum column cols[COL_COUNT_];
	int ncols = table_columns(c->columns, cols, COL_COUNT_);

	for (long i = 0; !stop && (!c->iterations || i < c->iterations); i++) {
		json_object *req = request("summary", c), *s;
		struct row *rows;
		int n;

		if (i)
			sleep_s(c->delay_s);
		if (stop)
			break;
		s = conn_request(conn, req);
		json_object_put(req);
		if (!s) {
			if (errno != EINVAL)
				fprintf(stderr, "irqlat: lost the connection to irqlatd: %s\n", strerror(errno));
			return 1;
		}
		if (c->json) {
			print_json_line(s);
		} else {
			rows = table_rows(s, &n);
			table_sort(rows, n, (enum sort_key)table_sort_key(c->sort), c->reverse);
			if (i)
				putchar('\n');
			print_header(s, n);
			table_print(stdout, rows, n, cols, ncols);
			tp_print_section(stdout, s);
			fflush(stdout);
			free(rows);
		}
		json_object_put(s);
	}
	return 0;
}

static void print_hist(json_object *h)
{
	json_object *buckets, *v;
	uint64_t peak = 0;
	char lo[16], hi[16];
	size_t nb;

	if (!json_object_object_get_ex(h, "buckets", &buckets))
		return;
	nb = json_object_array_length(buckets);
	for (size_t i = 0; i < nb; i++) {
		uint64_t n = json_object_get_uint64(json_object_array_get_idx(json_object_array_get_idx(buckets, i), 2));

		if (n > peak)
			peak = n;
	}
	printf("IRQ %d (%s): %llu runs in window, p50 ", json_object_object_get_ex(h, "irq", &v) ? json_object_get_int(v) : -1,
	       json_object_object_get_ex(h, "name", &v) ? json_object_get_string(v) : "?",
	       (unsigned long long)(json_object_object_get_ex(h, "window_count", &v) ? json_object_get_uint64(v) : 0));
	uint64_t q[3] = { (uint64_t)get_d(h, "p50_ns"), (uint64_t)get_d(h, "p99_ns"), (uint64_t)get_d(h, "p999_ns") };

	fmt_ns(lo, sizeof(lo), q[0]);
	fmt_ns(hi, sizeof(hi), q[1]);
	printf("%s, p99 %s, ", lo, hi);
	fmt_ns(lo, sizeof(lo), q[2]);
	fmt_ns(hi, sizeof(hi), (uint64_t)get_d(h, "max_ns"));
	printf("p99.9 %s, max %s\n", lo, hi);
	for (size_t i = 0; i < nb; i++) {
		json_object *b = json_object_array_get_idx(buckets, i);
		uint64_t l = json_object_get_uint64(json_object_array_get_idx(b, 0));
		uint64_t u = json_object_get_uint64(json_object_array_get_idx(b, 1));
		uint64_t n = json_object_get_uint64(json_object_array_get_idx(b, 2));
		int bar = peak ? (int)((n * 40 + peak - 1) / peak) : 0;
		char marks[32] = "";

		hist_row_labels(l, u, q, lo, hi, sizeof(lo), marks, sizeof(marks));
		printf("  %7s - %-7s %10llu |%-40.*s%s\n", lo, hi, (unsigned long long)n, bar,
		       "########################################", marks);
	}
}

static int cmd_hist(struct irqlat_conn *conn, const struct cli *c)
{
	json_object *req = request("hist", c), *s, *irqs;
	size_t n = 0;
	char *end;

	if (c->target) {
		long irq = strtol(c->target, &end, 10);

		if (*end == 0 && end != c->target)
			json_object_object_add(req, "irq", json_object_new_int((int)irq));
		else
			json_object_object_add(req, "name", json_object_new_string(c->target));
	}
	s = conn_request(conn, req);
	json_object_put(req);
	if (!s)
		return 1;
	if (c->json) {
		print_json_line(s);
	} else if (json_object_object_get_ex(s, "irqs", &irqs)) {
		n = json_object_array_length(irqs);

		if (!n && c->target)
			fprintf(stderr, "irqlat: no handler matches '%s' (yet): see 'irqlat --top -b -n 1' for the list\n", c->target);
		for (size_t i = 0; i < n; i++) {
			if (i)
				putchar('\n');
			print_hist(json_object_array_get_idx(irqs, i));
		}
	}
	json_object_put(s);
	return c->target && !c->json && n == 0 ? 1 : 0;
}

static const char *str_of(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : "?";
}

/* The status answer for a person; keys this client does not know yet are printed as JSON
 * at the end, so what the daemon adds is never hidden. */
static void print_status(json_object *s)
{
	static const char *const known[] = { "ok", "version", "pid", "uptime_s", "attach", "programs", "handlers",
					     "cells_used", "drops", "bpf", "config", "tracepoints" };
	json_object *v, *cfg = NULL, *bpf = NULL, *drops = NULL;
	char up[32], th[16];
	double secs = get_d(s, "uptime_s");
	unsigned long u = (unsigned long)secs;

	snprintf(up, sizeof(up), "%lu:%02lu:%02lu", u / 3600, u % 3600 / 60, u % 60);
	json_object_object_get_ex(s, "config", &cfg);
	json_object_object_get_ex(s, "bpf", &bpf);
	json_object_object_get_ex(s, "drops", &drops);
	printf("irqlatd %s, pid %d, up %s\n", str_of(s, "version"), (int)get_d(s, "pid"), up);
	printf("%-12s %s", "attach:", str_of(s, "attach"));
	if (json_object_object_get_ex(s, "programs", &v) && json_object_is_type(v, json_type_array)) {
		printf(", programs");
		for (size_t i = 0; i < json_object_array_length(v); i++)
			printf("%s %s", i ? "," : "", json_object_get_string(json_object_array_get_idx(v, i)));
	}
	if (bpf && json_object_object_get_ex(bpf, "prog_ids", &v) && json_object_is_type(v, json_type_array)) {
		printf(" (BPF prog ids");
		for (size_t i = 0; i < json_object_array_length(v); i++)
			printf("%s %d", i ? "," : "", json_object_get_int(json_object_array_get_idx(v, i)));
		printf(")");
	}
	printf("\n%-12s %d, in %llu histogram cells of %llu\n", "handlers:", (int)get_d(s, "handlers"),
	       (unsigned long long)get_d(s, "cells_used"), (unsigned long long)(cfg ? get_d(cfg, "max_cells") : 0));
	printf("%-12s", "drops:");
	if (drops) {
		int first = 1;

		json_object_object_foreach(drops, k, dv) {
			printf("%s %s %llu", first ? "" : ",", k, (unsigned long long)json_object_get_uint64(dv));
			first = 0;
		}
	}
	if (json_object_object_get_ex(s, "tracepoints", &v) && json_object_array_length(v)) {
		printf("\n%-12s", "tracepoints:");
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *t = json_object_array_get_idx(v, i);

			printf("%s %s %s", i ? "," : "", str_of(t, "tracepoint"), str_of(t, "state"));
			if (!strcmp(str_of(t, "state"), "attached"))
				printf(" (raw_tp, arguments from %s, %.0f events)", str_of(t, "args_source"), get_d(t, "events"));
		}
	}
	printf("\n%-12s ", "overhead:");
	if (bpf && get_d(bpf, "run_cnt") > 0)
		printf("%.0f ns of BPF run time per IRQ (%llu IRQs timed while BPF stats were on)%s\n",
		       get_d(bpf, "ns_per_irq"), (unsigned long long)get_d(bpf, "run_cnt"),
		       json_object_object_get_ex(bpf, "stats_enabled", &v) && json_object_get_boolean(v) ? "" : "; stats are off now");
	else
		printf("n/a (sysctl kernel.bpf_stats_enabled=1, or run irqlatd --bpf-stats)\n");
	if (cfg) {
		fmt_ns(th, sizeof(th), (uint64_t)get_d(cfg, "threshold_ns"));
		printf("%-12s threshold %s, interval %.0f ms, max cells %.0f, ring buffer %.0f KiB, socket %s%s\n", "config:",
		       get_d(cfg, "threshold_ns") > 0 ? th : "off", get_d(cfg, "interval_ms"), get_d(cfg, "max_cells"),
		       get_d(cfg, "ringbuf_bytes") / 1024, str_of(cfg, "socket"),
		       json_object_object_get_ex(cfg, "bpf_stats", &v) && json_object_get_boolean(v) ? ", --bpf-stats" : "");
		json_object_object_foreach(cfg, k, cv) {
			if (!strcmp(k, "threshold_ns") || !strcmp(k, "interval_ms") || !strcmp(k, "max_cells") ||
			    !strcmp(k, "ringbuf_bytes") || !strcmp(k, "socket") || !strcmp(k, "bpf_stats"))
				continue;
			printf("%-12s %s: %s\n", "", k, json_object_to_json_string_ext(cv, JSON_C_TO_STRING_PLAIN));
		}
	}
	json_object_object_foreach(s, k, ov) {
		size_t i;

		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(k, known[i]))
				break;
		if (i == sizeof(known) / sizeof(known[0]))
			printf("%-12s %s\n", k, json_object_to_json_string_ext(ov, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	}
}

static int cmd_status(struct irqlat_conn *conn, const struct cli *c)
{
	json_object *req = request("status", c), *s;

	s = conn_request(conn, req);
	json_object_put(req);
	if (!s)
		return 1;
	if (c->json)
		print_json_line(s);
	else
		print_status(s);
	json_object_put(s);
	return 0;
}

/* hist and status: once, or --iterations times every --delay, like the table */
static int repeat(struct irqlat_conn *conn, const struct cli *c, int (*fn)(struct irqlat_conn *, const struct cli *))
{
	long n = c->iterations ? c->iterations : 1;
	int r = 0;

	for (long i = 0; i < n && !stop && !r; i++) {
		if (i) {
			sleep_s(c->delay_s);
			if (stop)
				break;
			if (!c->json)
				putchar('\n');
		}
		r = fn(conn, c);
		fflush(stdout);
	}
	return r;
}

static void print_event(json_object *e, int json)
{
	json_object *v;

	if (json) {
		puts(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		return;
	}
	if (json_object_object_get_ex(e, "lost", &v)) {
		printf("irqlat: %llu events lost: this client read too slowly\n", (unsigned long long)json_object_get_uint64(v));
		return;
	}
	if (json_object_object_get_ex(e, "line", &v)) {	/* preformatted by the daemon */
		puts(json_object_get_string(v));
		return;
	}
	if (json_object_object_get_ex(e, "type", &v) && !strcmp(json_object_get_string(v), "outlier")) {
		char d[16];

		fmt_ns(d, sizeof(d), (uint64_t)get_d(e, "duration_ns"));
		printf("%16s-%-7d [%03d] %.6f: outlier: irq=%d name=%s duration=%s\n",
		       json_object_object_get_ex(e, "comm", &v) ? json_object_get_string(v) : "?",
		       (int)get_d(e, "pid"), (int)get_d(e, "cpu"), get_d(e, "ts_ns") / 1e9, (int)get_d(e, "irq"),
		       json_object_object_get_ex(e, "name", &v) ? json_object_get_string(v) : "?", d);
	}
}

static int cmd_events(struct irqlat_conn *conn, const struct cli *c)
{
	json_object *req = request("subscribe", c), *s;
	long n = 0;

	s = conn_request(conn, req);
	json_object_put(req);
	if (!s)
		return 1;
	json_object_put(s);
	while (!stop) {
		json_object *e = conn_read(conn, c->follow ? 500 : 1000);

		if (!e) {
			if (errno == ETIMEDOUT) {
				if (!c->follow)
					break;
				continue;
			}
			if (!stop)
				fprintf(stderr, "irqlat: lost the connection to irqlatd: %s\n", strerror(errno));
			return stop ? 0 : 1;
		}
		print_event(e, c->json);
		fflush(stdout);
		json_object_put(e);
		if (c->iterations && ++n >= c->iterations)
			break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct irqlat_conn conn;
	struct cli c;
	int r;

	r = cli_parse(&c, argc, argv, stdout, stderr);
	if (r)
		return r < 0 ? 0 : r;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (conn_open(&conn, c.socket_path, 0) < 0)
		return 1;
	switch (c.cmd) {
	case CMD_HIST:
		r = repeat(&conn, &c, cmd_hist);
		break;
	case CMD_STATUS:
		r = repeat(&conn, &c, cmd_status);
		break;
	case CMD_EVENTS:
		r = cmd_events(&conn, &c);
		break;
	case CMD_DETACH:
	case CMD_ATTACH:
		r = tp_request(&conn, c.cmd == CMD_DETACH ? "detach" : "attach", c.target, c.json);
		break;
	default:
		/* the screen needs a terminal on both sides; anything else gets the text (like top -b) */
		if (!c.batch && !c.json && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
			r = top_run(&conn, &c);
		else
			r = cmd_top_batch(&conn, &c);
	}
	conn_close(&conn);
	return r;
}
