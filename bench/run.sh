#!/bin/bash
# The hard-IRQ cost benchmark (make bench, as root; docs/bench.md explains it). Under fio load,
# with the kernel's BPF run-time statistics on, four program pairs are attached at once to
# irq:irq_handler_entry/exit and their ns per IRQ compared in the same run, as ratios:
#   warm     a throwaway clock-only pair, attached first: it takes the cold-cache cost that
#            the first program on a tracepoint pays (machine.md)
#   floor    the least a pair can do to time a handler (bench/floor.bpf.c)
#   irqlatd  the real daemon's entry and exit programs
#   bpftrace bench/hardirq.bt, the same per-handler histograms written the usual way
# Each round runs twice, swapping the attach order of irqlatd and floor; ratios are averaged.
# Never fails on a missed target: exit status 0 when it measured, 1 when it could not.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
IRQLATD=$BUILD/irqlatd
IRQLAT=$BUILD/irqlat
FLOOR=$BUILD/bench/irqlat-bench-floor
BT_SCRIPT=$TOP/bench/hardirq.bt
RUN_SECONDS=10
ROUNDS=1
ATTACH=auto
TARGET_FLOOR=1.25	# irqlatd / floor, at most
TARGET_BPFTRACE=4	# bpftrace / irqlatd, at least

usage() {
	cat <<USAGE
usage: bench/run.sh [--seconds N] [--rounds N] [--attach auto|tp_btf|raw_tp]
  --seconds N   fio load per measurement (default $RUN_SECONDS)
  --rounds N    repeat both attach orders N times (default $ROUNDS)
  --attach M    irqlatd's --attach (default $ATTACH); the floor is always tp_btf
USAGE
}

die() { echo "bench: $*" >&2; exit 1; }

bad_usage() { echo "bench: $*" >&2; usage >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--seconds|--rounds|--attach) [ $# -ge 2 ] || bad_usage "$1 needs a value" ;;&
	--seconds) RUN_SECONDS=$2; shift 2 ;;
	--rounds) ROUNDS=$2; shift 2 ;;
	--attach) ATTACH=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) bad_usage "unknown argument '$1'" ;;
	esac
done
[[ $RUN_SECONDS =~ ^[1-9][0-9]*$ ]] || { echo "bench: --seconds takes a positive integer, not '$RUN_SECONDS'" >&2; exit 2; }
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "bench: --rounds takes a positive integer, not '$ROUNDS'" >&2; exit 2; }
case $ATTACH in auto|tp_btf|raw_tp) ;; *) echo "bench: --attach takes auto, tp_btf or raw_tp, not '$ATTACH'" >&2; exit 2 ;; esac

[ "$(id -u)" -eq 0 ] || die "needs root to load BPF programs: run 'sudo make bench'"
for b in "$IRQLATD" "$IRQLAT" "$FLOOR"; do
	[ -x "$b" ] || die "$b is missing: run 'make bench-build' first"
done
for t in bpftool bpftrace fio jq; do
	command -v "$t" >/dev/null || die "$t is missing: run 'scripts/install-deps test'"
done

TMP=$(mktemp -d /tmp/irqlat-bench.XXXXXX)
FLOOR_PID='' DAEMON_PID='' BT_PID=''
stop() {	# stop PID-variable SIGNAL: stops what this script started, by its pid
	local pid=${!1}
	[ -n "$pid" ] || return 0
	kill "-$2" "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	printf -v "$1" ''
}
cleanup() {
	stop BT_PID INT
	stop DAEMON_PID TERM
	stop FLOOR_PID TERM
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# the virtio disk's request line, the busiest virtio*-req* in /proc/interrupts (machine.md)
disk_irq() {
	awk '/virtio[0-9]+-req/ { n = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; sub(":", "", $1); print n, $1 }' /proc/interrupts | sort -rn | awk 'NR == 1 { print $2 }'
}
irq_count() {
	awk -v irq="$1:" '$1 == irq { n = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; else break; print n }' /proc/interrupts
}
# the kernel ids of the BPF programs a process holds open
prog_ids() { grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -un | paste -sd, -; }
# wait_for SECONDS COMMAND...: poll until the command succeeds
wait_for() {
	local n=$(($1 * 10)); shift
	while [ "$n" -gt 0 ]; do "$@" && return 0; sleep 0.1; n=$((n - 1)); done
	return 1
}
cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' /proc/"$1"/stat; }	# utime + stime
# CPU time in ns of all the process's threads: the same as utime+stime, without the tick rounding
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ n += $1 } END { print n }'; }
now() { date +%s.%N; }
load() {	# load SECONDS: direct-I/O random reads, ~10-15k disk IRQ/s here (machine.md)
	fio --name=irqbench --filename="$TMP/fio.dat" --size=64M --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --runtime="$1" --time_based >>"$TMP/fio.log" 2>&1 ||
		die "fio failed: $(tail -3 "$TMP/fio.log")"
}

