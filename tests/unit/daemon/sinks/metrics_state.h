/* SPDX-License-Identifier: GPL-2.0 */
/* One collector state with something of every part of the /metrics page: hard-IRQ handlers on
 * two CPUs (two of one name on one line, summed into one series; a name with a quote and a
 * backslash; one with bytes that are not UTF-8), runs of 0 ns and past 4 s, IRQ_NONE returns,
 * softirqs and their raise latency, vector interrupts, woken tasks and a CPU's all-tasks cell,
 * two ticks (so that the 10 s max is a window's), drop counters, two tracepoints and the late
 * waits' parts of two CPUs. test_metrics_stream.c serves it; its pages as the whole-page
 * renderer before streaming wrote them are in metrics-golden/ (how to make them again: there,
 * README). */
#ifndef IRQLAT_TEST_METRICS_STATE_H
#define IRQLAT_TEST_METRICS_STATE_H

#include <stdio.h>
#include <string.h>
#include "daemon/collect/why.h"
#include "daemon/config/config.h"
#include "daemon/sinks/metrics.h"
#include "../fake_bpf.h"

struct metrics_state {
	struct fake_bpf b;
	struct collector c;
	struct why_store why;
	struct daemon_config cfg;
	struct metrics_sources src;
};

static const struct tp_info metrics_state_tps[] = {
	{ "silly:me_silly", true, { 1234, 5, 77 } },
	{ "odd:na\"me\\x", false, { 0, 0, 0 } },
};

static unsigned metrics_state_tp_count(const struct tp_set *s)
{
	(void)s;
	return sizeof(metrics_state_tps) / sizeof(metrics_state_tps[0]);
}

static struct tp_info metrics_state_tp_info(const struct tp_set *s, unsigned i)
{
	(void)s;
	return metrics_state_tps[i];
}

/* n runs of ns into cell; every 7th returns IRQ_NONE (aux) */
static void metrics_state_runs(struct metrics_state *m, uint32_t cell, uint64_t ns, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		fake_bpf_run(&m->b, cell, ns + 13 * i, i % 7 == 3);
}

/* le_factor and cpu_label: the configuration of the page */
static int metrics_state_init(struct metrics_state *m, unsigned le_factor, bool cpu_label)
{
	uint32_t cell[16];
	unsigned n = 0;

	memset(m, 0, sizeof(*m));
	fake_bpf_init(&m->b, 64);
	m->b.l.ncpus = 3;
	if (collector_init(&m->c, &m->b.l) < 0 || why_store_init(&m->why, 3) < 0)
		return -1;
	cell[n++] = fake_bpf_new_cell(&m->b, 25, 0, 0x1000, "virtio1-req.0");
	cell[n++] = fake_bpf_new_cell(&m->b, 25, 1, 0x1000, "virtio1-req.0");
	cell[n++] = fake_bpf_new_cell(&m->b, 25, 1, 0x2000, "virtio1-req.0");	/* the same series */
	cell[n++] = fake_bpf_new_cell(&m->b, 1, 2, 0x3000, "odd\"name\\");
	cell[n++] = fake_bpf_new_cell(&m->b, 40, 0, 0x4000, "eth\xff-rx");
	cell[n++] = fake_bpf_new_kind_cell(&m->b, KIND_SOFTIRQ, 3, 0);	/* NET_RX */
	cell[n++] = fake_bpf_new_kind_cell(&m->b, KIND_SOFTIRQ, 3, 2);
	cell[n++] = fake_bpf_new_kind_cell(&m->b, KIND_SOFTIRQ_RAISE, 3, 0);
	cell[n++] = fake_bpf_new_kind_cell(&m->b, KIND_SOFTIRQ, 1, 1);	/* TIMER */
	cell[n++] = fake_bpf_new_kind_cell(&m->b, KIND_VECTOR, 0, 1);
	cell[n++] = fake_bpf_new_id_cell(&m->b, KIND_WAKEUP, 4242, 4242, 1, "cyclictest");
	cell[n++] = fake_bpf_new_id_cell(&m->b, KIND_WAKEUP_CPU, 2, 2, 2, NULL);
	for (unsigned i = 0; i < n; i++)
		metrics_state_runs(m, cell[i], 800 + 1500 * i, 10 + 3 * i);
	fake_bpf_run(&m->b, cell[0], 0, 0);
	fake_bpf_run(&m->b, cell[3], 5000000000ull, 0);
	collector_tick(&m->c);
	for (unsigned i = 0; i < n; i += 2)
		metrics_state_runs(m, cell[i], 20000 + 700 * i, 5 + i);
	collector_tick(&m->c);
	m->c.drops[DROP_OUTLIER] = 3;
	m->c.drops[DROP_NO_CELL] = 9;
	for (unsigned cpu = 0; cpu < 3; cpu += 2)
		for (int k = 0; k < WHY_CLASSES; k += 2) {
			struct why_total *t = &m->why.totals[cpu * WHY_CLASSES + k];

			t->waits = 2 + cpu;
			for (int p = 0; p < WHY_PARTS; p++)
				t->total_ns += t->part_ns[p] = 1000003ull * (unsigned)(p + 1) * (cpu + 1);
		}
	daemon_config_defaults(&m->cfg);
	m->cfg.metrics_le_factor = le_factor;
	m->cfg.metrics_cpu_label = cpu_label;
	m->src = (struct metrics_sources){ .col = &m->c, .why = &m->why, .tp_count = metrics_state_tp_count,
					   .tp_info = metrics_state_tp_info, .cfg = &m->cfg };
	return 0;
}

static void metrics_state_free(struct metrics_state *m)
{
	why_store_free(&m->why);
	collector_free(&m->c);
	fake_bpf_free(&m->b);
}

#endif
