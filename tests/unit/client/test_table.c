// SPDX-License-Identifier: GPL-2.0
/* The client's side of a summary: table_rows() on an answer written here as the daemon sends
 * it (docs/architecture.md, section 4: two handlers sharing IRQ 25, one of them on two CPUs,
 * and IRQ 1), each row against the JSON fields it came from; table_sort() by p99 and by IRQ;
 * and an answer that is not a summary. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "../helpers/json_fields.h"
#include "client/table.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_rows),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
