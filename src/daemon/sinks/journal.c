// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/base/message_ids.h"
#include "daemon/sinks/journal.h"
#include "daemon/base/log.h"
#include "daemon/sinks/outlier.h"
#include "common/macro.h"
#include "common/util.h"

#define SUMMARY_TOP 5

void format_rate(char *buf, size_t len, double per_s)
{
	if (per_s < 1000)
		snprintf(buf, len, "%.0f", per_s);
	else if (per_s < 1e6)
		snprintf(buf, len, "%.1fk", per_s / 1e3);
	else
		snprintf(buf, len, "%.1fM", per_s / 1e6);
}

static void journal_link(const char *mid, const char *verb, const char *tracepoint, const char *style,
			 const char *program)
{
	struct jfields f = { 0 };

	jf_add(&f, "TRACEPOINT=%s", tracepoint);
	jf_add(&f, "ATTACH_STYLE=%s", style);
	jf_add(&f, "PROGRAM=%s", program);
	log_struct(LOG_INFO, mid, &f, "%s %s program %s %s tracepoint %s", verb, style, program,
		   !strcmp(verb, "attached") ? "to" : "from", tracepoint);
}

void journal_attached(const char *tracepoint, const char *style, const char *program)
{
	journal_link(MID_ATTACHED, "attached", tracepoint, style, program);
}

void journal_detached(const char *tracepoint, const char *style, const char *program)
{
	journal_link(MID_DETACHED, "detached", tracepoint, style, program);
}

void journal_links(const struct loader *l, bool attached)
{
	/* in the order loader_open attaches them: exits first */
	for (unsigned i = 0; i < l->nattached; i++)
		(attached ? journal_attached : journal_detached)(l->attached[i].tracepoint, l->attach_style,
								 l->attached[i].program);
}

void journal_started(const struct daemon_config *c, const char *style, uint32_t max_cells)
{
	struct jfields f = { 0 };

	jf_add(&f, "VERSION=%s", IRQLAT_VERSION);
	jf_add(&f, "ATTACH_STYLE=%s", style);
	jf_add(&f, "THRESHOLD_NS=%llu", (unsigned long long)c->threshold_ns[KIND_HARDIRQ]);
	jf_add(&f, "SOCKET=%s", c->socket_path);
	jf_add(&f, "CONFIG_FILE=%s", c->config_path);
	jf_add(&f, "MAX_CELLS=%u", max_cells);
	jf_add(&f, "RINGBUF_BYTES=%u", c->ringbuf_kb * 1024);
	log_struct(LOG_INFO, MID_STARTED, &f,
		   "irqlatd %s measuring hard-IRQ handlers (%s, threshold %llu us); summaries on %s: run 'irqlat --top'",
		   IRQLAT_VERSION, style, (unsigned long long)(c->threshold_ns[KIND_HARDIRQ] / 1000), c->socket_path);
}

void journal_stopped(int signo, uint64_t uptime_ns, unsigned handlers, uint64_t logged, uint64_t held,
		     uint64_t not_logged, uint64_t drops)
{
	struct jfields f = { 0 };
	double up = (double)uptime_ns / 1e9;

	jf_add(&f, "UPTIME_S=%.0f", up);
	jf_add(&f, "HANDLERS=%u", handlers);
	jf_add(&f, "OUTLIERS_LOGGED=%llu", (unsigned long long)logged);
	jf_add(&f, "OUTLIERS_SUPPRESSED=%llu", (unsigned long long)held);	/* the name of before: held back */
	jf_add(&f, "OUTLIERS_HELD_BACK=%llu", (unsigned long long)held);
	jf_add(&f, "OUTLIERS_NOT_LOGGED=%llu", (unsigned long long)not_logged);
	jf_add(&f, "DROPS=%llu", (unsigned long long)drops);
	if (signo)
		jf_add(&f, "SIGNAL=SIG%s", sigabbrev_np(signo) ?: "?");
	/* the hard-IRQ handlers status counts ("handlers"), not every series of every kind */
	log_struct(LOG_INFO, MID_STOPPED, &f,
		   "irqlatd stopping (%s) after %.0f s: %u hard-IRQ handlers, %llu outliers logged, %llu held back, %llu not logged (log-wakeups, log-idle), %llu drops",
		   signo ? strsignal(signo) : "event loop ended", up, handlers, (unsigned long long)logged,
		   (unsigned long long)held, (unsigned long long)not_logged, (unsigned long long)drops);
}

