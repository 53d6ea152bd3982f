// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/json.h"
#include "common/util.h"
#include "conn.h"
#include "why.h"

json_object *why_client_request(const char *target, long n, const char **err)
{
	json_object *req = json_object_new_object();
	const char *cpu = NULL;
	char *end;

	json_object_object_add(req, "cmd", json_object_new_string("why"));
	if (n > 0)
		json_object_object_add(req, "n", json_object_new_int64(n));
	if (!target || !*target)
		return req;
	if (!strncmp(target, "cpu", 3) && target[3])
		cpu = target + 3 + (target[3] == ':');
	if (cpu) {
		unsigned long v = strtoul(cpu, &end, 10);

		if (end == cpu || *end || v > 65535) {
			*err = "a CPU is cpuN, e.g. cpu1";
			json_object_put(req);
			return NULL;
		}
		json_object_object_add(req, "cpu", json_object_new_int((int)v));
		return req;
	}
	if (*target >= '0' && *target <= '9') {
		unsigned long v = strtoul(target, &end, 10);

		if (*end || v > 4194304) {
			*err = "a pid is a whole number (up to 4194304)";
			json_object_put(req);
			return NULL;
		}
		json_object_object_add(req, "pid", json_object_new_int((int)v));
		return req;
	}
	json_object_object_add(req, "comm", json_object_new_string(target));
	return req;
}

static const char *const class_noun[WHY_CLASSES] = {
	[WHY_CLASS_WAKEUP] = "wake-up latency", [WHY_CLASS_THREADED] = "wake-to-run latency",
	[WHY_CLASS_TIMER] = "timer lateness",
};

/* "  IRQ interference          340.00 us (20.00 %)   IRQ 36 virtio1-req.0" */
static void part_line(FILE *f, const char *label, uint64_t ns, uint64_t total, const char *detail)
{
	fprintf(f, "  %-40s %10.2f us (%6.2f %%)%s%s\n", label, (double)ns / 1e3, total ? 100.0 * (double)ns / (double)total : 0,
		detail && *detail ? "  " : "", detail ? detail : "");
}

/* One frame a line, innermost first, under a line saying whose stack it is */
static void frames(FILE *f, const char *title, uint32_t pid, const char *s)
{
	if (!*s)
		return;
	fprintf(f, "  %s of %u:\n", title, pid);
	while (*s) {
		size_t n = strcspn(s, ";");

		fprintf(f, "    %.*s\n", (int)n, s);
		s += n + (s[n] == ';');
	}
}

/* The blocker's stacks at its switch-out (a late timer: the interrupted context's) */
static void stack_lines(FILE *f, const struct why_named *w)
{
	if (!w->stack_pid)
		return;
	frames(f, w->cls == WHY_CLASS_TIMER ? "kernel stack where the timer's interrupt came, task" : "kernel stack",
	       w->stack_pid, w->kstack);
	frames(f, "user stack", w->stack_pid, w->ustack);
}

void why_print_wait(FILE *f, const struct why_named *w, uint64_t clock_ns, enum ev_clock clock)
{
	char head[160], time[48], detail[128];
	uint64_t sum = 0;

	ev_time(time, sizeof(time), clock_ns, clock);
	why_headline(head, sizeof(head), w);
	fprintf(f, "%s %s\n", time, head);
	for (int p = 0; p < WHY_PARTS; p++) {
		const char *label = why_parts[p].label;

		sum += w->part_ns[p];
		if (!w->part_ns[p])
			continue;
		detail[0] = 0;
		switch (p) {
		case WHY_IRQ:
		case WHY_VECTOR:
		case WHY_SOFTIRQ:
		case WHY_NMI: {
			int c = p == WHY_IRQ ? RECENT_IRQ : p == WHY_VECTOR ? RECENT_VECTOR : p == WHY_SOFTIRQ ? RECENT_SOFTIRQ : RECENT_NMI;

			if (*w->top[c])
				snprintf(detail, sizeof(detail), "top: %s %.2f us", w->top[c], (double)w->top_ns[c] / 1e3);
			break;
		}
		case WHY_BLOCKING:
		case WHY_REMAINDER:
		case WHY_UNSPLIT:
			why_part_text(detail, sizeof(detail), w, (enum why_part)p);
			if (p == WHY_REMAINDER && !(w->flags & WHY_F_BLOCKER_LOWER))
				detail[0] = 0;
			if (p == WHY_BLOCKING && !strncmp(detail, "blocking task ", 14))
				memmove(detail, detail + 14, strlen(detail + 14) + 1);
			break;
		case WHY_OTHERS:
			if (w->others)
				snprintf(detail, sizeof(detail), "%u task%s", w->others, w->others == 1 ? "" : "s");
			break;
		default:
			break;
		}
		part_line(f, label, w->part_ns[p], w->total_ns, detail);
	}
	fprintf(f, "  %s\n", "------------------------------------------------------------------------");
	part_line(f, class_noun[w->cls < WHY_CLASSES ? w->cls : 0], w->total_ns, w->total_ns, NULL);
	if (sum != w->total_ns)	/* the daemon's parts always add up; say so if an answer's do not */
		fprintf(f, "  (the parts add up to %.2f us)\n", (double)sum / 1e3);
	stack_lines(f, w);
}

