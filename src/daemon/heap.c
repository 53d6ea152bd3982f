// SPDX-License-Identifier: GPL-2.0
/* The daemon's heap after a big answer. A summary of thousands of series is tens of MiB of
 * small json-c objects for a few MiB of text; once freed, glibc keeps their pages: at 4096
 * handlers x 256 CPUs (bench/scale) the daemon stayed at 61 MiB after one summary where it
 * needs 37. Given back once the answer is freed, they cost a moment of the allocator's time
 * for an answer that took a hundred milliseconds to build. */
#include <malloc.h>
#include "heap.h"

/* Answers from this size up have their freed objects' pages given back at once. */
#define HEAP_TRIM_ANSWER_BYTES (256u << 10)

void heap_after_answer(size_t len)
{
	if (len >= HEAP_TRIM_ANSWER_BYTES)
		malloc_trim(0);
}
