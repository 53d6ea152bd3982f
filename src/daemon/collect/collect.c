// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "daemon/collect/collect.h"
#include "daemon/kinds/kind.h"
#include "daemon/system/ksym.h"
#include "daemon/base/log.h"
#include "common/cpulist.h"
#include "common/macro.h"

static const unsigned window_ticks[] = { 1, 10, 60, 0 };
#define TICK_TIMES (WINDOW_TICKS_MAX + 1)	/* entries of collector.tick_ns */

/* A cell as the collector last read it: what the next read is a delta from, and, summed over
 * a series' cells, its buckets since start. The counters are 32-bit and wrap; their
 * differences do not (a tick holds far fewer than 2^32 values). hi counts the wraps of each
 * bucket: NULL until the first (a bucket of one cell past 4 billion values).
 *
 * The buckets are kept from the lowest to the highest that ever held a run, and the zero
 * bucket apart (0 ns runs would stretch the range down to it): one handler's runs fall in a
 * few dozen neighbouring buckets of the 258. A dense copy of every bucket was 1,056 bytes a
 * cell, 17 MiB of the daemon's 84 at 4096 handlers on 256 CPUs (docs/bench.md, "The daemon at
 * scale"); this is about 150. */
struct cell_prev {
	uint64_t sum_ns;
	uint32_t aux;
	uint32_t zero;		/* the zero bucket */
	uint32_t *hi;
	uint16_t lo, n;		/* hist[i] is bucket lo + i, for i < n */
	uint32_t hist[];
};

static uint32_t prev_bucket(const struct cell_prev *p, unsigned b)
{
	if (b == HIST_ZERO)
		return p->zero;
	return b - p->lo < p->n ? p->hist[b - p->lo] : 0;	/* below lo: wraps, so above n */
}

/* p with bucket b (not the zero bucket) in its range, moved; NULL: out of memory, p as it was */
static struct cell_prev *prev_cover(struct cell_prev *p, unsigned b)
{
	unsigned lo = p->n && p->lo < b ? p->lo : b, end = p->n && p->lo + p->n > b + 1u ? p->lo + p->n : b + 1u;
	unsigned shift = p->n ? p->lo - lo : 0, old_n = p->n;
	struct cell_prev *np = realloc(p, sizeof(*p) + (end - lo) * sizeof(p->hist[0]));

	if (!np)
		return NULL;
	memmove(np->hist + shift, np->hist, old_n * sizeof(np->hist[0]));
	memset(np->hist, 0, shift * sizeof(np->hist[0]));
	memset(np->hist + shift + old_n, 0, (end - lo - shift - old_n) * sizeof(np->hist[0]));
	np->lo = (uint16_t)lo;
	np->n = (uint16_t)(end - lo);
	return np;
}

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
	c->clock = now_ns;
	c->start_ns = c->snap_begin_ns = c->snap_end_ns = now_ns();
	c->ncells = bpf->max_cells;
	c->ncpus = bpf->ncpus;
	c->storm_report = storm_journal;
	c->cells = calloc(c->ncells ? c->ncells : 1, sizeof(*c->cells));
	c->retake = calloc(c->ncells ? c->ncells : 1, sizeof(*c->retake));	/* a set of cells */
	if (!c->cells || !c->retake)
		return -ENOMEM;
	for (uint32_t i = 0; i < c->ncells; i++)
		c->cells[i].series = -1;
	c->topology = calloc(1, sizeof(*c->topology));
	c->peers = calloc(1, sizeof(*c->peers));
	return c->topology && c->peers ? 0 : -ENOMEM;
}

unsigned collector_count_kind(const struct collector *c, enum lat_kind kind)
{
	unsigned n = 0;

	for (unsigned i = 0; i < c->nseries; i++)
		n += !c->series[i].gone && c->series[i].kind == kind;
	return n;
}

