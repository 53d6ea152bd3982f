#!/bin/sh
# vm-check-timeout: 90
# Timers and wake-ups on the guest's kernel (the plain guest, and Debian's PREEMPT_RT kernel in
# run-initramfs-rt), Debian 12's 6.1 among them: against cyclictest's own loop count and
# latencies for its measuring thread (as tests/host/15-timers.t on the host's kernel).
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ] || ! command -v jq >/dev/null || ! command -v cyclictest >/dev/null; then
	skip "timers and wake-ups measured" "irqlatd, irqlat, jq or cyclictest missing in the guest"
	exit 0
fi
work=/tmp/irqlatd-timers
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
diag "kernel $(uname -r) ($(uname -v | grep -o 'PREEMPT[_A-Z]*' | head -1))"
"$IRQLATD" --socket "$sock" --log-target stderr --no-tracepoints --interval-ms 200 --max-wakeup-cells 4096 \
	>"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
if ! retry 30 up; then
	not_ok "irqlatd starts"; diag_file "$work/daemon.log"; exit 0
fi
progs=$(irqlat status --json | jq -c '.programs')
diag "programs: $progs"
check "timer lateness and wake-ups attached on $(uname -r) (hrtimer_expire_entry, sched_switch), no warning" \
	sh -c "echo '$progs' | jq -e 'index(\"timer:hrtimer_expire_entry\") != null and index(\"sched:sched_switch\") != null' >/dev/null && ! grep -qE '(timers|wake-ups):.*not measured' '$work/daemon.log'"

# cyclictest's measuring thread (not its main pid) is the task to find; SCHED_FIFO, so that
# its timer has no slack (node.expires is the time it asked for)
LOOPS=2000
cyclictest -m -t1 -p 95 -i 1000 -l $LOOPS -q -v >"$work/cyc" 2>&1 &
cyc=$!
tid=
i=0
while [ $i -lt 50 ] && [ -z "$tid" ]; do
	tid=$(ls "/proc/$cyc/task" 2>/dev/null | grep -vx "$cyc" | head -n 1) || true
	i=$((i + 1)); sleep 0.1
done
wait "$cyc" || true
sleep 0.5	# a tick after its last wake-up
snap=$(irqlat --top --batch --iterations 1 --json --window total)
set -- $(sed -n 's/^T: *0 *( *\([0-9]*\)).* C: *\([0-9]*\) .*Avg: *\([0-9]*\) .*Max: *\([0-9]*\).*/\1 \2 \3 \4/p' "$work/cyc")
c_tid=${1:-} c_loops=${2:-0} c_avg=${3:-0} c_max=${4:-0}
awk -F: 'NF == 3 && $1 + 0 == 0 { print $3 + 0 }' "$work/cyc" | sort -n >"$work/samples"
c_n=$(wc -l <"$work/samples")
c_med=$(sed -n "$(((c_n + 1) / 2))p" "$work/samples")
c_late=$(awk '$1 >= 900' "$work/samples" | wc -l)
diag "cyclictest thread $c_tid (/proc: ${tid:-none}): $c_loops loops, median ${c_med:-?} us, avg $c_avg us, max $c_max us, $c_late within 100 us of the period or over"
w=$(echo "$snap" | jq -c --argjson pid "${tid:-0}" '.timers.wakeups[] | select(.pid == $pid)')
diag "irqlatd: $w"
check "cyclictest's measuring thread found, a sample per loop" \
	[ -n "$tid" ] && [ "$tid" = "$c_tid" ] && [ "$c_n" -eq "$LOOPS" ] && [ "$c_loops" -eq "$LOOPS" ]
n=$(echo "${w:-{\}}" | jq '.count // 0')
lo=$((c_loops - c_late - c_loops / 100)) hi=$((c_loops + c_loops / 100))
check "its wake-ups counted as cyclictest's loops within 1% ($n in [$lo, $hi])" [ "$n" -ge "$lo" ] && [ "$n" -le "$hi" ]
wmax=$(echo "${w:-{\}}" | jq '.latency_max_ns // 1e18')
check "irqlatd's longest wake-up ($wmax ns) <= cyclictest's max ($c_max us, which adds the return to user space)" \
	[ "$wmax" -le $(((c_max + 1) * 1000)) ]
w50=$(echo "${w:-{\}}" | jq '.latency_p50_ns // 0')
check "irqlatd's median wake-up ($w50 ns) >= a quarter of cyclictest's median (${c_med:-?} us)" \
	[ "$w50" -ge $((${c_med:-1000000} * 1000 / 4)) ]
check "timers.classes has the tick and sleep classes, with expiries" \
	sh -c "echo '$snap' | jq -e '[.timers.classes[] | select((.class == \"tick\" or .class == \"sleep\") and .count > 0)] | length == 2' >/dev/null"

kill "$daemon" 2>/dev/null || true
wait "$daemon" 2>/dev/null || true
