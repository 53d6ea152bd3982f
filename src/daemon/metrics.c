// SPDX-License-Identifier: GPL-2.0
/* The Prometheus endpoint. libmicrohttpd runs in its "external select" mode with its own epoll
 * set (MHD_USE_EPOLL, no internal thread): that epoll fd is one sd_event io source and MHD's
 * timeout one sd_event timer, so a scrape runs on the daemon's only thread, between ticks, and
 * reads the collector without any locking. A page is a few kB per handler and takes
 * microseconds to build (docs/metrics.md), far below anything that would need a thread.
 *
 * The listening socket is made here (or taken from systemd, socket activation), not by MHD:
 * "address in use" then gets its own line, and both ways share one code path. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include <systemd/sd-daemon.h>
#include "config.h"
#include "kind.h"
#include "log.h"
#include "metrics.h"
#include "common/macro.h"
#include "common/util.h"

/* The classic histogram's le bounds: every 8th schema-3 bound, 2^m s for m = -23 (119 ns) to
 * 2 (4 s), each an exact bucket bound of bpf/hist_bucket.h, so each cumulative count is exact
 * and a Prometheus native histogram of the same cells would agree with it. */
#define LE_MIN_LOG2_S (-23)
#define LE_MAX_LOG2_S 2
#define MAX_WINDOW WINDOW_10S	/* <kind>_max_seconds: the max over the last 10 s */

struct metrics {
	struct MHD_Daemon *mhd;
	sd_event_source *io, *timer;
	struct metrics_sources src;
	int fd;
	char where[80];
};

/* Label values: backslash, double quote and newline escaped, as the text format wants. */
static void put_label(FILE *f, const char *s, size_t max)
{
	for (size_t i = 0; i < max && s[i]; i++) {
		if (s[i] == '\\' || s[i] == '"')
			fputc('\\', f), fputc(s[i], f);
		else if (s[i] == '\n')
			fputs("\\n", f);
		else
			fputc(s[i], f);
	}
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* ns as seconds, exactly: 1234567890 -> 1.234567890 */
static void put_seconds(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

/* Series of one kind that share a sub and a name (one driver registered twice on a shared
 * line) would give two series with one label set, which Prometheus rejects: they are summed
 * into the first, the group's leader. Only the numbers are kept per group; each group's
 * buckets are summed while its histogram is written, one group at a time. */
struct group {
	unsigned leader;	/* index of the first series with this kind, sub and name */
	unsigned next;		/* the next series of the group, UINT_MAX: none */
	unsigned last;		/* the leader's: its last series so far */
	uint64_t count, sum_ns, aux;	/* the leader's: its series' totals since start, summed */
	uint64_t max_ns;	/* the leader's: the largest value of its series in the last 10 s */
	uint64_t storm;		/* the leader's, hard IRQs: 1 while one of its series is in a storm (storm.c) */
	uint64_t storms;	/* the leader's, hard IRQs: storms its series had since start */
};

/* totals as of the last tick, all from the same snapshot, so that the histogram's _count
 * equals runs_total within one page; they are at most one --interval-ms old */
static struct group *group_series(const struct collector *c)
{
	struct group *g = calloc(c->nseries ? c->nseries : 1, sizeof(*g));
	struct window_iter it;

	if (!g)
		return NULL;
	collector_window_begin(c, MAX_WINDOW, &it);
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];
		struct hist w;

		g[i].leader = g[i].last = i;
		g[i].next = UINT_MAX;
		for (unsigned j = 0; j < i; j++)
			if (g[j].leader == j && c->series[j].kind == s->kind && c->series[j].sub == s->sub &&
			    !strncmp(c->series[j].name, s->name, IRQ_NAME_LEN)) {
				g[i].leader = j;
				break;
			}
		struct group *lead = &g[g[i].leader];

		if (lead != &g[i]) {
			g[lead->last].next = i;
			lead->last = i;
		}
		lead->count += s->count;
		lead->sum_ns += s->sum_ns;
		lead->aux += s->aux;
		collector_window_next(&it, i, &w, NULL);
		if (w.max_ns > lead->max_ns)
			lead->max_ns = w.max_ns;
		lead->storm |= storm_of(&c->storms, i, NULL) != NULL;
		lead->storms += i < c->storms.n ? c->storms.h[i].started : 0;
	}
	return g;
}

