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
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include "common/json.h"
#include "daemon/server.h"

struct fixture {
	char dir[64], path[100];
	sd_event *ev;
	struct server *srv;
	unsigned requests;
};

static const struct server_limits test_limits = {
	.max_clients = 8, .max_subscribers = 2, .max_queue_bytes = 64 * 1024, .max_request_bytes = 1024,
};
static const struct server_access test_access = { .uid = (uid_t)-1, .gid = (gid_t)-1, .mode = 0600 };

/* Echoes the request's "cmd" back; "subscribe" subscribes. */
static json_object *on_request(void *userdata, struct client *cl, json_object *req)
{
	struct fixture *f = userdata;
	json_object *o = json_object_new_object(), *v;

	f->requests++;
	if (json_object_object_get_ex(req, "cmd", &v)) {
		json_object_object_add(o, "cmd", json_object_get(v));
		if (!strcmp(json_object_get_string(v), "subscribe") && client_subscribe(cl) < 0) {
			json_object_put(o);
			return json_error_reply("too many subscribers");
		}
		/* "big": an answer of 16 KiB, for clients that do not read */
		if (!strcmp(json_object_get_string(v), "big")) {
			static char pad[16 * 1024];

			memset(pad, 'x', sizeof(pad) - 1);
			json_object_object_add(o, "pad", json_object_new_string(pad));
		}
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
	assert_int_equal(server_open(&f->srv, f->ev, f->path, &test_limits, &test_access, on_request, f), 0);
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
		assert_non_null(strstr(str(a, "error"), "not one JSON object on one line"));
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

/* ---- the limits (server.h, irqlatd(8) LIMITS) ---- */

/* Everything fd has to read within the loop's turns: 1 when it reached EOF (closed). */
static int drain(struct fixture *f, int fd, char *buf, size_t cap, size_t *len)
{
	for (int tries = 0; tries < 50; tries++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		serve(f);
		if (poll(&p, 1, 10) <= 0)
			continue;
		n = recv(fd, buf + *len, cap - *len - 1, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			return 1;
		if (n > 0)
			*len += (size_t)n;
		buf[*len] = 0;
		if (*len + 1 >= cap)
			*len = 0;	/* only the end matters to the callers */
	}
	return 0;
}

/* max_clients (8): the ninth is told why and closed; the eight go on */
static void test_max_clients(void **state)
{
	struct fixture *f = *state;
	int fds[9];
	char buf[4096];
	size_t len = 0;

	for (int i = 0; i < 9; i++) {
		fds[i] = connect_to(f);
		serve(f);
	}
	assert_int_equal(server_clients(f->srv), 8);
	assert_int_equal(drain(f, fds[8], buf, sizeof(buf), &len), 1);
	assert_non_null(strstr(buf, "too many clients: irqlatd serves at most 8 at once (max-clients)"));
	assert_int_equal(server_stats(f->srv).refused, 1);
	send_str(fds[0], "{\"cmd\":\"still\"}\n");
	json_object *a = read_answer(f, fds[0]);
	assert_string_equal(str(a, "cmd"), "still");
	json_object_put(a);
	for (int i = 0; i < 9; i++)
		close(fds[i]);
}

/* A client that sends and never reads is dropped once its answers pass max_queue_bytes
 * (64 KiB here): the daemon holds no more for it, and serves the others. */
static void test_slow_reader_dropped(void **state)
{
	struct fixture *f = *state;
	int slow = connect_to(f), other = connect_to(f);
	int sz = 4096;
	json_object *a;

	/* a small receive buffer, so that the kernel does not take it all */
	setsockopt(slow, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	for (int i = 0; i < 200 && server_stats(f->srv).dropped == 0; i++) {
		(void)!send(slow, "{\"cmd\":\"big\"}\n", 14, MSG_NOSIGNAL | MSG_DONTWAIT);
		serve(f);
	}
	assert_int_equal(server_stats(f->srv).dropped, 1);
	assert_int_equal(server_clients(f->srv), 1);
	send_str(other, "{\"cmd\":\"fine\"}\n");
	a = read_answer(f, other);
	assert_string_equal(str(a, "cmd"), "fine");
	json_object_put(a);
	close(slow);
	close(other);
}

/* A line over max_request_bytes (1024) gets one error and is skipped to its newline: its
 * tail is never read as a request. A line of exactly the limit is a request. */
static void test_long_line(void **state)
{
	struct fixture *f = *state;
	int fd = connect_to(f);
	char line[1100];
	json_object *a;

	memset(line, ' ', sizeof(line));
	/* 1500 bytes: what is past 1025 would parse as {"cmd":"tail"} if it were read alone */
	send_str(fd, "{\"cmd\":\"x\",\"pad\":\"");
	for (int i = 0; i < 3; i++)
		assert_int_equal(write(fd, line, 400), 400);
	send_str(fd, "\"}{\"cmd\":\"tail\"}\n");
	a = read_answer(f, fd);
	assert_false(ok(a));
	assert_non_null(strstr(str(a, "error"), "request line longer than 1024 bytes"));
	json_object_put(a);
	/* exactly 1024 bytes before the newline */
	snprintf(line, sizeof(line), "{\"cmd\":\"exact\",\"pad\":\"%*s\"}", 1024 - 24, "");
	assert_int_equal(strlen(line), 1024);
	send_str(fd, line);
	send_str(fd, "\n");
	a = read_answer(f, fd);
	assert_string_equal(str(a, "cmd"), "exact");
	json_object_put(a);
	assert_int_equal(f->requests, 1);	/* the tail was never a request */
	close(fd);
}

/* One object and nothing after it but blanks */
static void test_trailing(void **state)
{
	struct fixture *f = *state;
	int fd = connect_to(f);
	json_object *a;

	send_str(fd, "{\"cmd\":\"status\"} trailing\n{\"cmd\":\"a\"}{\"cmd\":\"b\"}\n{\"cmd\":\"blank\"} \t\r\n");
	for (int i = 0; i < 2; i++) {
		a = read_answer(f, fd);
		assert_false(ok(a));
		json_object_put(a);
	}
	a = read_answer(f, fd);
	assert_string_equal(str(a, "cmd"), "blank");
	json_object_put(a);
	assert_int_equal(f->requests, 1);
	close(fd);
}

/* max_subscribers (2): the third subscribe is refused; one leaving makes room */
static void test_max_subscribers(void **state)
{
	struct fixture *f = *state;
	int s[3];
	json_object *a;

	for (int i = 0; i < 3; i++) {
		s[i] = connect_to(f);
		send_str(s[i], "{\"cmd\":\"subscribe\"}\n");
		a = read_answer(f, s[i]);
		assert_int_equal(ok(a), i < 2);
		json_object_put(a);
	}
	assert_int_equal(server_stats(f->srv).subscribers, 2);
	close(s[0]);
	serve(f);
	send_str(s[2], "{\"cmd\":\"subscribe\"}\n");
	a = read_answer(f, s[2]);
	assert_true(ok(a));
	json_object_put(a);
	close(s[1]);
	close(s[2]);
}

/* A client that sends its requests and shuts its side (socat, a script) still gets every
 * answer, then the connection is closed. */
static void test_half_close(void **state)
{
	struct fixture *f = *state;
	int fd = connect_to(f);
	char buf[65536];
	size_t len = 0;

	send_str(fd, "{\"cmd\":\"big\"}\n{\"cmd\":\"big\"}\n{\"cmd\":\"last\"}\n");
	shutdown(fd, SHUT_WR);
	assert_int_equal(drain(f, fd, buf, sizeof(buf), &len), 1);
	assert_non_null(strstr(buf, "\"cmd\":\"last\""));
	assert_int_equal(server_clients(f->srv), 0);
	close(fd);
}

/* At the descriptor limit the loop must sleep, not spin on accept4() failing with EMFILE;
 * a client closing lets it accept again. */
static void test_fd_limit(void **state)
{
	struct fixture *f = *state;
	struct rlimit old, low;
	int fds[8], n = 0, extra;

	getrlimit(RLIMIT_NOFILE, &old);
	/* room for five more descriptors: the test's three ends and the daemon's two (for two
	 * clients), no sixth. The five lowest free numbers need not be consecutive (what the
	 * test inherited, e.g. make's or flock's, may sit among them): the limit is one past the
	 * fifth of them. */
	int probe[5];

	for (int i = 0; i < 5; i++)
		assert_true((probe[i] = dup(0)) >= 0);
	for (int i = 0; i < 5; i++)
		close(probe[i]);
	low = old;
	low.rlim_cur = (rlim_t)probe[4] + 1;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	for (n = 0; n < 2; n++) {
		fds[n] = connect_to(f);
		serve(f);
	}
	extra = connect_to(f);	/* in the backlog: accept4() cannot take it (EMFILE) */
	for (int i = 0; i < 5; i++)
		(void)sd_event_run(f->ev, 0);
	/* paused: nothing to dispatch for 100 ms (a spinning loop would dispatch at once) */
	assert_int_equal(sd_event_run(f->ev, 100000), 0);
	assert_true(server_stats(f->srv).accept_pauses >= 1);
	close(fds[0]);
	serve(f);	/* the daemon's end of it closes: a descriptor is free, the backlog is taken */
	setrlimit(RLIMIT_NOFILE, &old);
	send_str(extra, "{\"cmd\":\"in\"}\n");
	json_object *a = read_answer(f, extra);
	assert_string_equal(str(a, "cmd"), "in");
	json_object_put(a);
	close(fds[1]);
	close(extra);
}

/* ---- the socket file ---- */

/* The configured mode; created 0600 first, so nobody connects before it is set */
static void test_mode(void **state)
{
	struct fixture *f = *state;
	struct stat st;

	assert_int_equal(stat(f->path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
}

static int open_at(sd_event *ev, const char *path, struct server **srv)
{
	return server_open(srv, ev, path, &test_limits, &test_access, on_request, NULL);
}

/* Something at the path that is not a socket is never replaced (nor removed at the end); a
 * socket nobody answers on is; a live one is refused. */
static void test_path_not_socket(void **state)
{
	struct fixture *f = *state;
	char path[96], buf[16] = "";
	struct server *srv = NULL;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/file", f->dir);
	fp = fopen(path, "w");
	fputs("data\n", fp);
	fclose(fp);
	assert_int_equal(open_at(f->ev, path, &srv), -EEXIST);
	fp = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "data\n");
	unlink(path);
	/* a symbolic link to a file: the same, the link and its target stay */
	snprintf(buf, sizeof(buf), "file2");
	char target[100];
	snprintf(target, sizeof(target), "%s/file2", f->dir);
	fp = fopen(target, "w");
	fclose(fp);
	assert_int_equal(symlink("file2", path), 0);
	assert_int_equal(open_at(f->ev, path, &srv), -EEXIST);
	assert_int_equal(access(target, F_OK), 0);
	unlink(path);
	unlink(target);
	/* the live one, the fixture's */
	assert_int_equal(open_at(f->ev, f->path, &srv), -EADDRINUSE);
	/* a stale socket: bound, never listened on */
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	assert_int_equal(open_at(f->ev, path, &srv), 0);
	/* whatever replaces our socket is not ours to remove */
	unlink(path);
	fp = fopen(path, "w");
	fclose(fp);
	server_close(srv);
	assert_int_equal(access(path, F_OK), 0);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_request_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_subscribers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_clients, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slow_reader_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trailing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_subscribers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_half_close, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fd_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_not_socket, setup, teardown),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
