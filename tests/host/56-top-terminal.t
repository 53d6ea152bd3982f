#!/bin/bash
# irqlat --top and its terminal, driven in tmux (helpers/top.sh) under fio load: rows over the
# outlier threshold are coloured, never with NO_COLOR; at 80x24 columns drop and nothing
# spills, at 160x40 they are back; a daemon that goes away is said so and met again; q and
# SIGTERM give the shell its terminal back as it was (alternate screen, cursor, stty); and a
# resize that comes while a refresh waits for the daemon is drawn as soon as the answer is in.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/host/helpers/top.sh
. "$TOP/tests/host/helpers/top.sh"
plan 16

IRQ=$(disk_irq)
diag "disk IRQ: ${IRQ:-none}"
top_under_load
wait_for "^ +$IRQ " 10 || diag_why

# colours: rows over the 1 us threshold are red (SGR 31), in the pane's own escape codes. Red
# takes a p99 over the threshold of enough runs (a p99 of a few is their slowest run): the
# first frames after start may have none yet, so up to 10 s of frames
red_frame() {
	for _ in $(seq 10); do
		frame -e >"$TMP/colour"
		grep -qP '\e\[([0-9]+;)*31(;[0-9]+)*m' "$TMP/colour" && return 0
		sleep 1
	done
	why "no red row in 10 s of frames; the last" "$(sed 's/\x1b\[[0-9;]*m//g' "$TMP/colour")"
	return 1
}
check "rows over the outlier threshold are coloured" red_frame

# resize: 80x24 drops columns, never spills; a wide terminal shows them all again
KEY_LINE='^q quit  \? help  .*  Enter histogram *$'	# the key line, whole
resize_to 80 24
frame >"$TMP/small"
widest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/small")
fits_80x24() {
	is_le "$widest" 80 "the widest line" || { why "the screen" "$(cat "$TMP/small")"; return 1; }
	has_line "$(sed -n 24p "$TMP/small")" -E "$KEY_LINE"
}
check "at 80x24 no line is wider than 80 ($widest) and the key line is on line 24, whole" fits_80x24
screen json "$TMP/small" >"$TMP/small.json"
check "at 80x24 IRQ, NAME and P99 stay, and the rows are there" \
	jqe '(.cols | index("IRQ") and index("NAME") and index("P99")) and (.rows | length > 0)' "$TMP/small.json"
resize_to 160 40
frame >"$TMP/big"
screen json "$TMP/big" >"$TMP/big.json"
check "at 160x40 every column is back" jqe '.cols | length == 12' "$TMP/big.json"

# the daemon restarts: the screen says so, keeps running, and reconnects
stop_daemon
check "daemon gone: the screen says 'irqlatd not reachable, retrying'" wait_for "irqlatd not reachable, retrying" 10
check_eq "... and irqlat is still running" "$(pane_cmd)" irqlat "the pane runs"
start_daemon "${TOP_DAEMON_ARGS[@]}"
reconnected() {
	for _ in $(seq 50); do
		cap | grep -q "not reachable" || { cap | grep -qE "^ +$IRQ " && return 0; }
		sleep 0.2
	done
	why "after 10 s, no row of IRQ $IRQ without 'not reachable'; the screen" "$(cap)"
	return 1
}
check "daemon back: the screen reconnects and shows rows again" reconnected

# q: the shell gets a restored terminal back
keys q
check "q exits irqlat" wait_shell
check_eq "q leaves the alternate screen" "$(pane_flag alternate_on)" 0 "tmux's alternate_on"
check_eq "q shows the cursor again" "$(pane_flag cursor_flag)" 1 "tmux's cursor_flag"
type_cmd "stty -g > $TMP/stty.after"
sleep 0.5
check_same "q restores the terminal modes (stty -g before = after)" "$TMP/stty.before" "$TMP/stty.after"
check_match "the shell prompt is back" "$(cap | grep -v '^$' | tail -1)" '^irqlat-test\$'

# NO_COLOR: no colours; SIGTERM: terminal restored too
type_cmd "NO_COLOR=1 $IRQLAT --socket $SOCK --delay 2"
wait_for "^ +$IRQ " 10 || diag_why
frame -e >"$TMP/nocolour"
check_no_grep "NO_COLOR: no coloured rows" -P '\e\[([0-9]+;)*3[13](;[0-9]+)*m' "$TMP/nocolour"
pid=$(pgrep -P "$(pane_flag pane_pid)" -x irqlat)
kill -TERM "$pid"
check "SIGTERM exits irqlat" wait_shell
type_cmd "stty -g > $TMP/stty.after2"
sleep 0.5
alt=$(pane_flag alternate_on)
restored() { is_eq "$alt" 0 "tmux's alternate_on" && same_file "$TMP/stty.before" "$TMP/stty.after2"; }
check "SIGTERM restores the terminal (alternate screen left, stty as before)" restored
"${TM[@]}" kill-server
stop_fio
stop_daemon

# a resize that comes while a refresh waits for the daemon is drawn as soon as the answer is in,
# not at the next refresh (irqlat(1) takes SIGWINCH in ppoll() only). The daemon is stopped
# (SIGSTOP) to make the refresh wait; irqlat's request timeout is 2 s, its refresh every 5 s.
# Only this irqlat talks to the daemon now, so a request waiting on the daemon's side of a
# connection (ss's Recv-Q) is this refresh's.
start_daemon --interval-ms 500 --tracepoint sched:sched_process_exec
new_session -s top -x 120 -y 30 "env LC_ALL=C $IRQLAT --socket $SOCK --delay 5"
on_row() { cap | sed -n "${1}p" | grep -qE "$KEY_LINE"; }
for _ in $(seq 50); do on_row 30 && break; sleep 0.2; done
kill -STOP "$DAEMON_PID"
asked=no
for _ in $(seq 80); do	# the next refresh within 5 s
	ss -x -H -n state established src "$SOCK" | awk '$2 > 0 { f = 1 } END { exit !f }' && { asked=yes; break; }
	sleep 0.1
done
[ "$asked" = yes ] || { diag "no request waited on the stopped daemon; the screen:"; cap | sed 's/^/#   /'; }
"${TM[@]}" resize-window -t top -x 80 -y 24
sleep 0.3
kill -CONT "$DAEMON_PID"
t0=$(date +%s%N)
drawn=no
until [ $(( $(date +%s%N) - t0 )) -gt 4000000000 ]; do
	on_row 24 && { drawn=yes; break; }
	sleep 0.05
done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
drawn_soon() {
	is_eq "$asked" yes "a request waited on the stopped daemon" && is_eq "$drawn" yes "the key line on row 24 within 4 s" &&
		is_le "$ms" 1500 "ms from the answer to the drawing"
}
check "a resize while a refresh waits on the daemon (request pending: $asked) is drawn within 1.5 s of the answer (drawn: $drawn, $ms ms), not at the next refresh (--delay 5)" drawn_soon
"${TM[@]}" kill-server
stop_daemon
done_testing