void why_print_timeline(FILE *f, const struct why_named *w)
{
	char line[160];

	if (w->tl_gone) {
		fprintf(f, "  timeline: no longer kept (irqlatd keeps the last explained waits of each CPU: irqlat why)\n");
		return;
	}
	if (!w->ntl) {
		fprintf(f, "  timeline: none (it came with no flight record)\n");
		return;
	}
	fprintf(f, "  timeline (us from the wait's start; %s):\n",
		w->cls == WHY_CLASS_TIMER ? "the timer's expiry to its callback" : w->cls == WHY_CLASS_THREADED ?
		"the hard-IRQ exit to the thread's run" : "the timer's expiry to the switch-in");
	if (w->tl_partial)
		fprintf(f, "  (the recorder holds only the wait's last events)\n");
	bool started = false, ended = false;

	for (unsigned i = 0; i < w->ntl; i++) {
		/* the wait's start and end between the events, where they fall */
		if (!started && w->tl[i].t_ns >= 0) {
			fprintf(f, "  | %+11.2f us  -- wait starts\n", 0.0);
			started = true;
		}
		if (!ended && w->tl[i].t_ns > (int64_t)w->total_ns) {
			fprintf(f, "  | %+11.2f us  -- wait ends\n", (double)w->total_ns / 1e3);
			ended = true;
		}
		why_tl_line(line, sizeof(line), &w->tl[i], w->total_ns);
		fprintf(f, "  %s\n", line);
	}
	if (!started)
		fprintf(f, "  | %+11.2f us  -- wait starts\n", 0.0);
	if (!ended)
		fprintf(f, "  | %+11.2f us  -- wait ends\n", (double)w->total_ns / 1e3);
}

void why_print_answer(FILE *f, json_object *answer, enum ev_clock clock, bool timeline)
{
	json_object *waits;
	size_t n;

	if (!json_object_object_get_ex(answer, "waits", &waits) || !(n = json_array_len(waits))) {
		fprintf(f, "no late wait explained yet (%llu explained since irqlatd started; it keeps the last %lld a CPU)\n",
			(unsigned long long)json_get_u64(answer, "explained", 0), (long long)json_get_i64(answer, "kept_per_cpu", 0));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_array_at(waits, i);
		struct why_named w;

		if (why_from_json(o, &w) < 0)
			continue;
		if (i)
			fputc('\n', f);
		why_print_wait(f, &w,
			       json_get_u64(o, clock == EV_CLOCK_WALL ? "wall_ns" : clock == EV_CLOCK_BOOT ? "boot_ns" : "ts_ns", 0),
			       clock);
		if (timeline)
			why_print_timeline(f, &w);
	}
}

json_object *why_rows_request(const char *cpus)
{
	const char *err = NULL;
	json_object *req = why_client_request(NULL, WHY_ROWS_WAITS, &err);

	if (req)
		conn_add_cpus(req, cpus);
	return req;
}

