#!/bin/bash
# The workload's view of irqlatd's cost (bench/run.sh runs it last; docs/bench.md): how much
# slower a workload runs beside it, as a ratio of run times (or of IOPS) measured in the same
# round, the conditions interleaved (each round starts with another), min / median / max over
# the rounds. Run-to-run noise here is a few percent, so only the median of interleaved
# rounds can show 1%.
#   hackbench  hackbench -g 8 -l 3000 (rt-tests: a context-switch storm, sockets between
#              processes), alone; beside irqlatd (its defaults: every kind on); beside
#              libbpf-tools runqlat (sched_wakeup, sched_wakeup_new, sched_switch); and beside
#              the clock-only twins of irqlatd's programs on the same tracepoints (the floor:
#              no program can attach there for less)
#   fio        direct-I/O 4 KiB random reads (one disk IRQ each), IOPS alone and beside irqlatd
# The kernel's BPF run-time statistics are off here (they cost every program a clock read
# more): the run says so, or that something else left them on.
# Usage: bench/workload.sh [--rounds N] [--hackbench ARGS] [--fio-seconds N] [--skip LIST];
# exit 0 measured (PASS or FAIL), 1 could not measure, 2 bad usage. With BENCH_SUMMARY=FILE it
# appends its results there for bench/docs.py.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
IRQLATD=$BUILD/irqlatd
IRQLAT=$BUILD/irqlat
LOADER=$BUILD/bench/irqlat-bench-load
RUNQLAT=${RUNQLAT:-/usr/sbin/runqlat}
ROUNDS=5
HACKBENCH="-g 8 -l 3000"
FIO_SECONDS=10
SKIP=,
# the twins on irqlatd's default tracepoints: hard IRQs, softirqs, vectors, hrtimer expiry and
# sched_switch twice (the wake-ups' program and the threaded IRQs')
FLOOR_TWINS="clock softirq-clock vector-clock timer-clock threaded-clock"

usage() {
	cat <<USAGE
usage: bench/workload.sh [--rounds N] [--hackbench ARGS] [--fio-seconds N] [--skip LIST]
  --rounds N        interleaved rounds (default $ROUNDS)
  --hackbench ARGS  hackbench's arguments (default "$HACKBENCH"; e.g. "-g 4 -l 500" for a quick run)
  --fio-seconds N   each fio run (default $FIO_SECONDS)
  --skip LIST       leave out parts (comma-separated: hackbench,fio,runqlat,twins)
USAGE
}
die() { echo "bench workload: $*" >&2; exit 1; }
bad_usage() { echo "bench workload: $*" >&2; usage >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--rounds|--hackbench|--fio-seconds|--skip) [ $# -ge 2 ] || bad_usage "$1 needs a value" ;;&
	--rounds) ROUNDS=$2; shift 2 ;;
	--hackbench) HACKBENCH=$2; shift 2 ;;
	--fio-seconds) FIO_SECONDS=$2; shift 2 ;;
	--skip) SKIP=",$2,"; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) bad_usage "unknown argument '$1'" ;;
	esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || bad_usage "--rounds takes a positive integer, not '$ROUNDS'"
[[ $FIO_SECONDS =~ ^[1-9][0-9]*$ ]] || bad_usage "--fio-seconds takes a positive integer, not '$FIO_SECONDS'"
for s in ${SKIP//,/ }; do
	case $s in hackbench|fio|runqlat|twins) ;; *) bad_usage "--skip: no part '$s' (hackbench, fio, runqlat, twins)" ;; esac
done
skipped() { [[ $SKIP == *",$1,"* ]]; }
[ "$(id -u)" -eq 0 ] || die "needs root to load BPF programs"
for b in "$IRQLATD" "$IRQLAT" "$LOADER"; do [ -x "$b" ] || die "$b is missing: run 'make bench-build' first"; done
for t in $FLOOR_TWINS; do [ -e "$BUILD/bench/$t.bpf.o" ] || die "$BUILD/bench/$t.bpf.o is missing: run 'make bench-build' first"; done
for t in bpftool jq python3 $(skipped hackbench || echo hackbench) $(skipped fio || echo fio); do
	command -v "$t" >/dev/null || die "$t is missing: run 'scripts/install-deps test'"
done
skipped runqlat || skipped hackbench || [ -x "$RUNQLAT" ] || die "$RUNQLAT is missing: run 'scripts/install-deps test' (Debian package libbpf-tools)"

TMP=$(mktemp -d /tmp/irqlat-bench-workload.XXXXXX)
declare -A PID=()
stop_all() {
	local n
	for n in "${!PID[@]}"; do
		case $n in runqlat) kill -INT "${PID[$n]}" 2>/dev/null ;; *) kill -TERM "${PID[$n]}" 2>/dev/null ;; esac
		wait "${PID[$n]}" 2>/dev/null
	done
	PID=()
}
trap 'stop_all; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