/* "name{irq="25",handler="virtio1-req.0"": the caller adds more labels or the closing brace */
static void series_labels(FILE *f, const char *prefix, const char *suffix, const struct series *s)
{
	const struct kind_desc *k = kind_get(s->kind);

	fprintf(f, "%s%s{", prefix, suffix);
	if (k->sub_key)	/* the others' sub only indexes their names */
		fprintf(f, "%s=\"%u\",", k->sub_key, s->sub);
	fprintf(f, "%s=\"", k->name_label);
	put_label(f, s->name, IRQ_NAME_LEN);
	fputc('"', f);
}

static uint64_t group_runs(const struct group *g)
{
	return g->count;
}

static uint64_t group_ns(const struct group *g)
{
	return g->sum_ns;
}

static uint64_t group_aux(const struct group *g)
{
	return g->aux;
}

static uint64_t group_max_ns(const struct group *g)
{
	return g->max_ns;
}

static uint64_t group_storm(const struct group *g)
{
	return g->storm;
}

static uint64_t group_storms(const struct group *g)
{
	return g->storms;
}

/* The per-series families of one number each; the histogram has its own shape. Names are the
 * kind's prefix plus the suffix (NULL: "_<aux_key>_total"), help texts the kind's noun. */
static const struct series_family {
	const char *suffix, *type, *help;
	uint64_t (*value)(const struct group *g);
	bool seconds;	/* the value is in ns, shown in seconds */
	bool hardirq_only;	/* storms are about IRQ lines (storm.h) */
} series_families[] = {
	{ "_runs_total", "counter", "Runs of a %s since irqlatd started.", group_runs, false, false },
	{ "_seconds_total", "counter", "Time spent in a %s since irqlatd started.", group_ns, true, false },
	{ NULL, "counter", NULL, group_aux, false, false },
	{ "_max_seconds", "gauge", "Longest run of a %s in the last 10 s.", group_max_ns, true, false },
	{ "_storm", "gauge", "1 while irqlatd sees an interrupt storm on a %s (irqlat(1), STORMS), else 0.",
	  group_storm, false, true },
	{ "_storms_total", "counter", "Interrupt storms irqlatd saw start on a %s.", group_storms, false, true },
};

static void series_metrics(FILE *f, const struct collector *c, const struct group *g, enum lat_kind kind)
{
	const struct kind_desc *k = kind_get(kind);

	if (!k->counters)
		return;
	for (unsigned j = 0; j < ELEMENTSOF(series_families); j++) {
		const struct series_family *fam = &series_families[j];
		char name[96], help[160];

		if (!fam->suffix && !k->aux_key)
			continue;
		if (fam->hardirq_only && kind != KIND_HARDIRQ)
			continue;

		if (fam->suffix)
			snprintf(name, sizeof(name), "%s%s", k->metric, fam->suffix);
		else
			snprintf(name, sizeof(name), "%s_%s_total", k->metric, k->aux_key);
		if (fam->help)
			snprintf(help, sizeof(help), fam->help, k->noun);
		else
			snprintf(help, sizeof(help), "%s", k->aux_help);
		family(f, name, fam->type, help);
		for (unsigned i = 0; i < c->nseries; i++) {
			if (g[i].leader != i || c->series[i].kind != kind)
				continue;
			series_labels(f, name, "", &c->series[i]);
			fputs("} ", f);
			if (fam->seconds)
				put_seconds(f, fam->value(&g[i]));
			else
				fprintf(f, "%" PRIu64, fam->value(&g[i]));
			fputc('\n', f);
		}
	}
}

