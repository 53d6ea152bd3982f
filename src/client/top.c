// SPDX-License-Identifier: GPL-2.0
/* irqlat --top: the interactive screen's terminal and its loop. One loop: ppoll() on the
 * terminal with a timeout up to the next refresh; keys (top_keys.c) redraw at once from the
 * last snapshot (top_draw.c), the refresh asks the daemon (top_fetch.c). */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <curses.h>
#include "stop.h"
#include "top.h"
#include "top_draw.h"
#include "top_fetch.h"
#include "top_keys.h"

/* for atexit() and the fatal-signal handler, which can reach nothing else */
static bool screen_on;

static void restore_terminal(void)
{
	if (screen_on && !isendwin())
		endwin();
	screen_on = false;
}

/* A crash must not leave the terminal in raw mode on the alternate screen. endwin() is not
 * async-signal-safe, but the process is dying anyway and this is what the user sees. */
static void on_fatal(int sig)
{
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 0, or -ENOTTY with the reason printed (the screen is not up yet, stderr is the user's). */
static int start_screen(struct top *t)
{
	const char *nc = getenv("NO_COLOR");
	const char *cs, *cup;

	/* the arrow marking the sort column: a real arrow where the terminal speaks UTF-8 */
	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	if (cs && !strcmp(cs, "UTF-8")) {
		t->arrow_down = "\xe2\x96\xbc";
		t->arrow_up = "\xe2\x96\xb2";
	} else {
		t->arrow_down = "v";
		t->arrow_up = "^";
	}
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "irqlat: cannot drive this terminal (TERM=%s): set TERM to one terminfo knows, or use --batch\n",
			getenv("TERM") ?: "");
		return -ENOTTY;
	}
	screen_on = true;
	/* terminfo knows "dumb" too, but a screen needs cursor addressing */
	cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		restore_terminal();
		fprintf(stderr, "irqlat: this terminal (TERM=%s) cannot move the cursor, so it cannot show the screen: use --batch\n",
			getenv("TERM") ?: "");
		return -ENOTTY;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	/* https://no-color.org: any non-empty NO_COLOR turns colours off */
	t->color = has_colors() && !(nc && *nc);
	if (t->color) {
		start_color();
		use_default_colors();
		init_pair(PAIR_P99, COLOR_RED, -1);
		init_pair(PAIR_MAX, COLOR_YELLOW, -1);
		init_pair(PAIR_WARN, COLOR_YELLOW, -1);
		init_pair(PAIR_STORM, COLOR_MAGENTA, -1);
	}
	return 0;
}

static void top_init(struct top *t, struct irqlat_conn *conn, const struct cli *c)
{
	enum window w = WINDOW_10S;

	*t = (struct top){ .cli = c, .conn = conn, .connected = true, .cost_ns = -1, .sel_irq = -1 };
	t->sort = (enum sort_key)table_sort_key(c->sort);
	t->reverse = c->reverse;
	if (window_parse(c->window, &w) >= 0)
		t->window = w;
	t->nwant = table_columns(c->columns, true, t->want, COL_COUNT_);
	if (c->cpus) {
		snprintf(t->cpus, sizeof(t->cpus), "%s", c->cpus);
		t->percpu = true;	/* -C asks for those CPUs' lines */
	}
	if (c->delay_asked_s > 0)	/* run() raised -d to the daemon's interval */
		snprintf(t->msg, sizeof(t->msg), "irqlatd refreshes every %g s: -d %g would show a snapshot again, so every %g s",
			 c->delay_s, c->delay_asked_s, c->delay_s);
}

static void top_done(struct top *t)
{
	restore_terminal();
	json_object_put(t->summary);
	json_object_put(t->hist);
	free(t->rows);
	free(t->vis);
}

/* Until q, a stop signal, --iterations or the terminal going away: 0, or -errno when the
 * terminal cannot be read.
 *
 * SIGWINCH is blocked but inside ppoll(). curses' handler only notes a resize, and getch()
 * turns the note into KEY_RESIZE; a SIGWINCH that came while a refresh waited for the daemon
 * (up to 2 s) or while the screen was drawn would otherwise leave the next wait to run its
 * course, and the screen kept the old size for up to --delay. */
static int top_loop(struct top *t)
{
	const struct cli *c = t->cli;
	double next = now_s() + c->delay_s;
	sigset_t winch, waitmask;
	int r = 0;

	sigemptyset(&winch);
	sigaddset(&winch, SIGWINCH);
	if (sigprocmask(SIG_BLOCK, &winch, &waitmask) < 0)
		return -errno;
	sigdelset(&waitmask, SIGWINCH);

	while (!stop_requested()) {
		double wait = next - now_s();
		struct timespec ts = { 0 };
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		enum key_action action = KEY_NONE;
		int ch;

		if (c->iterations && t->refreshes >= c->iterations)
			break;
		if (wait > 0) {
			ts.tv_sec = (time_t)wait;
			ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
		}
		if (ppoll(&pfd, 1, &ts, &waitmask) < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
		if (stop_requested())
			break;
		if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
			break;	/* the terminal went away */
		while ((ch = getch()) != ERR) {
			enum key_action a = top_key(t, ch);

			if (a > action)
				action = a;
			if (action == KEY_QUIT)
				break;
		}
		if (action == KEY_QUIT)
			break;
		if (now_s() >= next) {
			top_fetch(t);
			t->refreshes++;
			next += c->delay_s;
			if (next < now_s())
				next = now_s() + c->delay_s;
			action = KEY_REDRAW;
		} else if (action == KEY_FETCH) {
			top_fetch(t);
		}
		if (action != KEY_NONE)
			top_draw(t);
	}
	sigprocmask(SIG_UNBLOCK, &winch, NULL);
	return r;
}

int top_run(struct irqlat_conn *conn, const struct cli *c)
{
	struct top t;
	int r;

	top_init(&t, conn, c);
	stop_on_signal(SIGHUP);	/* SIGINT and SIGTERM: main() */
	signal(SIGSEGV, on_fatal);
	signal(SIGBUS, on_fatal);
	signal(SIGABRT, on_fatal);
	signal(SIGFPE, on_fatal);
	atexit(restore_terminal);

	top_fetch_status(&t);
	r = start_screen(&t);
	if (r < 0) {
		top_done(&t);
		return r;
	}
	top_fetch(&t);
	t.refreshes = 1;
	top_draw(&t);
	r = top_loop(&t);
	top_done(&t);
	if (r < 0)
		fprintf(stderr, "irqlat: cannot read the terminal: %s\n", strerror(-r));
	return r;
}
