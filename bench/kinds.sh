#!/bin/bash
# Each of irqlatd's programs against its clock-only twin, with a budget (bench/run.sh runs it
# after the hard-IRQ rounds; docs/bench.md). The rows come from bench/kinds.list: one line a
# program (or entry/exit pair), its twin's object in bench/, its tracepoints and its budget.
# Under fio load (BLOCK softirqs, disk IRQs, context switches), a function-call IPI load
# (irqlat-bench-ipi, the test helper tests/host/helpers/ipi-load.c) and a cyclictest thread (a
# sleeper woken by its hrtimer every 500 us), with the kernel's BPF run-time statistics on,
# side by side in one run:
#   warm       every twin once more, attached first and not measured: the first program on a
#              tracepoint pays a cold-cache cost the others do not (machine.md)
#   TWIN       each twin object a row names, its programs only reading the clock
#   irqlatd    the daemon with its defaults: every kind on
# ns per event of a row = the run time of its programs (those on its tracepoints whose name
# matches) over the runs of its event programs, the median over the measurement's one-second
# windows (bench/windows.py: a stall of the host's lands in a few of them). Each round
# measures both attach orders; the ratio's min, median and max are over every measurement.
# Then irqlatd's BPF time and its own CPU time per second under that load.
# With BENCH_LOAD=pipe the load is two threads passing a byte through pipes (bench/lib.sh): the
# rows of bench/kinds-pipe.list (KINDS_LIST=bench/kinds-pipe.list) measure sched_waking's early
# exit alone; the daemon's own figures are then left out.
# Usage: bench/kinds.sh [--seconds N] [--rounds N]; exit 0 measured (PASS or FAIL), 1 could
# not measure, 2 bad usage. With BENCH_SUMMARY=FILE it appends its results there as
# tab-separated lines for bench/docs.py.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
IRQLATD=$BUILD/irqlatd
IRQLAT=$BUILD/irqlat
LOADER=$BUILD/bench/irqlat-bench-load
IPI=$BUILD/bench/irqlat-bench-ipi
LIST=${KINDS_LIST:-$TOP/bench/kinds.list}
RUN_SECONDS=10
ROUNDS=3

BENCH_NAME=kinds
. "$TOP/bench/lib.sh"
rounds_args "$@"
[ "$(id -u)" -eq 0 ] || die "needs root to load BPF programs"
[ -r "$LIST" ] || die "$LIST is missing"
# the twins, in the order the list first names them
mapfile -t TWINS < <(awk '!/^#/ && NF { if (!seen[$3]++) print $3 }' "$LIST")
awk '!/^#/ && NF && NF != 6 { print FILENAME ":" FNR ": " NF " fields, not 6"; bad = 1 } END { exit bad }' "$LIST" >&2 ||
	die "$LIST: every row has 6 fields (the comment at its top says which)"
for b in "$IRQLATD" "$IRQLAT" "$LOADER" "$IPI"; do
	[ -x "$b" ] || die "$b is missing: run 'make bench-build' first"
done
for t in "${TWINS[@]}"; do
	[ -e "$BUILD/bench/$t.bpf.o" ] || die "$BUILD/bench/$t.bpf.o is missing (bench/$t.bpf.c): run 'make bench-build' first"
done
need_tools

make_tmp

start() {	# start NAME: one contender
	local n=$1 t
	case $n in
	warm) for t in "${TWINS[@]}"; do loader "warm-$t" "$t"; done ;;
	irqlatd) "$IRQLATD" --socket "$TMP/irqlatd.sock" --log-target stderr "${IRQLATD_ARGS[@]}" >"$TMP/irqlatd.log" 2>&1 &
		 PID[$n]=$!
		 wait_for 30 "$IRQLAT" --socket "$TMP/irqlatd.sock" status >/dev/null 2>&1 || die "irqlatd did not come up: $(cat "$TMP/irqlatd.log")" ;;
	*) loader "$n" "$n" ;;
	esac
}
# irqlatd's options in a measurement: none (its defaults), or for the "quiet" one every
# kind's outliers off, so the hot path and the daemon's tick are measured without the outliers'
# work (their explanation in the programs, their records, the daemon's handling of each)
IRQLATD_ARGS=()
QUIET_ARGS=()
for o in $("$IRQLATD" --help 2>&1 | grep -o -- '--[a-z-]*-threshold-us' | sort -u); do	# every kind's, from its own table
	QUIET_ARGS+=("$o" 0)
