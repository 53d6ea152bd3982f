// SPDX-License-Identifier: GPL-2.0
/* irqlat's side of the socket (src/client/conn.c) against a server of the test's own on a
 * real Unix socket: the daemon's closing line read and reported when the send fails, an idle
 * or evicted connection opened again, answers bounded by max_answer, lines that are not one
 * JSON object. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>
#include "client/conn.h"
#include "common/json.h"

struct fixture {
	char dir[64], path[100];
	int lfd;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	snprintf(f->dir, sizeof(f->dir), "/tmp/irqlat-conn.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/s.sock", f->dir);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", f->path);
	f->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(f->lfd >= 0);
	assert_int_equal(bind(f->lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(f->lfd, 8), 0);
	signal(SIGPIPE, SIG_IGN);	/* as irqlat does */
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	close(f->lfd);
	unlink(f->path);
	rmdir(f->dir);
	free(f);
	return 0;
}

static void send_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = send(fd, s, len, MSG_NOSIGNAL);

		assert_true(n > 0);
		s += n;
		len -= (size_t)n;
	}
}

/* The daemon's line for a connection it closes (server.c's closing line) */
#define CLOSING(reason, why) "{\"ok\":false,\"error\":\"" why "\",\"closed\":\"" reason "\"}\n"

/* Refused before irqlat sent its request: the send fails (EPIPE), and the daemon's reason,
 * already in irqlat's socket, is what irqlat reports; never "Broken pipe" */
static void test_refused(void **state)
{
	struct fixture *f = *state;
	struct irqlat_conn c = IRQLAT_CONN_NULL;
	_cleanup_json_ json_object *req = conn_new_request("status", NULL), *a = NULL;
	int s;

	assert_int_equal(conn_open(&c, f->path, 1 << 20), 0);
	s = accept(f->lfd, NULL, NULL);
	assert_true(s >= 0);
	send_all(s, CLOSING("full", "too many clients"), strlen(CLOSING("full", "too many clients")));
	close(s);
	assert_int_equal(conn_request(&c, req, 1000, &a), -EREMOTEIO);
	assert_string_equal(c.refusal, "too many clients");
	conn_close(&c);
}

/* A server in a child: for each of its connections, what to do (one char each): 'i' close
 * it idle with the closing line once the request came, 'a' answer the request */
static pid_t serve_child(struct fixture *f, const char *plan)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid)
		return pid;
	alarm(10);	/* a test that failed leaves no child waiting for ever */
	for (const char *p = plan; *p; p++) {
		int s = accept(f->lfd, NULL, NULL);
		char buf[4096];

		if (s < 0)
			_exit(1);
		if (*p == 'i') {
			/* the client sends only after the close: wait for it to have come */
			send_all(s, CLOSING("idle", "closing this connection: no request answered for 30 s"),
				 strlen(CLOSING("idle", "closing this connection: no request answered for 30 s")));
			close(s);
			continue;
		}
		if (read(s, buf, sizeof(buf)) <= 0)
			_exit(1);
		send_all(s, "{\"ok\":true,\"answered\":1}\n", strlen("{\"ok\":true,\"answered\":1}\n"));
		close(s);
	}
	_exit(0);
}

/* A connection the daemon closed as idle is opened again, the request sent once more */
static void test_idle_reconnect(void **state)
{
	struct fixture *f = *state;
	struct irqlat_conn c = IRQLAT_CONN_NULL;
	_cleanup_json_ json_object *req = conn_new_request("status", NULL), *a = NULL;
	pid_t child;
	int st;

	assert_int_equal(conn_open(&c, f->path, 1 << 20), 0);
	child = serve_child(f, "ia");
	usleep(100000);	/* closed by now, as after client-idle-timeout-s */
	assert_int_equal(conn_request(&c, req, 2000, &a), 0);
	assert_int_equal(json_get_i64(a, "answered", 0), 1);
	conn_close(&c);
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* An answer longer than max_answer is not read on: -EMSGSIZE, and no more memory than the
 * bound and one read's room; one within it is read */
static void test_max_answer(void **state)
{
	struct fixture *f = *state;
	struct irqlat_conn c = IRQLAT_CONN_NULL;
	json_object *a = NULL;
	size_t max = 256 * 1024, big = 4 * max, n1;
	char *line = malloc(2 * big);
	int s;

	assert_int_equal(conn_open(&c, f->path, max), 0);
	s = accept(f->lfd, NULL, NULL);
	assert_true(s >= 0);
	/* within the bound: {"ok":true,"pad":"000..."}; then, over it, no newline: a hostile
	 * server's endless line */
	n1 = (size_t)snprintf(line, big, "{\"ok\":true,\"pad\":\"%0*d\"}\n", (int)(max - 32), 0);
	memset(line + n1, 'x', big);
	if (fork() == 0) {
		/* until irqlat stops reading and closes (EPIPE); no cmocka in the child */
		close(c.fd);	/* irqlat's end is irqlat's */
		alarm(10);
		for (size_t off = 0; off < n1 + big;) {
			ssize_t n = send(s, line + off, n1 + big - off, MSG_NOSIGNAL);

			if (n <= 0)
				_exit(0);
			off += (size_t)n;
		}
		_exit(0);
	}
	close(s);
	assert_int_equal(conn_read(&c, 2000, &a), 0);
	json_object_put(a);
	assert_int_equal(conn_read(&c, 2000, &a), -EMSGSIZE);
	assert_true(c.cap <= max + 65536);
	conn_close(&c);
	wait(NULL);
	free(line);
}

/* A line that is not one JSON object: -EBADMSG, the next line still read */
static void test_not_json(void **state)
{
	struct fixture *f = *state;
	struct irqlat_conn c = IRQLAT_CONN_NULL;
	json_object *a = NULL;
	static const char lines[] = "not json\n[1,2]\n{\"ok\":true} x\n{\"ok\":true}\n";
	int s;

	assert_int_equal(conn_open(&c, f->path, 1 << 20), 0);
	s = accept(f->lfd, NULL, NULL);
	send_all(s, lines, sizeof(lines) - 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(conn_read(&c, 1000, &a), -EBADMSG);
	assert_int_equal(conn_read(&c, 1000, &a), 0);
	json_object_put(a);
	close(s);
	assert_int_equal(conn_read(&c, 1000, &a), -ECONNRESET);
	conn_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_reconnect, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_json, setup, teardown),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("conn", tests, NULL, NULL);
}
