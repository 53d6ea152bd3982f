// SPDX-License-Identifier: GPL-2.0
/* The configuration file: the input is the file's text, read by config_file_parse() (inih
 * and config_set(), what config_file_load() runs on a regular file's contents) over the
 * defaults. Checked: a refusal is one line of UTF-8 that names the file (and a line when it
 * has one); an accepted file leaves a configuration within its bounds. */
#include "fuzz.h"
#include "config_check.h"
#include "daemon/config/config_file.h"

#define NAME "/etc/irqlatd/fuzz.conf"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct daemon_config c;
	struct config_error e = { 0 };
	int r;

	daemon_config_defaults(&c);
	r = config_file_parse(&c, NAME, (const char *)data, size, &e);
	if (r < 0) {
		config_error_check(&e, CONFIG_FILE);
		fuzz_check(!strncmp(e.text, NAME ":", strlen(NAME) + 1), "does not name the file: %s", e.text);
		return 0;
	}
	fuzz_check(r == 0, "returned %d", r);
	config_check(&c);
	fuzz_check(!strcmp(c.config_path, DEFAULT_CONFIG), "the file changed which file is read: %s", c.config_path);
	return 0;
}
