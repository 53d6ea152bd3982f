// SPDX-License-Identifier: GPL-2.0
/* The program sets, one per BPF object, in the order they are attached: the order is the
 * measurement's, each line says why. A new kind with its own object is its line here. */
#include "daemon/loader/sets.h"
#include "common/macro.h"

extern const struct progset progset_hardirq, progset_softirq, progset_vector, progset_timer, progset_threaded,
	progset_sched, progset_nmi;

const struct progset *const loader_sets[] = {
	/* before the hard-IRQ programs: a wake stamped before its thread's switch could be seen
	 * would give one false latency at the thread's next switch */
	&progset_threaded,	/* the threads' run time: fentry/fexit or on-CPU time, which sched reads */
	&progset_sched,		/* one sched_switch for the threads and the wake-ups, sched_waking */
	&progset_hardirq,	/* its object, which owns the shared maps, is loaded before any set */
	/* after the hard IRQs, the others in the order they were added; none depends on another */
	&progset_softirq,
	&progset_vector,
	&progset_timer,
	&progset_nmi,
};

const unsigned loader_nsets = ELEMENTSOF(loader_sets);
