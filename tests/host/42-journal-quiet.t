#!/bin/bash
# The journal with the defaults (issue 27, "the journal floods"): irqlatd started with an empty
# configuration file and nothing else writes at most 5 entries a minute, at rest and under a
# mixed load (fio, hackbench, cyclictest and a real-time sleeper made late on purpose), and
# nothing a real-time engineer needs is lost: every wake-up outlier of a SCHED_FIFO task is an
# entry of its own or counted, by pid and name, in an entry saying what was held back.
#
# The references: journalctl's own entries of the daemon (their __REALTIME_TIMESTAMP, so each
# phase counts what was written in it), and the outlier events the daemon streamed meanwhile
# (irqlat events --follow), which the entries must account for one by one. The tasks' policy
# comes from the test itself (it started them with chrt/cyclictest -p) and from /proc.
# journald is this test's own, in a private mount namespace (start_private_journald).
#
# At rest for JOURNAL_QUIET_REST_S (default 300: issue 29's five minutes), then under the load
# for JOURNAL_QUIET_S (default 60); the figures are printed as "entries a minute" lines
# (docs/irqlatd.8, JOURNAL, quotes them). At rest the entries that name an outlier (all but
# the held-back entries, which only count them) are at most one a minute: the cap keeps the
# outliers to one entry in any 60 s, and idle CPUs' late ticks are counted, not logged.
if [ -z "${IRQLAT_TEST_NS:-}" ]; then
	IRQLAT_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
plan 9

PHASE_S=${JOURNAL_QUIET_S:-60}
REST_S=${JOURNAL_QUIET_REST_S:-300}
MID_WAKEUP=6411285c0cca49cfb775235a459f04df
MID_HELD=9f06090c449447b2825bd8c4cc594304
JOURNALD_PID=
PIDS=()
quiet_cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	stop_daemon
	[ -n "$JOURNALD_PID" ] && kill "$JOURNALD_PID" 2>/dev/null && wait "$JOURNALD_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap quiet_cleanup EXIT

for t in cyclictest hackbench fio chrt; do
	command -v $t >/dev/null || { echo "Bail out! $t missing: scripts/install-deps test"; exit 1; }
done
# a benchmark would make the rest phase a load, and this load would disturb it
exec 9>>/tmp/irqlat-bench.lock
flock -s -w 600 9 || diag "a benchmark held /tmp/irqlat-bench.lock for 10 minutes: going on beside it"
check "a private systemd-journald listens" start_private_journald
mount_fs

# the defaults a user gets: an empty configuration file, no option but where to talk and log
: >"$TMP/irqlatd.conf"
"$IRQLATD" --config "$TMP/irqlatd.conf" --socket "$SOCK" --log-target journal >"$TMP/daemon.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 100); do irqlat status >/dev/null 2>&1 && break; sleep 0.1; done
irqlat events --follow --json >"$TMP/events.json" 2>"$TMP/events.err" &
PIDS+=("$!")
sleep 5	# the start-up entries are written; the phases count what comes after

now_us() { date +%s%6N; }
# entries of the daemon written in [FROM_US, TO_US), one JSON object a line
entries_between() {
	journalctl --no-pager -o json _PID="$DAEMON_PID" |
		jq -c --arg a "$1" --arg b "$2" 'select((.__REALTIME_TIMESTAMP | tonumber) >= ($a | tonumber) and (.__REALTIME_TIMESTAMP | tonumber) < ($b | tonumber))'
}
per_minute() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.1f", n * 60 / s }'; }
by_id() { jq -r '"\(.MESSAGE_ID // "-") p\(.PRIORITY) \(.MESSAGE | .[0:90])"' | sort | uniq -c | sort -rn | head -8 | sed 's/^/#   /'; }

# --- at rest
t0=$(now_us)
sleep "$REST_S"
t1=$(now_us)