wait_for() {
	local n=$(($1 * 10)); shift
	while [ "$n" -gt 0 ]; do "$@" && return 0; sleep 0.1; n=$((n - 1)); done
	return 1
}
attached_by() { bpftool -j perf show 2>/dev/null | jq -e --argjson p "$1" '[.[] | select(.pid == $p)] | length > 0' >/dev/null; }
start() {	# start CONDITION: its programs on their tracepoints, or nothing for "alone"
	local c=$1 t
	case $c in
	alone) ;;
	irqlatd)
		"$IRQLATD" --socket "$TMP/irqlatd.sock" --log-target stderr >"$TMP/irqlatd.log" 2>&1 &
		PID[$c]=$!
		wait_for 30 "$IRQLAT" --socket "$TMP/irqlatd.sock" status >/dev/null 2>&1 || die "irqlatd did not come up: $(cat "$TMP/irqlatd.log")" ;;
	runqlat)
		"$RUNQLAT" 86400 1 >"$TMP/runqlat.out" 2>&1 &
		PID[$c]=$!
		wait_for 30 attached_by "${PID[$c]}" || die "runqlat did not attach: $(cat "$TMP/runqlat.out")" ;;
	twins)
		for t in $FLOOR_TWINS; do
			"$LOADER" --no-stats "$t" "$BUILD/bench/$t.bpf.o" >"$TMP/$t.out" 2>"$TMP/$t.err" &
			PID[$t]=$!
			wait_for 30 test -s "$TMP/$t.out" || die "twin $t did not attach: $(cat "$TMP/$t.err")"
		done ;;
	esac
	sleep 1	# irqlatd's first tick and the loaders' exit from load: not in the measurement
}
others() {	# programs on the tracepoints from processes that are not ours
	bpftool -j perf show 2>/dev/null | jq -r --arg ours " ${PID[*]} " '.[] | select(.tracepoint) | .pid as $p | select(($ours | index(" \($p) ")) | not) | "pid \($p) \(.tracepoint)"' | sort -u | paste -sd, -
}

# How quiet the machine was during a run: the CPU time of everything but hackbench (other
# processes, irqlatd or the tools beside it, interrupts) and the time the hypervisor stole,
# from /proc/stat (user nice system idle iowait irq softirq steal, in USER_HZ ticks)
stat_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $9 }' /proc/stat; }
HZ=$(getconf CLK_TCK)

RESULTS=$TMP/results
: >"$RESULTS"
hackbench_round() {	# ROUND CONDITION...: each condition once, in that order
	local r=$1 c t
	shift
	for c in "$@"; do
		start "$c"
		o=$(others)
		read -r b0 s0 < <(stat_ticks)
		# shellcheck disable=SC2086 # ARGS are words
		{ TIMEFORMAT='%U %S'; time hackbench $HACKBENCH >"$TMP/hb.out" 2>&1; } 2>"$TMP/hb.time"
		read -r b1 s1 < <(stat_ticks)
		t=$(awk '/^Time:/ { print $2 }' "$TMP/hb.out")
		stop_all
		[ -n "$t" ] || die "hackbench $HACKBENCH printed no time: $(tail -3 "$TMP/hb.out")"
		rest=$(awk -v b="$((b1 - b0))" -v hz="$HZ" '{ printf "%.1f", b / hz - $1 - $2 }' "$TMP/hb.time")
		steal=$(awk -v s="$((s1 - s0))" -v hz="$HZ" 'BEGIN { printf "%.1f", s / hz }')
		echo "hackbench $r $c $t $rest $steal" >>"$RESULTS"
		printf 'hackbench round %s: %-8s %7.3f s; the rest of the machine %5.1f CPU-s, stolen %4.1f s%s\n' "$r" "$c" "$t" "$rest" "$steal" \
			"${o:+ (others attached: $o)}"
	done
}
fio_round() {	# ROUND CONDITION...
	local r=$1 c iops
	shift
	for c in "$@"; do
		start "$c"
		iops=$(fio --name=workload --filename="$TMP/fio.dat" --size=64M --rw=randread --bs=4k --direct=1 --ioengine=psync \
			--runtime="$FIO_SECONDS" --time_based --output-format=json 2>"$TMP/fio.err" | jq '.jobs[0].read.iops') ||
			die "fio failed: $(tail -3 "$TMP/fio.err")"
		stop_all
		echo "fio $r $c $iops - -" >>"$RESULTS"
		printf 'fio round %s: %-8s %9.0f IOPS\n' "$r" "$c" "$iops"
	done
}