void collector_free(struct collector *c)
{
	for (unsigned i = 0; i < c->nseries; i++) {
		free(c->series[i].cpus);
		free(c->series[i].cgroup);
	}
	for (uint32_t i = 0; i < c->ncells; i++)
		if (c->cells[i].prev) {
			free(c->cells[i].prev->hi);
			free(c->cells[i].prev);
		}
	for (unsigned t = 0; t < WINDOW_TICKS_MAX; t++)
		tick_buf_free(&c->ticks[t]);
	free(c->series);
	free(c->cells);
	free(c->retake);
	storm_free(&c->storms);
	if (c->topology)
		topology_free(c->topology);
	free(c->topology);
	if (c->peers)
		bpf_peers_free(c->peers);
	free(c->peers);
	memset(c, 0, sizeof(*c));
}

/* A series that ended long enough ago that no window's ticks name it: its slot can be reused
 * (the ticks refer to series by slot). -1: none. */
static int old_slot(const struct collector *c)
{
	for (unsigned i = 0; i < c->nseries; i++)
		if (c->series[i].gone && c->tick > c->series[i].gone_tick + WINDOW_TICKS_MAX)
			return (int)i;
	return -1;
}

/* The series (kind, id, sub), made on its first cell; a series that ended is another one,
 * even with the same identity (a pid used again). */
