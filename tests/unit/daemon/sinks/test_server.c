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
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include "common/json.h"
#include "daemon/sinks/server.h"

struct fixture {
	char dir[64], path[100];
	sd_event *ev;
	struct server *srv;
	unsigned requests;
};

static const struct server_limits test_limits = {
	.max_clients = 8, .max_clients_per_uid = 4, .max_subscribers = 2, .max_queue_bytes = 64 * 1024,
	.max_request_bytes = 1024, .idle_timeout_s = 30,
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
		if (!strcmp(json_object_get_string(v), "subscribe") &&
		    client_subscribe(cl, json_object_object_get_ex(req, "detail", NULL)) < 0) {
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

/* The next line fd reads has "n": n */
static void expect_n(struct fixture *f, int fd, int64_t n)
{
	json_object *a = read_answer(f, fd);

	assert_int_equal(json_get_i64(a, "n", 0), n);
	json_object_put(a);
}

/* Events in detail go to the subscribers that asked for them, the plain ones to the others,
 * one line an event each; the counts follow subscribe, resubscribe and leaving */
static void test_detail_subscribers(void **state)
{
	struct fixture *f = *state;
	int plain = connect_to(f), detail = connect_to(f);
	json_object *ev = json_object_new_object();

	send_str(plain, "{\"cmd\":\"subscribe\"}\n");
	json_object_put(read_answer(f, plain));
	send_str(detail, "{\"cmd\":\"subscribe\",\"detail\":true}\n");
	json_object_put(read_answer(f, detail));
	assert_int_equal(server_stats(f->srv).subscribers, 2);
	assert_int_equal(server_stats(f->srv).subscribers_detail, 1);
	json_object_object_add(ev, "n", json_object_new_int(1));
	server_broadcast_to(f->srv, ev, SERVER_TO_PLAIN);
	json_object_object_add(ev, "n", json_object_new_int(2));
	server_broadcast_to(f->srv, ev, SERVER_TO_DETAIL);
	json_object_object_add(ev, "n", json_object_new_int(3));
	server_broadcast(f->srv, ev);
	json_object_put(ev);
	expect_n(f, plain, 1);
	expect_n(f, plain, 3);
	expect_n(f, detail, 2);
	expect_n(f, detail, 3);
	/* subscribing again without detail changes only that */
	send_str(detail, "{\"cmd\":\"subscribe\"}\n");
	json_object_put(read_answer(f, detail));
	assert_int_equal(server_stats(f->srv).subscribers, 2);
	assert_int_equal(server_stats(f->srv).subscribers_detail, 0);
	send_str(detail, "{\"cmd\":\"subscribe\",\"detail\":true}\n");
	json_object_put(read_answer(f, detail));
	close(detail);
	close(plain);
	for (int i = 0; i < 20 && server_clients(f->srv); i++)
		serve(f);
	assert_int_equal(server_stats(f->srv).subscribers, 0);
	assert_int_equal(server_stats(f->srv).subscribers_detail, 0);
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

/* The closing line a client reads before EOF, and that it is closed: its "closed" reason */
static const char *closed_with(struct fixture *f, int fd)
{
	static char buf[4096];
	size_t len = 0;
	json_object *o;
	static char reason[32];

	assert_int_equal(drain(f, fd, buf, sizeof(buf), &len), 1);
	o = json_tokener_parse(buf);
	assert_non_null(o);
	assert_false(ok(o));
	snprintf(reason, sizeof(reason), "%s", str(o, "closed"));
	json_object_put(o);
	return reason;
}

/* max_clients (8): a ninth client gets in, and the one that has waited longest for a request
 * (the first, idle since it connected) is told why and closed; the others go on */
static void test_max_clients(void **state)
{
	struct fixture *f = *state;
	int fds[9];

	for (int i = 0; i < 9; i++) {
		fds[i] = connect_to(f);
		serve(f);
	}
	assert_int_equal(server_clients(f->srv), 8);
	assert_string_equal(closed_with(f, fds[0]), "evicted");
	assert_int_equal(server_stats(f->srv).evicted, 1);
	assert_int_equal(server_stats(f->srv).refused, 0);
	for (int i = 1; i < 9; i++) {
		char req[32], cmd[8];

		snprintf(cmd, sizeof(cmd), "c%d", i);
		snprintf(req, sizeof(req), "{\"cmd\":\"%s\"}\n", cmd);
		send_str(fds[i], req);
		json_object *a = read_answer(f, fds[i]);
		assert_string_equal(str(a, "cmd"), cmd);
		json_object_put(a);
	}
	/* now the second one has waited longest (its answer went out first) */
	int tenth = connect_to(f);
	serve(f);
	assert_string_equal(closed_with(f, fds[1]), "evicted");
	for (int i = 0; i < 9; i++)
		close(fds[i]);
	close(tenth);
}

/* Nobody waiting on its client (subscribers wait for events, as they may): a newcomer is told
 * why and closed */
static void test_no_room(void **state)
{
	struct fixture *f = *state;
	struct server_limits l = test_limits;
	int fds[9];

	l.max_subscribers = 8;
	server_set_limits(f->srv, &l);
	for (int i = 0; i < 8; i++) {
		fds[i] = connect_to(f);
		send_str(fds[i], "{\"cmd\":\"subscribe\"}\n");
		json_object *a = read_answer(f, fds[i]);
		assert_true(ok(a));
		json_object_put(a);
	}
	fds[8] = connect_to(f);
	serve(f);
	assert_string_equal(closed_with(f, fds[8]), "full");
	assert_int_equal(server_stats(f->srv).refused, 1);
	assert_int_equal(server_clients(f->srv), 8);
	for (int i = 0; i < 9; i++)
		close(fds[i]);
}

/* idle_timeout_s (1 here): a client that sends nothing is told why and closed, not before
 * the timeout; a subscriber is not */
static void test_idle_timeout(void **state)
{
	struct fixture *f = *state;
	struct server_limits l = test_limits;
	struct timespec t0, t1;
	int idle, sub;

	l.idle_timeout_s = 1;
	server_set_limits(f->srv, &l);
	sub = connect_to(f);
	send_str(sub, "{\"cmd\":\"subscribe\"}\n");
	json_object_put(read_answer(f, sub));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	idle = connect_to(f);
	serve(f);
	for (int i = 0; i < 300 && server_stats(f->srv).timed_out == 0; i++)
		(void)sd_event_run(f->ev, 10000);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(server_stats(f->srv).timed_out, 1);
	assert_true((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 >= 1000);
	assert_string_equal(closed_with(f, idle), "idle");
	assert_int_equal(server_clients(f->srv), 1);	/* the subscriber */
	close(idle);
	close(sub);
}

/* Turns: a client that pipelines 40 requests in one write gets one answered per turn of the
 * loop, so a request another client sends after its first turn is answered before its
 * third answer (all 40 came before it when each read was answered whole) */
static void test_turns(void **state)
{
	struct fixture *f = *state;
	int busy = connect_to(f), other = connect_to(f);
	char req[40 * 16 + 1] = "";
	unsigned answered;
	json_object *a;

	serve(f);
	for (int i = 0; i < 40; i++)
		strcat(req, "{\"cmd\":\"pipe\"}\n");
	send_str(busy, req);
	(void)sd_event_run(f->ev, 10000);	/* the busy client's first turn */
	assert_int_equal(f->requests, 1);
	send_str(other, "{\"cmd\":\"status\"}\n");
	for (int i = 0; i < 100 && !poll(&(struct pollfd){ .fd = other, .events = POLLIN }, 1, 0); i++)
		(void)sd_event_run(f->ev, 10000);
	answered = f->requests;
	a = read_answer(f, other);
	assert_string_equal(str(a, "cmd"), "status");
	json_object_put(a);
	if (answered > 3)
		fail_msg("the other client's request was answered after %u of the busy one's", answered - 1);
	serve(f);
	assert_int_equal(f->requests, 41);	/* and the busy one gets all of its answers */
	close(busy);
	close(other);
}

/* A client that sends and never reads costs one answer in the daemon: none of its requests is
 * read or answered while its last answer is queued (what the kernel's socket buffers hold is
 * all it gets), it is not dropped, and the others are served */
static void test_no_read_while_queued(void **state)
{
	struct fixture *f = *state;
	int slow = connect_to(f), other = connect_to(f);
	int sz = 4096;
	unsigned answered, got = 0;
	char buf[65536];
	ssize_t n;
	json_object *a;

	/* a small receive buffer, so that the kernel does not take it all */
	setsockopt(slow, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	for (int i = 0; i < 200; i++) {
		(void)!send(slow, "{\"cmd\":\"big\"}\n", 14, MSG_NOSIGNAL | MSG_DONTWAIT);
		serve(f);
	}
	answered = f->requests;
	assert_int_equal(server_clients(f->srv), 2);
	send_str(other, "{\"cmd\":\"fine\"}\n");
	a = read_answer(f, other);
	assert_string_equal(str(a, "cmd"), "fine");
	json_object_put(a);
	/* the answers in the kernel's buffers, read without giving the daemon a turn */
	while ((n = recv(slow, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		for (ssize_t i = 0; i < n; i++)
			got += buf[i] == '\n';
	if (answered > got + 1)
		fail_msg("%u answers made, %u in the socket: %u held in the daemon", answered, got, answered - got);
	assert_true(answered < 200);
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

/* A client that sends and never reads is closed after idle_timeout_s (1 s here), also when its
 * last answer went out whole and its next line waits for room in its socket: with small
 * answers that is where it stops (a Unix socket takes answers up to its send buffer, but
 * reports room only under a quarter of it), and a line waiting there was taken for one waiting
 * its turn, exempt for good */
static void test_non_reader_timed_out(void **state)
{
	struct fixture *f = *state;
	struct server_limits l = test_limits;
	int slow = connect_to(f), sz = 4096;
	char buf[65536];
	size_t len = 0;

	l.idle_timeout_s = 1;
	server_set_limits(f->srv, &l);
	setsockopt(slow, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	for (int i = 0; i < 3000; i++) {
		(void)!send(slow, "{\"cmd\":\"one\"}\n", 14, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (i % 100 == 0)
			serve(f);
	}
	for (int i = 0; i < 300 && server_stats(f->srv).timed_out == 0; i++)
		(void)sd_event_run(f->ev, 10000);
	assert_int_equal(server_stats(f->srv).timed_out, 1);
	assert_int_equal(server_clients(f->srv), 0);
	/* closed: what it reads ends */
	assert_int_equal(drain(f, slow, buf, sizeof(buf), &len), 1);
	close(slow);
}

/* The folders on the way (socket_file.h): another user's, or one others may write in, is
 * refused, and nothing is made there; only the socket's own folder is created, in one that
 * exists; a link in the path is resolved once, and the socket bound in its target */
static void test_folders(void **state)
{
	struct fixture *f = *state;
	struct server *srv = NULL;
	char d[128], p[256], t[160];
	struct stat st;

	if (geteuid() != 0)	/* another user's folder takes chown: make unit runs as anyone */
		skip();
	snprintf(d, sizeof(d), "%s/other", f->dir);
	assert_int_equal(mkdir(d, 0755), 0);
	assert_int_equal(chown(d, 65534, 65534), 0);
	snprintf(p, sizeof(p), "%s/s.sock", d);
	assert_int_equal(open_at(f->ev, p, &srv), -EPERM);
	assert_int_equal(access(p, F_OK), -1);
	/* nor a folder made inside it */
	snprintf(p, sizeof(p), "%s/sub/s.sock", d);
	assert_int_equal(open_at(f->ev, p, &srv), -EPERM);
	snprintf(t, sizeof(t), "%s/sub", d);
	assert_int_equal(access(t, F_OK), -1);
	/* a link to it: the same */
	snprintf(t, sizeof(t), "%s/link", f->dir);
	assert_int_equal(symlink("other", t), 0);
	snprintf(p, sizeof(p), "%s/s.sock", t);
	assert_int_equal(open_at(f->ev, p, &srv), -EPERM);
	assert_int_equal(chown(d, 0, 0), 0);
	/* root's again: bound through the link, in its target */
	assert_int_equal(open_at(f->ev, p, &srv), 0);
	snprintf(t, sizeof(t), "%s/s.sock", d);
	assert_int_equal(lstat(t, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	server_close(srv);
	assert_int_equal(access(t, F_OK), -1);
	/* writable by others: refused as the socket's folder, sticky or not */
	assert_int_equal(chmod(d, 0777), 0);
	assert_int_equal(open_at(f->ev, t, &srv), -EPERM);
	assert_int_equal(chmod(d, 01777), 0);
	assert_int_equal(open_at(f->ev, t, &srv), -EPERM);
	/* by a group other than root's: the same */
	assert_int_equal(chmod(d, 0775), 0);
	assert_int_equal(chown(d, 0, 65534), 0);
	assert_int_equal(open_at(f->ev, t, &srv), -EPERM);
	/* above the socket's folder, a sticky one (like /tmp) is fine, a plain one is not */
	assert_int_equal(chmod(d, 01777), 0);
	snprintf(p, sizeof(p), "%s/root", d);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/root/s.sock", d);
	assert_int_equal(open_at(f->ev, p, &srv), 0);
	server_close(srv);
	assert_int_equal(chmod(d, 0777), 0);
	assert_int_equal(open_at(f->ev, p, &srv), -EPERM);
	/* two folders missing: neither is made */
	snprintf(p, sizeof(p), "%s/no/dir/s.sock", f->dir);
	assert_int_equal(open_at(f->ev, p, &srv), -ENOENT);
	snprintf(t, sizeof(t), "%s/no", f->dir);
	assert_int_equal(access(t, F_OK), -1);
	snprintf(p, sizeof(p), "%s/root", d);
	rmdir(p);
	rmdir(d);
	snprintf(t, sizeof(t), "%s/link", f->dir);
	unlink(t);
}

/* Owner, group and mode as configured, on the socket (never through a link put at its path) */
static void test_owner_mode(void **state)
{
	struct fixture *f = *state;
	struct server_access a = { .uid = 65534, .gid = 65534, .mode = 0660 };
	struct server *srv = NULL;
	char p[160];
	struct stat st;

	snprintf(p, sizeof(p), "%s/a.sock", f->dir);
	assert_int_equal(server_open(&srv, f->ev, p, &test_limits, &a, on_request, NULL), 0);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0660);
	assert_int_equal(st.st_uid, 65534);
	assert_int_equal(st.st_gid, 65534);
	server_close(srv);
	a.mode = 0666;
	assert_int_equal(server_open(&srv, f->ev, p, &test_limits, &a, on_request, NULL), 0);
	assert_int_equal(lstat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0666);
	server_close(srv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_request_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_subscribers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detail_subscribers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_clients, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_room, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_turns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_read_while_queued, setup, teardown),
		cmocka_unit_test_setup_teardown(test_non_reader_timed_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trailing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_subscribers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_half_close, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fd_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_not_socket, setup, teardown),
		cmocka_unit_test_setup_teardown(test_folders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owner_mode, setup, teardown),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
