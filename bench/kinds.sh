#!/bin/bash
# The softirq, vector-interrupt, timer and threaded-IRQ cost benchmark (bench/run.sh runs it
# after the hard-IRQ rounds; docs/bench.md). Under fio load (BLOCK softirqs, disk IRQs, context
# switches), a function-call IPI load (bench's irqlat-bench-ipi, the test helper
# tests/host/helpers/ipi-load.c) and, when rt-tests is installed, a cyclictest thread (a
# sleeper woken by its hrtimer every 500 us), with the kernel's BPF run-time statistics on,
# side by side in one run:
#   warm       throwaway clock-only programs on the softirq, vector, timer and sched_switch
#              tracepoints, attached first and not measured (the cold-cache cost of the first
#              program on one)
#   sclock     bench/softirq-clock.bpf.c: raise, entry and exit only read the clock
#   vclock     bench/vector-clock.bpf.c: LOC, CAL and RES entry and exit only read the clock
#   tclock     bench/timer-clock.bpf.c: hrtimer_expire_entry and sched_switch only read the clock
#   thclock    bench/threaded-clock.bpf.c: sched_switch only reads the clock
#   irqlatd    the daemon with every kind on
# ns per event of a kind = the sum over its programs of delta run_time_ns, over the runs of
# its exit programs: for softirqs per softirq run (its raises included), for vectors per
# interrupt on the LOC, CAL and RES tracepoints (the ones vclock has); the timer program per
# expiry and the timers' sched_switch program (wake-ups) per context switch, each alone; for
# threaded IRQs the threaded object's sched_switch program per context switch (the host has
# no threaded IRQ, so this is the cost every switch pays, the early exit). The daemon's two
# sched_switch programs are told apart by name (sched_switch_btf, threaded_switch_btf), each
# against its own twin. Each round measures both
# attach orders. Then the total BPF time per second of the daemon's programs, every kind on.
# Usage: bench/kinds.sh [--seconds N] [--rounds N]; exit 0 measured, 1 could not, 2 bad usage.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
IRQLATD=$BUILD/irqlatd
IRQLAT=$BUILD/irqlat
LOADER=$BUILD/bench/irqlat-bench-load
IPI=$BUILD/bench/irqlat-bench-ipi
RUN_SECONDS=10
ROUNDS=3

die() { echo "bench kinds: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) RUN_SECONDS=${2:-}; shift 2 ;;
	--rounds) ROUNDS=${2:-}; shift 2 ;;
	*) echo "usage: bench/kinds.sh [--seconds N] [--rounds N]" >&2; exit 2 ;;
	esac
