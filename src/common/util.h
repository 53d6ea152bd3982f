/* SPDX-License-Identifier: GPL-2.0 */
/* Small things irqlatd and irqlat both need. */
#ifndef IRQLAT_UTIL_H
#define IRQLAT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define IRQLAT_VERSION "0.1.0"
#define DEFAULT_SOCKET "/run/irqlatd/irqlatd.sock"

/* Exit codes, documented in irqlatd(8) and irqlat(1) */
#define EXIT_USAGE 2
#define EXIT_CONFIG 78	/* EX_CONFIG */

/* Parses a whole decimal number in [min, max]; 0 or -EINVAL. */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v);

/* One line on err, "PROG: " and the formatted text, whose quoted user input is escaped as
 * text_escape() does (a value with a newline cannot split the line). Returns -EINVAL. */
int fail_line(FILE *err, const char *prog, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The end of a getopt_long() loop, the same in irqlatd and irqlat. After getopt_long()
 * returned '?' or ':' (o): one line on err, "PROG: option -t needs a value; see PROG --help"
 * or "PROG: unknown option '-q'; see PROG --help", naming the option as the user wrote it
 * ("-q" out of the cluster "-vq", "--bogus" or "--verbose=1" as given). Returns -EINVAL. */
int getopt_error(const char *prog, int o, char *const *argv, const char *shortopts, FILE *err);
/* The same sentence without "PROG: " and the newline, into buf, for a caller that reports it
 * elsewhere (irqlatd: on stderr at start, in the journal on reload); o 0: the operand left
 * at argv[optind]. Returns -EINVAL. */
int getopt_reason(char *buf, size_t len, const char *prog, int o, char *const *argv, const char *shortopts);
/* After the loop: -EINVAL with "PROG: unexpected argument 'x'; see PROG --help" on err when
 * an operand is left over, else 0. */
int getopt_no_operands(const char *prog, int argc, char *const *argv, FILE *err);

/* A duration in short units, rounded where the text would reach the next precision or unit:
 * 850ns 3.1us 41us 1.2ms 2.00s, with sep between number and unit ("" on screens, " " in
 * log messages). */
void fmt_duration(char *buf, size_t len, uint64_t ns, const char *sep);

/* in[0..inlen) as text for one line of a message or a terminal: valid UTF-8, printable ASCII
 * and tabs as they are, a newline or carriage return as \n \r, any other control character
 * (C0, DEL, and the C1 controls U+0080 to U+009F byte by byte) or byte that is not UTF-8 as
 * \xNN, as ps and journalctl show them. Into out (NUL-terminated; outlen >= 1), as much as
 * fits without cutting a character or an escape; returns the length written. What a user
 * wrote, quoted back in a refusal, or a name the kernel gave (a task's comm, which any task
 * sets), can then neither split the line, move a terminal's cursor or set its title, nor
 * break a UTF-8 reader (JSON). */
size_t text_escape(char *out, size_t outlen, const char *in, size_t inlen);
/* The length of the longest start of s, at most max bytes, that cuts neither a UTF-8
 * character nor an escape text_escape() wrote (\xNN, \n): for a column of such text. */
size_t text_cut(const char *s, size_t max);

/* Whether cgroup v2 path (NULL: not known) is cgroup or below it; "/" holds every one */
bool cgroup_under(const char *path, const char *cgroup);

#endif
