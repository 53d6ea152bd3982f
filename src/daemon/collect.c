// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "collect.h"
#include "log.h"

static const unsigned window_ticks[] = { 1, 10, 60, 0 };
#define TICK_TIMES (WINDOW_TICKS_MAX + 1)	/* entries of collector.tick_ns */

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int collector_init(struct collector *c, struct loader *bpf)
{
	memset(c, 0, sizeof(*c));
	c->bpf = bpf;
	c->start_ns = now_ns();
	c->cells = calloc(bpf->max_cells, sizeof(*c->cells));
	if (!c->cells)
		return -ENOMEM;
	for (uint32_t i = 0; i < bpf->max_cells; i++)
		c->cells[i].handler = -1;
	c->topology = calloc(1, sizeof(*c->topology));
	c->peers = calloc(1, sizeof(*c->peers));
	return c->topology && c->peers ? 0 : -ENOMEM;
}

void collector_free(struct collector *c)
{
	for (unsigned i = 0; i < c->nhandlers; i++)
		free(c->handlers[i].cpus);
	free(c->handlers);
	free(c->cells);
	storm_free(&c->storms);
	if (c->topology)
		topology_free(c->topology);
	free(c->topology);
	if (c->peers)
		bpf_peers_free(c->peers);
	free(c->peers);
	memset(c, 0, sizeof(*c));
}

static int handler_for(struct collector *c, const struct irq_cell_meta *m)
{
	unsigned i;

	for (i = 0; i < c->nhandlers; i++)
		if (c->handlers[i].irq == m->irq && c->handlers[i].action_id == m->action_id)
			return (int)i;
	struct handler *nh = realloc(c->handlers, (c->nhandlers + 1) * sizeof(*nh));
	if (!nh)
		return -ENOMEM;
	c->handlers = nh;
	memset(&nh[i], 0, sizeof(nh[i]));
	nh[i].irq = m->irq;
	nh[i].action_id = m->action_id;
	memcpy(nh[i].name, m->name, IRQ_NAME_LEN);
	nh[i].name[IRQ_NAME_LEN - 1] = 0;
	c->nhandlers++;
	return (int)i;
}

static int attach_cell(struct collector *c, struct cell_state *cs, const struct irq_cell_meta *m)
{
	int h = handler_for(c, m);
	struct handler *hd;
	struct cpu_stat *nc;

	if (h < 0)
		return h;
	hd = &c->handlers[h];
	nc = realloc(hd->cpus, (hd->ncpus + 1) * sizeof(*nc));
	if (!nc)
		return -ENOMEM;
	hd->cpus = nc;
	memset(&nc[hd->ncpus], 0, sizeof(*nc));
	nc[hd->ncpus].cpu = m->cpu;
	cs->cpu_idx = hd->ncpus++;
	cs->handler = h;
	return 0;
}

