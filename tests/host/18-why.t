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
# task's wait is as large as other tasks on CPU 1 make it.) The daemon's defaults but the
# interval.
. "$(dirname "$0")/../lib.sh"
plan 6

BURST=
INST=/sys/kernel/tracing/instances/irqlat-why18-$$
why_cleanup() {
	[ -n "$BURST" ] && kill "$BURST" 2>/dev/null && wait "$BURST" 2>/dev/null
	stop_daemon
	[ -d "$INST" ] && rmdir "$INST"
	rm -rf "$TMP"
}
trap why_cleanup EXIT
for t in cyclictest chrt taskset bpftool jq python3; do
	command -v "$t" >/dev/null || { echo "Bail out! $t is missing (scripts/install-deps test)"; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "1..0 # SKIP needs 2 CPUs"; exit 0; }
mount_fs

start_daemon --interval-ms 500 || { echo "Bail out! irqlatd did not start"; exit 1; }
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
# "cpu class waits total part0 ... part10" for every element (element = cpu * 3 + class)
dump() {
	bpftool -j map dump id "$MAP" | jq -r '.[] | (.formatted // .) | [(.key / 3 | floor), (.key % 3), .value.waits, .value.total_ns] + .value.part_ns | map(tostring) | join(" ")'
}
# ftrace's wake-ups and switches on CPU 1, in the daemon's clock
mkdir "$INST" || { echo "Bail out! cannot make a tracefs instance"; exit 1; }
echo mono >"$INST/trace_clock"
echo 2 >"$INST/tracing_cpumask"
echo 8192 >"$INST/buffer_size_kb"
echo 1 >"$INST/events/sched/sched_switch/enable"
echo 1 >"$INST/events/sched/sched_wakeup/enable"
dump >"$TMP/before"
echo 1 >"$INST/tracing_on"

# the bursts: SCHED_FIFO 99 on CPU 1, 2 ms busy out of every 10
cat >"$TMP/burst.py" <<'EOF'
import time
while True:
    t = time.monotonic()
    while time.monotonic() - t < 0.002:
        pass
    time.sleep(0.008)
EOF
chrt -f 99 taskset -c 1 python3 "$TMP/burst.py" &
BURST=$!
cyclictest -m -q -t1 -p 95 -a 1 -i 1000 -l 3000 >/dev/null 2>&1
dump >"$TMP/after"
echo 0 >"$INST/tracing_on"
kill "$BURST"; wait "$BURST" 2>/dev/null
BURST_PID=$BURST; BURST=
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
stop_daemon
check "irqlatd exits 0" test "$DAEMON_STATUS" -eq 0
