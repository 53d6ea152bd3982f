// SPDX-License-Identifier: GPL-2.0
/* Writes the /metrics page (metrics_render(), what irqlatd serves) for handlers of the given
 * names on IRQ 30, one run each, so tests/host/62-metrics-names.t can give Prometheus's own
 * reader names that no driver on the test machine has: bytes that are not UTF-8, a
 * character cut by the kernel's 32-byte name. Usage: metrics-page NAME... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/metrics.h"

int main(int argc, char **argv)
{
	struct handler *h = calloc((size_t)argc, sizeof(*h));
	struct collector c = { .handlers = h };
	struct metrics_sources src = { .col = &c };
	size_t len;
	char *page;

	if (!h)
		return 1;
	for (int i = 1; i < argc; i++) {
		struct handler *x = &h[c.nhandlers++];

		x->irq = 30;
		strncpy(x->name, argv[i], sizeof(x->name) - 1);	/* as the BPF program cuts it */
		x->total.count = 1;
		x->total.bucket[hist_bucket(1000)] = 1;
		x->total.sum_ns = 1000;
	}
	page = metrics_render(&src, &len);
	if (!page || fwrite(page, 1, len, stdout) != len)
		return 1;
	free(page);
	free(h);
	return 0;
}
