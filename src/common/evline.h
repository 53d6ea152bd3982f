/* SPDX-License-Identifier: GPL-2.0 */
/* An event as a line of ftrace's text output (trace_print_context()): the comm right-aligned in
 * 16 columns, -pid, [cpu], the time, then what happened. irqlatd makes the "line" of each
 * tracepoint event with it; irqlat the lines it prints, in the clock asked for. */
#ifndef IRQLAT_EVLINE_H
#define IRQLAT_EVLINE_H

#include <stddef.h>
#include <stdint.h>

enum ev_clock { EV_CLOCK_MONO, EV_CLOCK_BOOT, EV_CLOCK_WALL };

/* "mono", "boot" or "wall": 0, or -EINVAL */
int ev_clock_parse(const char *s, enum ev_clock *c);
/* The time column: seconds.microseconds ("%5llu.%06llu", ftrace's own) for the monotonic and
 * boot clocks, local ISO 8601 with microseconds and the UTC offset
 * ("2026-12-03T13:45:01.123456+0000") for the wall clock. */
void ev_time(char *buf, size_t len, uint64_t ns, enum ev_clock c);
/* "    silly-thread-235     [000]     7.952497:" into buf: the length written, as snprintf. */
int ev_context(char *buf, size_t len, const char *comm, unsigned pid, unsigned cpu, const char *time);

#endif
