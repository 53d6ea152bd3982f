/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The me_silly trace event, defined the way Steven Rostedt's "Using the
 * TRACE_EVENT() macro (Part 3)" shows for a header that lives beside its
 * module instead of in include/trace/events.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM silly

/*
 * define_trace.h includes this file a second time with
 * TRACE_HEADER_MULTI_READ set, to expand TRACE_EVENT() into the code that
 * creates the event; the guard must let that second read through.
 */
#if !defined(_SILLY_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SILLY_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(me_silly,

	TP_PROTO(unsigned long time, unsigned long count),

	TP_ARGS(time, count),

	TP_STRUCT__entry(
		__field(	unsigned long,	time	)
		__field(	unsigned long,	count	)
	),

	TP_fast_assign(
		__entry->time = jiffies;
		__entry->count = count;
	),

	TP_printk("time=%lu count=%lu", __entry->time, __entry->count)
);

#endif /* _SILLY_TRACE_H */

/*
 * This part must be outside the guard.  "." makes define_trace.h find us
 * through the include path (-I$(src) in the Makefile) rather than in
 * include/trace/events; any other path risks macro expansion ("linux" is
 * defined to nothing by the kernel build).
 */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE silly-trace
#include <trace/define_trace.h>
