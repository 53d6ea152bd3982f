/* SPDX-License-Identifier: GPL-2.0 */
/* Adding one value to a cell: what every latency kind does once per event. */
#ifndef IRQLAT_HIST_BPF_H
#define IRQLAT_HIST_BPF_H

/* Sum, max and bucket: the cell's first cache line and the bucket's line, nothing else. */
static __always_inline void cell_record(struct lat_cell *c, __u64 value_ns)
{
	__u32 k = hist_bucket(value_ns);

	c->sum_ns += value_ns;
	if (value_ns > c->max_ns)
		c->max_ns = value_ns;
	if (k < HIST_BUCKETS)	/* always true; tells the verifier */
		c->hist[k]++;
}

#endif
