#!/bin/bash
# Why it was late, the kernel side (bpf/why.bpf.h, docs/architecture.md section 14): the late
# waits' counts per CPU and cause (the why_counts map, read with bpftool from the daemon's own
# map until the daemon shows them). cyclictest's thread (SCHED_FIFO 95, pinned to CPU 1) waits
# for its timer every millisecond while a SCHED_FIFO 99 task of the test's, pinned there too,
# keeps the CPU in bursts of 2 ms every 10 ms: the wake-ups that come during a burst wait for
# it, and those are the late ones (the defaults: 500 us). References: the cause the test itself
# made, and ftrace's own sched_wakeup and sched_switch events of CPU 1 in a private tracefs
# instance (trace_clock mono). On CPU 1, over the run: the timer wake-ups' class explains late
# waits, their parts add up to their total exactly (every wait's do), and the blocking task's
# part, of a task with at least the waiter's priority, with what interrupted it, holds at least
# the time the loop held the CPU within cyclictest's late waits by ftrace (less 5% and 20 us a
# wait); the late timers' class likewise adds up. (Not
# "the largest part": the class is every task's on CPU 1, and the other tasks' part of a normal
# task's wait is as large as other tasks on CPU 1 make it.) And what the daemon shows of them,
# status' "why" and /metrics' irqlat_late_wait_seconds_total, is the map's: each figure between
# two readings of the map with bpftool, one before the daemon's and one after, under the load
# and at rest (tests/host/helpers/why_bracket.py); with the waits whose records the ring buffer
# dropped: the daemon is stopped (SIGSTOP) for a second of the load, its ring buffer of 4 KiB
# fills, and status counts them as not received, no more than the drops; its log says the
# loss at once and then once a minute at most. The daemon's defaults but the interval and the
# ring buffer's size.
. "$(dirname "$0")/../lib.sh"
plan 10

BURST=
CYC=
INST=/sys/kernel/tracing/instances/irqlat-why18-$$
why_cleanup() {
	[ -n "$DAEMON_PID" ] && kill -CONT "$DAEMON_PID" 2>/dev/null
	[ -n "$BURST" ] && kill "$BURST" 2>/dev/null && wait "$BURST" 2>/dev/null
	[ -n "$CYC" ] && kill "$CYC" 2>/dev/null && wait "$CYC" 2>/dev/null
	stop_daemon
	[ -d "$INST" ] && rmdir "$INST"
	rm -rf "$TMP"
}
trap why_cleanup EXIT
why_setup bpftool

