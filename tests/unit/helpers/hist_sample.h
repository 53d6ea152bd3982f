/* SPDX-License-Identifier: GPL-2.0 */
/* For tests that know the runs they feed in: one run of v ns counted into a struct hist or a
 * struct hist_tick (src/daemon/collect/hist.h) the way the exit program counts it into a cell, so the
 * daemon's histograms and summaries can be compared with the expected ones. */
#ifndef IRQLAT_TEST_HIST_SAMPLE_H
#define IRQLAT_TEST_HIST_SAMPLE_H

#include <stdint.h>
#include "daemon/collect/hist.h"

/* h: a struct hist * or struct hist_tick * (the fields have the same names) */
#define add_sample(h, v)                                   \
	do {                                               \
		__typeof__(h) h_ = (h);                    \
		uint64_t v_ = (v);                         \
                                                           \
		h_->bucket[hist_bucket(v_)]++;             \
		h_->count++;                               \
		h_->sum_ns += v_;                          \
		if (v_ > h_->max_ns)                       \
			h_->max_ns = v_;                   \
	} while (0)

#endif
