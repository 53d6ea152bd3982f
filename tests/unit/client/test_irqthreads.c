// SPDX-License-Identifier: GPL-2.0
/* The IRQ threads of a /proc written here (irqthreads.c): counted by their comm, and the line an
 * empty threaded-IRQ view shows, for a kernel with none and one with some. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <setjmp.h>
#include <cmocka.h>
#include "client/irqthreads.h"

static void task(const char *root, const char *pid, const char *comm)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, pid);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/comm", root, pid);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", comm);
	fclose(f);
}

static void test_irqthreads(void **state)
{
	char root[] = "/tmp/irqlat-test-proc.XXXXXX", example[64], line[160], cmd[600];

	(void)state;
	assert_non_null(mkdtemp(root));
	task(root, "1", "systemd");
	task(root, "2", "kthreadd");
	snprintf(line, sizeof(line), "%s/self", root);	/* not a task */
	assert_int_equal(mkdir(line, 0755), 0);
	assert_int_equal(irqthreads_count(root, example, sizeof(example)), 0);
	assert_string_equal(example, "");
	irqthreads_empty_line(line, sizeof(line), root);
	assert_string_equal(line, "no threaded IRQs on this kernel (boot with threadirqs)");
	task(root, "53", "irq/24-ACPI:Ged");
	task(root, "54", "irq/25-ACPI:Ged");
	assert_int_equal(irqthreads_count(root, example, sizeof(example)), 2);
	assert_true(!strcmp(example, "irq/24-ACPI:Ged") || !strcmp(example, "irq/25-ACPI:Ged"));
	irqthreads_empty_line(line, sizeof(line), root);
	assert_non_null(strstr(line, "no threaded IRQ has run yet (2 IRQ threads, such as irq/2"));
	irqthreads_empty_line(line, sizeof(line), "/nonexistent/proc");
	assert_string_equal(line, "no threaded IRQ has run yet");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irqthreads),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