size_t why_rows_waits(json_object *summary, struct why_named **out)
{
	json_object *arr;
	size_t len, n = 0;

	*out = NULL;
	if (!summary || !json_object_object_get_ex(summary, WHY_ROWS_KEY, &arr) || !json_object_is_type(arr, json_type_array))
		return 0;
	len = json_array_len(arr);
	*out = calloc(len ? len : 1, sizeof(**out));
	if (!*out)
		return 0;
	for (size_t k = 0; k < len; k++)	/* parsed once, kept if a wait */
		if (why_from_json(json_array_at(arr, k), &(*out)[n]) == 0)
			n++;
	return n;
}

/* What a part of a wait was, as one cause among waits: the part and who (the blocking task's
 * pid, the interrupt named top in it), so that "blocking task" summed over waits blocked by
 * different tasks is not named after one of them */
struct cause_acc {
	int part;
	uint32_t pid;
	const char *top;
	uint64_t ns;
	const struct why_named *most;	/* the wait it took most of: its name is said from there */
};

static void cause_identity(const struct why_named *w, int p, uint32_t *pid, const char **top)
{
	*pid = 0;
	*top = "";
	if (p == WHY_BLOCKING || (p == WHY_REMAINDER && w->flags & WHY_F_BLOCKER_LOWER))
		*pid = w->blocker_pid;
	else if (p == WHY_IRQ || p == WHY_VECTOR || p == WHY_SOFTIRQ || p == WHY_NMI)
		*top = w->top[p == WHY_IRQ ? RECENT_IRQ : p == WHY_VECTOR ? RECENT_VECTOR : p == WHY_SOFTIRQ ? RECENT_SOFTIRQ : RECENT_NMI];
}

bool why_top_cause(char *buf, size_t len, const struct why_named *w, size_t n,
		   bool (*keep)(const struct why_named *w, const void *arg), const void *arg)
{
	_cleanup_free_ struct cause_acc *acc = calloc(n ? n * WHY_PARTS : 1, sizeof(*acc));
	size_t nacc = 0, top = 0;
	uint64_t total = 0;
	char what[96];

	buf[0] = 0;
	if (!acc)
		return false;
	for (size_t k = 0; k < n; k++) {
		if (!keep(&w[k], arg))
			continue;
		total += w[k].total_ns;
		for (int p = 0; p < WHY_PARTS; p++) {	/* in rtla's order: the first of equals wins */
			uint32_t pid;
			const char *name;
			size_t i;

			if (!w[k].part_ns[p])
				continue;
			cause_identity(&w[k], p, &pid, &name);
			for (i = 0; i < nacc; i++)
				if (acc[i].part == p && acc[i].pid == pid && !strcmp(acc[i].top, name))
					break;
			if (i == nacc)
				acc[nacc++] = (struct cause_acc){ .part = p, .pid = pid, .top = name };
			acc[i].ns += w[k].part_ns[p];
			if (!acc[i].most || w[k].part_ns[p] > acc[i].most->part_ns[p])
				acc[i].most = &w[k];
		}
	}
	if (!total || !nacc)
		return false;
	for (size_t i = 1; i < nacc; i++)
		if (acc[i].ns > acc[top].ns || (acc[i].ns == acc[top].ns && acc[i].part < acc[top].part))
			top = i;
	if (acc[top].part == WHY_OTHERS)	/* their number differs from wait to wait */
		snprintf(what, sizeof(what), "other tasks");
	else
		why_part_text(what, sizeof(what), acc[top].most, (enum why_part)acc[top].part);
	snprintf(buf, len, "%.0f%% %s", 100.0 * (double)acc[top].ns / (double)total, what);
	return true;
}

static bool task_wakeup(const struct why_named *w, const void *arg)
{
	return w->cls == WHY_CLASS_WAKEUP && w->pid && w->pid == *(const uint64_t *)arg;
}

void why_rows_causes(json_object *summary, struct row *rows, int n)
{
	_cleanup_free_ struct why_named *w = NULL;
	size_t nw = why_rows_waits(summary, &w);

	for (int i = 0; i < n; i++) {
		struct row *r = &rows[i];
		uint64_t pid = (uint64_t)r->key;

		r->cause[0] = 0;
		if (r->kind == KIND_WAKEUP && r->key > 0)
			why_top_cause(r->cause, sizeof(r->cause), w, nw, task_wakeup, &pid);
	}
}
