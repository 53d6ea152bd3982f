// SPDX-License-Identifier: GPL-2.0
/* The client socket (server.c) on a real sd_event loop and a real Unix socket: one JSON line
 * in, one JSON line out, errors as answers, subscribers, and clients that go away. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include "daemon/server.h"

struct fixture {
	char dir[64], path[100];
	sd_event *ev;
	struct server *srv;
	unsigned requests;
};

/* Echoes the request's "cmd" back; "subscribe" subscribes. */
static json_object *on_request(void *userdata, struct client *cl, json_object *req)
{
	struct fixture *f = userdata;
	json_object *o = json_object_new_object(), *v;

	f->requests++;
	if (json_object_object_get_ex(req, "cmd", &v)) {
		json_object_object_add(o, "cmd", json_object_get(v));
		if (!strcmp(json_object_get_string(v), "subscribe"))
			client_subscribe(cl);
	}
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	return o;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/irqlat-unit.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/sub/irqlatd.sock", f->dir);	/* parents created */
	assert_int_equal(sd_event_new(&f->ev), 0);
	assert_int_equal(server_open(&f->srv, f->ev, f->path, on_request, f), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char sub[100];

	server_close(f->srv);
	assert_int_equal(access(f->path, F_OK), -1);	/* the socket file is removed */
	sd_event_unref(f->ev);
	snprintf(sub, sizeof(sub), "%s/sub", f->dir);
	rmdir(sub);
	rmdir(f->dir);
	free(f);
	return 0;
}

static int connect_to(const struct fixture *f)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", f->path);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* Runs the daemon's side until nothing is pending. */
static void serve(struct fixture *f)
{
	for (int i = 0; i < 50; i++)
		if (sd_event_run(f->ev, 10000) <= 0)
			break;
}

/* One line from fd, parsed; the loop runs while waiting for it. */
static json_object *read_answer(struct fixture *f, int fd)
{
	static char buf[65536];
	static size_t len;
	char *nl;

	for (int tries = 0; !(nl = memchr(buf, '\n', len)); tries++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		assert_true(tries < 100);
		serve(f);
		if (poll(&p, 1, 10) <= 0)
			continue;
		n = read(fd, buf + len, sizeof(buf) - len);
		assert_true(n > 0);
		len += (size_t)n;
	}
	*nl = 0;
	json_object *o = json_tokener_parse(buf);
	assert_non_null(o);
	len -= (size_t)(nl + 1 - buf);
	memmove(buf, nl + 1, len);
	return o;
}

static void send_str(int fd, const char *s)
{
	assert_int_equal(write(fd, s, strlen(s)), (ssize_t)strlen(s));
}

static const char *str(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : "";
}

static int ok(json_object *o)
{
	json_object *v;

	return json_object_object_get_ex(o, "ok", &v) && json_object_get_boolean(v);
}

static void test_request_answer(void **state)
{
	struct fixture *f = *state;
	int fd = connect_to(f);
	json_object *a;

	/* two requests in one write, then one split over two writes: one answer per line */
	send_str(fd, "{\"cmd\":\"one\"}\n{\"cmd\":\"two\"}\n{\"cmd\":");
	a = read_answer(f, fd);
	assert_string_equal(str(a, "cmd"), "one");
	json_object_put(a);
	a = read_answer(f, fd);
	assert_string_equal(str(a, "cmd"), "two");
	json_object_put(a);
	send_str(fd, "\"three\"}\n");
	a = read_answer(f, fd);
	assert_string_equal(str(a, "cmd"), "three");
	assert_true(ok(a));
	json_object_put(a);

	/* not JSON, not an object: an error answer each, and the connection goes on */
	send_str(fd, "not json\n[1,2]\n{\"cmd\":\"four\"}\n");
	for (int i = 0; i < 2; i++) {
		a = read_answer(f, fd);
		assert_false(ok(a));
		assert_non_null(strstr(str(a, "error"), "not a JSON object"));
		json_object_put(a);
	}
	a = read_answer(f, fd);
	assert_string_equal(str(a, "cmd"), "four");
	json_object_put(a);
	assert_int_equal(f->requests, 4);
	close(fd);
}

static void test_subscribers(void **state)
{
	struct fixture *f = *state;
	int sub = connect_to(f), other = connect_to(f);
	json_object *a, *ev = json_object_new_object();

	send_str(sub, "{\"cmd\":\"subscribe\"}\n");
	a = read_answer(f, sub);
	json_object_put(a);
	send_str(other, "{\"cmd\":\"hello\"}\n");
	a = read_answer(f, other);
	json_object_put(a);
	json_object_object_add(ev, "type", json_object_new_string("outlier"));
	server_broadcast(f->srv, ev);
	json_object_put(ev);
	a = read_answer(f, sub);
	assert_string_equal(str(a, "type"), "outlier");
	json_object_put(a);
	/* only subscribers get events */
	struct pollfd p = { .fd = other, .events = POLLIN };
	serve(f);
	assert_int_equal(poll(&p, 1, 50), 0);
	close(sub);
	close(other);
}

/* A client that sends requests and leaves without reading the answers: the daemon's write
 * meets a closed socket. That must cost the daemon nothing (no SIGPIPE), and it keeps
 * serving the others. */
static void test_client_gone(void **state)
{
	struct fixture *f = *state;
	json_object *a;

	for (int i = 0; i < 5; i++) {
		int fd = connect_to(f);

		for (int k = 0; k < 50; k++)
			send_str(fd, "{\"cmd\":\"summary\"}\n");
		close(fd);
		serve(f);
	}
	/* a subscriber that went away, then an event */
	int sub = connect_to(f);
	send_str(sub, "{\"cmd\":\"subscribe\"}\n");
	json_object_put(read_answer(f, sub));
	close(sub);
	json_object *ev = json_object_new_object();
	server_broadcast(f->srv, ev);
	server_broadcast(f->srv, ev);
	json_object_put(ev);

	int fd = connect_to(f);
	send_str(fd, "{\"cmd\":\"still-here\"}\n");
	a = read_answer(f, fd);
	assert_string_equal(str(a, "cmd"), "still-here");
	json_object_put(a);
	close(fd);
	serve(f);
	assert_int_equal(server_clients(f->srv), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_request_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_subscribers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_gone, setup, teardown),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