static void histogram_metrics(FILE *f, const struct collector *c, const struct group *g, enum lat_kind kind)
{
	const struct kind_desc *k = kind_get(kind);
	_cleanup_free_ struct hist *sum = malloc(sizeof(*sum));
	char name[96], help[200];

	if (!sum)
		return;
	snprintf(name, sizeof(name), "%s%s", k->metric, k->hist_suffix);
	snprintf(help, sizeof(help), "%s; le bounds are every 8th bound of irqlatd's histogram, Prometheus schema 3 (exact counts).",
		 k->value_help);
	family(f, name, "histogram", help);
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];
		struct hist one;
		uint64_t cum = 0;
		unsigned b = 0;

		if (g[i].leader != i || s->kind != kind)
			continue;
		memset(sum, 0, sizeof(*sum));
		for (unsigned j = i; j != UINT_MAX; j = g[j].next) {
			collector_series_total(c, j, &one);
			hist_add(sum, &one);
		}
		for (int m = LE_MIN_LOG2_S; m <= LE_MAX_LOG2_S; m++) {
			/* le = 2^m s is the upper bound (inclusive) of schema-3 bucket 8m */
			for (; b < HIST_BUCKETS && hist_schema_index(b) <= 8 * m; b++)
				cum += sum->bucket[b];
			series_labels(f, name, "_bucket", s);
			fprintf(f, ",le=\"%.17g\"} %" PRIu64 "\n", ldexp(1.0, m), cum);
		}
		for (; b < HIST_BUCKETS; b++)
			cum += sum->bucket[b];
		series_labels(f, name, "_bucket", s);
		fprintf(f, ",le=\"+Inf\"} %" PRIu64 "\n", cum);
		series_labels(f, name, "_sum", s);
		fputs("} ", f);
		put_seconds(f, sum->sum_ns);
		fputc('\n', f);
		series_labels(f, name, "_count", s);
		/* the buckets' total, which is .count (each value lands in one bucket) */
		fprintf(f, "} %" PRIu64 "\n", cum);
	}
}

static void bpf_stats(FILE *f, const struct loader *l)
{
	struct loader_cost cost;

	/* only while the kernel counts: a stale total would read as no cost at all */
	if (loader_read_cost(l, &cost) < 0 || !cost.stats_enabled)
		return;
	family(f, "irqlat_bpf_run_seconds_total", "counter",
	       "Time the kernel ran irqlatd's IRQ entry and exit programs (while BPF stats are on).");
	fputs("irqlat_bpf_run_seconds_total ", f);
	put_seconds(f, cost.run_time_ns);
	fputc('\n', f);
	family(f, "irqlat_bpf_runs_total", "counter",
	       "IRQs irqlatd's programs measured while BPF stats were on (runs of the exit program).");
	fprintf(f, "irqlat_bpf_runs_total %llu\n", (unsigned long long)cost.run_cnt);
}

static void tracepoint_metrics(FILE *f, const struct tp_set *s)
{
	static const struct {
		const char *name, *type, *help;
		enum tp_counter counter;
	} fam[] = {
		{ "irqlat_tracepoint_events_total", "counter", "Events of a consumed tracepoint.",
		  TP_COUNTER_EVENTS },
		{ "irqlat_tracepoint_gaps_total", "counter",
		  "Times a tracepoint's counting argument skipped values (events the program did not see).",
		  TP_COUNTER_GAPS },
		{ "irqlat_tracepoint_missed_total", "counter",
		  "Values a tracepoint's counting argument skipped, summed over its gaps.",
		  TP_COUNTER_MISSED },
	};
	unsigned n = tracepoints_count(s);

	if (!n)
		return;
	for (unsigned k = 0; k < sizeof(fam) / sizeof(fam[0]); k++) {
		family(f, fam[k].name, fam[k].type, fam[k].help);
		for (unsigned i = 0; i < n; i++) {
			struct tp_info t = tracepoints_info(s, i);

			fprintf(f, "%s{tracepoint=\"", fam[k].name);
			put_label(f, t.name, TP_NAME_MAX);
			fprintf(f, "\"} %" PRIu64 "\n", t.counter[fam[k].counter]);
		}
	}
	family(f, "irqlat_tracepoint_attached", "gauge",
	       "1 while irqlatd's program is attached to the tracepoint, 0 while it waits or is detached.");
	for (unsigned i = 0; i < n; i++) {
		struct tp_info t = tracepoints_info(s, i);

		fputs("irqlat_tracepoint_attached{tracepoint=\"", f);
		put_label(f, t.name, TP_NAME_MAX);
		fprintf(f, "\"} %d\n", t.attached);
	}
}

