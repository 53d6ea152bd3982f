#!/bin/sh
# Module tracepoints from the moment the module loads, in Debian's 6.1 kernel. irqlatd runs
# first; `insmod sillymod.ko period_ms=200`: every "hello! N" from N = 0 is in
# `irqlat events --json` exactly once and none is invented, on the first load and again after
# rmmod and a second insmod (the module:module_load watcher attaches before the module's first
# period is over). While attached, the kernel counts irqlatd's link as a reference on the
# module (/sys/module/sillymod/refcnt): rmmod fails, irqlatd logs that once per load naming the
# tracepoint, and `irqlat status` names the module held; after `irqlat detach` the count is 0
# and rmmod works. Afterwards `irqlat events -n 20` gives the last 20 events again, with
# wall-clock times within a second of the guest's own clock. No jq here: sed and awk.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ]; then
	skip "irqlatd attaches at module load" "irqlatd/irqlat not built"
	exit 0
fi
work=/tmp/irqlatd-modload
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
kmsg_mark() { echo "vmtest-30: $1" >/dev/kmsg; }
refcnt() { cat /sys/module/sillymod/refcnt 2>/dev/null || echo none; }
daemon_log() { diag_file "$work/daemon.log"; }
kmsg_mark start
start=$(date +%s)

# outliers off (every threshold 0): the event ring then holds the module's events only.
# Timers on: their functions are named at start-up (src/daemon/system/timer_names.c), so no scan of
# /proc/kallsyms holds the loop while the module loads (one did, and lost hellos 0 to 4 in 1
# of 2 runs; docs/architecture.md section 12)
"$IRQLATD" --socket "$sock" --log-target stderr --verbose --interval-ms 200 --threshold-us 0 --softirq-threshold-us 0 --softirq-raise-threshold-us 0 --vector-threshold-us 0 --timer-threshold-us 0 --wakeup-threshold-us 0 --threaded-threshold-us 0 --threaded-run-threshold-us 0 \
	--tracepoint silly:me_silly >"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
if retry 10 up; then ok "irqlatd runs before the module is loaded"; else
	not_ok "irqlatd runs before the module is loaded"; daemon_log; exit 1; fi
check "silly:me_silly waits, found by the module:module_load watcher (status: watch module_load)" \
	[ "$(tp_field state) $(tp_field watch)" = "waiting module_load" ]

# from the ring what came before it subscribed (its start takes a few hundred ms here), then
# the stream: nothing in between is lost
irqlat events --follow --json --since "@$start" >"$work/events.json" 2>&1 &
sub=$!

# one_load N: a load at period_ms=200, 20 hellos, two refused rmmods, detach, rmmod. The
# daemon's attach must come within the module's first period; at 50 ms, under TCG on a host
# whose two CPUs were busy with other builds, load 1 missed "hello! 0" once (attached 790 ms
# after insmod, irqlat's polls included)
one_load() {
	kmsg_mark "load $1"
	insmod_and_wait 5 "load $1: attached after insmod sillymod.ko period_ms=200" daemon_log 200
	load=$1
	hellos() { dmesg | sed -n "/vmtest-30: load $load\$/,\$p" | grep -c 'hello! '; }
	twenty() { is_ge "$(hellos)" 20 "hellos"; }
	retry 8 twenty || diag "load $1: only $(hellos) hello! lines in 8 s"
	check_eq "load $1: the kernel counts irqlatd's link on the module (refcnt $(refcnt))" "$(refcnt)" 1
	in_use() { ! rmmod sillymod 2>"$work/rmmod.err" && [ -e /sys/module/sillymod ]; }
	if in_use; then ok "load $1: while attached, rmmod fails: $(cat "$work/rmmod.err")"; else
		not_ok "load $1: while attached, rmmod fails"; fi
	in_use || true
	refused() {
		[ "$(grep -c 'could not unload module sillymod: irqlatd holds it through tracepoint silly:me_silly; .irqlat detach silly:me_silly' "$work/daemon.log")" = "$1" ]
	}
	check "load $1: irqlatd logged the refused rmmod once (of two), naming the tracepoint and the way out" retry 3 refused "$1"
	check_eq "load $1: status names the module held" "$(tp_field module) $(tp_field holds_module)" "sillymod true"
	kmsg_mark "detach $1"
	check "load $1: irqlat detach silly:me_silly" irqlat detach silly:me_silly
	check_eq "load $1: refcnt 0 after the detach" "$(refcnt)" 0
	check "load $1: rmmod works after the detach" rmmod sillymod
	check "load $1: silly:me_silly waits again (module:module_free)" retry 3 tp_state_is waiting
}
one_load 1
one_load 2
sleep 0.3
kill "$sub" 2>/dev/null || true
dmesg | sed -n '/vmtest-30: start/,$p' >"$work/kernel.log"

