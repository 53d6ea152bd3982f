/* SPDX-License-Identifier: GPL-2.0 */
#include "daemon/collect/stacks.h"
#include "daemon/collect/collect.h"
#include "daemon/system/ksym_kernel.h"
#include "daemon/system/umaps.h"
#include "daemon/base/log.h"
#include "common/macro.h"
#include "irqlat_abi.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static struct umaps_cache umaps;	/* the tasks' mappings, kept a while (umaps.h) */

/* The frames of the program that took the stack (bpf_get_task_stack() of current starts in
 * itself): the helper, the program ("bpf_prog_TAG_NAME"), the tracepoint's trampoline */
static bool bpf_frame(const char *name)
{
	return !strncmp(name, "bpf_", 4) || !strncmp(name, "__bpf_", 6) || !strncmp(name, "__traceiter_", 12) ||
	       !strncmp(name, "trace_call_bpf", 14) || !strncmp(name, "perf_trace_run_bpf", 18);
}

static void join(char *buf, size_t len, size_t *used, const char *frame)
{
	int n;

	if (*used >= len)
		return;
	n = snprintf(buf + *used, len - *used, "%s%s", *used ? ";" : "", frame);
	if (n > 0)
		*used += (size_t)n;
}

void stacks_text(const struct why_event *e, char *kbuf, size_t klen, char *ubuf, size_t ulen)
{
	static bool said;	/* the kernel could not name them: logged once */
	static char names[WHY_KSTACK][KSYM_NAME];
	unsigned nk = e->kstack_n < WHY_KSTACK ? e->kstack_n : WHY_KSTACK;
	unsigned nu = e->ustack_n < WHY_USTACK ? e->ustack_n : WHY_USTACK;
	size_t used = 0;
	bool lead = true;
	char frame[256];
	int r;

	*kbuf = *ubuf = 0;
	if (!e->stack_pid)
		return;
	r = ksym_kernel_names((const uint64_t *)e->kstack, nk, names[0], sizeof(names[0]));
	if (r < 0 && nk && !said) {
		said = true;
		log_warning_errno(r, "Failed to have the kernel name the stacks' frames, stacks show addresses: %m");
	}
	for (unsigned i = 0; i < nk; i++) {
		if (lead && bpf_frame(names[i]))
			continue;
		lead = false;
		join(kbuf, klen, &used, names[i]);
	}
	if (!nu)
		return;
	const struct umaps *m = umaps_get(&umaps, e->stack_pid, now_ns());	/* NULL: gone, addresses */

	/* the innermost frame is where the task was, always in a mapping: none holds it when the
	 * copy is older than the mapping (the frames further out may be garbage without frame
	 * pointers, and cannot tell) */
	if (m && umaps_name(m, e->ustack[0], frame, sizeof(frame)) < 0)
		m = umaps_reread(&umaps, e->stack_pid, now_ns());
	used = 0;
	for (unsigned i = 0; i < nu; i++) {
		umaps_name(m, e->ustack[i], frame, sizeof(frame));
		join(ubuf, ulen, &used, frame);
	}
}

void stacks_free(void)
{
	umaps_cache_free(&umaps);
}