# --- a mixed load: the disk, the scheduler, a SCHED_FIFO measuring thread, and a SCHED_FIFO
# sleeper on CPU 1 behind a SCHED_FIFO task of higher priority that burns 20 ms every 200 ms
# there: its wake-ups are late by up to 20 ms, about 5 a second, real outliers of a real-time
# task the journal must account for
fio --name=quiet --filename="$TMP/fio.dat" --size=32M --rw=randread --bs=4k --direct=1 \
	--ioengine=psync --runtime="$PHASE_S" --time_based >"$TMP/fio.log" 2>&1 &
FIO=$!
PIDS+=("$FIO")
( while :; do hackbench -g 2 -l 2000 >/dev/null 2>&1; done ) &
PIDS+=("$!")
cyclictest -m -t1 -p 95 -i 1000 -D "$PHASE_S" -q >"$TMP/cyc" 2>&1 &
CYC=$!
PIDS+=("$CYC")
taskset -c 1 chrt -f 20 python3 -c '
import time
while True:
    end = time.monotonic() + 0.020
    while time.monotonic() < end:
        pass
    time.sleep(0.180)' &
PIDS+=("$!")
taskset -c 1 chrt -f 10 python3 -c '
import sys, time
sys.argv[0] = "late-rt"
while True:
    time.sleep(0.001)' &
LATE=$!
PIDS+=("$LATE")
CYC_TID=
for _ in $(seq 50); do
	CYC_TID=$(ls "/proc/$CYC/task" 2>/dev/null | grep -vx "$CYC" | head -1)
	[ -n "$CYC_TID" ] && break
	sleep 0.1
done
policy_of() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $39 }'; }	# field 41: 1 FIFO, 2 RR, 6 DEADLINE
wait "$FIO"
LATE_POLICY=$(policy_of "$LATE")
LATE_COMM=$(cat "/proc/$LATE/comm")
t2=$(now_us)
for p in "${PIDS[@]}"; do [ "$p" = "${PIDS[0]}" ] || kill "$p" 2>/dev/null; done
wait "$CYC" 2>/dev/null
sleep 1	# the events stream has the last outliers
pid=$DAEMON_PID
stop_daemon	# writes what is still held back
DAEMON_PID=$pid
kill "${PIDS[0]}" 2>/dev/null
journalctl --sync

entries_between "$t0" "$t1" >"$TMP/rest.json"
entries_between "$t1" "$t2" >"$TMP/load.json"
n_rest=$(wc -l <"$TMP/rest.json")
n_load=$(wc -l <"$TMP/load.json")
diag "at rest: $n_rest entries in $(( (t1 - t0) / 1000000 )) s, $(per_minute "$n_rest" $(( (t1 - t0) / 1000000 ))) entries a minute"
by_id <"$TMP/rest.json"
diag "under load: $n_load entries in $(( (t2 - t1) / 1000000 )) s, $(per_minute "$n_load" $(( (t2 - t1) / 1000000 ))) entries a minute"
by_id <"$TMP/load.json"
diag "cyclictest thread $CYC_TID; late sleeper $LATE ($LATE_COMM, policy $LATE_POLICY); $(tail -1 "$TMP/cyc" | tr -s ' ')"
check_le "at rest: at most 5 entries a minute ($n_rest in $REST_S s)" "$n_rest" $(( 5 * REST_S / 60 )) "entries at rest" "5 a minute"
n_rest_named=$(jq -s --arg mid "$MID_HELD" '[.[] | select(.MESSAGE_ID != $mid)] | length' "$TMP/rest.json")
check_le "at rest: at most one entry a minute names an outlier ($n_rest_named in $REST_S s)" "$n_rest_named" $(( REST_S / 60 )) \
	"entries at rest but the held-back ones" "one a minute"
check_le "under the mixed load: at most 5 entries a minute ($n_load in $PHASE_S s)" "$n_load" $(( 5 * PHASE_S / 60 )) "entries under load" "5 a minute"

