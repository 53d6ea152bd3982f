// SPDX-License-Identifier: GPL-2.0
/* tp_resolve.c: names, tracefs formats, and argument names and types from BTF laid out as
 * the kernel lays out a tracepoint's (the btf_trace_EVENT typedef, the __bpf_trace_EVENT probe). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <bpf/btf.h>
#include "daemon/tracepoints/tp_resolve.h"

/* the format file of the article's me_silly, as the 6.1 guest shows it */
static const char me_silly_format[] =
	"name: me_silly\nID: 1234\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long time;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long count;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"time=%lu count=%lu\", REC->time, REC->count\n";

static const char exec_format[] =
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n";

static void test_name_split(void **state)
{
	char sys[64], ev[64];
	(void)state;

	assert_int_equal(tp_name_split("silly:me_silly", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_string_equal(sys, "silly");
	assert_string_equal(ev, "me_silly");
	assert_int_not_equal(tp_name_split("silly", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_int_not_equal(tp_name_split(":me_silly", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_int_not_equal(tp_name_split("silly:", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_int_not_equal(tp_name_split("a:b:c", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_int_not_equal(tp_name_split("../x:y", sys, sizeof(sys), ev, sizeof(ev)), 0);
	assert_int_not_equal(tp_name_split("bad-name", sys, sizeof(sys), ev, sizeof(ev)), 0);
}

static void test_format(void **state)
{
	struct tp_arg a[TP_MAX_ARGS];
	(void)state;

	assert_int_equal(tp_parse_format(me_silly_format, a, TP_MAX_ARGS), 2);
	assert_string_equal(a[0].name, "time");
	assert_string_equal(a[1].name, "count");
	assert_int_equal(a[1].kind, TP_ARG_UNSIGNED);
	assert_int_equal(a[1].size, 8);
	assert_int_equal(tp_parse_format(exec_format, a, TP_MAX_ARGS), 3);
	assert_string_equal(a[0].name, "filename");
	assert_int_equal(a[0].kind, TP_ARG_POINTER);
	assert_string_equal(a[1].name, "pid");
	assert_int_equal(a[1].kind, TP_ARG_SIGNED);
	assert_int_equal(a[1].size, 4);
	assert_string_equal(a[2].name, "comm");
	assert_int_equal(tp_parse_format(me_silly_format, a, 1), -E2BIG);
}

/* btf_trace_EVENT: a pointer to void (void *__data, the TP_PROTO arguments...), no names */
static int add_tracepoint_typedef(struct btf *btf, const char *event, const int *types, unsigned n)
{
	char name[64];
	int voidp = btf__add_ptr(btf, 0);	/* before the prototype: parameters follow it */
	int proto = btf__add_func_proto(btf, 0);

	if (btf__add_func_param(btf, NULL, voidp) < 0)
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (btf__add_func_param(btf, NULL, types[i]) < 0)
			return -1;
	snprintf(name, sizeof(name), "btf_trace_%s", event);
	return btf__add_typedef(btf, name, btf__add_ptr(btf, proto));
}

/* __bpf_trace_EVENT, the probe: the same parameters, named */
static int add_probe(struct btf *btf, const char *event, const int *types, const char *const *names, unsigned n)
{
	char name[64];
	int voidp = btf__add_ptr(btf, 0);
	int proto = btf__add_func_proto(btf, 0);

	if (btf__add_func_param(btf, "__data", voidp) < 0)
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (btf__add_func_param(btf, names[i], types[i]) < 0)
			return -1;
	snprintf(name, sizeof(name), "__bpf_trace_%s", event);
	return btf__add_func(btf, name, BTF_FUNC_STATIC, proto);
}

static void test_args_from_btf(void **state)
{
	struct btf *btf = btf__new_empty();
	int ulong = btf__add_int(btf, "long unsigned int", 8, 0);
	int s32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	int pid_t_ = btf__add_typedef(btf, "pid_t", s32);
	int cpid = btf__add_const(btf, pid_t_);	/* through qualifiers and typedefs */
	int charp = btf__add_ptr(btf, btf__add_int(btf, "char", 1, BTF_INT_CHAR));
	const int types[] = { ulong, cpid, charp };
	const char *const names[] = { "time", "pid", "comm" };
	int nine[9] = { ulong, ulong, ulong, ulong, ulong, ulong, ulong, ulong, ulong };
	struct tracepoint t = { 0 };
	(void)state;

	assert_true(add_tracepoint_typedef(btf, "me_silly", types, 3) > 0);
	assert_true(add_probe(btf, "me_silly", types, names, 3) > 0);
	/* a DEFINE_EVENT of another name: no probe of its own */
	assert_true(add_tracepoint_typedef(btf, "me_other", types, 2) > 0);
	assert_true(add_tracepoint_typedef(btf, "me_wide", nine, 9) > 0);
	assert_true(btf__add_typedef(btf, "btf_trace_me_odd", ulong) > 0);

	snprintf(t.event, sizeof(t.event), "me_silly");
	assert_int_equal(tp_args_from_btf(&t, btf), 0);
	assert_int_equal(t.nargs, 3);
	assert_string_equal(t.args[0].name, "time");
	assert_int_equal(t.args[0].kind, TP_ARG_UNSIGNED);
	assert_int_equal(t.args[0].size, 8);
	assert_string_equal(t.args[1].name, "pid");
	assert_int_equal(t.args[1].kind, TP_ARG_SIGNED);
	assert_int_equal(t.args[1].size, 4);
	assert_string_equal(t.args[2].name, "comm");
	assert_int_equal(t.args[2].kind, TP_ARG_POINTER);

	snprintf(t.event, sizeof(t.event), "me_other");
	assert_int_equal(tp_args_from_btf(&t, btf), 0);
	assert_int_equal(t.nargs, 2);
	assert_string_equal(t.args[0].name, "arg0");	/* the count and types, names not guessed */
	assert_string_equal(t.args[1].name, "arg1");
	assert_int_equal(t.args[1].kind, TP_ARG_SIGNED);

	snprintf(t.event, sizeof(t.event), "me_wide");
	assert_int_equal(tp_args_from_btf(&t, btf), -E2BIG);
	snprintf(t.event, sizeof(t.event), "me_odd");
	assert_int_equal(tp_args_from_btf(&t, btf), -EPROTO);
	snprintf(t.event, sizeof(t.event), "me_none");
	assert_int_equal(tp_args_from_btf(&t, btf), -ENOENT);
	btf__free(btf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_split),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_args_from_btf),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