start_floor() {
	"$FLOOR" --wait >"$TMP/floor.out" 2>"$TMP/floor.err" &
	FLOOR_PID=$!
	wait_for 10 grep -q '^warm ' "$TMP/floor.out" || die "the bench loader did not attach: $(cat "$TMP/floor.err")"
}
attach_floor() {
	kill -USR1 "$FLOOR_PID"
	wait_for 10 grep -q '^floor ' "$TMP/floor.out" || die "the bench loader did not attach the floor: $(cat "$TMP/floor.err")"
}
start_daemon() {
	"$IRQLATD" --socket "$TMP/irqlatd.sock" --log-target stderr --attach "$ATTACH" >"$TMP/daemon.log" 2>&1 &
	DAEMON_PID=$!
	wait_for 10 "$IRQLAT" --socket "$TMP/irqlatd.sock" status >/dev/null 2>&1 ||
		die "irqlatd did not come up: $(cat "$TMP/daemon.log")"
}
bt_attached() { [ "$(prog_ids "$BT_PID" | tr , '\n' | grep -c .)" -ge 2 ] && grep -q '^Attaching' "$TMP/bt.out"; }
start_bpftrace() {
	# bpftrace 0.17 warns about RLIMIT_MEMLOCK, which kernels since 5.11 no longer use
	bpftrace "$BT_SCRIPT" >"$TMP/bt.out" 2>"$TMP/bt.err" &
	BT_PID=$!
	wait_for 30 bt_attached || die "bpftrace did not attach: $(cat "$TMP/bt.err")"
}

# measure ORDER: one measurement; prints "key value" lines to stdout
measure() {
	local order=$1 floor_ids daemon_ids bt_ids warm_ids irq c0 c1 t0 t1 k0 k1 n0 n1 hwm
	start_floor
	if [ "$order" = irqlatd-first ]; then start_daemon; attach_floor; else attach_floor; start_daemon; fi
	start_bpftrace
	warm_ids=$(awk '$1 == "warm" { print $2 "," $3 }' "$TMP/floor.out")
	floor_ids=$(awk '$1 == "floor" { print $2 "," $3 }' "$TMP/floor.out")
	daemon_ids=$(prog_ids "$DAEMON_PID")
	bt_ids=$(prog_ids "$BT_PID")
	load 1	# irqlatd allocates its cells on the first IRQs: that cold path is not measured
	irq=$(disk_irq)
	bpftool -j prog show >"$TMP/before.json"
	c0=$(irq_count "$irq"); k0=$(cpu_ticks "$DAEMON_PID"); n0=$(cpu_ns "$DAEMON_PID"); t0=$(now)
	load "$RUN_SECONDS"
	bpftool -j prog show >"$TMP/after.json"
	c1=$(irq_count "$irq"); k1=$(cpu_ticks "$DAEMON_PID"); n1=$(cpu_ns "$DAEMON_PID"); t1=$(now)
	hwm=$(awk '/^VmHWM:/ { print $2 }' /proc/"$DAEMON_PID"/status)
	stop BT_PID INT
	stop DAEMON_PID TERM
	stop FLOOR_PID TERM

	# per group: sum over its programs of delta run_time_ns / delta run_cnt, and the entry count
	jq -rn --slurpfile b "$TMP/before.json" --slurpfile a "$TMP/after.json" \
		--arg warm "$warm_ids" --arg floor "$floor_ids" --arg irqlatd "$daemon_ids" --arg bpftrace "$bt_ids" '
		def ids(s): s | split(",") | map(tonumber);
		def by_id(x): x | map({key: (.id | tostring), value: .}) | from_entries;
		(by_id($b[0])) as $B | (by_id($a[0])) as $A |
		def delta(id; f): (($A[id | tostring][f] // 0) - ($B[id | tostring][f] // 0));
		def group(name; s):
			[ids(s)[] | select($A[tostring].type != "kprobe")   # bpftrace END is a uprobe
			 | {n: $A[tostring].name, rt: delta(.; "run_time_ns"), cnt: delta(.; "run_cnt")}
			 | select(.cnt > 0)] as $p
			| "\(name)_ns \([$p[] | .rt / .cnt] | add // 0)",
			  "\(name)_progs \([$p[] | "\(.n)=\(.rt / .cnt | round)ns/\(.cnt)runs"] | join(","))";
		group("warm"; $warm), group("floor"; $floor), group("irqlatd"; $irqlatd), group("bpftrace"; $bpftrace),
		"others \([$A | to_entries[] | .value | select((.id | tostring) as $i |
			($warm + "," + $floor + "," + $irqlatd + "," + $bpftrace | split(",") | index($i)) == null)
			| select(delta(.id; "run_cnt") > 0) | "\(.name)"] | join(","))"'
	awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v k0="$k0" -v k1="$k1" -v n0="$n0" -v n1="$n1" -v hz="$(getconf CLK_TCK)" \
		-v irq="$irq" -v hwm="$hwm" 'BEGIN {
		s = t1 - t0
		printf "seconds %.2f\nirq %s\nirq_rate %.0f\n", s, irq, (c1 - c0) / s
		printf "daemon_cpu_ms_per_s %.2f\ndaemon_sched_ms_per_s %.3f\ndaemon_hwm_kib %s\n",
		       (k1 - k0) / hz * 1000 / s, (n1 - n0) / 1e6 / s, hwm
	}'
}

