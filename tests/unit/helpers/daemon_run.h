/* SPDX-License-Identifier: GPL-2.0 */
/* daemon_run(&config, ARG..., NULL): irqlatd's command line parsed as its main does, its output
 * captured (cmdline.h): the line on stderr, exit 2 for a usage error, -1 for exit 0 (--help).
 * Shared by the tests of the options and of the keys the kind table makes. */
#pragma once
#include "cmdline.h"
#include "daemon/config/options.h"

static inline struct run daemon_run(struct daemon_config *c, ...)
{
	char *argv[MAXARGS];
	struct run r;
	struct config_error e;
	FILE *out, *err;
	va_list ap;
	int argc, rc;

	va_start(ap, c);
	argc = make_argv(argv, "irqlatd", ap);
	va_end(ap);
	daemon_config_defaults(c);
	capture_begin(&out, &err, &r);
	rc = daemon_options_parse(c, argc, argv, out, &e);
	if (rc < 0)
		fprintf(err, "irqlatd: %s\n", e.text);
	r.rc = rc < 0 ? EXIT_USAGE : rc > 0 ? -1 : 0;
	capture_end(out, err);
	return r;
}
