#!/bin/bash
# Hard-IRQ counts against /proc/interrupts, outliers, attach styles, clean shutdown.
. "$(dirname "$0")/../lib.sh"
plan 12

IRQ=$(disk_irq)
diag "disk IRQ: ${IRQ:-none}"

daemon_count() {	# cumulative count irqlatd reports for IRQ $1 (all its handlers)
	irqlat --top --batch --iterations 1 --json | jq --argjson irq "$1" '[.irqs[] | select(.irq == $irq) | .count] | add // 0'
}

# The counts with the default thresholds: an outlier on every interrupt (--threshold-us 1,
# below) loses 0.2% to 0.6% of them under this fio load, which ftrace shows are not the
# kernel's (docs/architecture.md, "What irqlatd counts and the kernel's count"); that is a
# known bug, not what this check measures.
start_daemon --interval-ms 200
check_set "daemon starts and answers status" "$DAEMON_PID" "irqlatd's pid"
fio_load 1	# warm up: the first runs make the handler's cell, the next tick reads it
sleep 0.5
# Others' load may share the disk IRQ: each count is read between two readings of
# /proc/interrupts (lib.sh bracket, count_agrees), never one read after the other.
s0=$(bracket daemon "$SOCK" "$IRQ")
fio_load 4
s1=$(bracket daemon "$SOCK" "$IRQ")
agree() {
	count_agrees "$(field count "$s0")" "$(field lo "$s0")" "$(field hi "$s0")" \
		"$(field count "$s1")" "$(field lo "$s1")" "$(field hi "$s1")"
}
agree
diag "IRQ $IRQ over 4 s of fio: $COUNT_DIAG"
check "per-IRQ count delta lies in /proc/interrupts' bracket (at most 0.5% short of it, 5 over)" agree
stop_daemon

start_daemon --threshold-us 1 --interval-ms 200 --outlier-rate 0 --outlier-cap 0
fio_load 1; sleep 0.5

snap=$(irqlat --top --batch --iterations 1 --json --window total)
check_jq_all "JSON snapshot has every documented field" "$snap" '.irqs[0]' \
	'has("irq","name","count","rate","avg_ns","p50_ns","p90_ns","p99_ns","p999_ns","max_ns","total_ns","spurious")'
check_jq_all "percentiles are ordered p50 <= p90 <= p99 <= p99.9 <= max" "$snap" '.irqs[] | select(.irq == $irq)' \
	'.p50_ns <= .p90_ns and .p90_ns <= .p99_ns and .p99_ns <= .p999_ns and .p999_ns <= .max_ns and .avg_ns > 0' --argjson irq "$IRQ"
name=$(jq -r --argjson irq "$IRQ" '.irqs[] | select(.irq == $irq) | .name' <<<"$snap" | head -1)
check_grep "handler name matches /proc/interrupts ($name)" -E "^ *$IRQ:.* $name\$" /proc/interrupts
check_grep "1 us threshold logs outliers naming the disk IRQ" "outlier: IRQ $IRQ ($name) handler ran" "$TMP/daemon.log"
batch=$(irqlat --top --batch --iterations 2 --delay 0.2)
check_eqn "batch output prints two snapshots with the columns" \
	"$(grep -c '^  IRQ NAME .*COUNT *RATE/s *AVG *P50 *P99 *MAX' <<<"$batch")" 2 "column header lines"

# this daemon's programs, by the pid holding them (other irqlatd may run on this machine)
my_progs=$(awk '$1 == "prog_id:" { print $2 }' /proc/"$DAEMON_PID"/fdinfo/* 2>/dev/null | sort -u | tr '\n' ' ')
diag "programs of irqlatd $DAEMON_PID: $my_progs"
stop_daemon
check_eqn "SIGTERM stops the daemon with status 0" "$DAEMON_STATUS" 0 "exit status"
check_absent "clean shutdown removes the socket" "$SOCK"
progs_gone() {	# the kernel frees programs after an RCU grace period: allow it a moment
	local left
	for _ in $(seq 20); do
		left=
		for id in $my_progs; do bpftool prog show id "$id" >/dev/null 2>&1 && left+=" $id"; done
		[ -n "$my_progs" ] && [ -z "$left" ] && return 0
		sleep 0.1
	done
	is_set "$my_progs" "the daemon's programs" && is_empty "$left" "programs still loaded after 2 s"
}
check "no programs left attached" progs_gone

start_daemon --attach raw_tp --interval-ms 200
fio_load 1; sleep 0.5
raw_tp_measures() {
	is_eq "$(irqlat status --json | jq -r .attach)" raw_tp "status's attach" &&
		is_gt "$(daemon_count "$IRQ")" 100 "IRQ $IRQ's count"
}
check "raw_tp attach style is used and measures" raw_tp_measures
stop_daemon

start_daemon --interval-ms 200
"$IRQLATD" --socket "$SOCK" --log-target stderr >"$TMP/second.log" 2>&1; rc=$?
check_exit "a second daemon on the same socket refuses, naming it (exit 1)" \
	"$rc" 1 "$(cat "$TMP/second.log")" "another irqlatd is already serving $SOCK"
stop_daemon
done_testing
