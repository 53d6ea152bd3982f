/* SPDX-License-Identifier: GPL-2.0 */
/* The daemon's heap after a big answer (heap.c). */
#ifndef IRQLATD_HEAP_H
#define IRQLATD_HEAP_H

#include <stddef.h>

/* Once started: the pages that loading the programs used go back. */
void heap_after_start(void);

/* After an answer of len bytes was sent and its objects freed: a big one's pages go back. */
void heap_after_answer(size_t len);

#endif
