/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols from /proc/kallsyms, read in user space, never in BPF: the address of a
 * function the timer programs compare with, and the name of a timer function by its address,
 * each looked up once (a scan of the file) and cached. */
#ifndef IRQLAT_KSYM_H
#define IRQLAT_KSYM_H

#include <stddef.h>
#include <stdint.h>

/* The address of text symbol name, or -ENOENT (-EPERM when the file shows only zeros:
 * kernel.kptr_restrict hides them from this process; -errno when it cannot be opened). path
 * NULL: /proc/kallsyms. */
int ksym_addr(const char *path, const char *name, uint64_t *addr);
/* The name of the function at addr ("hrtimer_wakeup"; "name+0x10" inside one; "0x..." when
 * none is found), from a cache filled by one scan per new address. */
void ksym_name(uint64_t addr, char *buf, size_t len);
/* Names the addresses not cached yet in one scan of the file, so that ksym_name() finds them
 * (the collector calls it with a tick's new timer functions). */
void ksym_prefetch(const uint64_t *addrs, size_t n);
/* Where ksym_name() reads (tests); NULL: /proc/kallsyms. Empties the cache. */
void ksym_set_path(const char *path);
void ksym_free(void);

#endif
