// SPDX-License-Identifier: GPL-2.0
/* tp_watch.c: what the module watcher's records do to the set. A refused unload of a module a
 * tracepoint holds is logged once per attach, naming the tracepoint and the way out; not for
 * another module, another error, or a tracepoint that is not attached. A freed module sends its
 * tracepoints back to waiting (an attached one, after a failed init, detached with a warning).
 * A load whose tracepoint is not in tracefs attaches nothing. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "../tp_fixture.h"

static int feed(struct tp_set *s, uint32_t what, const char *module, long ret)
{
	struct module_event e = { .kind = RB_MODULE, .what = what, .ret = ret, .pid = 77, .tgid = 77,
				  .comm = "rmmod", .ts_ns = 5000000000ull };

	snprintf(e.name, sizeof(e.name), "%s", module);
	return tracepoints_handle(s, &e, sizeof(e));
}

/* me_silly attached, holding sillymod; the log captured from here */
static void held(struct tp_set *s, struct tracepoint *t)
{
	tp_fixture_one(s, t, 0);
	snprintf(t->module, sizeof(t->module), "sillymod");
	tp_capture_begin();
}

static void test_unload_refused(void **state)
{
	struct tp_set s;
	struct tracepoint t;
	char *log;
	(void)state;

	held(&s, &t);
	assert_int_equal(feed(&s, MODULE_UNLOAD_REFUSED, "sillymod", -EWOULDBLOCK), 0);
	assert_int_equal(feed(&s, MODULE_UNLOAD_REFUSED, "sillymod", -EWOULDBLOCK), 0);	/* the second: no line */
	assert_int_equal(feed(&s, MODULE_UNLOAD_REFUSED, "othermod", -EWOULDBLOCK), 0);
	t.refusal_logged = false;
	assert_int_equal(feed(&s, MODULE_UNLOAD_REFUSED, "sillymod", -EPERM), 0);	/* not a reference */
	t.state = TP_DETACHED;
	assert_int_equal(feed(&s, MODULE_UNLOAD_REFUSED, "sillymod", -EWOULDBLOCK), 0);	/* not held */
	log = tp_capture_end();
	assert_int_equal(tp_count(log, "could not unload"), 1);
	assert_int_equal(tp_count(log, "rmmod[77] could not unload module sillymod: irqlatd holds it through tracepoint silly:me_silly; 'irqlat detach silly:me_silly'"), 1);
	free(log);
}

static void test_module_freed(void **state)
{
	struct tp_set s;
	struct tracepoint t;
	char *log;
	(void)state;

	held(&s, &t);
	assert_int_equal(feed(&s, MODULE_FREED, "othermod", 0), 0);
	assert_int_equal(t.state, TP_ATTACHED);
	assert_int_equal(feed(&s, MODULE_FREED, "sillymod", 0), 0);	/* attached: its init failed */
	assert_int_equal(t.state, TP_WAITING);
	t.state = TP_DETACHED;
	assert_int_equal(feed(&s, MODULE_FREED, "sillymod", 0), 0);
	assert_int_equal(t.state, TP_WAITING);
	log = tp_capture_end();
	assert_int_equal(tp_count(log, "module sillymod was freed while irqlatd was attached to its tracepoint silly:me_silly"), 1);
	assert_int_equal(tp_count(log, "tracepoint silly:me_silly is gone (module sillymod was unloaded)"), 1);
	assert_string_equal(t.module, "sillymod");	/* kept: "waiting for module sillymod" */
	free(log);
}

static void test_loaded_absent(void **state)
{
	struct tp_set s;
	struct tracepoint t;
	(void)state;

	tp_fixture_one(&s, &t, 0);
	t.state = TP_WAITING;
	snprintf(t.system, sizeof(t.system), "nosuchsystem%d", (int)getpid());
	assert_int_equal(feed(&s, MODULE_LOADED, "sillymod", 0), 0);
	assert_int_equal(t.state, TP_WAITING);
	assert_int_equal(t.attaches, 0);
	assert_int_equal(feed(&s, 99, "sillymod", 0), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unload_refused),
		cmocka_unit_test(test_module_freed),
		cmocka_unit_test(test_loaded_absent),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
