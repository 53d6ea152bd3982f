# shellcheck shell=bash
# irqlat --top driven in tmux as a person would, for the tests of the screen (tests/host/5*-top-*.t):
# keys in, the screen's text out (capture-pane), parsed by helpers/screen.py independently of
# irqlat's code. Sourced after tests/lib.sh; each test has a tmux server of its own.

TM=(tmux -L "irqlat-test-$$")
PANE=top:0.0
# The daemon the screen tests run: threshold 1 us, so that every busy handler crosses it and
# the colours have something to mark; --bpf-stats for the header's cost per IRQ
TOP_DAEMON_ARGS=(--threshold-us 1 --outlier-rate 1 --interval-ms 1000 --bpf-stats --no-tracepoints)
FIO_PID=

top_cleanup() {
	"${TM[@]}" kill-server 2>/dev/null
	reap_tops
	stop_fio
	cleanup
}
trap top_cleanup EXIT

# new_session ARGS...: tmux new-session -d, again while it fails. kill-server returns before
# the old server has gone, and a new-session meeting it fails ("no server running"): 10 times
# in 100 here when one came right after the other, as in clean-clone run E1 (2026-12-05),
# whose last check then found no screen at all.
new_session() {
	for _ in $(seq 25); do
		"${TM[@]}" new-session -d "$@" 2>/dev/null && return 0
		sleep 0.2
	done
	"${TM[@]}" new-session -d "$@"
}
stop_fio() {	# fio_load runs in a subshell: stop its fio processes by their pids
	[ -n "$FIO_PID" ] || return 0
	local kids
	kids=$(pgrep -P "$FIO_PID")
	# shellcheck disable=SC2086 # one pid per word
	[ -n "$kids" ] && kill $kids 2>/dev/null
	wait "$FIO_PID" 2>/dev/null
	FIO_PID=
}

screen() { python3 "$TOP/tests/host/helpers/screen.py" "$@"; }	# screen json|sorted|scope|hist FILE ...
jqe() { local n=$#; jq_true "<${!n}" "${@:n-1:1}" "${@:1:n-2}"; }	# jqe [JQ_OPTIONS...] FILTER FILE: jq prints true
cap() { "${TM[@]}" capture-pane -t "$PANE" -p "$@"; }
# A whole frame: two captures in a row that agree (the screen redraws every 2 s).
frame() {
	local a b
	for _ in $(seq 20); do
		a=$(cap "$@"); sleep 0.3; b=$(cap "$@")
		[ "$a" = "$b" ] && { printf '%s\n' "$a"; return 0; }
	done
	printf '%s\n' "$b"
}
# wait_for REGEX [SECONDS]: until the screen shows it; else what it shows, for the check (or
# diag_why) to print
wait_for() {
	for _ in $(seq $((${2:-10} * 5))); do
		cap | grep -qE -- "$1" && return 0
		sleep 0.2
	done
	why "the screen never showed" "$1"; why "it shows" "$(cap)"
	return 1
}
keys() { "${TM[@]}" send-keys -t "$PANE" "$@"; sleep 0.4; }
pane_cmd() { "${TM[@]}" display-message -p -t "$PANE" '#{pane_current_command}'; }
pane_flag() { "${TM[@]}" display-message -p -t "$PANE" "#{$1}"; }
wait_shell() {	# until irqlat has exited and the shell has the terminal again
	for _ in $(seq 50); do
		[ "$(pane_cmd)" = bash ] && return 0
		sleep 0.2
	done
	why "after 10 s the pane still runs" "$(pane_cmd)"
	return 1
}
type_cmd() { "${TM[@]}" send-keys -t "$PANE" -l "$1"; "${TM[@]}" send-keys -t "$PANE" Enter; }

# top_under_load: the daemon with TOP_DAEMON_ARGS, fio in the background (FIO_PID), and in a
# shell in tmux (120x30, its terminal modes saved in $TMP/stty.before) irqlat --delay 2, up
# once its header shows
top_under_load() {
	start_daemon "${TOP_DAEMON_ARGS[@]}"
	fio_load 120 &
	FIO_PID=$!
	sleep 2
	new_session -s top -x 120 -y 30 "env -u LANG LC_ALL=C PS1='irqlat-test\$ ' bash --norc --noprofile"
	sleep 0.5
	type_cmd "stty -g > $TMP/stty.before; tput cnorm"
	type_cmd "$IRQLAT --socket $SOCK --delay 2"
	wait_for "IRQ/s" 10 || diag_why
}

# resize_to COLS ROWS: until irqlat has redrawn for that size, its key line whole on the last
# row. Until then tmux shows the old frame cut to the new size, whose key line (fitted to the
# old width) is cut short or on another row. A fixed 0.5 s was too short once: clean-clone run
# C1 (2026-12-05, SANITIZE=1) captured the old frame, the resize having come while a refresh
# waited for the daemon (irqlat then redrew only at the next refresh; 56-top-terminal.t checks
# that). The wait is bounded; the checks after it fail on a screen never redrawn.
resize_to() {
	"${TM[@]}" resize-window -t top -x "$1" -y "$2"
	for _ in $(seq 50); do
		cap | sed -n "${2}p" | grep -qE '^q quit  \? help  .*  Enter histogram *$' && return 0
		sleep 0.2
	done
	diag "no key line on row $2 after 10 s at ${1}x$2; the screen shows:"; cap | sed 's/^/#   /'
}
