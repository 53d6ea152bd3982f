// SPDX-License-Identifier: GPL-2.0
/* A tracepoint's tracefs format file (/sys/kernel/tracing/events/SYSTEM/EVENT/format): the
 * input is the file, read as resolve_format() reads it (at most 8191 bytes, up to a NUL) and
 * given to tp_parse_format(), which names the arguments of a tracepoint that BTF does not
 * describe. Checked: at most TP_MAX_ARGS arguments (else -E2BIG), each named by an
 * identifier of the file's own "field:" lines that is not one of the common_ fields, of 1 to
 * 8 bytes, of a known kind. */
#include <ctype.h>
#include "fuzz.h"
#include "daemon/tracepoints/tp_resolve.h"

#define FORMAT_MAX 8192	/* resolve_format()'s buffer */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[FORMAT_MAX];
	struct tp_arg args[TP_MAX_ARGS];
	size_t n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
	int r;

	memcpy(text, data, n);
	text[n] = 0;
	r = tp_parse_format(text, args, TP_MAX_ARGS);
	fuzz_check(r == -E2BIG || (r >= 0 && r <= TP_MAX_ARGS), "returned %d", r);
	for (int i = 0; i < r; i++) {
		const struct tp_arg *a = &args[i];
		size_t len = strnlen(a->name, sizeof(a->name));

		fuzz_check(len > 0 && len < sizeof(a->name), "argument %d: name of %zu bytes", i, len);
		for (size_t k = 0; k < len; k++)
			fuzz_check(isalnum((unsigned char)a->name[k]) || a->name[k] == '_', "argument %d: name '%s'", i, a->name);
		fuzz_check(strncmp(a->name, "common_", 7), "argument %d: a common field, %s", i, a->name);
		fuzz_check(strstr(text, a->name) && strstr(text, "field:"), "argument %d: '%s' is not in the file", i, a->name);
		fuzz_check(a->size >= 1 && a->size <= 8, "argument %d: size %u", i, a->size);
		fuzz_check(a->kind == TP_ARG_UNSIGNED || a->kind == TP_ARG_SIGNED || a->kind == TP_ARG_POINTER,
			   "argument %d: kind %d", i, (int)a->kind);
	}
	return 0;
}