# --- every wake-up outlier of the real-time tasks, accounted for in the journal by pid
journalctl --no-pager -o json _PID="$DAEMON_PID" >"$TMP/all.json"
events_of() { jq -s --argjson p "$1" '[.[] | select(.type == "outlier" and .kind == "wakeup" and .pid == $p)] | length' "$TMP/events.json"; }
logged_of() { jq -s --arg p "$1" --arg mid "$MID_WAKEUP" '[.[] | select(.MESSAGE_ID == $mid and .WOKEN_PID == $p)] | length' "$TMP/all.json"; }
held_of() {	# counted by pid in the entries that say what was held back
	jq -s --arg p "$1" --arg mid "$MID_HELD" '[.[] | select(.MESSAGE_ID == $mid) | . as $e
		| range(1; 65) | tostring | select($e["SOURCE" + . + "_KIND"] == "wakeup" and $e["SOURCE" + . + "_PID"] == $p)
		| $e["SOURCE" + . + "_COUNT"] | tonumber] | add // 0' "$TMP/all.json"
}
named_in_message() { jq -s --arg c "$2" --arg mid "$MID_HELD" '[.[] | select(.MESSAGE_ID == $mid and (.MESSAGE | contains($c)))] | length > 0' "$TMP/all.json"; }
ev_late=$(events_of "$LATE"); lg_late=$(logged_of "$LATE"); hd_late=$(held_of "$LATE")
ev_cyc=$(events_of "${CYC_TID:-0}"); lg_cyc=$(logged_of "${CYC_TID:-0}"); hd_cyc=$(held_of "${CYC_TID:-0}")
diag "late sleeper: $ev_late wake-up outliers streamed, $lg_late entries, $hd_late counted in held-back entries"
diag "cyclictest: $ev_cyc wake-up outliers streamed, $lg_cyc entries, $hd_cyc counted in held-back entries"
late_rt() {
	is_eq "$LATE_POLICY" 1 "the late sleeper's policy (/proc, field 41)" "1 (SCHED_FIFO)" &&
		is_ge "$ev_late" 10 "its wake-up outliers streamed"
}
check "the late sleeper is SCHED_FIFO and had wake-up outliers (at least 10)" late_rt
check_eqn "each of its outliers is an entry or counted by pid in a held-back entry ($lg_late + $hd_late = $ev_late)" \
	$((lg_late + hd_late)) "$ev_late" "entries + counted in held-back entries" "outliers streamed"
check_eqn "cyclictest's outliers too ($lg_cyc + $hd_cyc = $ev_cyc)" $((lg_cyc + hd_cyc)) "$ev_cyc" \
	"entries + counted in held-back entries" "outliers streamed"
if [ "$hd_late" -gt 0 ]; then
	check_eq "a held-back entry names the late sleeper in its message (task $LATE ($LATE_COMM, fifo 10))" \
		"$(named_in_message "$LATE" "task $LATE ($LATE_COMM, fifo 10)")" true "a held-back entry's MESSAGE holds 'task $LATE ($LATE_COMM, fifo 10)'"
else
	check "the late sleeper's outliers were all logged one by one: nothing to name" true
fi

# --- the other tasks' wake-up outliers are not entries: each entry's task was real-time
# (those still alive are asked /proc: field 41, the policy; 1 FIFO, 2 RR, 6 DEADLINE)
not_rt=$(jq -r --arg mid "$MID_WAKEUP" 'select(.MESSAGE_ID == $mid) | .WOKEN_PID' "$TMP/all.json" | sort -u | while read -r p; do
	[ "$p" = "$LATE" ] || [ "$p" = "$CYC_TID" ] && continue
	pol=$(policy_of "$p"); [ -n "$pol" ] || continue
	case "$pol" in 1|2|6) ;; *) echo "$p" ;; esac
done)
check_empty "no wake-up entry of a task that is not real-time (${not_rt:-none})" "$not_rt" "pids of wake-up entries not real-time by /proc"
DAEMON_PID=
done_testing