hello_loads <"$work/kernel.log" >"$work/hello"
tp_loads <"$work/events.json" >"$work/ours"
diag "irqlatd: $(tr '\n' ';' <"$work/ours")"
diag "hello!:  $(tr '\n' ';' <"$work/hello")"
if same_loads "$work/ours" "$work/hello" >"$work/diff"; then
	ok "both loads: counts from 0, each once, each one the module printed"
else
	not_ok "both loads: counts from 0, each once, each one the module printed"; diag_file "$work/diff"
fi
# the end of each load: every hello! before the detach request (less the last, whose trace
# call may race the detach) is there
through_detach() {
	for l in 1 2; do
		want=$(sed -n "/vmtest-30: load $l\$/,/vmtest-30: detach $l\$/s/.*hello! \([0-9][0-9]*\)\$/\1/p" "$work/kernel.log" | sed '$d' | tail -n 1)
		have=$(awk -v l="$l" '$1 == l { m = $2 } END { print m + 0 }' "$work/ours")
		[ -n "$want" ] && [ "$have" -ge "$want" ] || { diag "load $l: last count $have, hello! up to $want before the detach"; return 1; }
	done
}
check "both loads: none missing up to the detach" through_detach
grep "tracepoint silly:me_silly: attached in" "$work/daemon.log" | sed 's/^irqlatd: debug: /load: /' | while read -r l; do diag "$l"; done

# after the fact: the last 20 again, from the daemon's ring, with wall-clock times
irqlat events -n 20 --json >"$work/last20.json" 2>"$work/last20.err" || true
tail -n 20 "$work/events.json" | grep '"tracepoint"' >"$work/stream20.json" || true
pairs() { sed -n 's/.*"ts_ns":\([0-9]*\).*"count":\([0-9]*\).*/\1 \2/p' "$1"; }
last20_same() {
	[ "$(wc -l <"$work/last20.json")" = 20 ] || { diag "$(wc -l <"$work/last20.json") lines: $(cat "$work/last20.err")"; return 1; }
	pairs "$work/last20.json" >"$work/a"; pairs "$work/stream20.json" >"$work/b"
	diff "$work/a" "$work/b" >"$work/diff20" || { diag_file "$work/diff20"; return 1; }
}
check "irqlat events -n 20 afterwards: the last 20 events the stream had" last20_same
set -- $(realtime_at_uptime)
wall_ok() {	# each event's wall_ns against the guest's clock at its CLOCK_MONOTONIC ts_ns
	sed -n 's/.*"ts_ns":\([0-9]*\),"wall_ns":\([0-9]*\).*/\1 \2/p' "$work/last20.json" >"$work/walls"
	[ "$(wc -l <"$work/walls")" = 20 ] || { diag "no ts_ns/wall_ns pairs"; return 1; }
	awk -v r="$1" -v u="$2" '{ want = r + ($1 / 1e9 - u); d = $2 / 1e9 - want; if (d < 0) d = -d; if (d > 1) { print "ts " $1 ": wall " $2 / 1e9 " where the guest clock says " want; bad = 1 } }
	     END { exit bad }' "$work/walls" >"$work/wall.diff" || { diag_file "$work/wall.diff"; return 1; }
}
check "their wall_ns within a second of the guest's clock (date $1 at uptime $2)" wall_ok "$1" "$2"
irqlat events -n 20 --time wall >"$work/last20.txt" 2>&1 || true
text_ok() {	# "    silly-thread-57    [001] 2026-12-03T13:45:01.123456+0000: me_silly: time=.. count=.."
	n=0
	while read -r line; do
		d=$(echo "$line" | sed -n 's/.*\] \([0-9-]*\)T\([0-9:]*\)\.\([0-9]*\)[+-][0-9]*: me_silly: time=[0-9]* count=\([0-9]*\)$/\1 \2 \3 \4/p')
		[ -n "$d" ] || { diag "not ftrace's line with a wall-clock time: $line"; return 1; }
		set -- $d
		s=$(date -d "$1 $2" +%s)
		echo "$s.$3 $4"
		n=$((n + 1))
	done <"$work/last20.txt" >"$work/text-walls"
	[ "$n" = 20 ] || { diag "$n lines"; return 1; }
	sed -n 's/.*"wall_ns":\([0-9]*\).*"count":\([0-9]*\).*/\1 \2/p' "$work/last20.json" |
		paste -d' ' "$work/text-walls" - | awk '{ d = $1 - $3 / 1e9; if (d < 0) d = -d; if (d > 0.00001 || $2 != $4) { print; bad = 1 } } END { exit bad }' >"$work/text.diff" || { diag_file "$work/text.diff"; return 1; }
}
check "irqlat events -n 20 --time wall: ftrace's lines with those wall-clock times" text_ok
diag "$(head -n 2 "$work/last20.txt" | tr '\n' ';')"

kill -TERM "$daemon"
rc=0; wait "$daemon" || rc=$?
check_eq "irqlatd stops cleanly (status 0)" "$rc" 0