static int series_for(struct collector *c, const struct lat_cell_meta *m)
{
	unsigned i;
	int reuse;

	for (i = 0; i < c->nseries; i++)
		if (!c->series[i].gone && c->series[i].kind == m->kind && c->series[i].sub == m->sub &&
		    c->series[i].id == m->id)
			return (int)i;
	reuse = old_slot(c);
	if (reuse >= 0) {
		i = (unsigned)reuse;
		free(c->series[i].cpus);
		free(c->series[i].cgroup);
	} else if (c->nseries == c->series_cap) {
		unsigned cap = c->series_cap ? 2 * c->series_cap : 16;
		struct series *ns = realloc(c->series, cap * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		c->series = ns;
		c->series_cap = cap;
	}
	struct series *s = &c->series[i];

	memset(s, 0, sizeof(*s));
	s->kind = m->kind < KINDS ? (enum lat_kind)m->kind : KIND_HARDIRQ;
	s->id = m->id;
	s->sub = m->sub;
	memcpy(s->name, m->name, IRQ_NAME_LEN);
	s->name[IRQ_NAME_LEN - 1] = 0;
	s->born_tick = c->tick;
	kind_name_series(s->kind, s->id, s->sub, s->name, sizeof(s->name));	/* a kind its program does not name */
	if (reuse < 0)
		c->nseries++;
	return (int)i;
}

/* Takes cell id once its metadata is ready: one more CPU of its series. */
static int take_cell(struct collector *c, uint32_t id)
{
	struct cell_state *cs = &c->cells[id];
	volatile struct lat_cell_meta *vm = &c->bpf->meta[id];
	_cleanup_free_ struct cell_prev *prev = NULL;
	struct lat_cell_meta m;
	struct series_cpu *nc;
	struct series *s;
	int r;

	if (!__atomic_load_n(&vm->ready, __ATOMIC_ACQUIRE))
		return -EAGAIN;	/* being allocated right now */
	memcpy(&m, (const void *)vm, sizeof(m));
	prev = calloc(1, sizeof(*prev));
	if (!prev)
		return -ENOMEM;
	r = series_for(c, &m);
	if (r < 0)
		return r;
	s = &c->series[r];
	nc = realloc(s->cpus, (s->ncpus + 1) * sizeof(*nc));
	if (!nc)
		return -ENOMEM;
	s->cpus = nc;
	/* counted from zero: what the cell holds was counted since the daemon made the maps */
	nc[s->ncpus] = (struct series_cpu){ .cpu = m.cpu, .cell = id };
	cs->cpu_slot = s->ncpus++;
	cs->series = r;
	cs->prev = TAKE_PTR(prev);
	loader_apply_threshold(c->bpf, id);
	return 0;
}

/* The kernel functions that name the new cells' series (timers), looked up in one scan of
 * kallsyms rather than one each */
static void name_new_functions(struct collector *c, uint32_t used)
{
	_cleanup_free_ uint64_t *addrs = NULL;
	size_t n = 0;

	if (used <= c->pending || !(addrs = calloc(used - c->pending, sizeof(*addrs))))
		return;
	for (uint32_t id = c->pending; id < used; id++) {
		volatile struct lat_cell_meta *m = &c->bpf->meta[id];

		if (c->cells[id].series < 0 && __atomic_load_n(&m->ready, __ATOMIC_ACQUIRE) && m->kind < KINDS &&
		    kind_get(m->kind)->named_by_address)
			addrs[n++] = m->id;
	}
	if (n > 1)
		ksym_prefetch(addrs, n);
}

/* Cells given back and handed out again since: taken for their new series once ready */
static void retake_cells(struct collector *c)
{
	uint32_t kept = 0;

	for (uint32_t k = 0; k < c->nretake; k++) {
		uint32_t id = c->retake[k];

		if (c->cells[id].series < 0 && take_cell(c, id) < 0)
			c->retake[kept++] = id;	/* not handed out yet, or being written */
	}
	c->nretake = kept;
}

void collector_end_series(struct collector *c, unsigned si)
{
	struct series *s = &c->series[si];

	for (unsigned k = 0; k < s->ncpus; k++) {
		struct cell_state *cs = &c->cells[s->cpus[k].cell];

		if (cs->prev)
			free(cs->prev->hi);
		free(cs->prev);
		cs->prev = NULL;
		cs->series = -1;
		c->retake[c->nretake++] = s->cpus[k].cell;	/* a cell is in one series: room for all */
	}
	s->gone = true;
	s->gone_tick = c->tick;
}

/* Cells handed out since the last tick; those still being written wait for the next one. */
static void take_new_cells(struct collector *c, uint32_t used)
{
	uint32_t first_waiting = used;

	retake_cells(c);
	name_new_functions(c, used);
	for (uint32_t id = c->pending; id < used; id++) {
		if (c->cells[id].series >= 0)
			continue;
		int r = take_cell(c, id);

		if (r == -EAGAIN || r == -ENOMEM) {
			if (r == -ENOMEM)
				log_error("out of memory tracking cell %u (%.*s): tried again next interval", id,
					  IRQ_NAME_LEN, c->bpf->meta[id].name);
			if (id < first_waiting)
				first_waiting = id;
		}
	}
	c->pending = first_waiting;
}

const struct series *collector_cell_series(struct collector *c, uint32_t id, uint32_t *cpu)
{
	if (id >= c->ncells || id >= loader_cells_used(c->bpf))
		return NULL;
	if (c->cells[id].series < 0 && take_cell(c, id) < 0)
		return NULL;
	const struct series *s = &c->series[c->cells[id].series];

	*cpu = s->cpus[c->cells[id].cpu_slot].cpu;
	return s;
}

/* Folds what cell cs moved since the last read into the tick's scratch; its count, or 0 when
 * it did not fire (one cache line read: a value adds to the sum, or 0 ns to bucket 0). */
static uint64_t read_cell(struct collector *c, struct cell_state *cs, volatile struct lat_cell *live,
			  uint64_t *sum, uint64_t *max, uint64_t *aux)
{
	struct cell_prev *prev = cs->prev;
	uint64_t n = 0, m;

	if (live->sum_ns == prev->sum_ns && live->hist[HIST_ZERO] == prev->zero)
		return 0;
	/* max is "since last read": take it and leave 0 in its place, then copy the rest */
	m = __atomic_exchange_n(&live->max_ns, 0, __ATOMIC_RELAXED);
	uint64_t now_sum = __atomic_load_n(&live->sum_ns, __ATOMIC_RELAXED);
	uint32_t now_aux = __atomic_load_n(&live->aux, __ATOMIC_RELAXED);

	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		uint32_t v = __atomic_load_n(&live->hist[b], __ATOMIC_RELAXED);
		uint32_t was = prev_bucket(prev, b), d = v - was;	/* mod 2^32 */

		if (!d)
			continue;
		if (b != HIST_ZERO && b - prev->lo >= prev->n) {	/* a bucket new to the cell */
			struct cell_prev *np = prev_cover(prev, b);

			if (!np) {
				/* left to a later read: the bucket's runs come late, none is lost */
				log_error("out of memory: the runs of a bucket are counted at a later tick");
				continue;
			}
			cs->prev = prev = np;
		}
		if (v < was) {	/* wrapped */
			if (!prev->hi && !(prev->hi = calloc(HIST_BUCKETS, sizeof(*prev->hi))))
				log_error("out of memory: a bucket counter that wrapped is lost from its series' totals");
			else
				prev->hi[b]++;
		}
		c->delta[b] += d;
		n += d;
		if (b == HIST_ZERO)
			prev->zero = v;
		else
			prev->hist[b - prev->lo] = v;
	}
	*sum += now_sum - prev->sum_ns;
	*aux += (uint32_t)(now_aux - prev->aux);
	if (n && m > *max)
		*max = m;
	prev->sum_ns = now_sum;
	prev->aux = now_aux;
	return n;
}