void journal_reloaded(const struct daemon_config *c)
{
	struct jfields f = { 0 };

	jf_add(&f, "CONFIG_FILE=%s", c->config_path);
	jf_add(&f, "THRESHOLD_NS=%llu", (unsigned long long)c->threshold_ns[KIND_HARDIRQ]);
	jf_add(&f, "OUTLIER_RATE=%u", c->outlier_rate);
	jf_add(&f, "OUTLIER_CAP=%u", c->outlier_cap);
	jf_add(&f, "LOG_WAKEUPS=%s", log_wakeups_name(c->log_wakeups));
	jf_add(&f, "LOG_IDLE=%s", c->log_idle ? "yes" : "no");
	jf_add(&f, "INTERVAL_MS=%u", c->interval_ms);
	jf_add(&f, "SUMMARY_INTERVAL_S=%u", c->summary_interval_s);
	log_struct(LOG_NOTICE, MID_RELOADED, &f,
		   "configuration reloaded from %s: threshold %llu us, outlier rate %u/s per series, outlier cap %u a minute, interval %u ms, summary every %u s; histograms kept",
		   c->config_path, (unsigned long long)(c->threshold_ns[KIND_HARDIRQ] / 1000), c->outlier_rate, c->outlier_cap,
		   c->interval_ms, c->summary_interval_s);
}

void journal_reload_failed(const char *config_path, const char *why)
{
	struct jfields f = { 0 };

	jf_add(&f, "CONFIG_FILE=%s", config_path);
	jf_add(&f, "ERROR=%s", why);
	log_struct(LOG_ERR, MID_RELOAD_FAILED, &f, "reload failed, keeping the running configuration: %s", why);
}

void journal_tracepoint_event(const char *system, const char *event, const char *const *arg_names,
			      const struct tracepoint_event *e, int priority)
{
	struct jfields f = { 0 };
	char args[512] = "", key[64];
	size_t used = 0;
	unsigned nargs = e->nargs < TP_MAX_ARGS ? e->nargs : TP_MAX_ARGS;

	jf_add(&f, "TRACEPOINT=%s:%s", system, event);
	jf_add(&f, "CPU=%u", e->cpu);
	jf_add(&f, "PID=%u", e->pid);
	jf_add(&f, "COMM=%.*s", TASK_COMM_LEN_ABI, e->comm);
	jf_add(&f, "EVENT_TS_NS=%llu", (unsigned long long)e->ts_ns);
	for (unsigned i = 0; i < nargs; i++) {
		const char *name = arg_names ? arg_names[i] : NULL;
		size_t k = 0;
		int n;

		if (name && *name) {
			k = (size_t)snprintf(key, sizeof(key), "ARG_");
			/* journal field names: upper-case letters, digits and '_' */
			for (const char *p = name; *p && k < sizeof(key) - 1; p++)
				key[k++] = isalnum((unsigned char)*p) ? (char)toupper((unsigned char)*p) : '_';
			key[k] = 0;
		} else {
			snprintf(key, sizeof(key), "ARG%u", i);
		}
		jf_add(&f, "%s=%llu", key, (unsigned long long)e->args[i]);
		n = snprintf(args + used, sizeof(args) - used, "%s%s=%llu", i ? " " : "",
			     name && *name ? name : key, (unsigned long long)e->args[i]);
		if (n > 0 && (size_t)n < sizeof(args) - used)
			used += (size_t)n;
	}
	log_struct(priority, MID_TRACEPOINT, &f, "tracepoint %s:%s on CPU %u in %.*s[%u]: %s", system, event,
		   e->cpu, TASK_COMM_LEN_ABI, e->comm, e->pid, nargs ? args : "(no arguments)");
}

void journal_tracepoint_suppressed(const char *tracepoint, uint64_t n, unsigned limit, int priority)
{
	struct jfields f = { 0 };

	jf_add(&f, "TRACEPOINT=%s", tracepoint);
	jf_add(&f, "SUPPRESSED=%llu", (unsigned long long)n);
	jf_add(&f, "RATE_LIMIT=%u", limit);
	log_struct(priority, MID_TRACEPOINT_SUPPRESSED, &f,
		   "tracepoint %s: %llu more event%s in one second not journaled one by one (limit %u a second; irqlat events has them all)",
		   tracepoint, (unsigned long long)n, n == 1 ? "" : "s", limit);
}

