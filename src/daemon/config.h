/* SPDX-License-Identifier: GPL-2.0 */
/* The configuration file (inih): keys mirror the long options, so `threshold-us = 50` in the
 * file means `--threshold-us 50`. Precedence: built-in defaults, then the file, then the
 * command line; a reload (SIGHUP) rebuilds the whole configuration the same way. */
#ifndef IRQLAT_CONFIG_H
#define IRQLAT_CONFIG_H

#include <stddef.h>
#include "options.h"

#define DEFAULT_CONFIG "/etc/irqlatd/irqlatd.conf"

/* syslog level names (emerg ... debug, and "error") <-> LOG_* numbers */
int priority_parse(const char *s, int *prio);
const char *priority_name(int prio);

/* Sets one key from its text value (file or command line). 0, or -EINVAL with why filled in
 * ("takes a whole number from 10 to 60000, not 'x'") or -ENOENT for an unknown key. */
int config_set(struct daemon_config *c, const char *key, const char *value, char *why, size_t len);
/* Adds the tracepoint name[0..len) to the list (once); -EINVAL with why when it does not fit. */
int tracepoint_add(struct daemon_config *c, const char *name, size_t len, char *why, size_t wlen);

/* "127.0.0.1:9669", "[::1]:9669": a numeric IPv4 or bracketed IPv6 address (no host names: no
 * resolver at start) and a port 1..65535, into *sa. 0 or -EINVAL. */
struct sockaddr_storage;
int metrics_addr_parse(const char *s, struct sockaddr_storage *sa, unsigned *salen);

/* Reads path into c. A missing file is fine when it is the default path and was not asked
 * for (explicit = 0). Returns 0, or -EINVAL/-errno with err filled with one line naming the
 * file, line and key ("/etc/irqlatd/irqlatd.conf:3: threshold-us: takes ..."). */
int config_load(struct daemon_config *c, const char *path, int explicit, char *err, size_t len);

/* Full configuration as the daemon runs it: defaults, file (--config or the default), command
 * line. 0 to run; otherwise the exit code (2 bad command line, 78 bad file) with one line
 * printed to err (-1: --help or --version printed, exit 0). */
int config_build(struct daemon_config *c, int argc, char **argv, FILE *out, FILE *err);

/* A reload: builds the configuration again into n like config_build, checks that a journal
 * log target has its socket, and keeps (with a warning) the settings the loaded programs and
 * the open socket depend on. 0, or -EINVAL with why = the one-line reason (file:line: key: ...). */
int config_reload(const struct daemon_config *old, int argc, char **argv, struct daemon_config *n,
		  char *why, size_t len);

#endif
