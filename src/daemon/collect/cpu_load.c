// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "daemon/collect/cpu_load.h"
#include "daemon/system/cpu_topology.h"
#include "daemon/kinds/kind.h"
#include "common/cpulist.h"
#include "common/macro.h"

struct cpu_class {
	uint64_t ns;		/* the class's time on the CPU in the window */
	uint64_t worst_ns;	/* that of its worst source */
	int worst;		/* the series, -1: none ran */
};

/* {"irq": 36, "name": "virtio1-req.0", "share": ...}, {"vector": "BLOCK", "share": ...} */
static json_object *source_json(const struct collector *c, const struct cpu_class *cc, double window_ns)
{
	const struct series *s;
	const struct kind_desc *k;
	json_object *o;

	if (cc->worst < 0)
		return NULL;
	s = &c->series[cc->worst];
	k = kind_get(s->kind);
	o = json_object_new_object();
	if (k->sub_key)
		json_object_object_add(o, k->sub_key, json_object_new_int((int)s->sub));
	json_object_object_add(o, k->name_key, json_object_new_string(s->name));
	json_object_object_add(o, "share", json_object_new_double(window_ns > 0 ? (double)cc->worst_ns / window_ns : 0));
	return o;
}

json_object *cpu_load_json(const struct collector *c, enum window w, const struct cpu_pick *pick)
{
	double window_ns = collector_window_seconds(c, w) * 1e9;
	enum lat_kind classes[KINDS];	/* the classes of time a CPU loses to interrupts: the kinds that take it */
	int class_of[KINDS];		/* a kind's place among them, -1: its values are waits (the raise latency) */
	unsigned nclasses = kind_cpu_load_classes(classes), ncpus = c->ncpus, maxcpus = 1;
	_cleanup_free_ struct cpu_class *load = NULL;
	_cleanup_free_ uint64_t *cpu_ns = NULL;
	const char *isolated = c->topology ? c->topology->isolated : NULL;
	const char *nohz = c->topology ? c->topology->nohz_full : NULL;
	struct window_iter it;
	struct hist win;
	json_object *arr = json_object_new_array();

	for (unsigned i = 0; i < c->nseries; i++) {
		if (c->series[i].ncpus > maxcpus)
			maxcpus = c->series[i].ncpus;
		for (unsigned k = 0; k < c->series[i].ncpus; k++)
			if (c->series[i].cpus[k].cpu >= ncpus)
				ncpus = c->series[i].cpus[k].cpu + 1;
	}
	for (unsigned k = 0; k < KINDS; k++)
		class_of[k] = -1;
	for (unsigned i = 0; i < nclasses; i++)
		class_of[classes[i]] = (int)i;
	load = calloc((size_t)ncpus * nclasses + 1, sizeof(*load));
	cpu_ns = calloc(maxcpus, sizeof(*cpu_ns));
	if (!load || !cpu_ns)
		return arr;
	for (size_t i = 0; i < (size_t)ncpus * nclasses; i++)
		load[i].worst = -1;
	collector_window_begin(c, w, &it);
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct series *s = &c->series[i];
		int cl = s->kind < KINDS ? class_of[s->kind] : -1;

		if (cl < 0)
			continue;
		collector_window_next_cpus(&it, i, &win, NULL, cpu_ns);
		for (unsigned k = 0; k < s->ncpus; k++) {
			struct cpu_class *cc = &load[(size_t)s->cpus[k].cpu * nclasses + (unsigned)cl];

			cc->ns += cpu_ns[k];
			if (cpu_ns[k] > cc->worst_ns) {
				cc->worst_ns = cpu_ns[k];
				cc->worst = (int)i;
			}
		}
	}
	for (unsigned cpu = 0; cpu < ncpus; cpu++) {
		json_object *o;
		uint64_t total = 0;
		char key[32];

		if (pick && !cpu_pick_has(pick, cpu))
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "cpu", json_object_new_int((int)cpu));
		json_object_object_add(o, "isolated", json_object_new_boolean(cpulist_has(isolated, cpu)));
		json_object_object_add(o, "nohz_full", json_object_new_boolean(cpulist_has(nohz, cpu)));
		for (unsigned cl = 0; cl < nclasses; cl++) {
			const struct cpu_class *cc = &load[(size_t)cpu * nclasses + cl];
			const char *name = kind_get(classes[cl])->name;	/* hardirq_share, hardirq_worst */

			total += cc->ns;
			snprintf(key, sizeof(key), "%s_ns", name);
			json_object_object_add(o, key, json_object_new_uint64(cc->ns));
			snprintf(key, sizeof(key), "%s_share", name);
			json_object_object_add(o, key, json_object_new_double(window_ns > 0 ? (double)cc->ns / window_ns : 0));
			snprintf(key, sizeof(key), "%s_worst", name);
			json_object_object_add(o, key, source_json(c, cc, window_ns));
		}
		/* softirqs include the hard IRQs that interrupt them: the sum may count those twice */
		json_object_object_add(o, "total_share", json_object_new_double(window_ns > 0 ? (double)total / window_ns : 0));
		json_object_array_add(arr, o);
	}
	return arr;
}
