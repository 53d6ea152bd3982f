/* SPDX-License-Identifier: GPL-2.0 */
/* The configuration file (inih): "key = value" lines whose keys are the long options, before
 * any section or in [irqlatd]. */
#ifndef IRQLAT_CONFIG_FILE_H
#define IRQLAT_CONFIG_FILE_H

#include <stdbool.h>
#include "config.h"

/* Reads path into c. A missing file is fine when it was not asked for (explicit false: the
 * default path). 0, or a negative errno with e (source CONFIG_FILE) naming the file, line and
 * key ("/etc/irqlatd/irqlatd.conf:3: threshold-us: takes ..."). */
int config_file_load(struct daemon_config *c, const char *path, bool explicit, struct config_error *e);

#endif
