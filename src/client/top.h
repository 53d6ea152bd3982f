/* SPDX-License-Identifier: GPL-2.0 */
/* `irqlat --top` on a terminal: the full-screen, interactive view (ncurses). */
#ifndef IRQLAT_TOP_H
#define IRQLAT_TOP_H

#include "cli.h"
#include "conn.h"

/* Runs the screen on an open connection (it reconnects by itself when the daemon restarts)
 * until q, SIGINT/SIGTERM/SIGHUP or --iterations; the terminal is restored on every path.
 * 0, or a negative errno with the reason printed. */
int top_run(struct irqlat_conn *conn, const struct cli *c);

#endif
