#!/bin/bash
# Fair turns (issue 30; make bench-fair, as root, under the host lock on a shared machine):
# irqlatd with a hard-IRQ threshold of 1 us under fio (an outlier for every disk IRQ), ROUNDS
# rounds of SECS s without clients, then SECS s with N clients pipelining hist requests (up to
# 256 waiting each) and reading the answers, a status request on a new connection every
# 0.5 s throughout (tests/host/helpers/clients.py fair). Per round: the outliers the ring
# buffer dropped, the status latency (median and max) and how many pipelined answers came
# while a status request waited; then min/median/max over the rounds. BASE=DIR runs the same
# against another build (main's) in the same run, after this one.
#   bench/fair-turns.sh [ROUNDS [SECS [N]]]
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
R=${1:-3} S=${2:-10} N=${3:-16}
H=$TOP/tests/host/helpers/clients.py
summary() {	# summary KEY FILE: min/median/max of KEY=value over the lines of FILE
	sed -n "s/.*\<$1=\([0-9.-]*\).*/\1/p" "$2" | sort -g | awk -v k="$1" '{ v[NR] = $1 } END { if (NR) printf "%s min %s median %s max %s\n", k, v[1], v[int((NR + 1) / 2)], v[NR] }'
}
one_build() {	# one_build BUILD LABEL
	local B=$1 L=$2 T P
	T=$(mktemp -d)
	"$B/irqlatd" --socket "$T/s.sock" --log-target stderr --threshold-us 1 >"$T/log" 2>&1 &
	P=$!
	for _ in $(seq 100); do "$B/irqlat" --socket "$T/s.sock" status >/dev/null 2>&1 && break; sleep 0.1; done
	drops() { "$B/irqlat" --socket "$T/s.sock" status --json | jq .drops.outliers; }
	load() { fio --name=irqload --filename="$T/fio.dat" --size=32M --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--runtime="$1" --time_based >"$T/fio.log" 2>&1; }
	load 2
	for r in $(seq "$R"); do
		for n in 0 "$N"; do
			local d0 d1 out
			d0=$(drops)
			load "$S" &
			out=$(python3 "$H" fair "$T/s.sock" "$n" "$S")
			wait $!
			sleep 2.5
			d1=$(drops)
			echo "$L round $r clients=$n drops=$((d1 - d0)) $(grep -o 'IOPS=[0-9.k]*' "$T/fio.log" | head -1) $out" |
				tee -a "$T/rounds"
		done
	done
	kill "$P"; wait "$P"
	for n in 0 "$N"; do
		grep "clients=$n " "$T/rounds" >"$T/r$n"
		echo "$L, $n clients: $(summary drops "$T/r$n"); $(summary wait_ms_median "$T/r$n"); $(summary wait_ms_max "$T/r$n"); $(summary between_max "$T/r$n")"
	done
	rm -rf "$T"
}
one_build "${BUILD:-$TOP/build}" this
[ -n "${BASE:-}" ] && one_build "$BASE" base
exit 0
