/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's IRQ threads (irq/N-name), from /proc: whether an empty threaded-IRQ view means
 * "none ran yet" or "this kernel threads no IRQ" (no threadirqs on its command line, no
 * PREEMPT_RT, no driver asking for a thread). */
#ifndef IRQLAT_IRQTHREADS_H
#define IRQLAT_IRQTHREADS_H

#include <stddef.h>

/* How many irq/ threads run now; the first one's name in example[] ("" with none). */
int irqthreads_count(const char *proc, char *example, size_t len);
/* The line of an empty threaded-IRQ view, as irqthreads_count(proc) finds them */
void irqthreads_empty_line(char *buf, size_t len, const char *proc);

#endif
