#!/bin/bash
# irqlat --top's section of consumed tracepoints, driven in tmux (helpers/top.sh): none
# without tracepoints; with one, its row under the table, attached and counting at least the
# execs the test made; in a UTF-8 locale the sort arrow is the glyph irqlat(1) shows; at 80x24
# the section drops columns to keep some of LAST instead of being cut.
# sched:sched_process_exec stands in for a module's tracepoint on this host (no modules here):
# it fires once per exec, and this test execs a known number of times.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/host/helpers/top.sh
. "$TOP/tests/host/helpers/top.sh"
plan 4

IRQ=$(disk_irq)
diag "disk IRQ: ${IRQ:-none}"
top_under_load	# --no-tracepoints
wait_for "^ +$IRQ " 10 || diag_why
frame >"$TMP/f0"
check_no_grep "no tracepoint section without tracepoints" 'TRACEPOINT' "$TMP/f0"
"${TM[@]}" kill-server
stop_fio
stop_daemon

start_daemon --interval-ms 500 --tracepoint sched:sched_process_exec
new_session -s top -x 140 -y 30 "env LC_ALL=C.UTF-8 $IRQLAT --socket $SOCK --delay 0.5"
for _ in $(seq 20); do /bin/true; done
wait_for "^ +sched:sched_process_exec +attached" 10
sleep 1.2
frame >"$TMP/tp"
events=$(awk '$1 == "sched:sched_process_exec" { print $3 }' "$TMP/tp")
diag "screen: $(grep -E 'TRACEPOINT|sched:sched_process_exec' "$TMP/tp" | tr -s ' ')"
drawn() {
	file_has -E '^ +TRACEPOINT +STATE +EVENTS +RATE/s +GAPS +MISSED +PERIOD +LATE50 +LATE99 +LATEMAX +LAST' "$TMP/tp" &&
		is_ge "${events:-0}" 20 "its EVENTS" "the test's execs"
}
check "a consumed tracepoint is drawn under the table, attached, with at least the 20 execs this test made (${events:-none})" drawn
# in a UTF-8 locale the sort arrow is the glyph irqlat(1) shows
arrow=$(grep -oE '(▼|▲)%TIME' "$TMP/tp" | head -1); arrow=${arrow%\%TIME}
man_arrows=$(MANWIDTH=100 LC_ALL=C.UTF-8 man -l "$TOP/docs/irqlat.1" 2>/dev/null | grep -oE '▼|▲' | sort -u | tr -d '\n')
arrow_in_man() {
	is_set "$arrow" "the arrow on %TIME" || return 1
	case $man_arrows in *"$arrow"*) return 0 ;; esac
	why "the screen's arrow" "$arrow"; why "irqlat(1)'s" "$man_arrows"; return 1
}
check "the screen's sort arrow (${arrow:-none}) is one irqlat(1) shows (${man_arrows:-none})" arrow_in_man
# at 80 columns the section drops columns to keep some of LAST, instead of being cut
resize_to 80 24
frame >"$TMP/tp80"
widest=$(LC_ALL=C.UTF-8 wc -L <"$TMP/tp80")	# characters, not bytes: the arrow is three
diag "at 80: $(grep -E 'TRACEPOINT|sched:sched_process_exec' "$TMP/tp80" | tr -s ' ')"
section_fits() {
	is_le "$widest" 80 "the widest line, characters" &&
		file_has -E '^ +TRACEPOINT +STATE +EVENTS +RATE/s +LATE99 +LAST *$' "$TMP/tp80" &&
		file_has -E '^ +sched:sched_process_exec +attached .* [a-z_]+=' "$TMP/tp80"
}
check "at 80x24 the tracepoint section fits ($widest columns): TRACEPOINT STATE EVENTS RATE/s LATE99 LAST, the arguments shown" section_fits
"${TM[@]}" kill-server
stop_daemon
done_testing
