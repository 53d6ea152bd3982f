/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's BTF from a memory map of its file, parsed once and shared (kernel_btf.c says why
 * it also stands in for libbpf's btf__load_vmlinux_btf() and btf__free(), which irqlatd and
 * libbpf call to get it and to let it go). */
#ifndef IRQLAT_KERNEL_BTF_H
#define IRQLAT_KERNEL_BTF_H

struct btf;

/* A struct btf of its own (btf__free() it) parsed from the map of path (a raw BTF file such
 * as /sys/kernel/btf/vmlinux); NULL with errno when the file cannot be mapped or parsed. */
struct btf *kernel_btf_from_map(const char *path);
/* A count on the kernel's BTF, shared with libbpf's loads while it is held (NULL: it cannot
 * be read; the loader says why); kernel_btf_release() drops it and sets *btf to NULL. Held
 * across the start-up, so that the loader, libbpf and the tracepoints parse it once. */
struct btf *kernel_btf_hold(void);
void kernel_btf_release(struct btf **btf);

#endif
