/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's BTF from a memory map of its file (kernel_btf.c says why it also stands in for
 * libbpf's btf__load_vmlinux_btf(), which irqlatd and libbpf call to get it). */
#ifndef IRQLAT_KERNEL_BTF_H
#define IRQLAT_KERNEL_BTF_H

struct btf;

/* A struct btf of its own (btf__free() it) parsed from the map of path (a raw BTF file such
 * as /sys/kernel/btf/vmlinux); NULL with errno when the file cannot be mapped or parsed. */
struct btf *kernel_btf_from_map(const char *path);

#endif
