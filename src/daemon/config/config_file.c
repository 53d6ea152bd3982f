// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ini.h>
#include "daemon/config/config_file.h"
#include "common/macro.h"

struct load_ctx {
	struct daemon_config *cfg;
	const char *text, *end;		/* what is left to read */
	struct config_origin at;	/* the line inih last read */
	unsigned err_line;		/* of the first key that failed, or 0 */
	struct config_error err;	/* its refusal */
	unsigned long_line;		/* a line too long for inih, or 0 */
	int long_max;
};

/* inih's reader callback over the text in memory: it counts lines, so a failing key can be
 * named by its line (the handler sees keys, not line numbers), and it stops at a line longer
 * than inih's buffer, whose rest inih would otherwise read as a line of its own. */
static char *read_line(char *buf, int size, void *stream)
{
	struct load_ctx *ctx = stream;
	const char *nl;
	size_t len;

	if (ctx->text >= ctx->end || ctx->long_line)
		return NULL;
	nl = memchr(ctx->text, '\n', (size_t)(ctx->end - ctx->text));
	len = nl ? (size_t)(nl - ctx->text) + 1 : (size_t)(ctx->end - ctx->text);
	ctx->at.line++;
	if (len >= (size_t)size) {
		ctx->long_line = ctx->at.line;
		ctx->long_max = size - 2;	/* the text before the newline */
		return NULL;
	}
	memcpy(buf, ctx->text, len);
	buf[len] = 0;
	ctx->text += len;
	return buf;
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

int config_file_parse(struct daemon_config *c, const char *name, const char *text, size_t len, struct config_error *e)
{
	struct load_ctx ctx = { .cfg = c, .text = text, .end = text + len, .at = { .file = name } };
	const char *nul = memchr(text, 0, len);
	int r;

	if (nul) {
		unsigned line = 1;

		for (const char *p = text; p < nul; p++)
			line += *p == '\n';
		return config_fail(e, -EINVAL, CONFIG_FILE, "%s:%u: has a NUL byte: not a text file", name, line);
	}
	/* an indented "key = value" is a key, not the continuation of the previous value */
	ini_allow_multiline = false;
	r = ini_parse_stream(read_line, &ctx, on_key, &ctx);
	if (r < 0)
		return config_fail(e, -ENOMEM, CONFIG_FILE, "%s: cannot parse the configuration file (out of memory)", name);
	/* the first line that failed, a key's or inih's syntax error or one too long, is told */
	if (ctx.err_line && (!r || ctx.err_line <= (unsigned)r) && (!ctx.long_line || ctx.err_line < ctx.long_line)) {
		if (e)
			*e = ctx.err;
		return -EINVAL;
	}
	if (r > 0 && (!ctx.long_line || (unsigned)r < ctx.long_line))
		return config_fail(e, -EINVAL, CONFIG_FILE, "%s:%d: not a 'key = value' line or a [section] header", name, r);
	if (ctx.long_line)
		return config_fail(e, -EINVAL, CONFIG_FILE, "%s:%u: line longer than %d bytes", name, ctx.long_line, ctx.long_max);
	return 0;
}

/* The file's text, if it is a regular file of at most CONFIG_FILE_MAX_BYTES: a FIFO, a
 * device or a folder there is refused in one line, never waited on or read forever. */
static int read_config(const char *path, bool explicit, char **text, size_t *len, struct config_error *e)
{
	/* O_NONBLOCK: open() of a FIFO would wait for a writer. Symbolic links are followed
	 * (configuration management links files into /etc); what they point to must be a
	 * regular file, checked on the descriptor itself, so nothing can swap it in between. */
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	size_t n = 0;
	int r;

	if (fd < 0) {
		r = -errno;
		if (r == -ENOENT && !explicit)
			return 0;	/* no file: built-in defaults and the command line */
		return config_fail(e, r, CONFIG_FILE, "%s: cannot read the configuration file: %s", path, strerror(-r));
	}
	if (fstat(fd, &st) < 0)
		return config_fail(e, -errno, CONFIG_FILE, "%s: cannot read the configuration file: %m", path);
	if (!S_ISREG(st.st_mode))
		return config_fail(e, -EINVAL, CONFIG_FILE, "%s: is %s, not a configuration file (a regular file)", path,
				   S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO" :
				   S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket" : "not a file");
	/* st_size may lie (a /proc file says 0): read at most one byte more than allowed */
	buf = malloc(CONFIG_FILE_MAX_BYTES + 1);
	if (!buf)
		return config_fail(e, -ENOMEM, CONFIG_FILE, "%s: cannot read the configuration file: out of memory", path);
	while (n <= CONFIG_FILE_MAX_BYTES) {
		ssize_t k = read(fd, buf + n, CONFIG_FILE_MAX_BYTES + 1 - n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return config_fail(e, -errno, CONFIG_FILE, "%s: cannot read the configuration file: %m", path);
		if (k == 0)
			break;
		n += (size_t)k;
	}
	if (n > CONFIG_FILE_MAX_BYTES)
		return config_fail(e, -EFBIG, CONFIG_FILE, "%s: is longer than %d bytes: not an irqlatd configuration file",
				   path, CONFIG_FILE_MAX_BYTES);
	*text = TAKE_PTR(buf);
	*len = n;
	return 1;
}

int config_file_load(struct daemon_config *c, const char *path, bool explicit, struct config_error *e)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_config(path, explicit, &text, &len, e);

	if (r <= 0)
		return r;
	return config_file_parse(c, path, text, len, e);
}
