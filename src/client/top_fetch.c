// SPDX-License-Identifier: GPL-2.0
/* irqlat --top talking to the daemon: the snapshot of each refresh, the histogram of the
 * selected handler, the outlier threshold and the BPF cost, reconnecting when the daemon
 * went away. Nothing is printed: the screen shows what went wrong on its message line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "top_fetch.h"
#include "escape.h"
#include "top_keys.h"
#include "why.h"
#include "common/json.h"

#define REQUEST_TIMEOUT_MS 2000

static void disconnect(struct top *t, const char *why)
{
	conn_close(t->conn);
	t->connected = false;
	if (!t->lost_since)
		t->lost_since = time(NULL);
	snprintf(t->msg, sizeof(t->msg), "irqlatd not reachable, retrying every %gs (%s)", t->cli->delay_s, why);
}

/* One request and its answer in *ret: 0, or a negative errno with t->msg saying why. */
static int ask(struct top *t, json_object *req, json_object **ret)
{
	int r;

	if (!t->connected)
		return -ENOTCONN;
	r = conn_request(t->conn, req, REQUEST_TIMEOUT_MS, ret);
	if (r == -EREMOTEIO)
		/* what fits of it: 14 bytes of prefix, the rest of the 160 */
		snprintf(t->msg, sizeof(t->msg), "irqlatd says: %.145s", t->conn->refusal[0] ? t->conn->refusal : "?");
	else if (r == -EMSGSIZE)
		disconnect(t, "an answer longer than --max-answer-mb");
	else if (r < 0)
		disconnect(t, r == -ECONNRESET ? "connection closed" : strerror(-r));
	return r;
}

void top_fetch_status(struct top *t)
{
	_cleanup_json_ json_object *req = conn_new_request("status", NULL), *s = NULL;
	json_object *cfg;

	if (ask(t, req, &s) < 0 || !json_object_object_get_ex(s, "config", &cfg))
		return;
	for (unsigned k = 0; k < KINDS; k++) {	/* as report_status() names them */
		const struct kind_desc *d = kind_get(k);
		char key[64];

		if (!d->threshold.help)
			continue;
		if (d->threshold.status_key)
			snprintf(key, sizeof(key), "%s", d->threshold.status_key);
		else
			snprintf(key, sizeof(key), "%s_threshold_ns", d->name);
		t->threshold_ns[k] = json_get_u64(cfg, key, 0);
	}
	t->interval_s = json_get_double(cfg, "interval_ms", 0) / 1000;
}

static void reconnect(struct top *t)
{
	if (conn_open(t->conn, t->cli->socket_path, (size_t)t->cli->max_answer_mb << 20) < 0)
		return;
	t->connected = true;
	t->lost_since = 0;
	t->msg[0] = 0;
	t->prev_run_cnt = t->prev_run_ns = 0;	/* a new daemon has new programs */
	top_fetch_status(t);
}

/* The daemon's cost per IRQ between two snapshots, from the kernel's BPF run-time stats. */
static void update_cost(struct top *t)
{
	json_object *b;
	uint64_t ns, cnt;

	if (!json_object_object_get_ex(t->summary, "bpf", &b))
		return;
	ns = json_get_u64(b, "run_time_ns", 0);
	cnt = json_get_u64(b, "run_cnt", 0);
	if (cnt > t->prev_run_cnt && t->prev_run_cnt && ns >= t->prev_run_ns)
		t->cost_ns = (double)(ns - t->prev_run_ns) / (double)(cnt - t->prev_run_cnt);
	else if (!t->prev_run_cnt && cnt)
		t->cost_ns = (double)ns / (double)cnt;	/* first snapshot: the average so far */
	t->prev_run_ns = ns;
	t->prev_run_cnt = cnt;
}

static void fetch_hist(struct top *t)
{
	_cleanup_json_ json_object *req = conn_new_request("hist", window_name(t->window)), *h = NULL;

	const char *key = kind_get(t->source)->table.select_key;

	conn_add_cpus(req, t->cpus);
	if (key)	/* a handler by its IRQ, a task by its pid */
		json_object_object_add(req, key, json_object_new_int((int)t->sel_key));
	else	/* softirqs, vectors, timers and threaded IRQs by their name */
		json_object_object_add(req, "name", json_object_new_string(t->sel_name));
	if (ask(t, req, &h) < 0)
		return;
	json_object_put(t->hist);
	t->hist = TAKE_PTR(h);
}

void top_fetch(struct top *t)
{
	_cleanup_json_ json_object *req = NULL, *s = NULL;

	if (!t->connected)
		reconnect(t);
	if (!t->connected)
		return;
	req = conn_new_request("summary", window_name(t->window));
	conn_add_cpus(req, t->cpus);
	if (ask(t, req, &s) < 0)
		return;
	if (!strncmp(t->msg, "irqlatd says", 12))
		t->msg[0] = 0;
	if (t->source == KIND_WAKEUP || t->show_load) {	/* the TOP CAUSE columns' waits */
		_cleanup_json_ json_object *wreq = why_rows_request(t->cpus), *a = NULL;
		json_object *waits;

		if (wreq && ask(t, wreq, &a) == 0 && json_object_object_get_ex(a, "waits", &waits)) {
			answer_escape(waits);
			json_object_object_add(s, WHY_ROWS_KEY, json_object_get(waits));
		}
	}
	json_object_put(t->summary);
	t->summary = TAKE_PTR(s);
	update_cost(t);
	top_rebuild(t);
	if (t->view == VIEW_HIST)
		fetch_hist(t);
}
