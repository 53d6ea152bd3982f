/* SPDX-License-Identifier: GPL-2.0 */
/* A request line of the socket protocol (docs/architecture.md, section 4), read strictly:
 * one JSON object and nothing after it, "cmd" a known command, each field of the type it
 * has ("irq", "n" and "since_wall_ns" numbers, "name", "window", "cpus" and "tracepoint"
 * strings). What is wrong is said in a sentence
 * for the error answer, never guessed around. */
#ifndef IRQLAT_REQUEST_H
#define IRQLAT_REQUEST_H

#include <stddef.h>
#include <json-c/json.h>
#include "common/window.h"

enum request_cmd { REQ_SUMMARY, REQ_HIST, REQ_STATUS, REQ_EVENTS, REQ_SUBSCRIBE, REQ_DETACH, REQ_ATTACH, REQ_WHY, REQ_CAPTURES };

#define REQUEST_CMDS "summary, hist, status, events, subscribe, detach, attach, why or captures"

struct request {
	enum request_cmd cmd;
	enum window window;	/* WINDOW_10S when not given */
	int irq;		/* hist: -1 when not given */
	int pid;		/* hist: a task's wake-ups; -1 when not given */
	const char *name;	/* hist: NULL when not given; points into the object */
	const char *cpus;	/* summary, hist: a kernel CPU list ("0-3,8"), NULL: every CPU;
				 * points into the object, checked against the machine by the caller */
};

/* The object on line[0..len) (blanks may follow it), or NULL with why[] saying what is
 * wrong: not one object of strict JSON (RFC 8259: double quotes, each key once, no trailing
 * comma, no NaN, control characters escaped, UTF-8). */
json_object *request_json(const char *line, size_t len, char *why, size_t whylen);
/* The request in o: 0, or -EINVAL with why[] saying what is wrong. */
int request_parse(json_object *o, struct request *r, char *why, size_t whylen);

#endif
