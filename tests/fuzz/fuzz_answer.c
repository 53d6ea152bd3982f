// SPDX-License-Identifier: GPL-2.0
/* irqlat reading the daemon's answers: the input is what arrives on the socket, written into
 * one end of a socket pair and read with conn_read() from the other (max_answer 2 KiB, as
 * --max-answer-mb bounds it), each answer then escaped and printed as the text commands print
 * it (the table, its sections, CPU load, tracepoints, notes, status, a detach's result).
 * Checked: conn_read() returns an object, -EBADMSG (a line that is not one JSON object),
 * -EMSGSIZE (past max_answer; nothing more is read) or -ECONNRESET at the end, and holds no
 * more than max_answer and a read's room; the text printed holds no control character but
 * newlines and tabs, and no C1 control, whatever the strings were (src/client/escape.h). */
#include <sys/socket.h>
#include <unistd.h>
#include "fuzz.h"
#include "client/conn.h"
#include "client/cpuload.h"
#include "client/escape.h"
#include "client/notes.h"
#include "client/status.h"
#include "client/table.h"
#include "client/tptable.h"
#include "common/kinds/kind.h"

#define MAX_ANSWER 2048	/* under libFuzzer's 4096-byte inputs: past it is tried too */

static char text[1 << 20];

/* Terminal-safe: no control character but tabs and newlines, no C1 control (U+0080 to
 * U+009F). (A column cut inside a character leaves a lone lead byte: a terminal shows it as
 * one wrong character, and what follows it is ASCII or a whole character, never a
 * continuation byte that would make a C1 control of it.) */
static void check_text(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		fuzz_check(c >= 0x20 || c == '\n' || c == '\t', "control character 0x%02x in the text output at %zu", c, i);
		fuzz_check(c != 0x7f, "DEL in the text output at %zu", i);
		fuzz_check(!(c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] < 0xa0), "C1 control in the text output at %zu", i);
	}
}

static void print_all(json_object *a)
{
	FILE *f = fmemopen(text, sizeof(text) - 1, "w");
	struct row *rows = NULL;
	enum column cols[COL_COUNT_];
	int ncols = table_columns(NULL, false, cols, COL_COUNT_);
	struct notes notes;
	int n;

	if (!f)
		abort();
	answer_escape(a);
	n = table_rows(a, &rows);
	if (n >= 0) {
		table_sort(rows, n, SORT_TIME, false);
		table_print(f, a, rows, n, cols, ncols, NULL);
		table_print(f, a, rows, n, cols, ncols, "0-3");
		notes_collect(&notes, a, rows, n, cols, ncols);
		for (int i = 0; i < notes.n; i++)
			fprintf(f, "%s\n", notes.line[i]);
	}
	free(rows);
	/* the other kinds' sections, as irqlat's print_sections() walks them */
	for (enum lat_kind src = kind_next_table(KIND_HARDIRQ); src != KIND_HARDIRQ; src = kind_next_table(src)) {
		rows = NULL;
		n = table_rows_of(a, src, &rows);
		if (n > 0) {
			ncols = table_source_columns(src, false, cols, COL_COUNT_);
			table_print(f, a, rows, n, cols, ncols, NULL);
		}
		free(rows);
	}
	cpuload_print(f, a, 0);
	tp_print_section(f, a, 0);
	status_print(f, a);
	tp_print_result(f, a, "detach", "all");
	fflush(f);
	check_text(text, (size_t)ftell(f));
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct irqlat_conn c = IRQLAT_CONN_NULL;
	size_t off = 0;
	bool done = false;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		abort();
	c.fd = sv[0];
	c.path = "fuzz";
	c.max_answer = MAX_ANSWER;
	while (!done) {
		json_object *a = NULL;
		int r;

		/* as much as the socket takes, then what irqlat reads of it */
		while (off < size) {
			ssize_t n = send(sv[1], data + off, size - off, MSG_DONTWAIT | MSG_NOSIGNAL);

			if (n <= 0)
				break;
			off += (size_t)n;
		}
		if (off == size && sv[1] >= 0) {
			close(sv[1]);
			sv[1] = -1;
		}
		r = conn_read(&c, 0, &a);
		fuzz_check(c.cap <= MAX_ANSWER + 65536, "holds %zu bytes", c.cap);
		if (r == 0) {
			fuzz_check(a && json_object_is_type(a, json_type_object), "an answer that is not an object");
			print_all(a);
			json_object_put(a);
			continue;
		}
		fuzz_check(r == -EBADMSG || r == -EMSGSIZE || r == -ECONNRESET || (r == -ETIMEDOUT && sv[1] >= 0),
			   "conn_read: %d", r);
		done = r == -EMSGSIZE || r == -ECONNRESET;
	}
	if (sv[1] >= 0)
		close(sv[1]);
	conn_close(&c);
	return 0;
}
