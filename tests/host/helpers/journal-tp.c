// SPDX-License-Identifier: GPL-2.0
/* Sends one module-tracepoint entry through journal_tracepoint_event(), as irqlatd does for
 * an RB_TRACEPOINT record, so tests/host/40-journal.t can read its fields back from a real
 * journald. The host cannot load the module that has the tracepoint (see docs/vm.md).
 * Usage: journal-tp CPU PID COMM ARG0 ARG1 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/sinks/journal.h"
#include "daemon/base/log.h"

int main(int argc, char **argv)
{
	static const char *const names[] = { "time", "count" };
	struct tracepoint_event e = { .kind = RB_TRACEPOINT, .nargs = 2, .ts_ns = 123456789 };

	if (argc != 6) {
		fprintf(stderr, "usage: journal-tp CPU PID COMM ARG0 ARG1\n");
		return 2;
	}
	e.cpu = (unsigned)atoi(argv[1]);
	e.pid = (unsigned)atoi(argv[2]);
	strncpy(e.comm, argv[3], sizeof(e.comm) - 1);
	e.args[0] = strtoull(argv[4], NULL, 10);
	e.args[1] = strtoull(argv[5], NULL, 10);
	if (log_setup(LOG_TARGET_JOURNAL, LOG_INFO) < 0)
		return 1;
	journal_tracepoint_event("silly", "me_silly", names, &e, LOG_DEBUG);
	return 0;
}
