// SPDX-License-Identifier: GPL-2.0
/* irqlat's command line: the input is its arguments, separated by NUL bytes, given to
 * cli_parse(). Checked: a refusal is exactly one line on stderr and nothing on stdout;
 * --help and --version print on stdout alone; an accepted command line says nothing and
 * leaves its values in range. */
#include "fuzz.h"
#include "client/cli.h"
#include "common/window.h"

#define MAX_ARGS 32

static char out_buf[16384], err_buf[4096];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2] = { "irqlat" };
	size_t len[MAX_ARGS];
	struct cli c;
	enum window w;
	unsigned n;
	char *copy = fuzz_split(data, size, 0, argv + 1, len, MAX_ARGS, &n);
	FILE *out, *err;
	int r;

	memset(out_buf, 0, sizeof(out_buf));
	memset(err_buf, 0, sizeof(err_buf));
	out = fmemopen(out_buf, sizeof(out_buf) - 1, "w");
	err = fmemopen(err_buf, sizeof(err_buf) - 1, "w");
	if (!copy || !out || !err)
		abort();
	r = cli_parse(&c, (int)n + 1, argv, out, err);
	fclose(out);
	fclose(err);
	if (r < 0) {
		const char *nl = strchr(err_buf, '\n');

		fuzz_check(r == -EINVAL, "returned %d", r);
		fuzz_check(!out_buf[0], "refused, yet wrote on stdout: %s", out_buf);
		fuzz_check(nl && !nl[1] && nl > err_buf, "not one line on stderr: \"%s\"", err_buf);
		fuzz_check(!strncmp(err_buf, "irqlat: ", 8), "does not say who speaks: %s", err_buf);
	} else {
		fuzz_check(r == 0 || r == 1, "returned %d", r);
		fuzz_check(!err_buf[0], "accepted, yet wrote on stderr: %s", err_buf);
		fuzz_check(r == 1 || !out_buf[0], "wrote on stdout before running: %s", out_buf);
	}
	if (r == 0) {
		fuzz_check(c.delay_s >= 0.05 && c.delay_s <= 3600, "delay %g", c.delay_s);
		fuzz_check(c.iterations >= 0, "iterations %ld", c.iterations);
		fuzz_check(window_parse(c.window, &w) == 0, "window %s", c.window);
		fuzz_check(c.cmd <= CMD_CAPTURES, "cmd %d", (int)c.cmd);
		fuzz_check(c.cmd != CMD_DETACH && c.cmd != CMD_ATTACH ? 1 : c.target != NULL, "detach/attach without target");
	}
	free(copy);
	return 0;
}
