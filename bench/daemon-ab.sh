#!/bin/bash
# The daemon's own CPU, two builds side by side (docs/bench.md, 2026-12-08): irqlatd A (say,
# main's, built in a worktree) and B (this tree's), interleaved over rounds (odd rounds A then
# B, even rounds B then A), each alone for SECONDS under bench/lib.sh's load (fio, the IPI load,
# cyclictest) or at rest. Per run: its CPU from /proc/PID/task/*/schedstat, and the outliers it
# handled (irqlat status: logged, held back and not logged) a second, after 3 s of start-up.
# Usage: bench/daemon-ab.sh A_BINARY [B_BINARY] [--seconds N] [--rounds N] [--rest] [-- IRQLATD_ARGS...]
# exit 0 measured, 1 could not measure, 2 bad usage.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
IRQLAT=$BUILD/irqlat
IPI=$BUILD/bench/irqlat-bench-ipi
BENCH_NAME=daemon-ab
RUN_SECONDS=20
ROUNDS=4
REST=
. "$TOP/bench/lib.sh"
usage() { echo "usage: bench/daemon-ab.sh A_BINARY [B_BINARY] [--seconds N] [--rounds N] [--rest] [-- IRQLATD_ARGS...]" >&2; exit 2; }
A='' B=$BUILD/irqlatd ARGS=()
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) RUN_SECONDS=${2:-}; shift 2 || usage ;;
	--rounds) ROUNDS=${2:-}; shift 2 || usage ;;
	--rest) REST=1; shift ;;
	--) shift; ARGS=("$@"); break ;;
	-*) usage ;;
	*) if [ -z "$A" ]; then A=$1; else B=$1; fi; shift ;;
	esac
done
[ -n "$A" ] || usage
[[ $RUN_SECONDS =~ ^[1-9][0-9]*$ && $ROUNDS =~ ^[1-9][0-9]*$ ]] || usage
[ "$(id -u)" -eq 0 ] || die "needs root to load BPF programs"
for b in "$A" "$B" "$IRQLAT"; do [ -x "$b" ] || die "$b is missing"; done
[ -n "$REST" ] || [ -x "$IPI" ] || die "$IPI is missing: run 'make bench-build' first"
need_tools
make_tmp
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ n += $1 } END { print n }'; }
handled() { "$IRQLAT" --socket "$TMP/s" --json status | jq '.outliers | .logged + .held_back + .not_logged'; }
one() {	# one NAME BINARY
	local c0 c1 h0 h1
	"$2" --socket "$TMP/s" --log-target stderr "${ARGS[@]}" >"$TMP/$1.log" 2>&1 &
	PID[$1]=$!
	wait_for 30 "$IRQLAT" --socket "$TMP/s" status >/dev/null 2>&1 || die "$1 did not come up: $(cat "$TMP/$1.log")"
	sleep 3	# its start-up's own work over
	c0=$(cpu_ns "${PID[$1]}") h0=$(handled)
	if [ -n "$REST" ]; then sleep "$RUN_SECONDS"; else load "$RUN_SECONDS"; fi
	c1=$(cpu_ns "${PID[$1]}") h1=$(handled)
	stop_all
	printf '%s %.2f ms/s, %d outliers handled/s\n' "$1" "$(awk -v c=$((c1 - c0)) -v s="$RUN_SECONDS" 'BEGIN { print c / s / 1e6 }')" \
		$(((h1 - h0) / RUN_SECONDS))
}
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then one A "$A"; one B "$B"; else one B "$B"; one A "$A"; fi
done