stats=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo "?")
echo "bench workload: $(date -u '+%F %T UTC'), $(uname -r), $(nproc) CPUs, $ROUNDS round(s); hackbench $HACKBENCH; fio ${FIO_SECONDS}s; kernel.bpf_stats_enabled=$stats$([ "$stats" = 0 ] || echo ' (on: every program pays for it)')"
echo "bench workload: load average $(cut -d' ' -f1-3 /proc/loadavg) before the rounds"
HB=(alone irqlatd)
skipped runqlat || HB+=(runqlat)
skipped twins || HB+=(twins)
for r in $(seq "$ROUNDS"); do
	if ! skipped hackbench; then
		order=()
		for ((i = 0; i < ${#HB[@]}; i++)); do order+=("${HB[(i + r - 1) % ${#HB[@]}]}"); done
		hackbench_round "$r" "${order[@]}"
	fi
	if ! skipped fio; then
		if ((r % 2)); then fio_round "$r" alone irqlatd; else fio_round "$r" irqlatd alone; fi
	fi
done
echo "bench workload: load average $(cut -d' ' -f1-3 /proc/loadavg) after the rounds"

python3 - "$RESULTS" "${BENCH_SUMMARY:-/dev/null}" <<'EOF'
import statistics, sys
from collections import defaultdict
v = defaultdict(dict)           # (test, round) -> condition -> value
rest = defaultdict(list)         # condition -> CPU-s of the rest of the machine during its hackbench runs
steal = []
for line in open(sys.argv[1]):
    test, r, c, x, o, st = line.split()
    v[(test, int(r))][c] = float(x)
    if o != "-":
        rest[c].append(float(o))
        steal.append(float(st))
summary = open(sys.argv[2], "a")
def ratios(test, c, f):
    return [f(m[c], m["alone"]) for (t, _), m in sorted(v.items()) if t == test and c in m and "alone" in m]
def mmm(x):
    return min(x), statistics.median(x), max(x)
med = {}
print()
print("slowdown = the run's time with the programs / its time alone in the same round (fio: IOPS alone / IOPS with);")
print("min, median and max over the rounds.")
print()
print("| workload | beside | slowdown min | median | max |")
print("|---|---|---|---|---|")
for test, conds, f in (("hackbench", ("irqlatd", "runqlat", "twins"), lambda a, b: a / b),
                       ("fio", ("irqlatd",), lambda a, b: b / a)):
    for c in conds:
        r = ratios(test, c, f)
        if not r:
            continue
        med[(test, c)] = mmm(r)[1]
        print("| %s | %s | %.3f | %.3f | %.3f |" % ((test, c) + mmm(r)))
        summary.write("workload\t%s\t%s\t%.4f\t%.4f\t%.4f\t%d\n" % ((test, c) + mmm(r) + (len(r),)))
if rest:
    print()
    print("the rest of the machine during hackbench (CPU-s of everything but hackbench, median over rounds): %s; "
          "stolen by the hypervisor: %.1f s in all" % (", ".join("%s %.1f" % (c, statistics.median(x)) for c, x in rest.items()), sum(steal)))
    summary.write("workload_rest\t%s\t%.1f\n" % (", ".join("%s %.1f" % (c, statistics.median(x)) for c, x in rest.items()), sum(steal)))
print()
def target(label, ok, text, spread=None):
    # a margin of 1% read through run-to-run noise of several percent says little: say so
    if spread is not None and spread > 0.05:
        text += "; the rounds spread over %.2f, %.0fx the 0.01 margin: noise, not evidence" % (spread, spread / 0.01)
    print("target: %-58s %s  %s" % (label, text, "PASS" if ok else "FAIL"))
    summary.write("target\t%s\t%s\t%s\n" % (label, text, "PASS" if ok else "FAIL"))
def spread(test, c, f):
    r = ratios(test, c, f)
    return max(r) - min(r) if len(r) > 1 else None
slow = lambda a, b: a / b
iops = lambda a, b: b / a
if ("hackbench", "irqlatd") in med:
    i = med[("hackbench", "irqlatd")]
    floor = med.get(("hackbench", "twins"))
    goal = 1.01 if floor is None or floor <= 1.01 else floor + 0.005
    target("hackbench beside irqlatd: <= 1.01, or <= twins' floor + 0.005", i <= goal,
           "median %.3f, floor %s, so <= %.3f" % (i, "%.3f" % floor if floor else "not measured", goal),
           spread("hackbench", "irqlatd", slow))
    if ("hackbench", "runqlat") in med:
        target("hackbench beside irqlatd: less than beside runqlat", i < med[("hackbench", "runqlat")],
               "median %.3f against %.3f" % (i, med[("hackbench", "runqlat")]), spread("hackbench", "irqlatd", slow))
if ("fio", "irqlatd") in med:
    target("fio IOPS beside irqlatd: <= 1.01", med[("fio", "irqlatd")] <= 1.01, "median %.3f" % med[("fio", "irqlatd")],
           spread("fio", "irqlatd", iops))
EOF
