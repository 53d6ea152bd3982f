/* SPDX-License-Identifier: GPL-2.0 */
/* CPU lists in the kernel's own text form ("0-3,8,10-11", as in /sys/devices/system/cpu/isolated
 * and /proc/irq/N/smp_affinity_list; "" is the empty set): irqlatd passes them on as the kernel
 * wrote them, irqlat's -C takes one. Read in place, without a bitmap, so any CPU number works. */
#ifndef IRQLAT_CPULIST_H
#define IRQLAT_CPULIST_H

#include <stdbool.h>

/* 0 when s is a well-formed list (numbers and ranges a-b with a <= b, comma-separated; a
 * trailing newline is allowed), else -EINVAL. */
int cpulist_check(const char *s);
/* Whether cpu is in the list; false for a malformed list or NULL. */
bool cpulist_has(const char *s, unsigned cpu);
/* The highest CPU of the list: 0; -ENOENT for an empty list, -EINVAL for a malformed one. */
int cpulist_max(const char *s, unsigned *max);
/* Whether every CPU of list is one of the machine's, as the kernel's list of possible CPUs
 * (/sys/devices/system/cpu/possible) has them: 0; -ERANGE with *missing a CPU it lacks (the
 * list's highest when that is past the machine's); -EINVAL for a malformed list. */
int cpulist_within(const char *list, const char *possible, unsigned *missing);
/* Whether the list holds no CPU (NULL, "" or only a newline). */
bool cpulist_empty(const char *s);

#endif
