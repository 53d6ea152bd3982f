// SPDX-License-Identifier: GPL-2.0
/* sinks/why_report.c: an explained outlier's journal fields (WHY_*_NS add up to WHY_TOTAL_NS,
 * the names irqlatd(8) lists), the "why" answer's filters by pid, CPU and comm and its -n, and
 * status' "why" from the kernel's counts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "common/json.h"
#include "daemon/base/log.h"
#include "daemon/collect/why_counts.h"
#include "daemon/sinks/why_report.h"
#include "../fake_bpf.h"

static struct why_named wait_of(uint32_t pid, const char *comm, uint32_t cpu, uint64_t ts)
{
	struct why_named w = { .cls = WHY_CLASS_WAKEUP, .ts_ns = ts, .total_ns = 1000000, .cpu = cpu, .wake_cpu = cpu,
			       .pid = pid, .blocker_pid = 99, .blocker_policy = 1, .blocker_prio = 0,
			       .blocker_comm = "burst", .flags = WHY_F_IDLE_AT_EXPIRY };

	snprintf(w.comm, sizeof(w.comm), "%s", comm);
	w.part_ns[WHY_LATE_IDLE] = 12345;
	w.part_ns[WHY_IRQ] = 200000;
	w.part_ns[WHY_BLOCKING] = 700000;
	w.part_ns[WHY_REMAINDER] = 1000000 - 12345 - 200000 - 700000;
	snprintf(w.top[RECENT_IRQ], sizeof(w.top[RECENT_IRQ]), "IRQ 36 virtio1-req.0");
	w.top_ns[RECENT_IRQ] = 150000;
	return w;
}

static const char *field(const struct jfields *f, const char *key)
{
	size_t n = strlen(key);

	for (unsigned i = 0; i < f->n; i++)
		if (!strncmp(f->field[i], key, n) && f->field[i][n] == '=')
			return f->field[i] + n + 1;
	return NULL;
}

static void test_journal_fields(void **state)
{
	static const char *const parts[] = { "WHY_LATE_IDLE_NS", "WHY_LATE_BUSY_NS", "WHY_IRQ_NS", "WHY_VECTOR_NS",
					     "WHY_SOFTIRQ_NS", "WHY_NMI_NS", "WHY_IDLE_NS", "WHY_BLOCKING_NS",
					     "WHY_OTHERS_NS", "WHY_REMAINDER_NS", "WHY_UNSPLIT_NS" };
	struct why_named w = wait_of(1234, "cyclictest", 1, 5);
	struct jfields *f = calloc(1, sizeof(*f));
	unsigned long long sum = 0;
	(void)state;

	why_journal_fields(f, &w);
	/* the names of irqlatd(8), each there, adding up */
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const char *v = field(f, parts[i]);

		if (!v)
			fail_msg("no %s", parts[i]);
		sum += strtoull(v, NULL, 10);
	}
	assert_string_equal(field(f, "WHY_TOTAL_NS"), "1000000");
	assert_int_equal(sum, 1000000);
	assert_string_equal(field(f, "WHY_CAUSE"), "blocking");
	assert_string_equal(field(f, "WHY_CLASS"), "wakeup");
	assert_string_equal(field(f, "WHY_COMM"), "cyclictest");
	assert_string_equal(field(f, "WHY_BLOCKER_SCHED"), "FIFO 99");
	assert_string_equal(field(f, "WHY_TOP_IRQ"), "IRQ 36 virtio1-req.0");
	assert_string_equal(field(f, "WHY_TOP_IRQ_NS"), "150000");
	assert_string_equal(field(f, "WHY_FLAGS"), "idle_at_expiry");
	assert_null(field(f, "WHY_TOP_SOFTIRQ"));
	free(f);
}

static unsigned answer_count(const struct why_store *s, const char *req)
{
	json_object *q = json_tokener_parse(req), *a = why_request(s, q), *waits;
	unsigned n;

	assert_true(json_get_i64(a, "ok", 0));
	assert_true(json_object_object_get_ex(a, "waits", &waits));
	n = (unsigned)json_object_array_length(waits);
	json_object_put(q);
	json_object_put(a);
	return n;
}