/* One series' tick: its cells' deltas, into its totals and the tick's record (a part per CPU
 * that fired: a CPU's share of a window is its cell's own). */
static int tick_series(struct collector *c, unsigned si, struct tick_buf *buf)
{
	struct series *s = &c->series[si];
	uint64_t sum = 0, max = 0, aux = 0, n = 0;
	bool open = false;
	int r = 0;

	for (unsigned k = 0; k < s->ncpus; k++) {
		struct cell_state *cs = &c->cells[s->cpus[k].cell];
		struct series_cpu *sc = &s->cpus[k];
		uint64_t csum = 0, cmax = 0, caux = 0, d = read_cell(c, cs, &c->bpf->cells[sc->cell], &csum, &cmax, &caux);

		if (!d && !csum && !caux)
			continue;
		if (!open) {	/* the first CPU that fired opens the series' record */
			r = tick_buf_begin(buf, si);
			open = true;
		}
		struct tick_cpu_delta td = { .slot = k, .sum_ns = csum, .max_ns = cmax, .aux = caux, .bucket = c->delta };

		if (tick_buf_add_cpu(buf, &td) < 0)
			r = -ENOMEM;
		memset(c->delta, 0, sizeof(c->delta));
		sc->count += d;
		sc->sum_ns += csum;
		sc->aux += caux;
		if (cmax > sc->max_ns)
			sc->max_ns = cmax;
		n += d;
		sum += csum;
		aux += caux;
		if (cmax > max)
			max = cmax;
	}
	if (!open)
		return 0;
	tick_buf_end(buf);
	if (kind_get(s->kind)->storms && storm_feed(&c->storms, si, s->sub, s->name, n, aux) < 0)
		log_error("out of memory: no storm detection for IRQ %u (%s)", s->sub, s->name);
	s->count += n;
	s->sum_ns += sum;
	s->aux += aux;
	if (max > s->max_ns)
		s->max_ns = max;
	return r;
}

/* The first loss of a kind is logged at once, then at most once a minute: a flood that lasts
 * (an emulated machine's every tick late, with the default thresholds) wrote a line a tick */
#define DROPS_SAID_EVERY_NS (60 * 1000000000ull)

static void read_drops(struct collector *c, int *err)
{
	uint64_t drops[DROP_KINDS];
	int r = loader_read_drops(c->bpf, drops);

	if (r < 0) {
		*err = r;
		return;
	}
	for (int k = 0; k < DROP_KINDS; k++) {
		const char *what = k == DROP_OUTLIER ? "outliers lost: the ring buffer was full (raise --ringbuf-kb)"
			: "events (IRQs, softirqs, vectors) not measured: no free histogram cell (raise --max-cells)";
		uint64_t said_ns = c->drops_said[k].said_ns, n;

		c->drops[k] = drops[k];
		if (k == DROP_TRACEPOINT)	/* the tracepoints' own count and journal say those */
			continue;
		n = report_limit_due(&c->drops_said[k], drops[k], c->snap_begin_ns, DROPS_SAID_EVERY_NS);
		if (n && said_ns)
			log_warning("%llu %s in the last %llu s (%llu since start)", (unsigned long long)n, what,
				    (unsigned long long)((c->snap_begin_ns - said_ns) / 1000000000ull), (unsigned long long)drops[k]);
		else if (n)
			log_warning("%llu %s (%llu since start; the next such line a minute later at the soonest)",
				    (unsigned long long)n, what, (unsigned long long)drops[k]);
	}
}

