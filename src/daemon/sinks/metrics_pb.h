/* SPDX-License-Identifier: GPL-2.0 */
/* The page writer of the protobuf stream of MetricFamily messages, native histograms (metrics_page.h). */
#ifndef IRQLAT_METRICS_PB_H
#define IRQLAT_METRICS_PB_H

#include <stdio.h>
#include "daemon/sinks/metrics_page.h"

/* A writer onto f, the classic buckets at every le_factor-th bound */
struct page_writer *metrics_pb_writer(FILE *f, unsigned le_factor);

#endif