mkdir -p "$BUILD/bench"
OUT=$BUILD/bench/results.txt	# everything printed below, kept
echo "bench: $(date -u '+%F %T UTC'), $(uname -r), $(nproc) CPUs, fio ${RUN_SECONDS}s per measurement, $ROUNDS round(s), irqlatd --attach $ATTACH" | tee "$OUT"
RESULTS=$TMP/results
disturbed=0
for r in $(seq "$ROUNDS"); do
	for order in irqlatd-first floor-first; do
		measure "$order" >"$TMP/m" || exit 1
		get() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/m"; }
		if [ "$(get floor_ns)" = 0 ] || [ "$(get irqlatd_ns)" = 0 ]; then
			die "no IRQs measured: $(cat "$TMP/m")"
		fi
		printf '%s %s %s %s %s %s %s %s %s %s\n' "$r" "$order" "$(get warm_ns)" "$(get floor_ns)" \
			"$(get irqlatd_ns)" "$(get bpftrace_ns)" "$(get irq_rate)" \
			"$(get daemon_cpu_ms_per_s)" "$(get daemon_sched_ms_per_s)" "$(get daemon_hwm_kib)" >>"$RESULTS"
		others=$(get others)
		[ -z "$others" ] || disturbed=1
		printf 'round %s, %s: disk IRQ %s at %s/s; programs %s %s %s %s; other programs that ran: %s\n' \
			"$r" "$order" "$(get irq)" "$(get irq_rate)" "$(get warm_progs)" "$(get floor_progs)" "$(get irqlatd_progs)" \
			"$(get bpftrace_progs)" "${others:-none}" | tee -a "$OUT"
	done
done

awk -v tf="$TARGET_FLOOR" -v tb="$TARGET_BPFTRACE" '
function verdict(ok) { return ok ? "PASS" : "MISS" }
{
	n++; warm += $3; floor += $4; irqlatd += $5; bpftrace += $6; rate += $7; cpu += $8; sched += $9
	if ($10 > hwm) hwm = $10
	rf = $5 / $4; rb = $6 / $5; sum_rf += rf; sum_rb += rb
	row[n] = sprintf("| %d | %s | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f | %.0f | %.2f | %.3f | %d |",
			 $1, $2, $3, $4, $5, $6, rf, rb, $7, $8, $9, $10)
}
END {
	print ""
	print "ns per IRQ = run_time_ns / run_cnt of the entry program + the same of the exit program"
	print "(kernel BPF statistics on: they add their own cost, so read the ratios)"
	print ""
	print "| round | attached first | warm ns | floor ns | irqlatd ns | bpftrace ns | irqlatd/floor | bpftrace/irqlatd | disk IRQ/s | irqlatd CPU ms/s (utime+stime) | irqlatd CPU ms/s (schedstat) | irqlatd VmHWM KiB |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= n; i++) print row[i]
	printf "| mean | both | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f | %.0f | %.2f | %.3f | %d (peak) |\n",
	       warm / n, floor / n, irqlatd / n, bpftrace / n, sum_rf / n, sum_rb / n, rate / n, cpu / n, sched / n, hwm
	print ""
	printf "target: irqlatd/floor    <= %.2f: %.2f  %s\n", tf, sum_rf / n, verdict(sum_rf / n <= tf)
	printf "target: bpftrace/irqlatd >= %.2f: %.2f  %s\n", tb, sum_rb / n, verdict(sum_rb / n >= tb)
}' "$RESULTS" | tee -a "$OUT"
if [ "$disturbed" = 1 ]; then
	echo "bench: warning: other BPF programs ran during the measurement (listed above): they share the tracepoints and the CPUs, so absolute ns are disturbed; the ratios are still taken within each run" | tee -a "$OUT"
fi
echo "bench: this output is also in $OUT"
