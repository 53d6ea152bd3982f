/* SPDX-License-Identifier: GPL-2.0 */
/* A struct loader whose maps are plain arrays of the test, for the parts of irqlatd that only
 * read the maps (collect.c, report.c). Nothing is loaded into the kernel: the skeleton's
 * global sections (bss: next_cell) point into the test's memory, the cells and their
 * metadata are arrays the test fills as the BPF program would, and the drops map has no fd
 * (loader_read_drops fails, so the collector keeps its drop counters as they are). */
#ifndef IRQLAT_TEST_FAKE_BPF_H
#define IRQLAT_TEST_FAKE_BPF_H

#include <stdlib.h>
#include <string.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "hardirq.skel.h"
#pragma GCC diagnostic pop
#include "daemon/loader.h"

struct fake_bpf {
	struct hardirq_bpf skel;
	struct hardirq_bpf__bss bss;
	struct loader l;
	struct irq_cell *cells;
	struct irq_cell_meta *meta;
};

static inline void fake_bpf_init(struct fake_bpf *f, uint32_t max_cells)
{
	memset(f, 0, sizeof(*f));
	f->cells = calloc(max_cells, sizeof(*f->cells));
	f->meta = calloc(max_cells, sizeof(*f->meta));
	f->skel.bss = &f->bss;
	f->l.skel = &f->skel;
	f->l.attach_style = "tp_btf";
	f->l.max_cells = max_cells;
	f->l.cells = f->cells;
	f->l.meta = f->meta;
	f->l.ringbuf_fd = f->l.drops_fd = -1;
}

static inline void fake_bpf_free(struct fake_bpf *f)
{
	free(f->cells);
	free(f->meta);
}

/* What cell_of() in bpf/hardirq.bpf.c does on the first run of a handler on a CPU. */
static inline uint32_t fake_bpf_new_cell(struct fake_bpf *f, uint32_t irq, uint32_t cpu,
					 uint64_t action_id, const char *name)
{
	uint32_t id = f->bss.next_cell++;

	f->meta[id].irq = irq;
	f->meta[id].cpu = cpu;
	strncpy(f->meta[id].name, name, IRQ_NAME_LEN - 1);
	f->meta[id].action_id = action_id;
	return id;
}

/* What on_exit() does for a handler run of d ns. */
static inline void fake_bpf_run(struct fake_bpf *f, uint32_t cell, uint64_t d, int spurious)
{
	struct irq_cell *c = &f->cells[cell];

	c->count++;
	c->sum_ns += d;
	if (d > c->max_ns)
		c->max_ns = d;
	if (spurious)
		c->spurious++;
	c->hist[hist_bucket(d)]++;
}

#endif
