#!/bin/bash
# The hard-IRQ cost benchmark (make bench, as root; docs/bench.md explains it). Under fio load,
# with the kernel's BPF run-time statistics on, program pairs on irq:irq_handler_entry/exit
# are measured side by side in one run, as ratios to the clock-only pair:
#   warm      a throwaway clock-only pair, attached first and not measured: it takes the
#             cold-cache cost that the first program on a tracepoint pays (machine.md)
#   clock     only bpf_ktime_get_ns() at entry and at exit, no map: the physical floor
#   floor     the clock into a per-CPU slot and back (the floor before issue 9)
#   h0..h9    with --ladder: the hot-path ladder (bench/hotpath.bpf.c), one design change each
#   irqlatd   the real daemon's entry and exit programs (baseline: another build of it)
#   hardirqs  libbpf-tools `hardirqs -d` (per-name log2 histograms)
#   bpftrace  bench/hardirq.bt (per-name hist())
# Each round measures twice: in the listed order and with the middle reversed (bpftrace, a
# perf-event program, stays last), so each contender is measured early and late. The summary
# gives min/median/max over rounds of each ratio (each round the mean of its two orders).
# Then the daemon alone: its start-up to the first answer (three starts), start-up peak RSS,
# steady RSS, and its wake-ups over an idle window; then bench/kinds.sh: every program against
# its clock-only twin, each with its budget (bench/kinds.list), and the daemon's BPF and CPU
# time per second with every kind on; then bench/clocks.sh: what keeping the CPU's clocks adds
# to each kind's programs; then bench/workload.sh: hackbench and fio beside irqlatd,
# runqlat and the twins (--skip kinds,workload leaves them out). Last, bench/docs.py writes the
# run's tables into docs/bench.md's generated section (--no-docs: not).
# Never fails on a missed target (prints FAIL): exit 0 when it measured, 1 when it could not,
# 2 for a bad command line.
set -u
ARGS=${*:+$(printf "%q " "$@")}
ARGS=${ARGS% }
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
IRQLATD=$BUILD/irqlatd
IRQLAT=$BUILD/irqlat
LOADER=$BUILD/bench/irqlat-bench-load
HARDIRQS=${HARDIRQS:-/usr/sbin/hardirqs}
BT_SCRIPT=$TOP/bench/hardirq.bt
RUN_SECONDS=10
ROUNDS=5
IDLE_SECONDS=10
ATTACH=auto
LADDER=
BASELINE=
SKIP=,
DOCS=1
WORKLOAD_ARGS=()

usage() {
	cat <<USAGE
usage: bench/run.sh [--seconds N] [--rounds N] [--attach auto|tp_btf|raw_tp] [--ladder | --steps LIST] [--skip LIST]
                    [--hackbench ARGS] [--fio-seconds N] [--no-docs]
  --seconds N   fio load per measurement (default $RUN_SECONDS)
  --rounds N    rounds, each measuring both attach orders (default $ROUNDS)
  --attach M    irqlatd's --attach (default $ATTACH); every other pair is tp_btf
  --ladder      also measure the hot-path ladder h0..h9 (bench/hotpath.bpf.c)
  --steps LIST  only these steps of it (comma-separated, e.g. h0,h4,h7): fewer programs
                attached at once disturb each other less
  --skip LIST   leave out contenders (comma-separated: floor,irqlatd,hardirqs,bpftrace,kinds,clocks,flight,waking,workload,scale)
  --hackbench ARGS, --fio-seconds N  bench/workload.sh's (a quick run: --hackbench "-g 4 -l 500")
  --no-docs     leave docs/bench.md as it is (by default its generated section gets this run)
  --baseline B  also measure another irqlatd binary B (say, main's), as "baseline"
USAGE
}

die() { echo "bench: $*" >&2; exit 1; }
bad_usage() { echo "bench: $*" >&2; usage >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--seconds|--rounds|--attach|--skip|--steps|--baseline|--hackbench|--fio-seconds) [ $# -ge 2 ] || bad_usage "$1 needs a value" ;;&
	--hackbench|--fio-seconds) WORKLOAD_ARGS+=("$1" "$2"); shift 2 ;;
	--no-docs) DOCS=; shift ;;
	--baseline) BASELINE=$2; shift 2 ;;
	--seconds) RUN_SECONDS=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--attach) ATTACH=$2; shift 2 ;;
	--skip) SKIP=",$2,"; shift 2 ;;
	--ladder) LADDER="h0 h1 h2 h3 h4 h5 h6 h7 h8 h9"; shift ;;
	--steps) LADDER=${2//,/ }; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) bad_usage "unknown argument '$1'" ;;
	esac
done
[[ $RUN_SECONDS =~ ^[1-9][0-9]*$ ]] || bad_usage "--seconds takes a positive integer, not '$RUN_SECONDS'"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || bad_usage "--rounds takes a positive integer, not '$ROUNDS'"
case $ATTACH in auto|tp_btf|raw_tp) ;; *) bad_usage "--attach takes auto, tp_btf or raw_tp, not '$ATTACH'" ;; esac
for s in ${SKIP//,/ }; do
	case $s in floor|irqlatd|hardirqs|bpftrace|kinds|clocks|flight|waking|workload|scale) ;; *) bad_usage "--skip: no contender '$s' (floor, irqlatd, hardirqs, bpftrace, kinds, clocks, flight, waking, workload, scale)" ;; esac