done
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ n += $1 } END { print n }'; }
# the outliers irqlatd has handled (logged, held back or not logged: each one explained, kept
# and sent), which its CPU under this load is mostly for
outliers() { "$IRQLAT" --socket "$TMP/irqlatd.sock" --json status 2>/dev/null | jq '.outliers | .logged + .held_back + .not_logged' || echo 0; }

RESULTS=$TMP/results
: >"$RESULTS"
measure() {	# ROUND ORDER NAME...
	local round=$1 order=$2 n t0 t1 k0 k1 o0 o1
	shift 2
	for n in "$@"; do start "$n"; done
	load 1	# cells are taken on the first events: that cold path is not measured
	attachments >"$TMP/att"
	for n in "$@"; do [ "$n" = warm ] || echo "$n ${PID[$n]}"; done >"$TMP/pids"
	o0=$(outliers)
	bpftool -j prog show >"$TMP/before.json"; t0=$(date +%s.%N); k0=$(cpu_ns "${PID[irqlatd]}")
	windows_start "$TMP/win"
	load "$RUN_SECONDS"
	windows_stop
	bpftool -j prog show >"$TMP/after.json"; t1=$(date +%s.%N); k1=$(cpu_ns "${PID[irqlatd]}")
	o1=$(outliers)
	stop_all
	windows_list "$TMP/win" >"$TMP/windows"
	PYTHONPATH=$TOP/bench python3 - "$LIST" "$TMP/before.json" "$TMP/after.json" "$TMP/att" "$TMP/pids" "$round" "$order" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$((k1 - k0))" "$((o1 - o0))" "$TMP/windows" <<'EOF' >>"$RESULTS" || die "cannot read bpftool's statistics"
import json, re, sys
from windows import snapshots, median_per_event
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
before = {p["id"]: p for p in json.load(open(sys.argv[2]))}
after = {p["id"]: p for p in json.load(open(sys.argv[3]))}
att = [l.split() for l in open(sys.argv[4]) if l.strip()]
pids = dict(l.split() for l in open(sys.argv[5]) if l.strip())
rnd, order, secs, cpu_ns, outliers = sys.argv[6], sys.argv[7], float(sys.argv[8]), int(sys.argv[9]), int(sys.argv[10])
snaps = snapshots(sys.argv[2], open(sys.argv[11]).read().split(), sys.argv[3])
def d(i, f):
    return after.get(i, {}).get(f, 0) - before.get(i, {}).get(f, 0)
def progs(pid, tps, pattern):
    return {(int(p), t) for q, p, t in att if q == pid and t in tps
            and re.search(pattern, after.get(int(p), {}).get("name", ""))}
for row, budget, twin, tps, events, pattern in rows:
    tps, events = tps.split(","), events.split(",")
    for who, pat in (("irqlatd", pattern), (twin, ".")):
        ps = progs(pids[who], tps, pat)
        runs = sum(d(i, "run_cnt") for i, t in ps if t in events)
        ns = median_per_event(snaps, [i for i, _ in ps], [i for i, t in ps if t in events])
        if runs and ns is not None:
            print(rnd, order, row, "irqlatd" if who == "irqlatd" else "twin", ns, runs / secs)
ids = {int(p) for q, p, t in att if q == pids["irqlatd"]}
print(rnd, order, "-", "total_bpf_ms_per_s", sum(d(i, "run_time_ns") for i in ids) / 1e6 / secs, len(ids))
print(rnd, order, "-", "daemon_cpu_ms_per_s", cpu_ns / 1e6 / secs, 0)
print(rnd, order, "-", "daemon_outliers_per_s", outliers / secs, 0)
if outliers > 0:
    print(rnd, order, "-", "daemon_cpu_us_per_outlier", cpu_ns / 1e3 / outliers, 0)
EOF
	echo "round $round, $order: $(awk -v r="$round" -v o="$order" '$1 == r && $2 == o && $3 != "-" { printf "%s%s %s %.0f", sep, $3, $4, $5; sep = ", " }' "$RESULTS")"
}

