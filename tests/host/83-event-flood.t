#!/bin/bash
# A flood of tracepoint events that the daemon cannot keep up with must not stall its loop.
# sched:sched_switch, consumed here, fires on every context switch; 400 subscribers that
# never read make each event cost the daemon 400 queued copies, so it reads far fewer events
# a second than fio's blocking reads make. libbpf's ring_buffer__consume() reads until the
# ring is empty, which it then never is: before the time slice in main.c, the socket waited
# (a subscribe answered after more than 5 s) and so did SIGTERM. The reference for "not
# stalled" is the clock around requests made while the flood goes on.
. "$(dirname "$0")/../lib.sh"
plan 4

mount_fs
start_daemon --tracepoint sched:sched_switch --max-clients 500 --max-subscribers 500 \
	--client-queue-kb 256
fio_load 30 &	# the flood: a context switch for each blocking read (stopped below)
FIO=$!
# each subscribe waits up to 5 s for its answer (clients.py), one after the other
prlimit --nofile=4096:4096 python3 "$TOP/tests/host/helpers/clients.py" subscribers "$SOCK" 400 6 \
	>"$TMP/subs.out" 2>"$TMP/subs.err" &
SUBS=$!
# while they subscribe and sit: the longest a status request waited, 0.2 s apart
worst=0
while kill -0 "$SUBS" 2>/dev/null; do
	t0=$(date +%s%N)
	timeout 30 "$IRQLAT" --socket "$SOCK" status >/dev/null 2>&1 || worst=999999
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$ms" -gt "$worst" ] && worst=$ms
	sleep 0.2
done
wait "$SUBS"
out=$(cat "$TMP/subs.out")
ev=$("$IRQLAT" --socket "$SOCK" status --json | jq '.tracepoints[0].events')
drops=$("$IRQLAT" --socket "$SOCK" status --json | jq '.drops.tracepoint_events')
diag "400 subscribers: ${out:-$(tail -n 1 "$TMP/subs.err")}; $ev sched_switch events read, $drops dropped by the ring; status waited at most $worst ms"
check_gt "the events outran the daemon (the ring buffer dropped some): the flood is real" "${drops:-0}" 0 "events the ring dropped"
check_eq "400 subscribe requests answered within 5 s each, while the flood goes on" "$out" "subscribed=400 refused=0" "clients.py"
check_lt "status answered within 3 s every time (longest $worst ms)" "$worst" 3000 "the longest wait, ms"
# SIGTERM in the flood (fio still running): the last read of the ring buffer is a slice too
t0=$(date +%s%N)
stop_daemon
stop_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
kill "$FIO" 2>/dev/null; wait "$FIO" 2>/dev/null
stopped_in_time() { is_eqn "$DAEMON_STATUS" 0 "exit status" && is_lt "$stop_ms" 5000 "ms to stop"; }
check "SIGTERM during the flood: exit 0 within 5 s (took $stop_ms ms)" stopped_in_time
done_testing