void journal_module_held(const char *module, const char *tracepoints, unsigned pid, const char *comm)
{
	struct jfields f = { 0 };

	jf_add(&f, "MODULE=%s", module);
	jf_add(&f, "TRACEPOINT=%s", tracepoints);
	jf_add(&f, "UNLOAD_PID=%u", pid);
	jf_add(&f, "UNLOAD_COMM=%.*s", TASK_COMM_LEN_ABI, comm);
	log_struct(LOG_WARNING, MID_MODULE_HELD, &f,
		   "%.*s[%u] could not unload module %s: irqlatd holds it through tracepoint %s; 'irqlat detach %s' (or kill -USR1) lets it go",
		   TASK_COMM_LEN_ABI, comm, pid, module, tracepoints, strchr(tracepoints, ' ') ? "all" : tracepoints);
}

void summary_init(struct summary_state *s, uint64_t now)
{
	memset(s, 0, sizeof(*s));
	s->prev_ns = now;
}

void summary_free(struct summary_state *s)
{
	tick_buf_free(&s->prev);
	memset(s, 0, sizeof(*s));
}

struct ranked {
	unsigned handler;
	uint64_t count, p99_ns, p999_ns;
};

static int by_p99_desc(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->p99_ns < y->p99_ns ? 1 : x->p99_ns > y->p99_ns ? -1 : 0;
}

/* h minus what it was at the previous summary (max is not differenced: it is since start) */
static void hist_since(struct hist *out, const struct hist *now, const struct hist *prev)
{
	*out = *now;
	out->count -= prev->count;
	out->sum_ns -= prev->sum_ns;
	out->aux -= prev->aux;
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		out->bucket[b] -= prev->bucket[b];
}

