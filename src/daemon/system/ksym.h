/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols from /proc/kallsyms, read in user space, never in BPF: the address of a
 * function the timer programs compare with, and the name of a timer function by its address,
 * each looked up once (a scan of the file) and cached. The one reader of the file (the
 * stacks' frames are named by the kernel: ksym_kernel.h). */
#ifndef IRQLAT_KSYM_H
#define IRQLAT_KSYM_H

#include <stddef.h>
#include <stdint.h>

/* The name of the function at addr ("hrtimer_wakeup"; "name+0x10" inside one; "0x..." when
 * none is found), from a cache filled by one scan per new address. */
void ksym_name(uint64_t addr, char *buf, size_t len);
/* Names the addresses not cached yet in one scan of the file, so that ksym_name() finds them
 * (the collector calls it with a tick's new timer functions). */
void ksym_prefetch(const uint64_t *addrs, size_t n);
/* Finds names[0..n) (text symbols) in one scan of the file and caches each address found, so
 * that ksym_name() names those functions later without a scan (a scan holds the daemon's loop).
 * addrs[i]: the first address of names[i], 0 when not found. Returns how many names were found,
 * -EPERM when the file shows them only as zero addresses (kernel.kptr_restrict), -errno when it
 * cannot be opened. Reads where ksym_set_path() says. */
int ksym_prefill(const char *const *names, size_t n, uint64_t *addrs);
/* Where ksym_name() reads (tests); NULL: /proc/kallsyms. Empties the cache. */
void ksym_set_path(const char *path);
void ksym_free(void);

#endif
