/* SPDX-License-Identifier: GPL-2.0 */
/* Names, tracefs, where a tracepoint is and what its arguments are (BTF, format): tp_resolve.c. */
#ifndef IRQLAT_TP_RESOLVE_H
#define IRQLAT_TP_RESOLVE_H

#include <stdbool.h>
#include "daemon/tracepoints/tp_set.h"

/* vmlinux's BTF: the set's kept copy, or a fresh one the caller frees (*owned set) */
struct btf *tp_vmlinux_btf(struct tp_set *s, bool *owned);
int tp_name_split(const char *name, char *system, size_t slen, char *event, size_t elen);
/* Reads the fields after the common_ ones of a tracefs format file's text: their count, or
 * -E2BIG when there are more than max. */
int tp_parse_format(const char *text, struct tp_arg *args, unsigned max);
struct btf;
/* The arguments of t->event from the btf_trace_EVENT typedef in btf (names from
 * __bpf_trace_EVENT when it has them), and the typedef's id: -ENOENT when btf has none. */
int tp_args_from_btf(struct tracepoint *t, const struct btf *btf);
/* BTF (vmlinux's, then t->module's or else each module's), else the tracefs format; sets
 * t->args_source and t->btf_type_id, and t->module when a module's BTF has it. */
int tp_resolve_args(struct tp_set *s, struct tracepoint *t);
/* The fd of the kernel BTF object of module name (-errno; -EPERM without CAP_SYS_ADMIN): what
 * a tp_btf program of one of its tracepoints is loaded against; *id its object id. */
int tp_module_btf_fd(const char *name, int *id);
/* The module that defines t's tracepoint, from /proc/kallsyms (__tracepoint_EVENT [module]):
 * 0 and name filled, -ENOENT for the kernel's own. For a module without BTF, seen loaded
 * before irqlatd watched. */
int tp_module_of(const struct tracepoint *t, char *name, size_t len);
/* 0 and *id filled when tracefs has the event; -errno (and *id zeroed) when not. */
int tp_identity_read(const struct tracepoint *t, struct tp_identity *id);
bool tp_system_present(const struct tracepoint *t);
/* Mounts tracefs when it is not mounted; on failure -errno, and the sentence to show in
 * s->tracefs_error. */
int tp_tracefs_ready(struct tp_set *s);

#endif
