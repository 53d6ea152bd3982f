#!/bin/bash
# The wake-up cells' bound (src/daemon/collect/wakeup_reclaim.c, docs/architecture.md section 12), with
# --max-wakeup-cells 4 on a machine whose own sleepers fill 4 cells at once: six short-lived
# sleepers one after another, each of which must get a series of its own (by its pid); then a
# long-lived one, which must get its own too, and whose series must count exactly the sleeps
# the sleeper itself counted (helpers/sleeper.py: it sleeps only when told to, and waits for
# the next command in a pipe read, which no hrtimer wakes); then the dead ones' series must be
# gone (at once when the 4 cells are held, else 60 ticks after their exit: 12 s). The sleepers
# are pinned to one CPU, so that each needs one cell. Every wait is a bounded retry: a cell may
# first go to another task of the machine (then the least woken task gives one up, once it has
# had it 60 ticks). The long-lived sleeper is measured within the 60 ticks after it got its
# cell, when no busier task (another test's cyclictest) can take it.
. "$(dirname "$0")/../lib.sh"
plan 7

SHORT=6
SLEEPER=
cells_cleanup() {
	[ -n "$SLEEPER" ] && kill "$SLEEPER" 2>/dev/null && wait "$SLEEPER" 2>/dev/null
	stop_daemon
	rm -rf "$TMP"
}
trap cells_cleanup EXIT
mount_fs

start_daemon --interval-ms 200 --max-wakeup-cells 4 --exited-task-grace-s 10	# a dead sleeper's series ends 10 s after it exited
check_jq "sched:sched_switch attached, kind wakeup" "$(irqlat status --json)" \
	'(.programs | index("sched:sched_switch") != null) and (.kinds | index("wakeup") != null)'

# the wake-up series as {pid: [count, cells]}, every task with cells of its own
wakeups() { irqlat --top --batch --iterations 1 --json --window total | jq -c '[.timers.wakeups[] | select(.pid != 0) | {key: (.pid | tostring), value: [.count, (.cpus | length)]}] | from_entries'; }
has_series() {	# PID: it has a series of its own
	local w; w=$(wakeups)
	[ "$(jq --arg p "$1" 'has($p)' <<<"$w")" = true ] && return 0
	why "no series of pid $1 among" "$w"; return 1
}
no_series() { [ "$(wakeups | jq --arg p "$1" 'has($p)')" = false ]; }
count_of() { wakeups | jq --arg p "$1" '.[$p][0] // -1'; }
# the count once it holds still (the sleeper waits in a pipe read: no more wake-ups)
settled_count() {
	local a b
	a=$(count_of "$1")
	for _ in $(seq 50); do
		sleep 0.5	# two ticks and more
		b=$(count_of "$1")
		[ "$a" = "$b" ] && { echo "$b"; return 0; }
		a=$b
	done
	echo -1
}

# a sleeper as a coprocess on CPU 1: its pid in SLEEPER (the same as its task's, SL_TASK,
# which it prints); its pipes kept apart from the coprocess's array, which bash unsets when
# the coprocess ends
sleeper_start() {
	coproc SL { exec taskset -c 1 python3 "$TOP/tests/host/helpers/sleeper.py"; }
	SLEEPER=$SL_PID
	exec {SL_IN}>&"${SL[1]}" {SL_OUT}<&"${SL[0]}"
	SL_TASK=
	read -r -t 10 SL_TASK <&"$SL_OUT"
}
sleeper_say() { echo "$1" >&"$SL_IN"; }
sleeper_hear() { local l; read -r -t 60 l <&"$SL_OUT" && echo "$l"; }
sleeper_stop() {	# EOF ends it
	exec {SL_IN}>&- {SL_OUT}<&-
	[ -n "${SL[1]:-}" ] && exec {SL[1]}>&-
	wait "$SLEEPER" 2>/dev/null
	SLEEPER=
}

got=0 pids=
for i in $(seq $SHORT); do
	sleeper_start
	sleeper_say loop
	if [ -n "$SL_TASK" ] && retry_for 40 has_series "$SL_TASK"; then
		got=$((got + 1))
	else
		diag "short sleeper $i (pid ${SL_TASK:-?}): no series of its own within 40 s: $(wakeups)"
	fi
	sleeper_say stop
	diag "short sleeper $i: pid $SL_TASK, $(sleeper_hear)"
	sleeper_stop
	pids="$pids $SL_TASK"
done
check_eqn "each of $SHORT short-lived sleepers got a series of its own ($got)" "$got" "$SHORT" "sleepers with a series" "sleepers"

sleeper_start
sleeper_say loop
retry_for 40 has_series "$SL_TASK"
check "the long-lived sleeper (pid $SL_TASK) got a series of its own after the $SHORT dead ones" has_series "$SL_TASK"
sleeper_say stop
diag "long-lived sleeper: $(sleeper_hear)"
W0=$(settled_count "$SL_TASK")
N=2000
sleeper_say $N
said=$(sleeper_hear)
W1=$(settled_count "$SL_TASK")
D=$((W1 - W0))
diag "long-lived sleeper: '$said'; irqlatd's count $W0, then $W1: $D wake-ups for its $N sleeps"
# not one more than its sleeps; fewer only for a timer that fired before the task was off
# its CPU (not counted, docs/architecture.md section 12): 1% of them at most
counted_sleeps() {
	is_ge "$W0" 0 "its count before (-1: not settled)" && is_ge "$W1" 0 "its count after (-1: not settled)" &&
		is_between "$D" $((N * 99 / 100)) $N "wake-ups counted for its $N sleeps"
}
check "its series counted its $N sleeps ($D; at most $N, at least 99%)" counted_sleeps
sleeper_stop
dead_with_series() {
	local p snap=$(wakeups) n=0
	for p in $pids; do
		[ "$(jq --arg p "$p" 'has($p)' <<<"$snap")" = true ] && n=$((n + 1))
	done
	echo "$n"
}
none_dead() { is_eqn "$(dead_with_series)" 0 "dead sleepers with a series"; }
retry_for 20 none_dead
snap=$(wakeups)
diag "the tasks with cells now: $snap"
check "none of the $SHORT dead sleepers has a series 20 s after the last one's exit at most ($(dead_with_series))" none_dead
check_le "no more than 4 cells held by tasks of their own ($(jq '[.[][1]] | add // 0' <<<"$snap"))" \
	"$(jq '[.[][1]] | add // 0' <<<"$snap")" 4 "cells held by tasks"
# status counts what it gave back: the dead sleepers at least (each exited, or gave its cells up
# for a busier task before the daemon saw it exit)
wc_status=$(irqlat status --json | jq -c .wakeup_cells)
diag "status: wakeup_cells $wc_status"
check_jq "status wakeup_cells: max 4, held <= 4, tasks exited + evicted >= the $SHORT dead sleepers" "$wc_status" \
	'.max == 4 and .held <= 4 and .tasks_exited + .tasks_evicted >= $n' --argjson n "$SHORT"
done_testing
