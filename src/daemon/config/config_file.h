/* SPDX-License-Identifier: GPL-2.0 */
/* The configuration file (inih): "key = value" lines whose keys are the long options, before
 * any section or in [irqlatd]. Only a regular file is read, of at most CONFIG_FILE_MAX_BYTES;
 * a FIFO, a device, a folder or a longer file is refused in one line. */
#ifndef IRQLAT_CONFIG_FILE_H
#define IRQLAT_CONFIG_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include "daemon/config/config.h"

#define CONFIG_FILE_MAX_BYTES (1024 * 1024)

/* Reads path into c. A missing file is fine when it was not asked for (explicit false: the
 * default path). 0, or a negative errno with e (source CONFIG_FILE) naming the file, line and
 * key ("/etc/irqlatd/irqlatd.conf:3: threshold-us: takes ..."). */
int config_file_load(struct daemon_config *c, const char *path, bool explicit, struct config_error *e);
/* The same for the text[0..len) of a file called name (the fuzzer's way in): no NUL byte, no
 * line longer than inih reads whole. */
int config_file_parse(struct daemon_config *c, const char *name, const char *text, size_t len, struct config_error *e);

#endif