echo "bench kinds: $(date -u '+%F %T UTC'), $(uname -r), $(nproc) CPUs, fio + IPI + cyclictest load ${RUN_SECONDS}s per measurement, $ROUNDS round(s), rows from ${LIST#"$TOP"/}"
echo "bench kinds: load average $(cut -d' ' -f1-3 /proc/loadavg) before the rounds"
# the BPF statistics stay on while the loaders run (each holds bpf_enable_stats); irqlatd reads them
for r in $(seq "$ROUNDS"); do
	measure "$r" forward warm "${TWINS[@]}" irqlatd
	rev=(irqlatd)
	for ((i = ${#TWINS[@]} - 1; i >= 0; i--)); do rev+=("${TWINS[i]}"); done
	measure "$r" reversed warm "${rev[@]}"
	# the same with every outlier off: not in the ratios above, a table of its own
	[ "${BENCH_LOAD:-}" = pipe ] && continue
	IRQLATD_ARGS=("${QUIET_ARGS[@]}")
	measure "$r" quiet warm "${TWINS[@]}" irqlatd
	IRQLATD_ARGS=()
done
echo "bench kinds: load average $(cut -d' ' -f1-3 /proc/loadavg) after the rounds"
python3 - "$LIST" "$RESULTS" "${BENCH_SUMMARY:-/dev/null}" "${BENCH_LOAD:-}" <<'EOF'
import statistics, sys
from collections import defaultdict
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
m = defaultdict(dict)            # (round, order, row) -> who -> (ns, events/s)
daemon = defaultdict(list)
mq = defaultdict(dict)           # the same, measured with every outlier off ("quiet")
daemon_q = defaultdict(list)
for line in open(sys.argv[2]):
    r, o, row, who, v, n = line.split()
    if row == "-":
        (daemon_q if o == "quiet" else daemon)[who].append((float(v), int(n)))
    else:
        (mq if o == "quiet" else m)[(r, o, row)][who] = (float(v), float(n))
summary = open(sys.argv[3], "a")
pipe = sys.argv[4] == "pipe"  # the daemon's figures are not the ones its targets are for
print()
print("ns per event = run_time_ns / runs of the row's event programs, the median over a measurement's 1 s windows")
print("(kernel BPF statistics on: read the ratios; bench/windows.py says why windows);")
print("ratio = irqlatd / its clock-only twin in the same measurement; min, median and max over every measurement.")
print()
def table(m, tag):
    print("| program | irqlatd ns/event (median) | twin ns/event (median) | ratio min | ratio median | ratio max | budget | verdict | events/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row, budget, twin, *_ in rows:
        ms = [v for (r, o, k), v in m.items() if k == row and "twin" in v and "irqlatd" in v]
        if not ms:
            print("| %s | | | | | | <= %s | not measured (no event) | |" % (row, budget))
            summary.write("%s\t%s\t\t\t\t\t\t%s\tnot measured\t\n" % (tag, row, budget))
            continue
        ratios = [v["irqlatd"][0] / v["twin"][0] for v in ms]
        med = statistics.median(ratios)
        verdict = "PASS" if med <= float(budget) else "FAIL"
        vals = (row, statistics.median(v["irqlatd"][0] for v in ms), statistics.median(v["twin"][0] for v in ms),
                min(ratios), med, max(ratios), budget, verdict, statistics.median(v["irqlatd"][1] for v in ms))
        print("| %s | %.0f | %.0f | %.2f | %.2f | %.2f | <= %s | %s | %.0f |" % vals)
        summary.write(tag + "\t%s\t%.0f\t%.0f\t%.2f\t%.2f\t%.2f\t%s\t%s\t%.0f\n" % vals)
    print()
table(m, "kind")
if mq:
    # not a budget's verdict: the defaults are; what the hot path costs without the outliers' work
    print("The same with every kind's outliers off (every threshold 0; one measurement a round):")
    print()
    table(mq, "kind_quiet")
notes = {"total_bpf_ms_per_s": lambda n: ", %d programs, the statistics' own cost in it" % n,
         "daemon_cpu_ms_per_s": lambda n: " (/proc/PID/task/*/schedstat)",
         "daemon_outliers_per_s": lambda n: " (logged, held back or not logged)",
         # all of its CPU over its outliers: at most what one costs, the tick's share in it
         "daemon_cpu_us_per_outlier": lambda n: ", its whole CPU time over them: at most what one costs"}
for who, label, unit in (("total_bpf_ms_per_s", "irqlatd's BPF run time", "ms per second"),
                         ("daemon_cpu_ms_per_s", "irqlatd's own CPU time", "ms per second"),
                         ("daemon_outliers_per_s", "the outliers irqlatd handled", "a second"),
                         ("daemon_cpu_us_per_outlier", "irqlatd's CPU per outlier", "us")):
    v = [x for x, _ in daemon[who]] if not pipe else []
    if v:
        print("%s under this load, every kind on: %.2f %s median (min %.2f, max %.2f)%s" % (
            label, statistics.median(v), unit, min(v), max(v), notes[who](daemon[who][0][1])))
        summary.write("%s\t%.3f\t%.3f\t%.3f\n" % (who, statistics.median(v), min(v), max(v)))
q = [x for x, _ in daemon_q["daemon_cpu_ms_per_s"]]
v = [x for x, _ in daemon["daemon_cpu_ms_per_s"]] if not pipe else []
if q:
    print("irqlatd's own CPU time under this load, every kind on, outliers off: %.2f ms per second median (min %.2f, max %.2f)"
          % (statistics.median(q), min(q), max(q)))
    summary.write("daemon_cpu_quiet_ms_per_s\t%.3f\t%.3f\t%.3f\n" % (statistics.median(q), min(q), max(q)))
    n = [x for x, _ in daemon["daemon_outliers_per_s"]]
    if v and n and statistics.median(n) > 0:
        # the medians' difference over the outliers: what one outlier costs the daemon
        each = (statistics.median(v) - statistics.median(q)) * 1e3 / statistics.median(n)
        print("irqlatd's CPU per outlier, its CPU with outliers less without, over them: %.1f us" % each)
        summary.write("daemon_cpu_us_per_outlier_net\t%.1f\n" % each)
    verdict = "PASS" if statistics.median(q) <= 1 else "FAIL"
    text = "median %.2f (min %.2f, max %.2f)" % (statistics.median(q), min(q), max(q))
    print("target: irqlatd's CPU under fio + IPIs + cyclictest, outliers off <= 1 ms per second: %s  %s" % (text, verdict))
    summary.write("target\tirqlatd's CPU under fio + IPIs + cyclictest, outliers off (ms per second) <= 1.00\t%s\t%s\n" % (text, verdict))
if v:
    verdict = "PASS" if statistics.median(v) <= 1 else "FAIL"
    text = "median %.2f (min %.2f, max %.2f)" % (statistics.median(v), min(v), max(v))
    print("target: irqlatd's CPU under fio + IPIs + cyclictest <= 1 ms per second: %s  %s" % (text, verdict))
    summary.write("target\tirqlatd's CPU under fio + IPIs + cyclictest (ms per second) <= 1.00\t%s\t%s\n" % (text, verdict))
EOF
