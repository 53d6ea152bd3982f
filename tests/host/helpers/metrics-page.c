// SPDX-License-Identifier: GPL-2.0
/* Writes the /metrics page (metrics_render(), what irqlatd serves) for handlers of the given
 * names on IRQ 30, one run each, so tests/host/62-metrics-names.t can give Prometheus's own
 * reader names that no driver on the test machine has: bytes that are not UTF-8, a
 * character cut by the kernel's 32-byte name. Usage: metrics-page NAME... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/metrics.h"
#include "../../unit/daemon/fake_bpf.h"

int main(int argc, char **argv)
{
	struct fake_bpf b;
	struct collector c;
	struct metrics_sources src = { .col = &c };
	size_t len;
	char *page;

	fake_bpf_init(&b, (uint32_t)argc);
	if (collector_init(&c, &b.l) < 0)
		return 1;
	/* as the BPF program cuts the name */
	for (int i = 1; i < argc; i++)
		fake_bpf_run(&b, fake_bpf_new_cell(&b, 30, 0, 0x1000 + (uint64_t)i, argv[i]), 1000, 0);
	collector_tick(&c);
	page = metrics_render(&src, &len);
	if (!page || fwrite(page, 1, len, stdout) != len)
		return 1;
	free(page);
	collector_free(&c);
	fake_bpf_free(&b);
	return 0;
}
