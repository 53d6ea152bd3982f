/* SPDX-License-Identifier: GPL-2.0 */
/* A program set's BPF object on the shared maps (object.c): not for modules outside the
 * loader. */
#ifndef IRQLAT_LOADER_OBJECT_H
#define IRQLAT_LOADER_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include "daemon/loader/state.h"

struct btf;
struct bpf_object;
struct bpf_program;
struct bpf_link;

/* Whether the kernel has tracepoint event (its btf_trace_<event> type). */
bool kernel_has_event(const struct btf *vmlinux, const char *event);
/* Whether the kernel's BTF has function func (what fentry/fexit attach to). */
bool kernel_has_func(const struct btf *vmlinux, const char *func);
/* libbpf's warnings down to debug level while quiet (a load whose failure is said otherwise) */
void libbpf_set_quiet(bool quiet);
/* libbpf's messages into the daemon's log, every line of a verifier log kept */
void libbpf_log_setup(void);
/* One line for a refused or failed load of the what programs; returns r. */
int load_error(int r, const char *what);
/* share_maps()'s failure r, said once: out of descriptors as load_error() says it */
int share_error(int r, const char *what);
/* Records an attached program for status. */
void note_attached(struct loader *l, const char *system, const char *event, const struct bpf_program *p);
/* obj takes the maps of the hard-IRQ object (l->skel) that every kind shares (the cell pool,
 * the ring buffer, the drop counters; and the clock lines, the late waits' counts and the
 * threaded IRQs' maps where obj has them); 0 or negative errno. */
int share_maps(struct bpf_object *obj, const struct loader *l);
/* Loads, of a kind's object, the attach style's twin of each program whose tracepoint the
 * kernel has; the others' events go to missing ("threshold_apic, deferred_error_apic", each
 * pair once). Returns the programs chosen. */
unsigned choose_programs(struct bpf_object *obj, const struct btf *vmlinux, bool btf_style, char *missing, size_t len);
/* Attaches p to tracepoint (for the message), the link kept in *link, where the skeleton's
 * destroy detaches it. 0 or negative errno, said. */
int attach_one(struct bpf_program *p, struct bpf_link **link, const char *tracepoint, const char *style);
/* Attaches the loaded programs of a kind's object, exits first, then entries, then the rest;
 * system: the tracepoints' system (sched_switch's is sched whatever it is). */
int attach_kind(struct loader *l, struct bpf_object *obj, const char *system);

#endif
