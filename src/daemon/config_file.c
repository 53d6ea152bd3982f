// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <ini.h>
#include "config_file.h"
#include "common/macro.h"

struct load_ctx {
	struct daemon_config *cfg;
	FILE *f;
	struct config_origin at;	/* the line inih last read */
	unsigned err_line;		/* of the first key that failed, or 0 */
	struct config_error err;	/* its refusal */
};

/* inih's reader callback, only so we know the line a failing key is on: the handler sees keys,
 * not line numbers, and inih reports only the first failing line. */
static char *read_line(char *buf, int size, void *stream)
{
	struct load_ctx *ctx = stream;
	char *s = fgets(buf, size, ctx->f);

	if (s)
		ctx->at.line++;
	return s;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
	struct load_ctx *ctx = user;
	struct config_error *e = ctx->err_line ? NULL : &ctx->err;	/* the first refusal is the one told */
	int r;

	if (*section && strcmp(section, "irqlatd"))
		r = config_fail(e, -EINVAL, CONFIG_FILE, "%s:%u: %s: is in section [%s]; irqlatd reads only keys before any section or in [irqlatd]",
				ctx->at.file, ctx->at.line, key, section);
	else
		r = config_set(ctx->cfg, key, value, &ctx->at, e);
	if (r < 0 && !ctx->err_line)
		ctx->err_line = ctx->at.line;
	return r < 0 ? 0 : 1;
}

int config_file_load(struct daemon_config *c, const char *path, bool explicit, struct config_error *e)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	struct load_ctx ctx = { .cfg = c, .f = f, .at = { .file = path } };
	int r;

	if (!f) {
		r = -errno;
		if (r == -ENOENT && !explicit)
			return 0;	/* no file: built-in defaults and the command line */
		return config_fail(e, r, CONFIG_FILE, "%s: cannot read the configuration file: %s", path, strerror(-r));
	}
	/* an indented "key = value" is a key, not the continuation of the previous value */
	ini_allow_multiline = false;
	r = ini_parse_stream(read_line, &ctx, on_key, &ctx);
	if (r == 0)
		return 0;
	if (r < 0)
		return config_fail(e, -ENOMEM, CONFIG_FILE, "%s: cannot parse the configuration file (out of memory)", path);
	/* inih names the first line that failed, a key's or its own syntax error */
	if (ctx.err_line && ctx.err_line <= (unsigned)r) {
		if (e)
			*e = ctx.err;
		return -EINVAL;
	}
	return config_fail(e, -EINVAL, CONFIG_FILE, "%s:%d: not a 'key = value' line or a [section] header", path, r);
}
