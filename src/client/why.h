/* SPDX-License-Identifier: GPL-2.0 */
/* irqlat why: the recent late waits the daemon explained, each broken down in the order the
 * delay built up (rtla timerlat's auto-analysis order): timer lateness or exit from idle, IRQ,
 * vector, softirq and NMI interference, idle, the blocking task, other tasks, the remainder. */
#ifndef IRQLAT_CLIENT_WHY_H
#define IRQLAT_CLIENT_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>
#include "rows.h"
#include "common/evline.h"
#include "common/why.h"

/* The "why" request for target (NULL: every wait): a number is a pid, "cpuN" (or "cpu:N") a
 * CPU, anything else a comm (a glob, as the daemon's fnmatch reads it); last n (0: all). NULL
 * with *err set for a bad target. */
json_object *why_client_request(const char *target, long n, const char **err);
/* One wait's breakdown on f, its time in clock */
void why_print_wait(FILE *f, const struct why_named *w, uint64_t clock_ns, enum ev_clock clock);
/* Every wait of the answer, oldest first; a line saying there is none when so */
/* timeline: each wait's timeline under its parts (why_print_timeline()) */
void why_print_answer(FILE *f, json_object *answer, enum ev_clock clock, bool timeline);
/* A wait's timeline, one line an event (why_tl_line()), with its start and end marked */
void why_print_timeline(FILE *f, const struct why_named *w);

/* The wake-up rows' TOP CAUSE: the last WHY_ROWS_WAITS waits the daemon explained, asked
 * beside a summary and kept in it under WHY_ROWS_KEY (escaped as the summary is). */
#define WHY_ROWS_KEY "why_waits"
#define WHY_ROWS_WAITS 256
/* The request for them, of the CPUs of the list cpus (NULL or "": every CPU) */
json_object *why_rows_request(const char *cpus);
/* The waits kept in the summary under WHY_ROWS_KEY, parsed into *out (freed by the caller);
 * their number */
size_t why_rows_waits(json_object *summary, struct why_named **out);
/* Of the waits among w[0..n) that keep takes, the cause with the most time in all: a part and
 * who it was (the blocking task by pid, an interrupt part by its top interrupt), its share of
 * their time and its name ("62% blocking task python3[1234] (FIFO 99)"); false and "" when they
 * took no time */
bool why_top_cause(char *buf, size_t len, const struct why_named *w, size_t n,
		   bool (*keep)(const struct why_named *w, const void *arg), const void *arg);
/* Each wake-up row's cause: of its task's kept wake-ups, the part with the most time in all,
 * its share of their time and its name in the wait it took most of ("62% blocking task
 * python3[1234] (FIFO 99)"); rows of tasks with none stay "". */
void why_rows_causes(json_object *summary, struct row *rows, int n);

#endif
