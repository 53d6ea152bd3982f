// SPDX-License-Identifier: GPL-2.0
/* The classic histogram's le bounds, which both page writers use (metrics_page.h). */
#include <math.h>
#include "daemon/sinks/metrics_page.h"

unsigned metrics_le_bounds(unsigned factor, int index[LE_BOUNDS_MAX])
{
	unsigned n = 0;

	for (int i = LE_MIN_INDEX; i <= LE_MAX_INDEX; i++)
		if (i % (int)factor == 0)
			index[n++] = i;
	return n;
}

double metrics_le_seconds(int index)
{
	return index % 8 ? exp2(index / 8.0) : ldexp(1.0, index / 8);
}

void metrics_le_counts(const struct hist *h, const int *index, unsigned n, uint64_t *cum)
{
	uint64_t sum = 0;
	unsigned b = 0;

	for (unsigned j = 0; j < n; j++) {
		/* le = 2^(i/8) s is the upper bound (inclusive) of schema-3 bucket i; the zero
		 * bucket (b = 0) lies below every one */
		for (; b < HIST_OVERFLOW && (b == HIST_ZERO || hist_schema_index(b) <= index[j]); b++)
			sum += h->bucket[b];
		cum[j] = sum;
	}
}
