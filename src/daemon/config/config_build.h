/* SPDX-License-Identifier: GPL-2.0 */
/* The configuration the daemon runs with: built-in defaults, then the file (--config or the
 * default path), then the command line, which wins. A reload (SIGHUP) rebuilds it the same
 * way. */
#ifndef IRQLAT_CONFIG_BUILD_H
#define IRQLAT_CONFIG_BUILD_H

#include <stdio.h>
#include "daemon/config/config.h"

/* 0 to run; 1 when --help or --version was printed to out (exit 0); a negative errno with e
 * saying what is wrong and whether the command line or the file said it. */
int config_build(struct daemon_config *c, int argc, char **argv, FILE *out, struct config_error *e);

/* A reload: builds the configuration again into n, checks that a journal log target has its
 * socket, and keeps (with a warning) the settings the loaded programs and the open socket
 * depend on. 0, or a negative errno with e saying why (for the reload-failed journal entry). */
int config_reload(const struct daemon_config *old, int argc, char **argv, struct daemon_config *n,
		  struct config_error *e);

#endif
