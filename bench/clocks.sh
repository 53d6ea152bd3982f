#!/bin/bash
# What keeping the CPU's clocks costs each kind's programs (issue "Why it was late": at most
# 10 ns an event). The clocks (bpf/clock.bpf.h: the net time of hard IRQs, vectors, softirqs
# and NMIs, the task clocks of sched_switch, the ring of recent events) are kept by the
# programs that already measure those events; make bench-build builds each such kind's object
# as shipped (kind-K) and without the clocks' bookkeeping (noclocks-K, IRQLAT_BENCH_NO_CLOCKS).
# Under the load of bench/kinds.sh (fio, function-call IPIs, a cyclictest thread), with the
# kernel's BPF statistics on, both are attached side by side after a throwaway copy of the
# rows' clock-only twins (the cold cost of the first program on a tracepoint), in both orders
# each round. A row's ns per event is taken as in bench/kinds.sh (its tracepoints, events and
# program names come from bench/kinds.list; the median over one-second windows); the clocks'
# cost is kind-K's less noclocks-K's in the same measurement, min, median and max over every
# measurement; the budget applies to the median. The objects are loaded by irqlat-bench-load,
# not the daemon: the kinds' own options keep their defaults (wake-ups and threaded IRQs off
# in sched), which both builds share.
# With --without flight it measures the flight recorder instead (issue "Capture on threshold":
# at most 15 ns an event): each kind that writes to it (the timer's expiry too), as shipped
# and built with IRQLAT_NO_FLIGHT (noflight-K), the same way.
# Usage: bench/clocks.sh [--without clocks|flight] [--seconds N] [--rounds N]; exit 0 measured
# (PASS or FAIL), 1 could not measure, 2 bad usage. With BENCH_SUMMARY=FILE it appends its rows
# there (named "clocks" or "flight") for bench/docs.py.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
LOADER=$BUILD/bench/irqlat-bench-load
IPI=$BUILD/bench/irqlat-bench-ipi
LIST=$TOP/bench/kinds.list
RUN_SECONDS=10
ROUNDS=3
BUDGET_NS=10
# bench/kinds.list's row -> the kind's object (bpf/K.bpf.c)
declare -A KIND=([hardirq]=hardirq [softirq]=softirq [vector]=vector [sched_switch]=sched [nmi]=nmi)

WITHOUT=clocks
ARGS=()
while [ $# -gt 0 ]; do
	case $1 in
	--without) WITHOUT=${2:-}; shift 2 || shift ;;
	*) ARGS+=("$1"); shift ;;
	esac
done
case $WITHOUT in
clocks) VARIANT=noclocks WHAT="the clocks (IRQLAT_BENCH_NO_CLOCKS)" ;;
flight) VARIANT=noflight WHAT="the flight recorder (IRQLAT_NO_FLIGHT)" BUDGET_NS=15
	KIND[hrtimer_expiry]=timer KIND[sched_waking]=sched ;;
*) echo "bench clocks: --without takes clocks or flight" >&2; exit 2 ;;
esac

BENCH_NAME=clocks
. "$TOP/bench/lib.sh"
rounds_args "${ARGS[@]}"
[ "$(id -u)" -eq 0 ] || die "needs root to load BPF programs"
mapfile -t TWINS < <(awk '!/^#/ && NF { if (!seen[$3]++) print $3 }' "$LIST")
OBJS=()
for k in $(printf '%s\n' "${KIND[@]}" | sort -u); do OBJS+=("kind-$k" "$VARIANT-$k"); done
for o in "${OBJS[@]}" "${TWINS[@]}"; do
	[ -e "$BUILD/bench/$o.bpf.o" ] || die "$BUILD/bench/$o.bpf.o is missing: run 'make bench-build' first"
done
for b in "$LOADER" "$IPI"; do [ -x "$b" ] || die "$b is missing: run 'make bench-build' first"; done
need_tools

make_tmp
RESULTS=$TMP/results
: >"$RESULTS"

