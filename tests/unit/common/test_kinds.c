// SPDX-License-Identifier: GPL-2.0
/* The kind table (src/common/kinds/): every descriptor is whole, so that a new kind added
 * there shows everywhere the table is walked. What a descriptor must name follows from
 * who reads it (docs/architecture.md, "The kind table"): a kind of its own element names its
 * answer's array, its table and its histogram; one that joins another's element names its
 * fields' prefix and its histogram there; every kind names its events and metric family. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "common/kinds/kind.h"

#define need(k, field) do { if (!kind_get(k)->field) fail_msg("kind %u (%s) has no " #field, k, kind_get(k)->name); } while (0)

static void test_every_descriptor_whole(void **state)
{
	unsigned orders = 0, nload = 0;
	(void)state;

	for (unsigned k = 0; k < KINDS; k++) {
		const struct kind_desc *d = kind_get(k);

		need(k, name);
		need(k, noun);
		need(k, series_key);
		need(k, prefix);
		need(k, name_key);
		need(k, value_key);
		need(k, metric);
		need(k, hist_suffix);
		need(k, value_help);
		need(k, what);
		need(k, journal_sub);
		need(k, journal_value);
		need(k, outlier_what);
		need(k, outlier_task);
		need(k, outlier_mid);
		assert_int_equal(strlen(d->outlier_mid), 32);
		assert_int_equal(strspn(d->outlier_mid, "0123456789abcdef"), 32);
		assert_int_equal(kind_by_name(d->name), (int)k);
		assert_true(d->join < KINDS && kind_get(d->join)->join == d->join);	/* one level deep */
		if (d->aux_key)
			need(k, aux_help);
		if (d->threshold.help)
			need(k, event_line);
		if (d->disable.help)	/* a key turns off its own kind and what it says, never the hard IRQs */
			assert_false(d->disable.also & KIND_BIT(KIND_HARDIRQ));
		if (d->join == k && !d->own_object) {	/* an element of its own: irqlat's table of it */
			need(k, table.array);
			need(k, table.title);
			need(k, table.noun);
			need(k, table.view);
			need(k, table.row_name);
			need(k, table.screen_hist);
			need(k, hist_title);
		}
		if (d->table.array) {
			need(k, hist_title);
			need(k, count_noun);
		}
		if (d->join != k)	/* its figures sit beside its partner's: under a prefix of its own */
			assert_true(strcmp(d->prefix, kind_get(d->join)->prefix) != 0);
		if (d->cpu_load.order) {
			assert_false(orders & (1u << d->cpu_load.order));
			orders |= 1u << d->cpu_load.order;
			nload++;
			need(k, cpu_load.header);
			need(k, cpu_load.worst);
		}
		for (unsigned j = 0; j < k; j++) {
			assert_true(strcmp(d->name, kind_get(j)->name) != 0);
			assert_true(strcmp(d->metric, kind_get(j)->metric) != 0);
		}
	}
	assert_int_equal(orders, ((1u << nload) - 1) << 1);	/* 1, 2, ... n */
	assert_null(kind_get(KIND_HARDIRQ)->disable.help);	/* the hard IRQs are always measured */
}

/* The v key's tour goes through every kind with a table once and back to the handlers */
static void test_tables_tour(void **state)
{
	unsigned seen = 0, n = 0;
	enum lat_kind k = KIND_HARDIRQ;
	(void)state;

	assert_true(kind_has_table(KIND_HARDIRQ));
	do {
		assert_false(seen & KIND_BIT(k));
		seen |= KIND_BIT(k);
		k = kind_next_table(k);
	} while (k != KIND_HARDIRQ && ++n <= KINDS);
	for (unsigned j = 0; j < KINDS; j++)
		assert_int_equal(!!(seen & KIND_BIT(j)), kind_has_table(j));
	assert_int_equal(kind_by_name("nmi_or_other"), -ENOENT);
	assert_ptr_equal(kind_get(KINDS), kind_get(KIND_HARDIRQ));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_descriptor_whole),
		cmocka_unit_test(test_tables_tour),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
