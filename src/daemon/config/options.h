/* SPDX-License-Identifier: GPL-2.0 */
/* irqlatd's command line: each long option is a configuration key (config.h), set through
 * config_set() like the file's. */
#ifndef IRQLAT_OPTIONS_H
#define IRQLAT_OPTIONS_H

#include <stdio.h>
#include "daemon/config/config.h"

/* Applies argv over c. 0 to run; 1 when --help or --version was printed to out (exit 0); a
 * negative errno with e (source CONFIG_COMMAND_LINE) saying what is wrong. */
int daemon_options_parse(struct daemon_config *c, int argc, char **argv, FILE *out, struct config_error *e);

#endif