MP=$(free_port)
# ftrace's wake-ups and switches on CPU 1
ftrace_cpu1 "$INST" 8192 sched/sched_switch sched/sched_wakeup || { echo "Bail out! cannot make a tracefs instance"; exit 1; }
STARTED_S=$SECONDS
start_daemon --interval-ms 500 --ringbuf-kb 4 --metrics "127.0.0.1:$MP" || { echo "Bail out! irqlatd did not start"; exit 1; }
# the daemon's why_counts map: through its programs (bpftool perf show names their pids)
why_map() {
	local p
	for p in $(bpftool -j perf show | jq -r --argjson pid "$DAEMON_PID" '.[] | select(.pid == $pid) | .prog_id' | sort -u); do
		bpftool -j prog show id "$p" | jq -r '.map_ids[]?'
	done | sort -u | while read -r m; do
		[ "$(bpftool -j map show id "$m" | jq -r .name)" = why_counts ] && { echo "$m"; break; }
	done
}
MAP=$(why_map)
check "the daemon's programs have the why_counts map" test -n "$MAP"
# "cpu class waits total part0 ... part10 seq" for every element (element = cpu * 3 + class)
dump_seq() {
	bpftool -j map dump id "$MAP" | jq -r '.[] | (.formatted // .) | [(.key / 3 | floor), (.key % 3), .value.waits, .value.total_ns] + .value.part_ns + [.value.seq] | map(tostring) | join(" ")'
}
# the same without seq, each element whole: a program may be adding a wait to it while bpftool
# copies it (struct why_count), so two dumps in which every element's seq is the same even
# number, the second one's figures (nothing was written between the first's seq and the
# second's); the first 50 pairs, or the last dump said so
dump() {
	local i
	for i in $(seq 50); do
		dump_seq >"$TMP/d1"
		dump_seq >"$TMP/d2"
		paste -d' ' "$TMP/d1" "$TMP/d2" | awk '$16 != $32 || $16 % 2 { moved = 1 } END { exit moved }' && {
			cut -d' ' -f1-15 "$TMP/d2"
			return 0
		}
	done
	diag "no whole reading of why_counts in 50 pairs of dumps" >&2
	cut -d' ' -f1-15 "$TMP/d2"
}
# status and /metrics between two readings of the map (why_bracket.py); $1: when
why_bracket() {
	local out
	dump_seq >"$TMP/lo"
	irqlat status -J >"$TMP/status-$1.json"
	curl -s -o "$TMP/metrics-$1" "http://127.0.0.1:$MP/metrics"
	dump_seq >"$TMP/hi"
	out=$(python3 "$TOP/tests/host/helpers/why_bracket.py" "$TMP/lo" "$TMP/hi" "$TMP/status-$1.json" "$TMP/metrics-$1") &&
		{ sed 's/^/# /' <<<"$out"; return 0; }
	why "why_bracket.py" "$out"
	return 1
}
# status' counts against the records it received: the diagnostics of a run
why_received() {
	jq -r '.why | "kernel counted \(.waits) late waits, the daemon received \(.explained) explanations (\(.lone) lone, \(.unpaired) outliers unpaired): \(.not_received) not received, \(.stale_reads) stale reads"' "$TMP/status-$1.json"
	jq -r '.why.cpus[] | .cpu as $c | to_entries[] | select(.key != "cpu") | "  cpu \($c) \(.key): waits \(.value.waits) received \(.value.received) not received \(.value.not_received)"' "$TMP/status-$1.json"
}
dump >"$TMP/before"
echo 1 >"$INST/tracing_on"

# the bursts: SCHED_FIFO 99 on CPU 1, 2 ms busy out of every 10
burst_start || { echo "Bail out! the busy task did not start"; exit 1; }
cyclictest -m -q -t1 -p 95 -a 1 -i 1000 -l 3000 >/dev/null 2>&1 &
CYC=$!
sleep 1.5
check "status and /metrics show the kernel's counts, between two readings of them, under the load" why_bracket load
why_received load | sed 's/^/# /'
kill -STOP "$DAEMON_PID"
sleep 1
kill -CONT "$DAEMON_PID"
wait "$CYC"; CYC=
echo 0 >"$INST/tracing_on"
kill "$BURST"; wait "$BURST" 2>/dev/null
BURST_PID=$BURST; BURST=
dump >"$TMP/after"
cp "$INST/trace" "$TMP/trace"

