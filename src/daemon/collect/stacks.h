/* SPDX-License-Identifier: GPL-2.0 */
/* The stacks of an explained wait (struct why_event's kstack and ustack) in words: kernel
 * addresses as symbol+offset from /proc/kallsyms, user addresses as the mapping's file +
 * offset from the task's /proc/PID/maps, read when the record is received (no DWARF). */
#ifndef IRQLAT_STACKS_H
#define IRQLAT_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A user address as the file of the mapping that holds it and its offset in the file, from a
 * /proc/PID/maps text: "/usr/bin/cat+0x1a2b", "[anon]+0x10" for an anonymous mapping (offset
 * from its start), "0x7f..." when no mapping holds it. 0, or -ENOENT when none does. */
int umap_format(FILE *maps, uint64_t addr, char *buf, size_t len);


/* The stacks of e (kstack, ustack, stack_pid) as text into kbuf and ubuf, frames innermost
 * first joined by ';'; the leading frames of the BPF program that took the stack left out.
 * The kernel's symbols come from ksym_table_name() (/proc/kallsyms, read at the first call;
 * a failure is logged once and the addresses are shown); the task's mappings from
 * /proc/STACK_PID/maps, now. Both "" when e has no stacks. */
struct why_event;
void stacks_text(const struct why_event *e, char *kbuf, size_t klen, char *ubuf, size_t ulen);

#endif