done
[[ $RUN_SECONDS =~ ^[1-9][0-9]*$ && $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "bench kinds: --seconds and --rounds take positive integers" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || die "needs root to load BPF programs"
for b in "$IRQLATD" "$IRQLAT" "$LOADER" "$IPI" "$BUILD/bench/softirq-clock.bpf.o" "$BUILD/bench/vector-clock.bpf.o" \
	"$BUILD/bench/timer-clock.bpf.o" "$BUILD/bench/threaded-clock.bpf.o"; do
	[ -e "$b" ] || die "$b is missing: run 'make bench-build' first"
done

TMP=$(mktemp -d /tmp/irqlat-bench-kinds.XXXXXX)
declare -A PID=()
stop_all() {
	local n
	for n in "${!PID[@]}"; do kill -TERM "${PID[$n]}" 2>/dev/null; wait "${PID[$n]}" 2>/dev/null; done
	PID=()
}
trap 'stop_all; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

# "PID PROG_ID TRACEPOINT" of every raw tracepoint attachment, whoever holds it
attachments() { bpftool -j perf show 2>/dev/null | jq -r '.[] | select(.tracepoint) | "\(.pid) \(.prog_id) \(.tracepoint)"'; }
attached() { [ "$(attachments | awk -v p="$1" '$1 == p' | wc -l)" -ge "$2" ]; }
wait_for() {
	local n=$(($1 * 10)); shift
	while [ "$n" -gt 0 ]; do "$@" && return 0; sleep 0.1; n=$((n - 1)); done
	return 1
}
start() {	# start NAME: one contender, once its programs are on their tracepoints
	local n=$1
	case $n in
	warm) "$LOADER" warm-s "$BUILD/bench/softirq-clock.bpf.o" >"$TMP/$n.out" 2>&1 &
	      PID[warm-s]=$!
	      "$LOADER" warm-t "$BUILD/bench/timer-clock.bpf.o" >"$TMP/$n-t.out" 2>&1 &
	      PID[warm-t]=$!
	      "$LOADER" warm-v "$BUILD/bench/vector-clock.bpf.o" >"$TMP/$n-v.out" 2>&1 &
	      PID[$n]=$!
	      wait_for 30 attached "${PID[warm-s]}" 3 || die "warm-s did not attach"
	      wait_for 30 attached "${PID[warm-t]}" 2 || die "warm-t did not attach"
	      wait_for 30 attached "${PID[$n]}" 8 || die "warm did not attach" ;;
	tclock) "$LOADER" "$n" "$BUILD/bench/timer-clock.bpf.o" >"$TMP/$n.out" 2>&1 &
		PID[$n]=$!
		wait_for 30 attached "${PID[$n]}" 2 || die "$n did not attach: $(cat "$TMP/$n.out")" ;;
	thclock) "$LOADER" "$n" "$BUILD/bench/threaded-clock.bpf.o" >"$TMP/$n.out" 2>&1 &
		 PID[$n]=$!
		 wait_for 30 attached "${PID[$n]}" 1 || die "$n did not attach: $(cat "$TMP/$n.out")" ;;
	sclock) "$LOADER" "$n" "$BUILD/bench/softirq-clock.bpf.o" >"$TMP/$n.out" 2>&1 &
		PID[$n]=$!
		wait_for 30 attached "${PID[$n]}" 3 || die "$n did not attach: $(cat "$TMP/$n.out")" ;;
	vclock) "$LOADER" "$n" "$BUILD/bench/vector-clock.bpf.o" >"$TMP/$n.out" 2>&1 &
		PID[$n]=$!
		wait_for 30 attached "${PID[$n]}" 8 || die "$n did not attach: $(cat "$TMP/$n.out")" ;;
	irqlatd) "$IRQLATD" --socket "$TMP/irqlatd.sock" --log-target stderr --no-tracepoints >"$TMP/irqlatd.log" 2>&1 &
		 PID[$n]=$!
		 wait_for 30 "$IRQLAT" --socket "$TMP/irqlatd.sock" status >/dev/null 2>&1 || die "irqlatd did not come up: $(cat "$TMP/irqlatd.log")" ;;
	esac
}
load() {	# fio and the IPI load together, SECONDS
	fio --name=kinds --filename="$TMP/fio.dat" --size=64M --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--runtime="$1" --time_based >>"$TMP/fio.log" 2>&1 &
	local f=$! c=
	if command -v cyclictest >/dev/null; then
		cyclictest -m -q -t1 -p 90 -i 500 -D "$1" >/dev/null 2>&1 &
		c=$!
	fi
	"$IPI" 0 1 "$1" >/dev/null
	[ -z "$c" ] || wait "$c"
	wait "$f" || die "fio failed: $(tail -3 "$TMP/fio.log")"
}