int collector_tick(struct collector *c)
{
	struct tick_buf *buf = &c->ticks[c->tick % WINDOW_TICKS_MAX];
	struct timespec wall;
	int err = 0;

	c->snap_begin_ns = c->clock();
	take_new_cells(c, loader_cells_used(c->bpf));
	tick_buf_reset(buf);
	for (unsigned si = 0; si < c->nseries; si++)
		if (!c->series[si].gone && tick_series(c, si, buf) < 0 && !err) {
			log_error("out of memory keeping the last %d ticks: the windows lose part of this one",
				  WINDOW_TICKS_MAX);
			err = 0;	/* logged; the totals are right, the windows short by it */
		}
	read_drops(c, &err);
	c->cost_read = loader_read_cost(c->bpf, &c->cost) == 0;
	c->snap_end_ns = c->clock();
	clock_gettime(CLOCK_REALTIME, &wall);
	c->snap_wall_s = (double)wall.tv_sec + wall.tv_nsec / 1e9;
	c->tick_ns[c->tick % TICK_TIMES] = c->snap_end_ns;
	/* this tick's runs and IRQ_NONE returns of each handler, to the storm rules (storm.h);
	 * tick_series fed those that ran */
	uint64_t begin = c->tick ? c->tick_ns[(c->tick - 1) % TICK_TIMES] : c->start_ns;

	storm_tick(&c->storms, (double)(c->snap_end_ns - begin) / 1e9, c->snap_end_ns, c->storm_report, c->storm_userdata);
	c->tick++;
	return err;
}

static unsigned ticks_in(const struct collector *c, enum window w)
{
	unsigned n = window_ticks[w];

	if (!n || n > c->tick)
		n = (unsigned)(c->tick < WINDOW_TICKS_MAX ? c->tick : WINDOW_TICKS_MAX);
	return n;
}

