/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's names for kernel addresses, from the kernel itself (bpf/ksym.bpf.c: %pS), for
 * the frames of the explained waits' stacks: no copy of /proc/kallsyms in the daemon. */
#ifndef IRQLAT_KSYM_KERNEL_H
#define IRQLAT_KSYM_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* Loads the program: 0, or -errno (the kernel lacks syscall programs or bpf_snprintf: Linux
 * before 5.14) */
int ksym_kernel_open(void);
/* addr[0..n) (n <= 24) as "function+0x1f" ("function+0x1f [module]" in a module; "0x..."
 * where the kernel knows no symbol) into name[i], len bytes each: 0, or -errno (not open,
 * the run failed), every name then the address. */
int ksym_kernel_names(const uint64_t *addr, unsigned n, char *name, size_t len);
void ksym_kernel_close(void);

#endif
