#!/bin/bash
# Does every arrival the kernel counts for the disk IRQ (/proc/interrupts) run a handler that
# irq:irq_handler_entry sees? A measurement (docs/bench.md, "Counts against /proc/interrupts";
# docs/architecture.md, "What irqlatd counts and the kernel's count"), not a test: under fio jobs and busy loops it compares, for
# the disk IRQ, the /proc/interrupts delta with what irqlatd counted (read between two readings
# of /proc/interrupts, tests/host/helpers/bracket.py), with a bpftrace counter of
# irq_handler_entry on the same IRQ, with the kernel's own count of runs of irqlatd's entry
# program (bpftool run_cnt, --bpf-stats) and the runs it skipped (recursion_misses), and with
# /proc/irq/N/spurious.
# Usage: bench/count-gap.sh [SECONDS [FIO_JOBS [BUSY_LOOPS]]]   (as root; default 30 2 2)
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SECS=${1:-30} JOBS=${2:-2} LOOPS=${3:-2}
TMP=$(mktemp -d /tmp/irqlat-gap.XXXXXX)
SOCK=$TMP/irqlatd.sock
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
bracket() { python3 "$TOP/tests/host/helpers/bracket.py" "$@"; }
field() { sed -n "s/.*\\<$1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

IRQ=$(awk '/virtio[0-9]+-req/ { n = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; sub(":", "", $1); print n, $1 }' /proc/interrupts | sort -rn | awk 'NR == 1 { print $2 }')
[ -n "$IRQ" ] || { echo "count-gap: no virtio disk IRQ in /proc/interrupts" >&2; exit 1; }
"$BUILD/irqlatd" --socket "$SOCK" --log-target stderr --no-tracepoints --bpf-stats --threshold-us 0 --interval-ms 100 >"$TMP/daemon.log" 2>&1 &
DAEMON=$!; PIDS+=("$DAEMON")
for _ in $(seq 100); do "$BUILD/irqlat" --socket "$SOCK" status >/dev/null 2>&1 && break; sleep 0.1; done
progs=$("$BUILD/irqlat" --socket "$SOCK" status --json | jq -r '.bpf.prog_ids[]')
prog_field() {	# prog_field ID FIELD
	bpftool -j prog show id "$1" | jq ".$2 // 0"
}

cat >"$TMP/count.bt" <<EOF
tracepoint:irq:irq_handler_entry /args->irq == $IRQ/ { @entry = count(); }
tracepoint:irq:irq_handler_exit /args->irq == $IRQ/ { @exit = count(); if (args->ret == 0) { @none = count(); } }
BEGIN { printf("ready\n"); }
EOF
b0=$(bracket proc "$IRQ")
bpftrace "$TMP/count.bt" >"$TMP/bt.out" 2>&1 &
BT=$!; PIDS+=("$BT")
for _ in $(seq 200); do grep -q ready "$TMP/bt.out" && break; sleep 0.05; done
b1=$(bracket proc "$IRQ")

# the handler's cells (one per CPU it runs on) are made by its first runs there and counted
# live once the daemon has read them at a tick: a warm-up on both CPUs, then two ticks
for cpu in $(seq 0 $(( $(nproc) - 1 ))); do
	taskset -c "$cpu" fio --name=warm --filename="$TMP/warm.dat" --size=8M --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --runtime=1 --time_based >/dev/null 2>&1
done
sleep 2.5
s0=$(bracket daemon "$SOCK" "$IRQ")
sp0=$(awk '$1 == "unhandled" { print $2 }' /proc/irq/"$IRQ"/spurious)
declare -A run0 miss0
for p in $progs; do run0[$p]=$(prog_field "$p" run_cnt); miss0[$p]=$(prog_field "$p" recursion_misses); done
for _ in $(seq "$LOOPS"); do (while :; do :; done) & PIDS+=($!); done
for j in $(seq "$JOBS"); do
	fio --name="gap$j" --filename="$TMP/fio$j.dat" --size=32M --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--runtime="$SECS" --time_based >/dev/null 2>&1 &
	PIDS+=($!)
done
sleep "$SECS"; sleep 1
for p in "${PIDS[@]:2}"; do kill "$p" 2>/dev/null; done
sleep 1	# the load is gone; what the machine's others do goes on
s1=$(bracket daemon "$SOCK" "$IRQ")
sp1=$(awk '$1 == "unhandled" { print $2 }' /proc/irq/"$IRQ"/spurious)
runs="" misses=0
for p in $progs; do
	runs="$runs $p:$(( $(prog_field "$p" run_cnt) - run0[$p] ))"
	misses=$(( misses + $(prog_field "$p" recursion_misses) - miss0[$p] ))
done
e0=$(bracket proc "$IRQ")
kill -INT "$BT"; wait "$BT" 2>/dev/null
e1=$(bracket proc "$IRQ")

lo=$(( $(field lo "$s1") - $(field hi "$s0") )) hi=$(( $(field hi "$s1") - $(field lo "$s0") ))
d=$(( $(field count "$s1") - $(field count "$s0") ))
bt_entry=$(sed -n 's/^@entry: //p' "$TMP/bt.out") bt_exit=$(sed -n 's/^@exit: //p' "$TMP/bt.out")
bt_none=$(sed -n 's/^@none: //p' "$TMP/bt.out")
bt_lo=$(( $(field count "$e0") - $(field count "$b1") )) bt_hi=$(( $(field count "$e1") - $(field count "$b0") ))
echo "count-gap: IRQ $IRQ ($(awk -v i="$IRQ:" '$1 == i { print $NF }' /proc/interrupts)), $SECS s of $JOBS fio jobs and $LOOPS busy loops, kernel $(uname -r), $(nproc) CPUs"
echo "  /proc/interrupts delta       $lo .. $hi   (between irqlatd's two readings)"
echo "  irqlatd count delta          $d   ($(awk -v d="$d" -v lo="$lo" -v hi="$hi" 'BEGIN { if (d < lo) printf "%.3f%% below the bracket", 100 * (lo - d) / lo; else if (d > hi) printf "%.3f%% above the bracket", 100 * (d - hi) / hi; else print "inside the bracket" }'))"
echo "  irqlatd spurious runs delta  $(( $(field spurious "$s1") - $(field spurious "$s0") ))"
echo "  /proc/irq/$IRQ/spurious unhandled delta $(( sp1 - sp0 ))"
echo "  entry/exit program runs (all IRQs, bpftool run_cnt):$runs; recursion_misses $misses"
echo "  bpftrace irq_handler_entry   ${bt_entry:-0}, exit ${bt_exit:-0} (IRQ_NONE ${bt_none:-0}); /proc/interrupts over its window $bt_lo .. $bt_hi"