RESULTS=$TMP/results
: >"$RESULTS"
measure() {	# ROUND ORDER NAME...
	local round=$1 order=$2 n t0 t1
	shift 2
	for n in "$@"; do start "$n"; done
	load 1
	attachments >"$TMP/att"
	for n in "$@"; do echo "$n ${PID[$n]}"; done >"$TMP/pids"
	bpftool -j prog show >"$TMP/before.json"; t0=$(date +%s.%N)
	load "$RUN_SECONDS"
	bpftool -j prog show >"$TMP/after.json"; t1=$(date +%s.%N)
	stop_all
	python3 - "$TMP/before.json" "$TMP/after.json" "$TMP/att" "$TMP/pids" "$round" "$order" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" <<'EOF' >>"$RESULTS" || die "cannot read bpftool's statistics"
import json, sys
before = {p["id"]: p for p in json.load(open(sys.argv[1]))}
after = {p["id"]: p for p in json.load(open(sys.argv[2]))}
att = [l.split() for l in open(sys.argv[3]) if l.strip()]
pids = dict(l.split() for l in open(sys.argv[4]) if l.strip())
rnd, order, secs = sys.argv[5], sys.argv[6], float(sys.argv[7])
SOFTIRQ = ("softirq_raise", "softirq_entry", "softirq_exit")
VECTOR = tuple("%s_%s" % (v, e) for v in ("local_timer", "call_function", "call_function_single", "reschedule")
               for e in ("entry", "exit"))
def delta(pid_, tps, field, skip=None):
    # skip: a program name prefix left out (the daemon's other sched_switch program)
    ids = {int(p) for q, p, t in att if q == pid_ and t in tps
           and not (skip and after.get(int(p), {}).get("name", "").startswith(skip))}
    return sum(after.get(i, {}).get(field, 0) - before.get(i, {}).get(field, 0) for i in ids)
for name, pid_ in pids.items():
    if name == "warm":
        continue
    for kind, tps, skip in (("softirq", SOFTIRQ, None), ("vector", VECTOR, None),
                            ("timer", ("hrtimer_expire_entry",), None),
                            ("sched_switch", ("sched_switch",), "threaded"),
                            ("threaded", ("sched_switch",), "sched_switch")):
        rt = delta(pid_, tps, "run_time_ns", skip)
        runs = delta(pid_, tuple(t for t in tps if t.endswith("_exit")) or tps, "run_cnt", skip)
        if runs:
            print(rnd, order, name, kind, rt / runs, runs / secs)
    if name == "irqlatd":  # every program of the daemon, every kind
        ids = {int(p) for q, p, t in att if q == pid_}
        rt = sum(after.get(i, {}).get("run_time_ns", 0) - before.get(i, {}).get("run_time_ns", 0) for i in ids)
        print(rnd, order, name, "total_ms_per_s", rt / 1e6 / secs, len(ids))
EOF
	echo "round $round, $order: $(awk -v r="$round" -v o="$order" '$1 == r && $2 == o { printf "%s%s %s %.0f", sep, $3, $4, $5; sep = ", " }' "$RESULTS")"
}

echo "bench kinds: $(date -u '+%F %T UTC'), $(uname -r), $(nproc) CPUs, fio + IPI load ${RUN_SECONDS}s per measurement, $ROUNDS round(s)"
# the BPF statistics stay on while the loaders run (each holds bpf_enable_stats); irqlatd reads them
for r in $(seq "$ROUNDS"); do
	measure "$r" forward warm sclock vclock tclock thclock irqlatd
	measure "$r" reversed warm irqlatd thclock tclock vclock sclock
done
python3 - "$RESULTS" <<'EOF'
import statistics, sys
from collections import defaultdict
m = defaultdict(dict)
total = []
for line in open(sys.argv[1]):
    f = line.split()
    if f[3] == "total_ms_per_s":
        total.append((float(f[4]), int(f[5])))
        continue
    m[(f[0], f[1], f[3])][f[2]] = (float(f[4]), float(f[5]))
print()
print("| kind | clock-only ns/event (median) | irqlatd ns/event (median) | ratio min | ratio median | ratio max | events/s |")
print("|---|---|---|---|---|---|---|")
for kind, clock in (("softirq", "sclock"), ("vector", "vclock"), ("timer", "tclock"), ("sched_switch", "tclock"),
                    ("threaded", "thclock")):
    rows = [v for (r, o, k), v in m.items() if k == kind and clock in v and "irqlatd" in v]
    if not rows:
        continue
    ratios = [v["irqlatd"][0] / v[clock][0] for v in rows]
    print("| %s | %.0f | %.0f | %.2f | %.2f | %.2f | %.0f |" % (
        kind, statistics.median(v[clock][0] for v in rows), statistics.median(v["irqlatd"][0] for v in rows),
        min(ratios), statistics.median(ratios), max(ratios), statistics.median(v["irqlatd"][1] for v in rows)))
if total:
    ms = [t for t, _ in total]
    print()
    print("irqlatd, every kind on (%d programs), under fio and the IPI load: BPF run time %.2f ms per second median "
          "(min %.2f, max %.2f), %.2f%% of one CPU; with the statistics' own cost in it" % (
              total[0][1], statistics.median(ms), min(ms), max(ms), statistics.median(ms) / 10))
EOF