char *metrics_render(const struct metrics_sources *src, size_t *len)
{
	static const char *const drop_names[DROP_KINDS] = { "outlier", "tracepoint", "no_cell" };
	const struct collector *c = src->col;
	_cleanup_free_ struct group *g = group_series(c);
	_cleanup_free_ char *buf = NULL;
	_cleanup_fclose_ FILE *f = open_memstream(&buf, len);	/* closed before buf is freed */

	if (!f || !g)
		return NULL;

	family(f, "irqlat_build_info", "gauge", "irqlatd's version; always 1.");
	fprintf(f, "irqlat_build_info{version=\"%s\"} 1\n", IRQLAT_VERSION);
	for (unsigned k = 0; k < KINDS; k++) {
		series_metrics(f, c, g, k);
		histogram_metrics(f, c, g, k);
	}

	family(f, "irqlat_ringbuf_drops_total", "counter",
	       "Records the BPF programs could not hand to irqlatd (ring buffer full; no_cell: cell pool full, run not measured).");
	for (unsigned k = 0; k < DROP_KINDS; k++)
		fprintf(f, "irqlat_ringbuf_drops_total{kind=\"%s\"} %" PRIu64 "\n", drop_names[k], c->drops[k]);
	family(f, "irqlat_handlers", "gauge", "Hard-IRQ handlers seen since irqlatd started.");
	unsigned handlers = 0;
	for (unsigned i = 0; i < c->nseries; i++)
		handlers += c->series[i].kind == KIND_HARDIRQ;
	fprintf(f, "irqlat_handlers %u\n", handlers);
	bpf_stats(f, c->bpf);
	tracepoint_metrics(f, src->tps);

	if (fclose(TAKE_PTR(f)) != 0)
		return NULL;	/* out of memory while writing: buf is freed */
	return TAKE_PTR(buf);
}

static enum MHD_Result answer(struct MHD_Response *r, struct MHD_Connection *conn, unsigned status)
{
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;	/* out of memory: MHD closes the connection */
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	struct metrics *m = cls;
	static const char not_found[] = "irqlatd serves only /metrics\n";
	static const char bad_method[] = "irqlatd answers only GET (and HEAD)\n";
	struct MHD_Response *r;
	(void)version;
	(void)upload;
	(void)con_cls;

	if (*upload_size) {	/* a body on a GET: not ours to read */
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		r = MHD_create_response_from_buffer(sizeof(bad_method) - 1, (void *)bad_method, MHD_RESPMEM_PERSISTENT);
		if (r)
			MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
		return answer(r, conn, MHD_HTTP_METHOD_NOT_ALLOWED);
	}
	if (strcmp(url, "/metrics")) {
		r = MHD_create_response_from_buffer(sizeof(not_found) - 1, (void *)not_found, MHD_RESPMEM_PERSISTENT);
		return answer(r, conn, MHD_HTTP_NOT_FOUND);
	}
	size_t len = 0;
	char *page = metrics_render(&m->src, &len);

	if (!page)
		return MHD_NO;
	r = MHD_create_response_from_buffer(len, page, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(page);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
	return answer(r, conn, MHD_HTTP_OK);
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[256];
	(void)cls;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	msg[strcspn(msg, "\n")] = 0;
	log_debug("metrics: %s", msg);
}

/* After every MHD_run: MHD's next timeout (idle connections to close) as the timer. */
static int rearm(struct metrics *m)
{
	MHD_UNSIGNED_LONG_LONG ms;
	uint64_t now;
	int r;

	if (MHD_get_timeout(m->mhd, &ms) != MHD_YES)
		return sd_event_source_set_enabled(m->timer, SD_EVENT_OFF);
	r = sd_event_now(sd_event_source_get_event(m->timer), CLOCK_MONOTONIC, &now);
	if (r >= 0)
		r = sd_event_source_set_time(m->timer, now + (uint64_t)ms * 1000);
	if (r >= 0)
		r = sd_event_source_set_enabled(m->timer, SD_EVENT_ONESHOT);
	return r;
}

/* What woke us (a connection, a request, a timeout), then the next timeout. */
static void serve(struct metrics *m)
{
	int r;

	MHD_run(m->mhd);	/* MHD_NO only without MHD_USE_EPOLL, which metrics_open sets */
	r = rearm(m);
	if (r < 0)
		log_error_errno(r, "metrics: cannot arm the HTTP server's timer: %m");
}

static int on_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	(void)s;
	(void)fd;
	(void)revents;

	serve(userdata);
	return 0;
}

static int on_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	(void)s;
	(void)usec;

	serve(userdata);
	return 0;
}

