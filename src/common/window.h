/* SPDX-License-Identifier: GPL-2.0 */
/* The windows a summary covers, by name: what the daemon keeps and what clients ask for. */
#ifndef IRQLAT_WINDOW_H
#define IRQLAT_WINDOW_H

enum window { WINDOW_1S, WINDOW_10S, WINDOW_60S, WINDOW_TOTAL, WINDOW_COUNT };

/* "1s", "10s", "60s", "total"; "?" out of range. */
const char *window_name(enum window w);
/* -EINVAL for anything but the names above. */
int window_parse(const char *s, enum window *w);
/* "1s, 10s, 60s or total", for messages */
#define WINDOW_CHOICES "1s, 10s, 60s or total"

#endif
