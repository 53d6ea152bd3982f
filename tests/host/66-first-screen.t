#!/bin/bash
# irqlat --top at 80x24 in tmux, as a person at a small terminal sees it: the key line keeps
# v and v reaches every view (the views of irqlat(1)'s v cycle); each view's header says its
# own outlier threshold, as the daemon was configured (status --json's config, the daemon's
# defaults); with --interval-ms 100 the window says its real length (10 ticks: 1.0 s); the
# threaded view, empty, says why as /proc's irq/ threads say; -d under the daemon's interval
# does not repeat a snapshot (snapshot_end_ns of -b -J) and says so on stderr; ? shows a help
# that fits.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
plan 7

TM=(tmux -L "irqlat-test66-$$")
PANE=s66:0.0
trap '"${TM[@]}" kill-server 2>/dev/null; reap_tops; cleanup' EXIT
cap() { "${TM[@]}" capture-pane -t "$PANE" -p; }
wait_for() {	# wait_for REGEX [SECONDS]: until the screen shows it
	for _ in $(seq $((${2:-10} * 5))); do
		cap | grep -qE -- "$1" && return 0
		sleep 0.2
	done
	diag "screen never showed '$1'; it shows:"; cap | sed 's/^/#   /'
	return 1
}
new_session() {
	for _ in $(seq 25); do
		"${TM[@]}" new-session -d "$@" 2>/dev/null && return 0
		sleep 0.2
	done
	"${TM[@]}" new-session -d "$@"
}

start_daemon
new_session -s s66 -x 80 -y 24 "env LC_ALL=C $IRQLAT --socket $SOCK"
wait_for "IRQ/s" 10
check "at 80x24 the key line keeps v" sh -c 'cap_last=$(printf "%s\n" "$1" | tail -1); printf "%s\n" "$cap_last" | grep -qE "(^| )v "' _ "$(cap)"

# the daemon's thresholds, as it was configured (its defaults): kind name -> ns
cfg=$(irqlat status --json | jq -c .config)
diag "config: $cfg"
fmt_us() {	# ns -> the unit the screen writes (100us, 1.0ms)
	awk -v ns="$1" 'BEGIN { if (ns < 1000) printf "%dns", ns; else if (ns < 9950) printf "%.1fus", ns / 1e3;
		else if (ns < 999500) printf "%.0fus", ns / 1e3; else if (ns < 9950000) printf "%.1fms", ns / 1e6;
		else printf "%.0fms", ns / 1e6 }'
}
# the v cycle, each view named by the header's "showing" (cut at 80 columns: "CPU loa",
# "hrtimer", "threade" in a run of 2026-12-06)
views=()
seen=""
threaded_line=""
wrong=""
for i in $(seq 10); do
	head=$(cap | head -2)
	title=$(sed -nE '1s/.*; showing (.*)$/\1/p' <<<"$head")
	[ -z "$title" ] && title=handlers
	case "$seen" in *"|$title|"*) break ;; esac
	seen+="|$title|"
	views+=("$title")
	case "$title" in
		handlers*) key=threshold_ns ;;
		softirqs*) key=softirq_threshold_ns ;;
		vector*) key=vector_threshold_ns ;;
		hrtimer*) key=timer_threshold_ns ;;
		task*) key=wakeup_threshold_ns ;;
		thread*) key=threaded_threshold_ns
			threaded_line=$(cap | grep -E '^no threaded IRQ' || true) ;;
		*) key= ;;
	esac
	if [ -n "$key" ]; then
		want=$(fmt_us "$(jq -r --arg k "$key" '.[$k]' <<<"$cfg")")
		grep -q "outlier threshold $want," <<<"$head" || wrong+=" $title: wants $want, shows '$(sed -n 2p <<<"$head" | cut -c1-40)';"
	fi
	"${TM[@]}" send-keys -t "$PANE" v
	sleep 0.6
done
diag "views: ${views[*]}"
check "v reaches the handlers, softirqs, vectors, CPU load, hrtimers, woken tasks and threaded IRQs" \
	sh -c 'for v in handlers softirq vector CPU hrtimer task thread; do printf "%s\n" "$1" | grep -q "|$v" || exit 1; done' _ "$seen"
check "each view's header says its own kind's threshold${wrong:+ (${wrong% ;})}" test -z "$wrong"
# ? at 80x24: the views' line wrapped to the width (every view named), whole paragraphs only,
# and the help's own last line after them (on main the paragraphs ran to the bottom row and
# the last line was written over the middle of one)
"${TM[@]}" send-keys -t "$PANE" '?'
wait_for "^q quits; any other key goes back" 5 >/dev/null
help_screen=$(cap)
help_fits() {
	local vlines before after
	vlines=$(sed -n '/^  v  show/,/^  up\/down/p' <<<"$help_screen" | tr '\n' ' ')
	before=$(sed -n '/^q quits; any other key goes back/{x;p;q};h' <<<"$help_screen")
	after=$(sed -n '/^q quits; any other key goes back/,$p' <<<"$help_screen" | tail -n +2 | grep -c . || true)
	for v in softirqs vector "CPU load" hrtimers woken threaded NMI; do
		grep -qF "$v" <<<"$vlines" || { diag "the v lines lack '$v': $vlines"; return 1; }
	done
	[ "${before: -1}" = . ] || { diag "the line above the last ends inside a paragraph: '$before'"; return 1; }
	[ "$after" -eq 0 ]
}
check "? at 80x24: every view named, whole paragraphs, then the help's last line" help_fits
"${TM[@]}" send-keys -t "$PANE" Escape
# the kernel's IRQ threads, from /proc: none, or some that did not run
nthreads=$(grep -l '^irq/' /proc/[0-9]*/comm 2>/dev/null | wc -l)
if [ "$nthreads" -eq 0 ]; then want_line="no threaded IRQs on this kernel (boot with threadirqs)"; else want_line="no threaded IRQ has run yet ($nthreads IRQ thread"; fi
diag "irq/ threads in /proc: $nthreads; the threaded view says: '${threaded_line:-rows}'"
if [ -z "$threaded_line" ]; then
	skip "threaded IRQs ran: the view has rows"
else
	check "the empty threaded view says why, as /proc's irq/ threads say" grep -qF "$want_line" <<<"$threaded_line"
fi
"${TM[@]}" kill-server
stop_daemon

# a window is 10 ticks: at --interval-ms 100 the "10s" window is 1.0 s, and says so
start_daemon --interval-ms 100
new_session -s s66 -x 80 -y 24 "env LC_ALL=C $IRQLAT --socket $SOCK"
wait_for "IRQ/s" 10
sleep 1.5
check "--interval-ms 100: the header's window says 10s is 1.0 s" sh -c 'printf "%s\n" "$1" | head -1 | grep -qF "window 10s (1.0 s)"' _ "$(cap)"
"${TM[@]}" kill-server
stop_daemon

# -d 0.2 with the daemon's 1 s tick: three different snapshots, and one line saying why
start_daemon
irqlat --top -b -J -n 3 -d 0.2 >"$TMP/d.json" 2>"$TMP/d.err"
diag "stderr: $(cat "$TMP/d.err")"
check "-d 0.2 under the 1 s interval: 3 distinct snapshots, one line on stderr saying so" \
	sh -c '[ "$(jq -s "[.[].snapshot_end_ns] | unique | length" "$1")" -eq 3 ] && [ "$(wc -l <"$2")" -eq 1 ] && grep -q "every 1 s" "$2"' _ "$TMP/d.json" "$TMP/d.err"
stop_daemon
done_testing
