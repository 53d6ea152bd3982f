// SPDX-License-Identifier: GPL-2.0
/* The daemon's heap after a big answer. A summary of thousands of series is tens of MiB of
 * small json-c objects for a few MiB of text; once freed, glibc keeps their pages: at 4096
 * handlers x 256 CPUs (bench/scale) the daemon stayed at 61 MiB after one summary where it
 * needs 37. Given back once the answer is freed, they cost a moment of the allocator's time
 * for an answer that took a hundred milliseconds to build. */
#include <malloc.h>
#include "daemon/base/heap.h"

/* Answers from this size up have their freed objects' pages given back at once. */
#define HEAP_TRIM_ANSWER_BYTES (256u << 10)

/* Start-up parses the kernel's BTF (6 MiB on Linux 6.18, once for irqlatd and every BPF object:
 * kernel_btf.c), scans /proc/kallsyms and reads the objects: MiBs, all freed before the loop
 * runs, but small allocations made meanwhile pin the heap's top, so glibc kept such pages
 * resident for good (when the BTF was parsed once an object: steady RSS 23.5 MiB, 12.6 once
 * given back; make bench measures it). */
void heap_after_start(void)
{
	malloc_trim(0);
}

void heap_after_answer(size_t len)
{
	if (len >= HEAP_TRIM_ANSWER_BYTES)
		malloc_trim(0);
}
