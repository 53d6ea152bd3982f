// SPDX-License-Identifier: GPL-2.0
/* The socket protocol's requests: the input is what a client sends, one request a line (as
 * server.c cuts them), each read by request_json() and request_parse() and answered as
 * main.c's on_request() does over a small collector, event ring and tracepoint set of its
 * own (no BPF: fake_bpf.h). Checked: a refused request says why in one line; an accepted
 * one has its fields in range; every answer is {"ok":true,...} or {"ok":false,"error":...}
 * and, when the request was UTF-8, is UTF-8 too (JSON is). */
#include <json-c/json.h>
#include "fuzz.h"
#include "../unit/daemon/fake_bpf.h"
#include "common/json.h"
#include "daemon/capture/actions.h"
#include "daemon/collect/why.h"
#include "daemon/config/config.h"
#include "daemon/sinks/event_ring.h"
#include "daemon/sinks/report.h"
#include "daemon/sinks/request.h"
#include "daemon/sinks/why_report.h"
#include "daemon/tracepoints/tp_json.h"

#define MAX_LINES 16

static struct {
	struct fake_bpf bpf;
	struct collector col;
	struct event_ring ring;
	struct daemon_config cfg;
	struct tracepoint tp[2];
	struct tp_set tps;
	struct why_store why;
	struct actions actions;		/* no action started: captures lists a folder that is not there */
} fx;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;

	fake_bpf_init(&fx.bpf, 16);
	if (why_store_init(&fx.why, 2) < 0)
		abort();
	fx.actions.cfg = &fx.cfg;
	snprintf(fx.actions.dir, sizeof(fx.actions.dir), "/nonexistent/irqlatd-fuzz/captures");
	if (collector_init(&fx.col, &fx.bpf.l) < 0)
		abort();
	/* what the machine's CPU sets and other BPF programs are is no request's doing: not read */
	topology_free(fx.col.topology);
	free(fx.col.topology);
	free(fx.col.peers);
	fx.col.topology = NULL;
	fx.col.peers = NULL;
	for (unsigned i = 0; i < 10; i++)
		fake_bpf_run(&fx.bpf, fake_bpf_new_cell(&fx.bpf, 25, i % 2, 0x1000, "virtio1-req.0"), 1000 + 100 * i, 0);
	fake_bpf_run(&fx.bpf, fake_bpf_new_cell(&fx.bpf, 1, 0, 0x2000, "i8042"), 5000, 0);
	collector_tick(&fx.col);
	if (event_ring_init(&fx.ring, EVENT_RING_MIN) < 0)
		abort();
	for (unsigned i = 0; i < EVENT_RING_MIN + 4; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "irq", json_object_new_int((int)i));
		event_ring_add(&fx.ring, e, 1000000000ull * (i + 1));
		json_object_put(e);
	}
	daemon_config_defaults(&fx.cfg);
	/* never attached: an attach request finds nothing to do in the kernel */
	snprintf(fx.tp[0].cfg.name, TP_NAME_MAX, "silly:me_silly");
	fx.tp[0].state = TP_WAITING;
	snprintf(fx.tp[1].cfg.name, TP_NAME_MAX, "bad-name");
	fx.tp[1].state = TP_INVALID;
	for (unsigned i = 0; i < 2; i++) {
		fx.tp[i].counter_arg = -1;
		fx.tp[i].link_fd = fx.tp[i].prog_fd = -1;
	}
	fx.tps.tps = fx.tp;
	fx.tps.n = 2;
	fx.tps.cfg = &fx.cfg;
	return 0;
}

/* main.c's answers, but for those only a live daemon has (status's clients, subscribing) */
static json_object *answer(json_object *o, const struct request *r, long uid)
{
	static const struct daemon_info info = { .version = "fuzz", .attach_style = "tp_btf", .socket_path = "/fuzz" };

	switch (r->cmd) {
	case REQ_SUMMARY:
		return json_ok_reply(report_summary(&fx.col, r->window));
	case REQ_HIST:
		return json_ok_reply(report_hist(&fx.col, r->window, r->irq, r->pid, r->name));
	case REQ_STATUS:
		return json_ok_reply(report_status(&fx.col, &info));
	case REQ_EVENTS:
	case REQ_SUBSCRIBE:
		return event_ring_request(&fx.ring, o);
	case REQ_DETACH:
	case REQ_ATTACH:
		return tracepoints_request(&fx.tps, r->cmd == REQ_DETACH ? "detach" : "attach", o, uid);
	case REQ_WHY:
		return why_request(&fx.why, o);
	case REQ_CAPTURES:
		return json_ok_reply(actions_captures_json(&fx.actions));
	}
	fuzz_check(0, "cmd %d has no answer", (int)r->cmd);
	return NULL;
}

static void check_reply(json_object *a, bool utf8_in)
{
	const char *text;

	fuzz_check(a && json_object_is_type(a, json_type_object), "no answer object");
	fuzz_check(json_has(a, "ok"), "answer without \"ok\"");
	if (!json_get_i64(a, "ok", 0))
		fuzz_check(fuzz_one_line(json_get_str(a, "error", NULL)), "refusal without a one-line error");
	text = json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	fuzz_check(!utf8_in || fuzz_utf8_valid(text, strlen(text)), "answer is not UTF-8: %s", text);
}

static void one_line(const char *line, size_t len, long uid)
{
	struct request r;
	char why[256] = "";
	json_object *o = request_json(line, len, why, sizeof(why)), *a;

	if (!o) {
		fuzz_check(fuzz_one_line(why), "not taken without a reason");
		fuzz_check(fuzz_utf8_valid(why, strlen(why)), "reason is not UTF-8: %s", why);
		return;
	}
	if (request_parse(o, &r, why, sizeof(why)) < 0) {
		fuzz_check(fuzz_one_line(why), "refused without a reason");
		fuzz_check(!fuzz_utf8_valid(line, len) || fuzz_utf8_valid(why, strlen(why)), "reason is not UTF-8: %s", why);
		json_object_put(o);
		return;
	}
	fuzz_check(r.window < WINDOW_COUNT, "window %d", (int)r.window);
	fuzz_check(r.irq >= -1, "irq %d", r.irq);
	a = answer(o, &r, uid);
	check_reply(a, fuzz_utf8_valid(line, len));
	json_object_put(a);
	json_object_put(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line[MAX_LINES];
	size_t len[MAX_LINES];
	unsigned n;
	char *copy = fuzz_split(data, size, '\n', line, len, MAX_LINES, &n);

	if (!copy)
		return 0;
	/* the lengths: a request line may hold NUL bytes */
	for (unsigned i = 0; i < n; i++)
		one_line(line[i], len[i], i % 2 ? 0 : 1000);
	free(copy);
	return 0;
}
