/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols from /proc/kallsyms, read in user space, never in BPF: the address of a
 * function the timer programs compare with, and the name of a timer function by its address,
 * each looked up once (a scan of the file) and cached; and the whole table for the frames of
 * the explained waits' stacks, read a step at a time after start-up. The one reader of the
 * file. */
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
/* addr as "name+0x1f" (the text symbol at or below it) into buf (len > 0), or "0x..." below
 * the first, from the whole table of the file's text symbols (about 16 bytes a symbol and its
 * name, kept). The daemon reads the table a step at a time while its loop is idle
 * (ksym_table_start(), ksym_table_step()): a whole read takes some 70 ms here and seconds
 * under emulation, too long to hold the loop. Until it is read: the address and -EAGAIN; when
 * nobody started the read, the first call reads it whole. 0, or -errno when the table could
 * not be read (-EPERM: kernel.kptr_restrict shows zero addresses). */
int ksym_table_name(uint64_t addr, char *buf, size_t len);
/* Opens the file for the table's read: 0 (or already read), -errno */
int ksym_table_start(void);
/* Reads up to lines more lines: 0 more to read, 1 the table is whole, -errno it cannot be */
int ksym_table_step(unsigned lines);
/* Where ksym_name() reads (tests); NULL: /proc/kallsyms. Empties the cache and the table. */
void ksym_set_path(const char *path);
void ksym_free(void);

#endif
