/* SPDX-License-Identifier: GPL-2.0 */
/* The captures folder: one file per saved outlier, named by its wall-clock time so that the
 * names sort oldest first ("1796000000123456789-hardirq-cpu1.trace"), headed by "# key: value"
 * lines saying what it captured; the files together within a budget of bytes, the oldest
 * removed first. The folder is $STATE_DIRECTORY/captures under systemd (StateDirectory=irqlatd),
 * else /var/lib/irqlatd/captures. The folder is read again for every listing: what is there is
 * what `irqlat captures` shows, after a restart too. */
#ifndef IRQLAT_CAPTURE_STORE_H
#define IRQLAT_CAPTURE_STORE_H

#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

#define CAPTURE_DIR_DEFAULT "/var/lib/irqlatd/captures"
#define CAPTURE_SUFFIX ".trace"
#define CAPTURE_NAME_MAX 96

/* The folder for this process: $STATE_DIRECTORY (its first path)/captures, or the default */
void capture_dir(char *buf, size_t len);

/* Makes dir (and its parent) when missing: 0 or a negative errno */
int capture_dir_make(const char *dir);

/* Removes the oldest captures of dir until their sizes add up to budget bytes or less; the
 * number removed, or a negative errno. Only the folder's capture files count (NAME.trace
 * starting with a digit); other files are neither counted nor removed. */
int capture_store_enforce(const char *dir, uint64_t budget);

/* The captures of dir, oldest first: [{"file", "wall_ns", "kind", "cpu", "latency_ns",
 * "name", "size"}, ...] (an empty array when the folder is missing) */
json_object *capture_store_list(const char *dir);

#endif
