// SPDX-License-Identifier: GPL-2.0
#include "daemon/base/ratelimit.h"

bool ratelimit_pass(struct ratelimit *rl, unsigned per_second, uint64_t ts_ns, uint64_t *ended)
{
	uint64_t second = ts_ns / 1000000000ull;

	*ended = 0;
	if (!per_second)
		return true;
	/* events from several CPUs can arrive slightly out of order: an older one counts in
	 * the second being counted */
	if (second > rl->second) {
		*ended = rl->suppressed;
		rl->suppressed = 0;
		rl->second = second;
		rl->passed = 0;
	}
	if (rl->passed < per_second) {
		rl->passed++;
		return true;
	}
	rl->suppressed++;
	rl->suppressed_total++;
	return false;
}

uint64_t report_limit_due(struct report_limit *r, uint64_t total, uint64_t now_ns, uint64_t every_ns)
{
	uint64_t grew = total > r->said ? total - r->said : 0;

	if (!grew || (r->said_ns && now_ns - r->said_ns < every_ns))
		return 0;
	r->said = total;
	r->said_ns = now_ns ? now_ns : 1;
	return grew;
}

uint64_t ratelimit_flush(struct ratelimit *rl, uint64_t now_ns)
{
	uint64_t n = rl->suppressed;

	if (!n || (now_ns != UINT64_MAX && now_ns / 1000000000ull <= rl->second))
		return 0;
	rl->suppressed = 0;
	return n;
}
