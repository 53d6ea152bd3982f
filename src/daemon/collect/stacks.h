/* SPDX-License-Identifier: GPL-2.0 */
/* The stacks of an explained wait (struct why_event's kstack and ustack) in words: kernel
 * addresses as symbol+offset, user addresses as the mapping's file +
 * offset from the task's /proc/PID/maps (no DWARF). */
#ifndef IRQLAT_STACKS_H
#define IRQLAT_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The stacks of e (kstack, ustack, stack_pid) as text into kbuf and ubuf, frames innermost
 * first joined by ';'; the leading frames of the BPF program that took the stack left out.
 * The kernel's frames are named by the kernel (system/ksym_kernel.h; a failure is logged once
 * and the addresses are shown); the task's mappings from
 * /proc/STACK_PID/maps, read at most once a second (system/umaps.h). Both "" when e has no
 * stacks. */
struct why_event;
void stacks_text(const struct why_event *e, char *kbuf, size_t klen, char *ubuf, size_t ulen);
/* The mappings kept, at exit */
void stacks_free(void);

#endif