done
for s in $LADDER; do
	case $s in h[0-9]) ;; *) bad_usage "--steps: no step '$s' (h0 to h9)" ;; esac
done
skipped() { [[ $SKIP == *",$1,"* ]]; }

MIDDLE=(clock)
skipped floor || MIDDLE+=(floor)
# shellcheck disable=SC2206 # one step per word
[ -n "$LADDER" ] && MIDDLE+=($LADDER)
[ -n "$BASELINE" ] && MIDDLE+=(baseline)
skipped irqlatd || MIDDLE+=(irqlatd)
skipped hardirqs || MIDDLE+=(hardirqs)
LAST=()
skipped bpftrace || LAST=(bpftrace)

[ "$(id -u)" -eq 0 ] || die "needs root to load BPF programs: run 'sudo make bench'"
[ -x "$LOADER" ] || die "$LOADER is missing: run 'make bench-build' first"
if ! skipped irqlatd; then
	for b in "$IRQLATD" "$IRQLAT"; do [ -x "$b" ] || die "$b is missing: run 'make bench-build' first"; done
fi
[ -z "$BASELINE" ] || [ -x "$BASELINE" ] || die "--baseline $BASELINE: not an executable"
skipped hardirqs || [ -x "$HARDIRQS" ] || die "$HARDIRQS is missing: run 'scripts/install-deps test' (Debian package libbpf-tools)"
for t in bpftool fio jq python3 $(skipped bpftrace || echo bpftrace); do
	command -v "$t" >/dev/null || die "$t is missing: run 'scripts/install-deps test'"
done