# CPU 1's deltas: waits, total, the 11 parts
delta() { awk -v cpu=1 -v cls="$1" 'FNR == NR { if ($1 == cpu && $2 == cls) for (i = 3; i <= NF; i++) b[i] = $i; next }
	$1 == cpu && $2 == cls { for (i = 3; i <= NF; i++) printf "%.0f ", $i - b[i]; print "" }' "$TMP/before" "$TMP/after"; }
W=$(delta 0)
T=$(delta 2)
diag "CPU 1, timer wake-ups: waits total LATE_IDLE LATE_BUSY IRQ VECTOR SOFTIRQ NMI IDLE BLOCKING OTHERS REMAINDER UNSPLIT: $W"
diag "CPU 1, late timers: $T"
read -r -a w <<<"$W"
read -r -a t <<<"$T"
check "late wake-ups explained on CPU 1 (${w[0]:-0})" test "${w[0]:-0}" -gt 0
sum_parts() { local s=0 i; for i in "${@:3:11}"; do s=$((s + i)); done; echo $s; }
check "their parts add up to their total exactly ($(sum_parts "${w[@]}") = ${w[1]:-?})" test "$(sum_parts "${w[@]}")" = "${w[1]:-x}"
names=(waits total late_idle late_busy irq vector softirq nmi idle blocking others remainder unsplit)
top=2
for i in $(seq 2 12); do [ "${w[i]:-0}" -gt "${w[top]:-0}" ] && top=$i; done
read -r fw fns < <(python3 "$TOP/tests/host/helpers/ftrace_waits.py" "$TMP/trace" 1 cyclictest "$BURST_PID" 500000)
diag "ftrace: cyclictest's measuring thread waited 500 us or more $fw times on CPU 1, the loop holding the CPU $fns ns of it; irqlatd's largest part: ${names[top]}; $(grep -E '^(overrun|dropped events):' "$INST"/per_cpu/cpu1/stats | tr '\n' ' ')"
# the loop's time in a wait, by ftrace, is irqlatd's blocking part and what interrupted the loop
# meanwhile (hard IRQs, vectors, softirqs, NMIs, a timer's lateness on the busy CPU)
held=$(( ${w[9]:-0} + ${w[4]:-0} + ${w[5]:-0} + ${w[6]:-0} + ${w[7]:-0} + ${w[3]:-0} ))
blocking_holds() {
	is_gt "${fw:-0}" 0 "cyclictest's late waits on CPU 1 (ftrace)" &&
		is_ge "$held" $(( ${fns:-0} * 95 / 100 - ${fw:-0} * 20000 )) "the blocking part and the interruptions (ns)" "the loop's time in them by ftrace, less 5% and 20 us a wait"
}
check "the blocking task's part and what interrupted it ($held ns) hold the loop's time in cyclictest's late waits, by ftrace (${fns:-?} ns in $fw waits)" blocking_holds
check "late timers' parts add up to their total exactly ($(sum_parts "${t[@]}") = ${t[1]:-?})" test "$(sum_parts "${t[@]}")" = "${t[1]:-x}"
check "status and /metrics show the kernel's counts, between two readings of them, at rest" why_bracket rest
why_received rest | sed 's/^/# /'
diag "the ring buffer's drops: $(jq -c .drops "$TMP/status-rest.json")"
# the waits whose records were dropped: each dropped record counts one outlier drop (an
# outlier's own record too); a wait counted between the two readings may not be read yet
not_received_holds() {
	local nr drops w lo hi
	nr=$(jq .why.not_received "$TMP/status-rest.json")
	drops=$(jq .drops.outliers "$TMP/status-rest.json")
	lo=$(awk '{ s += $3 } END { print s + 0 }' "$TMP/lo")
	hi=$(awk '{ s += $3 } END { print s + 0 }' "$TMP/hi")
	is_gt "$nr" 0 "waits not received" &&
		is_le "$nr" $((drops + hi - lo)) "waits not received" "outlier drops ($drops) + waits counted between the readings ($((hi - lo)))"
}
check "the waits whose records the full ring buffer dropped are counted, as not received ($(jq .why.not_received "$TMP/status-rest.json") of $(jq .why.waits "$TMP/status-rest.json"); $(jq .drops.outliers "$TMP/status-rest.json") outlier drops)" not_received_holds
stop_daemon
check "irqlatd exits 0" test "$DAEMON_STATUS" -eq 0
RAN_S=$((SECONDS - STARTED_S))
LOST_LINES=$(grep -c ' outliers lost: ' "$TMP/daemon.log")
grep ' outliers lost: ' "$TMP/daemon.log" | head -n 3 | sed 's/^/#   /'
check_between "its log said the lost outliers at once, then once a minute at most ($LOST_LINES lines in $RAN_S s)" \
	"$LOST_LINES" 1 $((1 + RAN_S / 60)) "lines of lost outliers" "1 to 1 + a line a minute"