/* The socket systemd passed as FileDescriptorName=metrics, or -1. */
static int inherited_socket(void)
{
	char **names = NULL;
	int n = sd_listen_fds_with_names(1, &names), fd = -1;

	for (int i = 0; i < n; i++) {
		if (fd < 0 && names && !strcmp(names[i], "metrics"))
			fd = SD_LISTEN_FDS_START + i;
		free(names ? names[i] : NULL);
	}
	free(names);
	return fd;
}

/* A listening TCP socket on addr ("HOST:PORT", checked by config_set already), or a negative
 * errno, logged. */
static int listen_on(const char *addr)
{
	struct sockaddr_storage sa;
	unsigned salen;
	int one = 1;

	if (metrics_addr_parse(addr, &sa, &salen) < 0)
		return log_error_errno(-EINVAL, "--metrics: '%s' is not ADDRESS:PORT", addr);
	_cleanup_close_ int fd = socket(sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return log_error_errno(-errno, "--metrics %s: cannot create the socket: %m", addr);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sa.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, salen) < 0 || listen(fd, 64) < 0) {
		int r = -errno;

		if (r == -EADDRINUSE)
			return log_error_errno(r, "--metrics %s: the port is in use (%m): stop what listens there (ss -ltnp) or choose another port", addr);
		if (r == -EADDRNOTAVAIL)
			return log_error_errno(r, "--metrics %s: no interface has this address (%m)", addr);
		return log_error_errno(r, "--metrics %s: cannot listen: %m", addr);
	}
	return TAKE_FD(fd);
}

static void metrics_closep(struct metrics **m)
{
	metrics_close(*m);
}

int metrics_open(struct metrics **out, sd_event *ev, const char *addr, const struct metrics_sources *src)
{
	_cleanup_(metrics_closep) struct metrics *m = NULL;
	const union MHD_DaemonInfo *info;
	int fd = inherited_socket(), r;

	*out = NULL;
	if (fd < 0 && (!addr || !*addr))
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m)
		return log_error_errno(-ENOMEM, "metrics: %m");
	m->fd = -1;
	m->src = *src;
	if (fd >= 0) {
		/* socket activation: the unit's ListenStream= wins over --metrics */
		if (sd_is_socket(fd, AF_UNSPEC, SOCK_STREAM, 1) <= 0)
			return log_error_errno(-EINVAL, "metrics: the socket systemd passed as \"metrics\" is not a listening stream socket: fix the .socket unit (ListenStream=)");
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		snprintf(m->where, sizeof(m->where), "the socket from systemd (fd %d)", fd);
		if (addr && *addr)
			log_info("metrics: serving on the socket systemd passed; --metrics %s is not used", addr);
	} else {
		fd = listen_on(addr);
		if (fd < 0)
			return fd;
		snprintf(m->where, sizeof(m->where), "%s", addr);
	}
	m->fd = fd;
	m->mhd = MHD_start_daemon(MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0, NULL, NULL, on_request, m,
				  MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
				  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				  /* a scraper or two; a slow client cannot hold more than this */
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned)16,
				  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
				  MHD_OPTION_END);
	if (!m->mhd)
		return log_error_errno(-EINVAL, "metrics: libmicrohttpd cannot serve on %s", addr ? addr : "the socket");
	info = MHD_get_daemon_info(m->mhd, MHD_DAEMON_INFO_EPOLL_FD);
	if (!info)
		return log_error_errno(-EINVAL, "metrics: libmicrohttpd was built without epoll");
	r = sd_event_add_io(ev, &m->io, info->epoll_fd, EPOLLIN, on_io, m);
	if (r >= 0)
		r = sd_event_add_time(ev, &m->timer, CLOCK_MONOTONIC, 0, 1000, on_timer, m);
	if (r < 0)
		return log_error_errno(r, "metrics: cannot watch the HTTP server: %m");
	r = rearm(m);
	if (r < 0)
		return log_error_errno(r, "metrics: cannot arm the HTTP server's timer: %m");
	log_info("metrics: serving /metrics on %s", m->where);
	*out = TAKE_PTR(m);
	return 0;
}

void metrics_close(struct metrics *m)
{
	if (!m)
		return;
	sd_event_source_disable_unref(m->io);
	sd_event_source_disable_unref(m->timer);
	if (m->mhd) {
		MHD_quiesce_daemon(m->mhd);	/* MHD would close the listening socket: it is ours */
		MHD_stop_daemon(m->mhd);
	}
	closep(&m->fd);
	free(m);
}