TMP=$(mktemp -d /tmp/irqlat-bench.XXXXXX)
declare -A PID=()
stop_pid() {	# stop_pid PID SIGNAL: stops what this script started, by its pid
	kill "-$2" "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
stop_all() {
	local n
	for n in "${!PID[@]}"; do
		case $n in bpftrace|hardirqs) stop_pid "${PID[$n]}" INT ;; *) stop_pid "${PID[$n]}" TERM ;; esac
	done
	PID=()
}
cleanup() { stop_all; rm -rf "$TMP"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

# the virtio disk's request line, the busiest virtio*-req* in /proc/interrupts (machine.md)
disk_irq() {
	awk '/virtio[0-9]+-req/ { n = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; sub(":", "", $1); print n, $1 }' /proc/interrupts | sort -rn | awk 'NR == 1 { print $2 }'
}
irq_count() {
	awk -v irq="$1:" '$1 == irq { n = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; else break; print n }' /proc/interrupts
}
device_irqs() {	# all numbered lines: what irq_handler_entry sees
	awk '$1 ~ /^[0-9]+:$/ { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; else break } END { print n + 0 }' /proc/interrupts
}
# "PID PROG_ID TRACEPOINT" for every program attached to the IRQ tracepoints, whoever holds it
irq_attachments() {
	bpftool -j perf show 2>/dev/null |
		jq -r '.[] | select(.tracepoint == "irq_handler_entry" or .tracepoint == "irq_handler_exit") | "\(.pid) \(.prog_id) \(.tracepoint)"'
}
progs_of() { irq_attachments | awk -v p="$1" '$1 == p { print $2 }' | sort -un | paste -sd, -; }
attached() { [ "$(irq_attachments | awk -v p="$1" '$1 == p' | wc -l)" -ge 2 ]; }
wait_for() {	# wait_for SECONDS COMMAND...: poll until the command succeeds
	local n=$(($1 * 10)); shift
	while [ "$n" -gt 0 ]; do "$@" && return 0; sleep 0.1; n=$((n - 1)); done
	return 1
}
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ n += $1 } END { print n }'; }
# each wake-up ends in a voluntary switch (back to sleep); being preempted is not a wake-up
wakeups() { cat /proc/"$1"/task/*/status | awk '/^voluntary_ctxt_switches:/ { n += $2 } END { print n }'; }
status_kib() { awk -v k="$2:" '$1 == k { print $2 }' /proc/"$1"/status; }
now() { date +%s.%N; }
load() {	# load SECONDS: direct-I/O random reads, ~10-15k disk IRQ/s here (machine.md)
	fio --name=irqbench --filename="$TMP/fio.dat" --size=64M --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --runtime="$1" --time_based >>"$TMP/fio.log" 2>&1 ||
		die "fio failed: $(tail -3 "$TMP/fio.log")"
}

start_daemon() {	# start_daemon [NAME BINARY]: irqlatd, or the --baseline one
	local n=${1:-irqlatd} bin=${2:-$IRQLATD}
	"$bin" --socket "$TMP/$n.sock" --log-target stderr --attach "$ATTACH" >"$TMP/$n.log" 2>&1 &
	PID[$n]=$!
	wait_for 10 "$IRQLAT" --socket "$TMP/$n.sock" status >/dev/null 2>&1 ||
		die "$bin did not come up: $(cat "$TMP/$n.log")"
}
start() {	# start NAME: attaches one contender, returns once its programs are on the tracepoints
	local n=$1 obj
	case $n in
	warm|clock) obj=clock ;;
	floor) obj=floor ;;
	h[0-9]) obj=hotpath-$n ;;
	esac
	case $n in
	irqlatd) start_daemon ;;
	baseline) start_daemon baseline "$BASELINE" ;;
	hardirqs)
		"$HARDIRQS" -d 86400 1 >"$TMP/hardirqs.out" 2>&1 &
		PID[$n]=$! ;;
	bpftrace)
		# bpftrace 0.17 warns about RLIMIT_MEMLOCK, which kernels since 5.11 no longer use
		bpftrace "$BT_SCRIPT" >"$TMP/bt.out" 2>"$TMP/bt.err" &
		PID[$n]=$! ;;
	*)
		"$LOADER" --pool 1024 "$n" "$BUILD/bench/$obj.bpf.o" >"$TMP/$n.out" 2>"$TMP/$n.err" &
		PID[$n]=$! ;;
	esac
	wait_for 60 attached "${PID[$n]}" ||
		die "$n did not attach to the IRQ tracepoints: $(cat "$TMP/$n.err" "$TMP/bt.err" "$TMP/hardirqs.out" 2>/dev/null | tail -5)"
}

# measure ROUND ORDER NAME...: one measurement with the contenders attached in that order;
# appends "round order name ns" lines to $RESULTS and prints the round's line
measure() {
	local round=$1 order=$2 n ids irq c0 c1 t0 t1 k0 k1 others
	shift 2
	for n in "$@"; do start "$n"; done
	: >"$TMP/ids"
	for n in "$@"; do echo "$n $(progs_of "${PID[$n]}")" >>"$TMP/ids"; done
	load 1	# cells are allocated on the first IRQs: that cold path is not measured
	irq=$(disk_irq)
	bpftool -j prog show >"$TMP/before.json"
	c0=$(irq_count "$irq"); t0=$(now)
	[ -n "${PID[irqlatd]:-}" ] && k0=$(cpu_ns "${PID[irqlatd]}")
	load "$RUN_SECONDS"
	bpftool -j prog show >"$TMP/after.json"
	c1=$(irq_count "$irq"); t1=$(now)
	# programs on the IRQ tracepoints held by processes that are not ours
	others=$(irq_attachments | awk -v ours=" ${PID[*]} " 'index(ours, " " $1 " ") == 0 { print "pid " $1 " prog " $2 }' | sort -u | paste -sd, -)
	if [ -n "${PID[irqlatd]:-}" ]; then
		k1=$(cpu_ns "${PID[irqlatd]}")
		echo "irqlatd_cpu_ms_per_s $(awk -v a="$k0" -v b="$k1" -v s="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" 'BEGIN { printf "%.3f", (b - a) / 1e6 / s }')" >>"$RESULTS.daemon"
		echo "irqlatd_rss_kib $(status_kib "${PID[irqlatd]}" VmRSS)" >>"$RESULTS.daemon"
	fi
	stop_all
	# ns per IRQ of each contender: the sum over its programs of delta run_time / delta run_cnt
	jq -rn --slurpfile b "$TMP/before.json" --slurpfile a "$TMP/after.json" --rawfile ids "$TMP/ids" \
		--arg round "$round" --arg order "$order" '
		def by_id(x): x | map({key: (.id | tostring), value: .}) | from_entries;
		(by_id($b[0])) as $B | (by_id($a[0])) as $A |
		def delta(id; f): (($A[id][f] // 0) - ($B[id][f] // 0));
		$ids | split("\n")[] | select(length > 0) | split(" ") | .[0] as $name |
		[(.[1] // "") | split(",")[] | select(length > 0)
		 | {rt: delta(.; "run_time_ns"), cnt: delta(.; "run_cnt")} | select(.cnt > 0) | .rt / .cnt] |
		"\($round) \($order) \($name) \(add // 0)"' >"$TMP/m" || die "cannot read bpftool's statistics"
	cat "$TMP/m" >>"$RESULTS"
	printf 'round %s, %s: disk IRQ %s at %.0f/s; ns per IRQ: %s; other programs on the IRQ tracepoints: %s\n' \
		"$round" "$order" "$irq" "$(awk -v a="$c0" -v b="$c1" -v s="$t0" -v e="$t1" 'BEGIN { print (b - a) / (e - s) }')" \
		"$(awk '$3 != "warm" { printf "%s%s %.0f", sep, $3, $4; sep = ", " }' "$TMP/m")" "${others:-none}" | tee -a "$OUT"
	[ -z "$others" ] || echo "$others" >>"$TMP/disturbed"
	awk '$4 == 0 { bad = 1 } END { exit bad }' "$TMP/m" || die "a contender measured no IRQs: $(cat "$TMP/m")"
}

# the resident pages the BPF maps mapped into it (the cells, the ring buffer): the kernel's
# memory, shared, but counted in VmRSS
bpf_map_kib() { awk '/^[0-9a-f]+-/ { m = ($6 == "anon_inode:bpf-map") } /^Rss:/ && m { n += $2 } END { print n + 0 }' /proc/"$1"/smaps; }
# the daemon alone, not loaded: how long it takes to its first answer, over STARTS starts (each
# from exec to the first `irqlat status` that gets one, polled every 10 ms); RSS at start-up
# and at rest, and its wake-ups while idle
STARTS=3
# the outliers the daemon handled: logged, held back or not logged (an idle CPU's late tick,
# say), each one a wake-up of the ring buffer's, logged or not
handled() { "$IRQLAT" --socket "$TMP/irqlatd.sock" --json status 2>/dev/null | jq '.outliers | .logged + .held_back + .not_logged' || echo 0; }
at_rest() {
	local w0 w1 i0 i1 t0 t1 ms k k0 k1
	for k in $(seq "$STARTS"); do
		t0=$(now)
		"$IRQLATD" --socket "$TMP/irqlatd.sock" --log-target stderr --attach "$ATTACH" >"$TMP/irqlatd.log" 2>&1 &
		PID[irqlatd]=$!
		until "$IRQLAT" --socket "$TMP/irqlatd.sock" status >/dev/null 2>&1; do
			kill -0 "${PID[irqlatd]}" 2>/dev/null || die "irqlatd did not come up: $(cat "$TMP/irqlatd.log")"
			sleep 0.01
		done
		t1=$(now)
		echo "startup_ms $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", (b - a) * 1000 }')" >>"$RESULTS.daemon"
		sleep 2
		echo "hwm_kib $(status_kib "${PID[irqlatd]}" VmHWM)" >>"$RESULTS.daemon"
		[ "$k" -eq "$STARTS" ] || stop_all
	done
	ms=$("$IRQLAT" --socket "$TMP/irqlatd.sock" status --json | jq '.config.interval_ms')
	w0=$(wakeups "${PID[irqlatd]}"); i0=$(device_irqs); t0=$(now); o0=$(grep -c 'outlier: ' "$TMP/irqlatd.log")
	k0=$(cpu_ns "${PID[irqlatd]}"); h0=$(handled)
	sleep "$IDLE_SECONDS"
	w1=$(wakeups "${PID[irqlatd]}"); i1=$(device_irqs); t1=$(now); o1=$(grep -c 'outlier: ' "$TMP/irqlatd.log")
	k1=$(cpu_ns "${PID[irqlatd]}"); h1=$(handled)
	echo "rest_cpu_ms_per_s $(awk -v a="$k0" -v b="$k1" -v s="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" 'BEGIN { printf "%.3f", (b - a) / 1e6 / s }')" >>"$RESULTS.daemon"
	echo "rss_kib $(status_kib "${PID[irqlatd]}" VmRSS)" >>"$RESULTS.daemon"
	echo "anon_kib $(status_kib "${PID[irqlatd]}" RssAnon)" >>"$RESULTS.daemon"
	echo "file_kib $(status_kib "${PID[irqlatd]}" RssFile)" >>"$RESULTS.daemon"
	echo "bpf_map_kib $(bpf_map_kib "${PID[irqlatd]}")" >>"$RESULTS.daemon"
	echo "wakeups $((w1 - w0))" >>"$RESULTS.daemon"
	echo "ticks $(awk -v s="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" -v ms="$ms" 'BEGIN { printf "%.1f", s * 1000 / ms }')" >>"$RESULTS.daemon"
	echo "irqs $((i1 - i0))" >>"$RESULTS.daemon"
	echo "outliers $((o1 - o0))" >>"$RESULTS.daemon"
	echo "handled $((h1 - h0))" >>"$RESULTS.daemon"
	echo "seconds $IDLE_SECONDS" >>"$RESULTS.daemon"
	stop_all
}

mkdir -p "$BUILD/bench"
OUT=$BUILD/bench/results.txt	# everything printed below, kept
RESULTS=$TMP/results
: >"$RESULTS"; : >"$RESULTS.daemon"
SUMMARY=$BUILD/bench/summary.tsv	# the run's figures, tab-separated, for bench/docs.py
printf 'run\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u '+%F %H:%M UTC')" "$(uname -r)" "$(nproc)" \
	"$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" "$ROUNDS" "$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?')" "$ARGS" >"$SUMMARY"
printf 'load_before\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$SUMMARY"
echo "bench: $(date -u '+%F %T UTC'), $(uname -r), $(nproc) CPUs, fio ${RUN_SECONDS}s per measurement, $ROUNDS round(s), irqlatd --attach $ATTACH; load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT"
reversed=()
for ((i = ${#MIDDLE[@]} - 1; i >= 0; i--)); do reversed+=("${MIDDLE[i]}"); done
for r in $(seq "$ROUNDS"); do
	measure "$r" forward warm "${MIDDLE[@]}" "${LAST[@]}"
	measure "$r" reversed warm "${reversed[@]}" "${LAST[@]}"
done
skipped irqlatd || at_rest

python3 - "$RESULTS" "$RESULTS.daemon" "$SUMMARY" <<'EOF' | tee -a "$OUT"
import statistics, sys
from collections import defaultdict

ns = defaultdict(dict)          # (round, order) -> name -> ns
for line in open(sys.argv[1]):
    r, order, name, v = line.split()
    ns[(int(r), order)][name] = float(v)
daemon = defaultdict(list)
for line in open(sys.argv[2]):          # "key value"
    k, v = line.split()
    daemon[k].append(float(v))

rounds = sorted({r for r, _ in ns})
names = [n for n in next(iter(ns.values())) if n != "warm"]

def per_round(f):
    """f(measurement) -> value; each round's mean over its two orders"""
    out = []
    for r in rounds:
        vals = [f(m) for (rr, _), m in ns.items() if rr == r]
        vals = [v for v in vals if v is not None]
        if vals:
            out.append(sum(vals) / len(vals))
    return out

def mmm(vals):
    return min(vals), statistics.median(vals), max(vals)

print()
print("ns per IRQ = run_time_ns / run_cnt of the entry program + the same of the exit program;")
print("kernel BPF statistics on (they add their own cost: read the ratios). Ratios are to the")
print("clock-only pair of the same measurement; each round is the mean of its two attach orders;")
print("min / median / max are over the %d round(s)." % len(rounds))
print()
print("| contender | ns per IRQ (median) | ratio min | ratio median | ratio max | median, attached early | median, attached late |")
print("|---|---|---|---|---|---|---|")
med = {}
for n in names:
    r = per_round(lambda m: m[n] / m["clock"])
    lo, md, hi = mmm(r)
    med[n] = md
    fw = statistics.median(m[n] / m["clock"] for (_, o), m in ns.items() if o == "forward")
    rv = statistics.median(m[n] / m["clock"] for (_, o), m in ns.items() if o == "reversed")
    print("| %s | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
        n, statistics.median(m[n] for m in ns.values()), lo, md, hi, fw, rv))

summary = open(sys.argv[3], "a")
for n in names:
    r = per_round(lambda m: m[n] / m["clock"])
    summary.write("hardirq\t%s\t%.0f\t%.2f\t%.2f\t%.2f\n" % ((n, statistics.median(m[n] for m in ns.values())) + mmm(r)))

def target(label, vals, op, goal, unit=""):
    if not vals:
        return
    lo, md, hi = mmm(vals)
    ok = md <= goal if op == "<=" else md >= goal
    text = "median %.2f%s (min %.2f, max %.2f)" % (md, unit, lo, hi)
    print("target: %-44s %s %.2f%s: %s  %s" % (label, op, goal, unit, text, "PASS" if ok else "FAIL"))
    summary.write("target\t%s %s %.2f%s\t%s\t%s\n" % (label, op, goal, unit, text, "PASS" if ok else "FAIL"))

print()
if "irqlatd" in names:
    if "floor" in names:
        target("hard-IRQ pair: irqlatd / per-CPU floor", per_round(lambda m: m["irqlatd"] / m["floor"]), "<=", 1.25)
    for peer, goal in (("hardirqs", 2.5), ("bpftrace", None)):
        if peer not in names:
            continue
        # what each adds to the two clock reads that every pair pays: the part a design can change
        extra = per_round(lambda m: (m[peer] - m["clock"]) / (m["irqlatd"] - m["clock"]) if m["irqlatd"] > m["clock"] else None)
        if goal:
            target("hard-IRQ pair: (%s - clock) / (irqlatd - clock)" % peer, extra, ">=", goal)
        elif extra:
            lo, md, hi = mmm(extra)
            print("        %-44s    median %.2f (min %.2f, max %.2f): beyond the clock-only pair's cost" % (
                "(%s - clock) / (irqlatd - clock)" % peer, md, lo, hi))
if daemon.get("irqlatd_cpu_ms_per_s"):
    target("irqlatd's CPU under fio (ms per second)", daemon["irqlatd_cpu_ms_per_s"], "<=", 1)
    print("irqlatd RSS under load: %.1f MiB (max VmRSS at the end of the fio loads)" % (max(daemon["irqlatd_rss_kib"]) / 1024))
if daemon.get("hwm_kib"):
    target("irqlatd's start-up to its first answer (ms)", daemon["startup_ms"], "<=", 300)
    target("irqlatd's start-up peak RSS, VmHWM (MiB)", [k / 1024 for k in daemon["hwm_kib"]], "<=", 20)
    target("irqlatd's steady RSS at rest, VmRSS (MiB)", [k / 1024 for k in daemon["rss_kib"]], "<=", 10)
    a, f, b = (daemon[k][0] / 1024 for k in ("anon_kib", "file_kib", "bpf_map_kib"))
    print("        of it: anonymous %.1f MiB; file-backed %.1f MiB, of which %.1f MiB are the BPF maps it maps "
          "(cells, ring buffer) and the rest its binary and libraries" % (a, f, b))
    summary.write("rss_parts\t%.2f\t%.2f\t%.2f\n" % (a, f, b))
    w, t, i, s, o, h = (daemon[k][0] for k in ("wakeups", "ticks", "irqs", "seconds", "outliers", "handled"))
    # an outlier wakes it, as it should (the ring buffer), logged or not (an idle CPU's late
    # tick is counted, not logged); anything else beyond the tick is a FAIL
    print("irqlatd at rest: %d wake-ups in %d s without fio (%d device IRQs meanwhile; %d outliers handled, %d of them logged), against %.0f ticks  %s" % (
        w, s, i, h, o, t, "PASS" if w <= t + h + 1 else "FAIL: it wakes up beyond its tick and its outliers"))
    c = daemon["rest_cpu_ms_per_s"][0]
    print("irqlatd at rest: CPU %.3f ms per second, with %.1f outliers logged a second (%s)" % (
        c, o / s, "%.0f us of CPU per outlier at most" % (c * 1000 / (o / s)) if o else "none"))
    summary.write("rest\t%.3f\t%.1f\t%d\n" % (c, o / s, w))
EOF
if [ -s "$TMP/disturbed" ]; then
	echo "bench: other BPF programs were attached to the IRQ tracepoints during the run (listed above): they share the tracepoints and the caches, so absolute ns are disturbed; the ratios are still taken within each measurement" | tee -a "$OUT"
	printf 'others\t%s\n' "$(sort -u "$TMP/disturbed" | paste -sd, -)" >>"$SUMMARY"
else
	echo "bench: no other BPF program was attached to the IRQ tracepoints during the run (bpftool perf show)" | tee -a "$OUT"
fi
if ! skipped kinds; then
	BUILD=$BUILD BENCH_SUMMARY=$SUMMARY "$TOP/bench/kinds.sh" --seconds "$RUN_SECONDS" --rounds "$ROUNDS" | tee -a "$OUT" ||
		echo "bench: the kinds benchmark could not run (above)" | tee -a "$OUT"
fi
if ! skipped clocks; then
	BUILD=$BUILD BENCH_SUMMARY=$SUMMARY "$TOP/bench/clocks.sh" --seconds "$RUN_SECONDS" --rounds "$ROUNDS" | tee -a "$OUT" ||
		echo "bench: the clocks benchmark could not run (above)" | tee -a "$OUT"
fi
if ! skipped flight; then
	BUILD=$BUILD BENCH_SUMMARY=$SUMMARY "$TOP/bench/clocks.sh" --without flight --seconds "$RUN_SECONDS" --rounds "$ROUNDS" | tee -a "$OUT" ||
		echo "bench: the flight recorder's benchmark could not run (above)" | tee -a "$OUT"
fi
if ! skipped waking; then
	BUILD=$BUILD BENCH_SUMMARY=$SUMMARY BENCH_LOAD=pipe KINDS_LIST="$TOP/bench/kinds-pipe.list" "$TOP/bench/kinds.sh" \
		--seconds "$RUN_SECONDS" --rounds "$ROUNDS" | tee -a "$OUT" ||
		echo "bench: the early sched_waking benchmark could not run (above)" | tee -a "$OUT"
fi
if ! skipped workload; then
	BUILD=$BUILD BENCH_SUMMARY=$SUMMARY "$TOP/bench/workload.sh" --rounds "$ROUNDS" "${WORKLOAD_ARGS[@]}" | tee -a "$OUT" ||
		echo "bench: the workload benchmark could not run (above)" | tee -a "$OUT"
fi
if ! skipped scale; then
	"$BUILD/bench/irqlat-bench-scale" | tee "$TMP/scale" | tee -a "$OUT" || echo "bench: the scale model failed (above)" | tee -a "$OUT"
	awk '/^scale:/ { printf "scale\t%s\t%s\t%s\t%s\t%s\n", $3, $5, $7, $9, $11 }
	     /^target:/ { l = $0; sub(/^target: /, "", l); v = $NF; split(l, p, ": "); m = p[2]; sub(/ +[A-Z]+$/, "", m)
			  printf "target\t%s\t%s\t%s\n", p[1], m, v }' "$TMP/scale" >>"$SUMMARY"
fi
echo "bench: load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" | tee -a "$OUT"
printf 'load_after\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$SUMMARY"
if [ -n "$DOCS" ]; then
	python3 "$TOP/bench/docs.py" "$SUMMARY" "$TOP/docs/bench.md" && echo "bench: docs/bench.md's generated section has this run"
fi
echo "bench: this output is also in $OUT, its summary in $SUMMARY"
