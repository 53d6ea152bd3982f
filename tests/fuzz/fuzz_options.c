// SPDX-License-Identifier: GPL-2.0
/* irqlatd's command line: the input is its arguments, separated by NUL bytes, given to
 * daemon_options_parse() (getopt_long, then config_set() per option) over the defaults.
 * Checked: --help and --version print and stop; a refusal is one line of UTF-8 from the
 * command line; an accepted command line leaves a configuration within its bounds. */
#include "fuzz.h"
#include "config_check.h"
#include "daemon/config/options.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2] = { "irqlatd" };
	size_t len[MAX_ARGS];
	struct daemon_config c;
	struct config_error e = { 0 };
	unsigned n;
	char *copy = fuzz_split(data, size, 0, argv + 1, len, MAX_ARGS, &n);
	FILE *out = fopen("/dev/null", "w");
	int r;

	if (!copy || !out)
		abort();
	daemon_config_defaults(&c);
	r = daemon_options_parse(&c, (int)n + 1, argv, out, &e);
	if (r < 0)
		config_error_check(&e, CONFIG_COMMAND_LINE);
	else if (r == 0)
		config_check(&c);
	else
		fuzz_check(r == 1, "returned %d", r);
	fclose(out);
	free(copy);
	return 0;
}