measure() {	# ROUND ORDER OBJECT...: the warm twins, then each object, measured under the load
	local round=$1 order=$2 o t
	shift 2
	for t in "${TWINS[@]}"; do loader "warm-$t" "$t"; done
	for o in "$@"; do loader "$o" "$o"; done
	load 1	# cells are taken on the first events: that cold path is not measured
	attachments >"$TMP/att"
	for o in "$@"; do echo "$o ${PID[$o]}"; done >"$TMP/pids"
	bpftool -j prog show >"$TMP/before.json"; t0=$(date +%s.%N)
	windows_start "$TMP/win"
	load "$RUN_SECONDS"
	windows_stop
	bpftool -j prog show >"$TMP/after.json"; t1=$(date +%s.%N)
	stop_all
	windows_list "$TMP/win" >"$TMP/windows"
	PYTHONPATH=$TOP/bench python3 - "$LIST" "$TMP/before.json" "$TMP/after.json" "$TMP/att" "$TMP/pids" "$round" "$order" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$TMP/windows" "$VARIANT" "${!KIND[@]}" "${KIND[@]}" <<'PY' >>"$RESULTS" || die "cannot read bpftool's statistics"
import json, re, sys
from windows import snapshots, median_per_event
rows = {l.split()[0]: l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")}
before = {p["id"]: p for p in json.load(open(sys.argv[2]))}
after = {p["id"]: p for p in json.load(open(sys.argv[3]))}
att = [l.split() for l in open(sys.argv[4]) if l.strip()]
pids = dict(l.split() for l in open(sys.argv[5]) if l.strip())
rnd, order, secs = sys.argv[6], sys.argv[7], float(sys.argv[8])
snaps = snapshots(sys.argv[2], open(sys.argv[9]).read().split(), sys.argv[3])
variant = sys.argv[10]
names = sys.argv[11:]
kind = dict(zip(names[:len(names) // 2], names[len(names) // 2:]))
def d(i, f):
    return after.get(i, {}).get(f, 0) - before.get(i, {}).get(f, 0)
for row, k in kind.items():
    _, _, _, tps, events, pattern = rows[row]
    tps, events = tps.split(","), events.split(",")
    for build in ("kind", variant):
        pid = pids["%s-%s" % (build, k)]
        ps = {(int(p), t) for q, p, t in att if q == pid and t in tps
              and re.search(pattern, after.get(int(p), {}).get("name", ""))}
        runs = sum(d(i, "run_cnt") for i, t in ps if t in events)
        ns = median_per_event(snaps, [i for i, _ in ps], [i for i, t in ps if t in events])
        if runs and ns is not None:
            print(rnd, order, row, "without" if build == variant else build, ns, runs / secs)
PY
	echo "round $round, $order: $(awk -v r="$round" -v o="$order" '$1 == r && $2 == o { printf "%s%s %s %.0f", sep, $3, $4, $5; sep = ", " }' "$RESULTS")"
}

echo "bench clocks: $WITHOUT: $(date -u '+%F %T UTC'), $(uname -r), $(nproc) CPUs, fio + IPI + cyclictest load ${RUN_SECONDS}s per measurement, $ROUNDS round(s)"
echo "bench clocks: load average $(cut -d' ' -f1-3 /proc/loadavg) before the rounds"
for r in $(seq "$ROUNDS"); do
	measure "$r" forward "${OBJS[@]}"
	rev=()
	for ((i = ${#OBJS[@]} - 1; i >= 0; i--)); do rev+=("${OBJS[i]}"); done
	measure "$r" reversed "${rev[@]}"
done
echo "bench clocks: load average $(cut -d' ' -f1-3 /proc/loadavg) after the rounds"
python3 - "$RESULTS" "$BUDGET_NS" "${BENCH_SUMMARY:-/dev/null}" "$WITHOUT" "$WHAT" "${!KIND[@]}" <<'PY'
import statistics, sys
from collections import defaultdict
budget, name, what = float(sys.argv[2]), sys.argv[4], sys.argv[5]
order = ["hardirq", "softirq", "vector", "hrtimer_expiry", "sched_switch", "sched_waking", "nmi"]
rows = sorted(sys.argv[6:], key=lambda r: order.index(r) if r in order else len(order))
m = defaultdict(dict)            # (round, order, row) -> build -> ns
for line in open(sys.argv[1]):
    r, o, row, build, ns, n = line.split()
    m[(r, o, row)][build] = (float(ns), float(n))
summary = open(sys.argv[3], "a")
print()
print("ns per event as bench/kinds.sh takes it; %s = the shipped program's less the same program built" % name)
print("without %s, in the same measurement; min, median and max over every measurement." % what)
print()
print("| program | shipped ns/event (median) | without %s (median) | %s ns min | %s ns median | %s ns max | budget | verdict | events/s |" % (name, name, name, name))
print("|---|---|---|---|---|---|---|---|---|")
for row in rows:
    ms = [v for (r, o, k), v in m.items() if k == row and "kind" in v and "without" in v]
    if not ms:
        print("| %s | | | | | | <= %.0f | not measured (no event) | |" % (row, budget))
        summary.write("%s\t%s\t\t\t\t\t\t%.0f\tnot measured\t\n" % (name, row, budget))
        continue
    diff = [v["kind"][0] - v["without"][0] for v in ms]
    med = statistics.median(diff)
    vals = (row, statistics.median(v["kind"][0] for v in ms), statistics.median(v["without"][0] for v in ms),
            min(diff), med, max(diff), budget, "PASS" if med <= budget else "FAIL", statistics.median(v["kind"][1] for v in ms))
    print("| %s | %.0f | %.0f | %.1f | %.1f | %.1f | <= %.0f | %s | %.0f |" % vals)
    summary.write(name + "\t%s\t%.0f\t%.0f\t%.1f\t%.1f\t%.1f\t%.0f\t%s\t%.0f\n" % vals)
PY