int collector_tick(struct collector *c)
{
	uint32_t used = loader_cells_used(c->bpf);
	unsigned slot = (unsigned)(c->tick % WINDOW_TICKS_MAX);
	uint64_t drops[DROP_KINDS];
	int r;

	for (unsigned i = 0; i < c->nhandlers; i++) {
		memset(&c->handlers[i].ring[slot], 0, sizeof(struct hist_tick));
		for (unsigned k = 0; k < c->handlers[i].ncpus; k++)
			c->handlers[i].cpus[k].window_count[slot] = 0;
	}

	for (uint32_t id = 0; id < used; id++) {
		struct cell_state *cs = &c->cells[id];
		volatile struct irq_cell *live = &c->bpf->cells[id];
		struct irq_cell now;

		if (cs->handler < 0) {
			struct irq_cell_meta m;

			memcpy(&m, (const void *)&c->bpf->meta[id], sizeof(m));
			if (!__atomic_load_n(&c->bpf->meta[id].action_id, __ATOMIC_ACQUIRE))
				continue;	/* being allocated right now */
			if (attach_cell(c, cs, &m) < 0) {
				log_error("out of memory tracking IRQ %u (%s)", m.irq, m.name);
				continue;
			}
		}
		/* max is "since last read": take it and leave 0 in its place */
		uint64_t max = __atomic_exchange_n(&live->max_ns, 0, __ATOMIC_RELAXED);
		memcpy(&now, (const void *)live, sizeof(now));

		struct handler *h = &c->handlers[cs->handler];
		struct hist_tick *d = &h->ring[slot];
		uint64_t dcount = now.count - cs->prev.count;

		d->count += (uint32_t)dcount;
		d->sum_ns += now.sum_ns - cs->prev.sum_ns;
		d->spurious += (uint32_t)(now.spurious - cs->prev.spurious);
		if (dcount && max > d->max_ns)
			d->max_ns = max;
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			d->bucket[b] += (uint32_t)(now.hist[b] - cs->prev.hist[b]);	/* mod 2^32 */
		h->cpus[cs->cpu_idx].count += dcount;
		h->cpus[cs->cpu_idx].window_count[slot] = dcount;
		cs->prev = now;
	}
	for (unsigned i = 0; i < c->nhandlers; i++)
		hist_add_tick(&c->handlers[i].total, &c->handlers[i].ring[slot]);

	r = loader_read_drops(c->bpf, drops);
	if (r >= 0) {
		for (int k = 0; k < DROP_KINDS; k++) {
			if (drops[k] > c->drops[k] && k != DROP_TRACEPOINT)
				log_warning("%llu %s in the last interval (%llu since start)",
					    (unsigned long long)(drops[k] - c->drops[k]),
					    k == DROP_OUTLIER ? "outliers lost: the ring buffer was full (raise --ringbuf-kb)"
							      : "IRQs not measured: no free histogram cell (raise --max-cells)",
					    (unsigned long long)drops[k]);
			c->drops[k] = drops[k];
		}
	}
	uint64_t end = now_ns(), begin = c->tick ? c->tick_ns[(c->tick - 1) % TICK_TIMES] : c->start_ns;

	c->tick_ns[c->tick % TICK_TIMES] = end;
	/* this tick's runs and IRQ_NONE returns, to the storm rules (storm.h) */
	for (unsigned i = 0; i < c->nhandlers; i++) {
		const struct handler *h = &c->handlers[i];

		if (storm_feed(&c->storms, i, h->irq, h->name, h->ring[slot].count, h->ring[slot].spurious) < 0)
			log_error("out of memory: no storm detection for IRQ %u (%s)", h->irq, h->name);
	}
	storm_tick(&c->storms, (double)(end - begin) / 1e9, end, storm_journal, NULL);
	c->tick++;
	return r < 0 ? r : 0;
}

static unsigned ticks_in(const struct collector *c, enum window w)
{
	unsigned n = window_ticks[w];

	if (!n || n > c->tick)
		n = (unsigned)(c->tick < WINDOW_TICKS_MAX ? c->tick : WINDOW_TICKS_MAX);
	return n;
}

static double window_seconds(const struct collector *c, enum window w, unsigned n)
{
	uint64_t end, begin;

	if (!c->tick)
		return 0;
	end = c->tick_ns[(c->tick - 1) % TICK_TIMES];
	if (w == WINDOW_TOTAL)
		begin = c->start_ns;
	else if (c->tick > n)
		begin = c->tick_ns[(c->tick - 1 - n) % TICK_TIMES];
	else
		begin = c->start_ns;
	return (double)(end - begin) / 1e9;
}

void collector_window(const struct collector *c, const struct handler *h, enum window w,
		      struct hist *out, double *seconds)
{
	unsigned n = ticks_in(c, w);

	if (w == WINDOW_TOTAL) {
		*out = h->total;
	} else {
		memset(out, 0, sizeof(*out));
		for (unsigned i = 0; i < n; i++)
			hist_add_tick(out, &h->ring[(c->tick - 1 - i) % WINDOW_TICKS_MAX]);
	}
	*seconds = window_seconds(c, w, n);
}

uint64_t collector_cpu_window_count(const struct collector *c, const struct cpu_stat *cs, enum window w)
{
	uint64_t sum = 0;
	unsigned n;

	if (w == WINDOW_TOTAL)
		return cs->count;
	n = ticks_in(c, w);
	for (unsigned i = 0; i < n; i++)
		sum += cs->window_count[(c->tick - 1 - i) % WINDOW_TICKS_MAX];
	return sum;
}

uint64_t collector_live_count(const struct collector *c, const struct handler *h)
{
	uint32_t used = loader_cells_used(c->bpf);
	int idx = (int)(h - c->handlers);
	uint64_t n = h->total.count;

	for (uint32_t id = 0; id < used && id < c->bpf->max_cells; id++)
		if (c->cells[id].handler == idx)
			n += __atomic_load_n(&c->bpf->cells[id].count, __ATOMIC_RELAXED) - c->cells[id].prev.count;
	return n;
}