static void test_request(void **state)
{
	struct why_store s;
	(void)state;

	assert_int_equal(why_store_init(&s, 2), 0);
	for (unsigned i = 0; i < 10; i++) {
		struct why_named w = wait_of(i % 2 ? 1234 : 77, i % 2 ? "cyclictest" : "rtla", i % 2, 1000 + i);

		why_add(&s, &w, true);
	}
	assert_int_equal(answer_count(&s, "{\"cmd\":\"why\"}"), 10);
	assert_int_equal(answer_count(&s, "{\"cmd\":\"why\",\"pid\":1234}"), 5);
	assert_int_equal(answer_count(&s, "{\"cmd\":\"why\",\"cpu\":0}"), 5);
	assert_int_equal(answer_count(&s, "{\"cmd\":\"why\",\"comm\":\"cyc*\"}"), 5);
	assert_int_equal(answer_count(&s, "{\"cmd\":\"why\",\"comm\":\"cyc*\",\"n\":2}"), 2);
	assert_int_equal(answer_count(&s, "{\"cmd\":\"why\",\"pid\":5}"), 0);
	why_store_free(&s);
}

/* status' "why": the kernel's counts (of the map the test fills), beside the records received:
 * a wait the kernel counted whose record did not come is not received; the causes are the
 * kernel's parts */
static void test_status(void **state)
{
	struct fake_bpf b;
	struct why_counts k;
	struct why_store s;
	uint64_t part[WHY_PARTS] = { 0 };
	json_object *o, *c1;
	(void)state;

	fake_bpf_init(&b, 4);
	assert_int_equal(why_store_init(&s, b.l.ncpus), 0);
	assert_int_equal(why_counts_init(&k, b.l.why_counts, b.l.ncpus), 0);
	s.kernel = &k;
	for (int i = 0; i < 3; i++) {	/* three late wake-ups on CPU 1, two of their records received */
		struct why_named w = wait_of(1234, "cyclictest", 1, 1000 + i);

		memcpy(part, w.part_ns, sizeof(part));
		fake_bpf_why_add(&b, 1, WHY_CLASS_WAKEUP, w.total_ns, part);
		if (i < 2)
			why_add(&s, &w, true);
	}
	o = why_status_json(&s);
	assert_string_equal(json_get_str(o, "counted_by", ""), "kernel");
	assert_int_equal(json_get_i64(o, "explained", -1), 2);
	assert_int_equal(json_get_i64(o, "waits", -1), 3);
	assert_int_equal(json_get_i64(o, "not_received", -1), 1);
	assert_int_equal(json_get_i64(json_object_object_get(o, "causes"), "blocking_ns", -1), 3 * 700000);
	assert_int_equal(json_object_array_length(json_object_object_get(o, "cpus")), 1);
	c1 = json_object_object_get(json_object_array_get_idx(json_object_object_get(o, "cpus"), 0), "wakeup");
	assert_int_equal(json_get_i64(c1, "waits", -1), 3);
	assert_int_equal(json_get_i64(c1, "total_ns", -1), 3000000);
	assert_int_equal(json_get_i64(c1, "received", -1), 2);
	assert_int_equal(json_get_i64(c1, "not_received", -1), 1);
	assert_int_equal(json_get_i64(json_object_object_get(c1, "parts"), "irq_ns", -1), 3 * 200000);
	json_object_put(o);
	/* a late timer counted and not sent (log-idle off) is no record missing */
	memset(part, 0, sizeof(part));
	part[WHY_LATE_IDLE] = 800000;
	fake_bpf_why_unsent(&b, 0, 800000, part);
	o = why_status_json(&s);
	assert_int_equal(json_get_i64(o, "waits", -1), 4);
	assert_int_equal(json_get_i64(o, "not_received", -1), 1);
	assert_int_equal(json_get_i64(o, "not_sent", -1), 1);
	c1 = json_object_object_get(json_object_array_get_idx(json_object_object_get(o, "cpus"), 0), "timer");
	assert_int_equal(json_get_i64(c1, "not_received", -1), 0);
	assert_int_equal(json_get_i64(c1, "not_sent", -1), 1);
	json_object_put(o);
	why_counts_free(&k);
	why_store_free(&s);
	fake_bpf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal_fields),
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_status),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
