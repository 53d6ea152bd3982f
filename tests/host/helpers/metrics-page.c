// SPDX-License-Identifier: GPL-2.0
/* Writes the /metrics page (metrics_render_as(), what irqlatd serves) for handlers of the
 * given names on IRQ 30, so the host tests can give Prometheus's own readers what no driver on
 * the test machine has: names with bytes that are not UTF-8 or a character cut by the kernel's
 * 32-byte name (62-metrics-names.t), runs of 0 ns and beyond 4 s (63-native-histograms.t).
 * Usage: metrics-page [--protobuf] [--ns NS,NS,...] NAME...
 * Each handler runs once for each NS (default: once, 1000 ns); --protobuf writes the protobuf
 * stream instead of the text format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/sinks/metrics_stream.h"
#include "../../unit/daemon/fake_bpf.h"

int main(int argc, char **argv)
{
	enum metrics_format format = METRICS_TEXT;
	const char *runs = "1000";
	struct fake_bpf b;
	struct collector c;
	struct metrics_sources src = { .col = &c };
	size_t len;
	char *page;
	int first = 1;

	for (; first < argc && !strncmp(argv[first], "--", 2); first++) {
		if (!strcmp(argv[first], "--protobuf"))
			format = METRICS_PROTOBUF;
		else if (!strcmp(argv[first], "--ns") && first + 1 < argc)
			runs = argv[++first];
		else
			return 2;
	}
	fake_bpf_init(&b, (uint32_t)argc);
	if (collector_init(&c, &b.l) < 0)
		return 1;
	/* as the BPF program cuts the name */
	for (int i = first; i < argc; i++) {
		uint32_t cell = fake_bpf_new_cell(&b, 30, 0, 0x1000 + (uint64_t)i, argv[i]);

		for (const char *p = runs; *p; p += *p == ',') {
			char *end;

			fake_bpf_run(&b, cell, strtoull(p, &end, 10), 0);
			if (end == p)
				return 2;
			p = end;
		}
	}
	collector_tick(&c);
	page = metrics_render_as(&src, format, &len);
	if (!page || fwrite(page, 1, len, stdout) != len)
		return 1;
	free(page);
	collector_free(&c);
	fake_bpf_free(&b);
	return 0;
}