double collector_window_seconds(const struct collector *c, enum window w)
{
	unsigned n = ticks_in(c, w);
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

bool cpu_pick_has(const struct cpu_pick *p, unsigned cpu)
{
	return !p || (cpu < p->ncpus && (p->bits[cpu / 64] >> (cpu % 64) & 1));
}

int cpu_pick_init(struct cpu_pick *p, const char *list, unsigned ncpus, unsigned *missing)
{
	unsigned max;

	*p = (struct cpu_pick){ .ncpus = ncpus };
	if (cpulist_check(list) < 0 || cpulist_empty(list))
		return -EINVAL;
	if (cpulist_max(list, &max) == 0 && max >= ncpus) {
		*missing = max;
		return -ERANGE;
	}
	p->bits = calloc((ncpus + 63) / 64 ? (ncpus + 63) / 64 : 1, sizeof(*p->bits));
	if (!p->bits)
		return -ENOMEM;
	for (unsigned cpu = 0; cpu < ncpus; cpu++)
		if (cpulist_has(list, cpu))
			p->bits[cpu / 64] |= 1ull << (cpu % 64);
	return 0;
}

void cpu_pick_free(struct cpu_pick *p)
{
	free(p->bits);
	p->bits = NULL;
}

bool collector_series_on(const struct series *s, const struct cpu_pick *p)
{
	for (unsigned k = 0; k < s->ncpus; k++)
		if (cpu_pick_has(p, s->cpus[k].cpu))
			return true;
	return false;
}

void collector_series_total_pick(const struct collector *c, unsigned s, const struct cpu_pick *pick, struct hist *out)
{
	const struct series *se = &c->series[s];

	memset(out, 0, sizeof(*out));
	if (!pick) {	/* the series' own totals: no sum over CPUs needed */
		out->count = se->count;
		out->sum_ns = se->sum_ns;
		out->aux = se->aux;
		out->max_ns = se->max_ns;
	}
	for (unsigned k = 0; k < se->ncpus; k++) {
		const struct series_cpu *sc = &se->cpus[k];
		const struct cell_prev *p = c->cells[sc->cell].prev;

		if (!cpu_pick_has(pick, sc->cpu))
			continue;
		if (pick) {
			out->count += sc->count;
			out->sum_ns += sc->sum_ns;
			out->aux += sc->aux;
			if (sc->max_ns > out->max_ns)
				out->max_ns = sc->max_ns;
		}
		out->bucket[HIST_ZERO] += p->zero + (p->hi ? (uint64_t)p->hi[HIST_ZERO] << 32 : 0);
		for (unsigned i = 0; i < p->n; i++)
			out->bucket[p->lo + i] += p->hist[i] + (p->hi ? (uint64_t)p->hi[p->lo + i] << 32 : 0);
	}
}

void collector_series_total(const struct collector *c, unsigned s, struct hist *out)
{
	collector_series_total_pick(c, s, NULL, out);
}

void collector_window_begin_pick(const struct collector *c, enum window w, const struct cpu_pick *pick,
				 struct window_iter *it)
{
	it->c = c;
	it->w = w;
	it->pick = pick;
	it->n = w == WINDOW_TOTAL ? 0 : ticks_in(c, w);
	for (unsigned i = 0; i < it->n; i++)
		tick_cursor_init(&it->cur[i], &c->ticks[(c->tick - 1 - i) % WINDOW_TICKS_MAX]);
}

void collector_window_begin(const struct collector *c, enum window w, struct window_iter *it)
{
	collector_window_begin_pick(c, w, NULL, it);
}

void collector_window_next(struct window_iter *it, unsigned s, struct hist *out, uint64_t *cpu_count)
{
	collector_window_next_cpus(it, s, out, cpu_count, NULL);
}

struct slot_pick {
	const struct series *s;
	const struct cpu_pick *pick;
};

static bool slot_wanted(const void *arg, unsigned slot)
{
	const struct slot_pick *sp = arg;

	return slot < sp->s->ncpus && cpu_pick_has(sp->pick, sp->s->cpus[slot].cpu);
}

void collector_window_next_cpus(struct window_iter *it, unsigned s, struct hist *out, uint64_t *cpu_count,
				uint64_t *cpu_sum_ns)
{
	collector_window_next_cpu_max(it, s, out, cpu_count, cpu_sum_ns, NULL);
}

void collector_window_next_cpu_max(struct window_iter *it, unsigned s, struct hist *out, uint64_t *cpu_count,
				   uint64_t *cpu_sum_ns, uint64_t *cpu_max)
{
	const struct series *se = &it->c->series[s];
	struct slot_pick sp = { se, it->pick };
	struct tick_pick tp = { slot_wanted, &sp };

	if (cpu_count)
		memset(cpu_count, 0, se->ncpus * sizeof(*cpu_count));
	if (cpu_sum_ns)
		memset(cpu_sum_ns, 0, se->ncpus * sizeof(*cpu_sum_ns));
	if (cpu_max)
		memset(cpu_max, 0, se->ncpus * sizeof(*cpu_max));
	if (it->w == WINDOW_TOTAL) {
		collector_series_total_pick(it->c, s, it->pick, out);
		for (unsigned k = 0; k < se->ncpus; k++) {
			if (!cpu_pick_has(it->pick, se->cpus[k].cpu))
				continue;
			if (cpu_count)
				cpu_count[k] = se->cpus[k].count;
			if (cpu_sum_ns)
				cpu_sum_ns[k] = se->cpus[k].sum_ns;
			if (cpu_max)
				cpu_max[k] = se->cpus[k].max_ns;
		}
		return;
	}
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < it->n; i++)
		tick_cursor_take_cpu_max(&it->cur[i], s, it->pick ? &tp : NULL, out, cpu_count, cpu_sum_ns, cpu_max,
					 se->ncpus);
}

void collector_series_cpu_total(const struct collector *c, unsigned s, unsigned slot, struct hist *out)
{
	const struct series_cpu *sc = &c->series[s].cpus[slot];
	const struct cell_prev *p = c->cells[sc->cell].prev;

	memset(out, 0, sizeof(*out));
	out->count = sc->count;
	out->sum_ns = sc->sum_ns;
	out->aux = sc->aux;
	out->max_ns = sc->max_ns;
	out->bucket[HIST_ZERO] = p->zero + (p->hi ? (uint64_t)p->hi[HIST_ZERO] << 32 : 0);
	for (unsigned i = 0; i < p->n; i++)
		out->bucket[p->lo + i] = p->hist[i] + (p->hi ? (uint64_t)p->hi[p->lo + i] << 32 : 0);
}

void collector_window(const struct collector *c, unsigned s, enum window w, struct hist *out, double *seconds)
{
	struct window_iter it;

	collector_window_begin(c, w, &it);
	collector_window_next(&it, s, out, NULL);
	*seconds = collector_window_seconds(c, w);
}
