// SPDX-License-Identifier: GPL-2.0
/* The templates of the kind table's lines (src/common/template.c) over elements written here:
 * a field as text, a duration, the first of several fields, a missing one, a cut. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "common/template.h"

static void test_template_fields(void **state)
{
	static const struct {
		const char *tmpl, *want;
	} cases[] = {
		{ "IRQ {irq} ({name})", "IRQ 36 (virtio1-req.0)" },
		{ "woken={comm}[{pid}] wakeup_latency={latency_ns:duration}", "woken=cyclictest[4321] wakeup_latency=1.2ms" },
		{ "{thread|name}", "virtio1-req.0" },	/* no thread yet: the handler's name */
		{ "{nope|irq}", "36" },
		{ "irq={nope} d={nope:duration}", "irq=? d=?" },
		{ "{null}", "?" },
		{ "no fields", "no fields" },
		{ "", "" },
		{ "{irq}{irq}", "3636" },
	};
	json_object *o = json_tokener_parse("{\"irq\":36,\"name\":\"virtio1-req.0\",\"comm\":\"cyclictest\",\"pid\":4321,"
					    "\"latency_ns\":1234567,\"null\":null}");
	char buf[128];
	(void)state;

	assert_non_null(o);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = tmpl_render(buf, sizeof(buf), cases[i].tmpl, o);

		if (strcmp(buf, cases[i].want) || n != strlen(cases[i].want))
			fail_msg("'%s': '%s' (%zu), not '%s'", cases[i].tmpl, buf, n, cases[i].want);
	}
	/* cut as snprintf cuts, its length the whole */
	assert_int_equal(tmpl_render(buf, 8, "IRQ {irq} ({name})", o), strlen("IRQ 36 (virtio1-req.0)"));
	assert_string_equal(buf, "IRQ 36 ");
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_template_fields),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
