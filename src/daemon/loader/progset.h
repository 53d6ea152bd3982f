/* SPDX-License-Identifier: GPL-2.0 */
/* A program set: the programs of one BPF object (bpf/<object>.bpf.c) and the latency kinds
 * they fill, as the loader opens, loads, attaches and closes them (one file per object in this
 * folder). loader.c walks the sets in loader_sets[]'s order (sets.c), which is the attach
 * order. What the sinks and irqlat show of a kind is its descriptor's
 * (src/common/kinds/kind.h); the set says only how its programs get into the kernel. */
#ifndef IRQLAT_LOADER_PROGSET_H
#define IRQLAT_LOADER_PROGSET_H

#include <stdbool.h>
#include <stdint.h>
#include "daemon/loader/state.h"
#include "common/kinds/kind.h"

struct btf;

/* What every set's opening needs of the loader's start */
struct progset_env {
	const struct btf *vmlinux;	/* the kernel's BTF: which tracepoints and functions it has */
	bool btf_style;			/* tp_btf programs, else raw_tp (loader.attach_style) */
	int ncpus;			/* possible CPUs */
};

struct progset {
	const char *name;	/* "softirq": its object's */
	uint32_t kinds;		/* KIND_BIT()s of the kinds it fills; the loader opens the set when the
				 * configuration turns one of them on (loader_opts.on) */
	/* opens its object on the hard-IRQ object's maps, loads and attaches it, keeping the
	 * object in *skel; sets l->kind_on[] (and kind_source[]) of the kinds it measures. A
	 * kernel without its tracepoints is said in one line and leaves *skel NULL: 0 all the
	 * same. 0 or a negative errno, said. */
	int (*open)(struct loader *l, void **skel, const struct loader_opts *o, const struct progset_env *env);
	void (*close)(void *skel);	/* NULL: the loader's own (the hard-IRQ object) */
	/* the global its programs give a new cell of kind k as its threshold; NULL: none */
	volatile __u64 *(*threshold)(void *skel, enum lat_kind k);
	/* bytes of its maps that grow with the CPUs (and its fixed ones), for loader_map_bytes() */
	uint64_t (*map_bytes)(uint32_t ncpus);
};

#endif
