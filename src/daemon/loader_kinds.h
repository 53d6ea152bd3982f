/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the loader: what loader.c and loader_kinds.c share (not for other modules). */
#ifndef IRQLATD_LOADER_KINDS_H
#define IRQLATD_LOADER_KINDS_H

#include <stdbool.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "loader.h"

/* Whether the kernel has tracepoint event (its btf_trace_<event> type). */
bool kernel_has_event(const struct btf *vmlinux, const char *event);
/* libbpf's warnings down to debug level while quiet (a load whose failure is said otherwise) */
void libbpf_set_quiet(bool quiet);
/* One line for a refused or failed load of the what programs; returns r. */
int load_error(int r, const char *what);
/* Records an attached program for status. */
void note_attached(struct loader *l, const char *system, const char *event, const struct bpf_program *p);
/* Each kind's object opened on the hard-IRQ object's maps, loaded and attached. */
int open_softirq(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus);
int open_vector(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus);
int open_timer(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus, bool wakeups,
	       uint32_t max_wakeup_cells);
int open_threaded(struct loader *l, const struct btf *vmlinux, bool btf_style, int ncpus, enum threaded_run_mode mode);

#endif
