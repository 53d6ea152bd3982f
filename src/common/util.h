/* SPDX-License-Identifier: GPL-2.0 */
/* Small things irqlatd and irqlat both need. */
#ifndef IRQLAT_UTIL_H
#define IRQLAT_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define IRQLAT_VERSION "0.1.0"
#define DEFAULT_SOCKET "/run/irqlatd/irqlatd.sock"

/* Exit codes, documented in irqlatd(8) and irqlat(1) */
#define EXIT_USAGE 2
#define EXIT_CONFIG 78	/* EX_CONFIG */

/* Parses a whole decimal number in [min, max]; 0 or -EINVAL. */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v);
/* After getopt_long() returned '?' or ':' (o), the option as the user wrote it, for the
 * message: "-q" out of the cluster "-vq", "--bogus" or "--verbose=1" as given. */
const char *getopt_bad_option(int o, char *const *argv, const char *shortopts, char *buf, int len);

/* A duration in short units, rounded where the text would reach the next precision or unit:
 * 850ns 3.1us 41us 1.2ms 2.00s, with sep between number and unit ("" on screens, " " in
 * log messages). */
void fmt_duration(char *buf, size_t len, uint64_t ns, const char *sep);

#endif