void journal_summary(struct summary_state *s, const struct collector *c, uint64_t outliers_logged,
		     uint64_t outliers_suppressed)
{
	uint64_t now = now_ns(), total = 0, drops = 0;
	double secs = (double)(now - s->prev_ns) / 1e9;
	_cleanup_free_ struct ranked *r = calloc(c->nseries ? c->nseries : 1, sizeof(*r));
	_cleanup_free_ struct hist *delta = malloc(sizeof(*delta)), *now_h = malloc(sizeof(*now_h)),
				   *prev_h = malloc(sizeof(*prev_h));
	struct tick_buf next = { 0 };
	struct tick_cursor cur;
	struct jfields f = { 0 };
	char msg[768], rate[32], d[32];
	unsigned n = 0, active = 0, handlers = 0;
	size_t used;

	if (!r || !delta || !now_h || !prev_h) {
		log_error("out of memory writing the periodic summary");
		return;
	}
	tick_cursor_init(&cur, &s->prev);
	for (unsigned i = 0; i < c->nseries; i++) {
		if (c->series[i].kind != KIND_HARDIRQ)
			continue;
		handlers++;
		collector_series_total(c, i, now_h);
		memset(prev_h, 0, sizeof(*prev_h));
		tick_cursor_take(&cur, i, prev_h);	/* none: the handler is new */
		hist_since(delta, now_h, prev_h);
		/* its totals for the next period; a failure makes the next period since start */
		struct tick_cpu_delta td = { .sum_ns = now_h->sum_ns, .max_ns = now_h->max_ns, .aux = now_h->aux,
					     .bucket = now_h->bucket };
		if (tick_buf_append(&next, i, &td) < 0)
			log_error("out of memory keeping the summary's totals: the next summary counts %s since start",
				  c->series[i].name);
		total += delta->count;
		if (!delta->count)
			continue;
		active++;
		r[n++] = (struct ranked){ i, delta->count, hist_quantile(delta, 0.99), hist_quantile(delta, 0.999) };
	}
	qsort(r, n, sizeof(*r), by_p99_desc);
	for (int k = 0; k < DROP_KINDS; k++)
		drops += c->drops[k] - s->prev_drops[k];

	format_rate(rate, sizeof(rate), secs > 0 ? (double)total / secs : 0);
	used = (size_t)snprintf(msg, sizeof(msg), "last %.0f s: %u of %u handlers ran, %s IRQ/s, %llu outliers logged, %llu suppressed, %llu drops",
				secs, active, handlers, rate,
				(unsigned long long)(outliers_logged - s->prev_logged),
				(unsigned long long)(outliers_suppressed - s->prev_suppressed), (unsigned long long)drops);
	jf_add(&f, "PERIOD_S=%.0f", secs);
	jf_add(&f, "HANDLERS=%u", handlers);
	jf_add(&f, "HANDLERS_ACTIVE=%u", active);
	jf_add(&f, "IRQ_COUNT=%llu", (unsigned long long)total);
	jf_add(&f, "OUTLIERS_LOGGED=%llu", (unsigned long long)(outliers_logged - s->prev_logged));
	jf_add(&f, "OUTLIERS_SUPPRESSED=%llu", (unsigned long long)(outliers_suppressed - s->prev_suppressed));
	jf_add(&f, "DROPS=%llu", (unsigned long long)drops);
	for (unsigned k = 0; k < n && k < SUMMARY_TOP; k++) {
		const struct series *h = &c->series[r[k].handler];

		fmt_duration(d, sizeof(d), r[k].p99_ns, " ");
		if (used < sizeof(msg))
			used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s IRQ %u (%s) %s in %llu runs",
						 k ? "," : "; worst p99:", h->sub, h->name, d,
						 (unsigned long long)r[k].count);
		jf_add(&f, "TOP%u_IRQ=%u", k + 1, h->sub);
		jf_add(&f, "TOP%u_IRQ_NAME=%s", k + 1, h->name);
		jf_add(&f, "TOP%u_P99_NS=%llu", k + 1, (unsigned long long)r[k].p99_ns);
		jf_add(&f, "TOP%u_P999_NS=%llu", k + 1, (unsigned long long)r[k].p999_ns);
		jf_add(&f, "TOP%u_COUNT=%llu", k + 1, (unsigned long long)r[k].count);
	}
	if (n) {
		jf_add(&f, "WORST_IRQ=%u", c->series[r[0].handler].sub);
		jf_add(&f, "WORST_IRQ_NAME=%s", c->series[r[0].handler].name);
		jf_add(&f, "WORST_P99_NS=%llu", (unsigned long long)r[0].p99_ns);
	}
	log_struct(LOG_INFO, MID_SUMMARY, &f, "%s", msg);

	/* the totals for the next period */
	tick_buf_free(&s->prev);
	s->prev = next;
	memcpy(s->prev_drops, c->drops, sizeof(s->prev_drops));
	s->prev_logged = outliers_logged;
	s->prev_suppressed = outliers_suppressed;
	s->prev_ns = now;
}

void status_line(char *buf, size_t len, const struct collector *c)
{
	double secs = collector_window_seconds(c, WINDOW_10S), rate = 0;
	uint64_t worst = 0, drops = c->drops[0] + c->drops[1] + c->drops[2];
	const struct series *wh = NULL;
	unsigned handlers = 0;
	struct window_iter it;
	struct hist win;
	char r[32], d[32];

	collector_window_begin(c, WINDOW_10S, &it);
	for (unsigned i = 0; i < c->nseries; i++) {
		if (c->series[i].kind != KIND_HARDIRQ)
			continue;
		handlers++;
		collector_window_next(&it, i, &win, NULL);
		if (!win.count)
			continue;
		rate += secs > 0 ? (double)win.count / secs : 0;
		uint64_t p99 = hist_quantile(&win, 0.99);
		if (!wh || p99 > worst) {
			worst = p99;
			wh = &c->series[i];
		}
	}
	format_rate(r, sizeof(r), rate);
	if (!wh) {
		snprintf(buf, len, "%u handlers, %s IRQ/s, %llu drops", handlers, r, (unsigned long long)drops);
		return;
	}
	fmt_duration(d, sizeof(d), worst, " ");
	snprintf(buf, len, "%u handlers, %s IRQ/s, worst p99 %s (IRQ %u %s), %llu drops", handlers, r, d,
		 wh->sub, wh->name, (unsigned long long)drops);
}
