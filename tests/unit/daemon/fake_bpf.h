/* SPDX-License-Identifier: GPL-2.0 */
/* A struct loader whose maps are plain arrays of the test, for the parts of irqlatd that only
 * read the maps (collect.c, report.c, metrics.c). Nothing is loaded into the kernel: the cell
 * pool (cells, their metadata, cell_next) is memory the test fills as bpf/cell.bpf.h and
 * bpf/hardirq.bpf.c would, the late waits' counts (why_counts) memory the test fills as
 * bpf/why.bpf.h would, and the drops map has no fd (loader_read_drops fails, so the
 * collector keeps its drop counters as they are). */
#ifndef IRQLAT_TEST_FAKE_BPF_H
#define IRQLAT_TEST_FAKE_BPF_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/loader/loader.h"

struct fake_bpf {
	struct loader l;
	struct cell_pool pool;
	struct lat_cell *cells;
	struct lat_cell_meta *meta;
	struct why_count *why;	/* why_counts: l.ncpus * WHY_CLASSES */
};

static inline void fake_bpf_init(struct fake_bpf *f, uint32_t max_cells)
{
	memset(f, 0, sizeof(*f));
	f->cells = calloc(max_cells, sizeof(*f->cells));
	f->meta = calloc(max_cells, sizeof(*f->meta));
	f->pool.max = max_cells;
	f->l.attach_style = "tp_btf";
	f->l.max_cells = max_cells;
	f->l.ncpus = 2;
	for (unsigned k = 0; k < KINDS; k++)
		f->l.cell_threshold_ns[k] = UINT64_MAX;
	f->l.cells = f->cells;
	f->l.meta = f->meta;
	f->l.pool = &f->pool;
	f->why = calloc((size_t)f->l.ncpus * WHY_CLASSES, sizeof(*f->why));
	f->l.why_counts = f->why;
	f->l.ringbuf_fd = f->l.drops_fd = -1;
}

static inline void fake_bpf_free(struct fake_bpf *f)
{
	free(f->cells);
	free(f->meta);
	free(f->why);
}

/* What why_count_add() (bpf/why.bpf.h) does for a late wait of class cls on cpu: parts add up
 * to total */
static inline void fake_bpf_why_add(struct fake_bpf *f, uint32_t cpu, enum why_class cls, uint64_t total,
				    const uint64_t part[WHY_PARTS])
{
	struct why_count *n = &f->why[cpu * WHY_CLASSES + cls];

	n->seq++;
	n->waits++;
	n->total_ns += total;
	for (int i = 0; i < WHY_PARTS; i++)
		n->part_ns[i] += part[i];
	n->seq++;
}

/* The same for a late timer counted and not sent (log-idle off) */
static inline void fake_bpf_why_unsent(struct fake_bpf *f, uint32_t cpu, uint64_t total, const uint64_t part[WHY_PARTS])
{
	struct why_count *n = &f->why[cpu * WHY_CLASSES + WHY_CLASS_TIMER];

	fake_bpf_why_add(f, cpu, WHY_CLASS_TIMER, total, part);
	n->unsent++;
	if (total > n->unsent_max_ns)
		n->unsent_max_ns = total;
}

/* What cell_miss() does on the first event of a series on a CPU (ready set last). */
static inline uint32_t fake_bpf_new_cell(struct fake_bpf *f, uint32_t irq, uint32_t cpu,
					 uint64_t action_id, const char *name)
{
	uint32_t id = f->pool.next++;

	f->cells[id].id = action_id;
	f->cells[id].sub = irq;
	f->meta[id].id = action_id;
	f->meta[id].sub = irq;
	f->meta[id].cpu = cpu;
	f->meta[id].kind = KIND_HARDIRQ;
	snprintf(f->meta[id].name, IRQ_NAME_LEN, "%s", name);
	f->meta[id].ready = 1;
	return id;
}

/* The same for a kind named in user space (softirq, its raise latency, vector): id = sub, no
 * name (bpf/softirq.bpf.c, bpf/vector.bpf.c). */
static inline uint32_t fake_bpf_new_kind_cell(struct fake_bpf *f, enum lat_kind kind, uint32_t sub, uint32_t cpu)
{
	uint32_t id = f->pool.next++;

	f->cells[id].id = f->cells[id].sub = sub;
	f->meta[id].id = f->meta[id].sub = sub;
	f->meta[id].cpu = cpu;
	f->meta[id].kind = kind;
	f->meta[id].ready = 1;
	return id;
}

/* A timer function's cell (bpf/timer.bpf.c): id = the function's address, sub = the CPU;
 * a task's wake-up cell: id = sub = its pid, its comm read by the program. */
static inline uint32_t fake_bpf_new_id_cell(struct fake_bpf *f, enum lat_kind kind, uint64_t ident, uint32_t sub,
					    uint32_t cpu, const char *name)
{
	uint32_t id = f->pool.next++;

	f->cells[id].id = ident;
	f->cells[id].sub = sub;
	f->meta[id].id = ident;
	f->meta[id].sub = sub;
	f->meta[id].cpu = cpu;
	f->meta[id].kind = kind;
	snprintf(f->meta[id].name, IRQ_NAME_LEN, "%s", name ? name : "");
	f->meta[id].ready = 1;
	return id;
}

/* What on_exit() does for a handler run of d ns (cell_record(), and aux for IRQ_NONE). */
static inline void fake_bpf_run(struct fake_bpf *f, uint32_t cell, uint64_t d, int spurious)
{
	struct lat_cell *c = &f->cells[cell];

	if (spurious)
		c->aux++;
	c->sum_ns += d;
	if (d > c->max_ns)
		c->max_ns = d;
	c->hist[hist_bucket(d)]++;
}

/* A clock the test moves: collector.clock = fake_clock, ticks one second apart. */
static uint64_t fake_clock_ns __attribute__((unused));

static inline uint64_t fake_clock(void)
{
	return fake_clock_ns;
}

#endif
