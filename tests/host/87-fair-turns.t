#!/bin/bash
# Fair turns on the loop (issue 30): clients that pipeline requests cannot blind the daemon.
# Under fio with a hard-IRQ threshold of 1 us (an outlier for every disk IRQ, some 10,000 a
# second into the ring buffer), 16 clients each keep up to 256 hist requests waiting and read
# the answers, while a status request on a new connection comes every 0.5 s
# (tests/host/helpers/clients.py fair). On main each 4 KB read was answered whole: status
# waited 14.6 s behind 2,825 pipelined answers and 11,313 to 55,728 outliers were dropped,
# none without the clients.
#
# What is checked is the mechanism, not a time: a status request is answered after at most
# two answers per pipelining client (one turn each while it is accepted and answered: 32; the
# median of a run's, as the helper may read answers the daemon sent before the request late:
# measured 16 to 17, maximum 17 to 24, 100 once under the sanitizers; main 2,825 to 4,174),
# every status request is answered (15 in 8 s here, 9 under the sanitizers), the pipelining clients
# are served too, and the ring buffer drops no more outliers with the clients than without
# them over the same load (0 and 0 in every round measured on 2026-12-05, main above 11,000;
# the margin, 100 records, is under 1% of main's smallest, and leaves room for the machine's
# other load between the two phases). The status latency is reported, not asserted
# (docs/bench.md: under 100 ms).
. "$(dirname "$0")/../lib.sh"
plan 5

N=16
start_daemon --threshold-us 1
fio_load 1	# the file laid out before the phases
drops() { irqlat status --json | jq .drops.outliers; }
phase() {	# phase CLIENTS: fio and the fair helper for 8 s; its line, then the outliers dropped
	local d0 d1 out
	d0=$(drops)
	fio_load 8 &
	out=$(clients fair "$SOCK" "$1" 8)
	wait $!
	sleep 2.5	# the daemon's ticks have read the drop counters after the load
	d1=$(drops)
	echo "$out drops=$((d1 - d0))"
}
alone=$(phase 0)
with=$(phase $N)
diag "without clients: $alone; fio $(grep -o 'IOPS=[0-9.k]*' "$TMP/fio.log" | head -1)"
diag "with $N pipelining: $with"
check "with $N pipelining clients, a status request is answered after at most 2 answers per client ($((2 * N)), the median)" \
	test "$(field between_median "$with")" -le $((2 * N)) -a "$(field statuses "$with")" -ge 5
check "... every status request is answered" test "$(field unanswered "$with")" -eq 0 -a "$(field unanswered "$alone")" -eq 0
check "... and the pipelining clients are served too, none dropped" test "$(field answers "$with")" -gt 100 -a "$(field dropped "$with")" -eq 0
check "the ring buffer drops no more outliers with them than without them (+100)" \
	test "$(field drops "$with")" -le $(( $(field drops "$alone") + 100 ))
stop_daemon
check "the daemon stops cleanly after it (exit 0)" test "$DAEMON_STATUS" -eq 0
done_testing
