/* SPDX-License-Identifier: GPL-2.0 */
/* irqlatd's own tracefs instance, /sys/kernel/tracing/instances/irqlatd, for the trace action
 * (KIND-on-threshold): the interrupt and scheduler events on every CPU into a ring of
 * trace-buffer-kb per CPU, on the mono clock (CLOCK_MONOTONIC, the clock of the outliers'
 * ts_ns), so an outlier's window can be cut out of its CPU's buffer. A private instance leaves
 * the top-level buffer, and anyone else's tracing, alone; it is removed when the daemon stops. */
#ifndef IRQLAT_TRACE_INSTANCE_H
#define IRQLAT_TRACE_INSTANCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TRACE_INSTANCE_ROOT "/sys/kernel/tracing"
#define TRACE_INSTANCE_NAME "irqlatd"

struct trace_instance {
	bool on;		/* made and tracing */
	char path[128];		/* TRACE_INSTANCE_ROOT/instances/irqlatd */
	unsigned events;	/* events enabled */
};

/* Makes the instance (one left by a daemon that died is removed first), sets its clock and
 * buffer, enables the events this kernel has: 0 or a negative errno, logged. */
int trace_instance_open(struct trace_instance *t, unsigned buffer_kb);
/* A new buffer size while it runs */
int trace_instance_resize(struct trace_instance *t, unsigned buffer_kb);
/* Copies CPU cpu's events from from_ns on (CLOCK_MONOTONIC) to out, the buffer's header lines
 * first, from a read that reaches back to at_ns if one of three does; returns the number of
 * event lines written, or a negative errno. */
int trace_instance_save(struct trace_instance *t, unsigned cpu, uint64_t from_ns, uint64_t at_ns, FILE *out);
/* Stops it and removes it */
void trace_instance_close(struct trace_instance *t);

/* The timestamp of an ftrace text line ("  <idle>-0  [001] d.h1.  1234.567890: irq_handler_entry: ..."),
 * in ns: 0, or -EINVAL for a header line or one without */
int trace_line_ts(const char *line, uint64_t *ns);

#endif
