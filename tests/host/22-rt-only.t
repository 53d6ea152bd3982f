#!/bin/bash
# irqlat --rt-only (issue 27, "filters by task"): of the tasks woken by their hrtimer, the
# real-time ones alone, in the text table, the JSON and why. Two sleepers, one SCHED_FIFO 20
# (chrt) and one SCHED_OTHER, both woken by hrtimer_wakeup 1,000 times a second; the reference
# for each one's policy is the kernel's own word (chrt -p), not the daemon's. The daemon keeps
# its defaults.
. "$(dirname "$0")/../lib.sh"
plan 6

PIDS=()
rt_cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	stop_daemon
	rm -rf "$TMP"
}
trap rt_cleanup EXIT
for t in chrt python3 jq; do
	command -v "$t" >/dev/null || { echo "Bail out! $t is missing (scripts/install-deps test)"; exit 1; }
done
mount_fs
start_daemon || { echo "Bail out! irqlatd did not start"; exit 1; }

cat >"$TMP/sleeper.py" <<'PY'
import time
while True:
    time.sleep(0.001)
PY
chrt -f 20 python3 "$TMP/sleeper.py" &
RT=$!; PIDS+=("$RT")
python3 "$TMP/sleeper.py" &
NORM=$!; PIDS+=("$NORM")
sleep 3	# a few thousand wake-ups each, and a tick or more

policy_of() { chrt -p "$1" | sed -n 's/.*scheduling policy: SCHED_\([A-Z]*\).*/\1/p'; }
diag "chrt: pid $RT $(policy_of "$RT"), pid $NORM $(policy_of "$NORM")"
irqlat --top -b -n 1 -w total -J >"$TMP/all.json"
irqlat --top -b -n 1 -w total -J --rt-only >"$TMP/rt.json"
irqlat --top -b -n 1 -w total --rt-only >"$TMP/rt.txt"
pol() { jq -r --argjson p "$2" '[.timers.wakeups[] | select(.pid == $p)][0].policy // "absent"' "$1"; }
diag "the daemon's policy: $RT $(pol "$TMP/all.json" "$RT"), $NORM $(pol "$TMP/all.json" "$NORM")"
check_eq "the JSON names each sleeper's policy as chrt does (FIFO)" "$(pol "$TMP/all.json" "$RT")" \
	"$(policy_of "$RT" | tr 'A-Z' 'a-z')" "the FIFO sleeper's policy in the JSON" "chrt's"
check_eq "and OTHER" "$(pol "$TMP/all.json" "$NORM")" "$(policy_of "$NORM" | tr 'A-Z' 'a-z')" \
	"the normal sleeper's policy in the JSON" "chrt's"
rt_json() {
	jq -e --argjson r "$RT" --argjson n "$NORM" '[.timers.wakeups[].pid] | (index($r) != null) and (index($n) == null)' "$TMP/rt.json" >/dev/null &&
		jq -e '[.timers.wakeups[].policy] | all(. == "fifo" or . == "rr" or . == "deadline")' "$TMP/rt.json" >/dev/null
}
check "--rt-only --json: the FIFO sleeper's element, not the other's, and only real-time ones" rt_json
rt_text() { grep -q "^python3\[$RT\] " "$TMP/rt.txt" && ! grep -q "^python3\[$NORM\] " "$TMP/rt.txt"; }
check "--rt-only, text: the FIFO sleeper's row, not the other's" rt_text
every_rt() {	# every task row of the text table is a real-time task, as chrt says now (or gone)
	local p bad=0
	for p in $(awk '/^tasks woken by their hrtimer/ { on = 1; next } on && !NF { exit } on && /\[[0-9]+\] / { s = $1; sub(/.*\[/, "", s); sub(/\].*/, "", s); print s }' "$TMP/rt.txt"); do
		case $(policy_of "$p" 2>/dev/null) in FIFO | RR | DEADLINE | "") ;; *) why "pid $p is not real-time" "$(policy_of "$p")"; bad=1 ;; esac
	done
	return $bad
}
check "--rt-only, text: every task row runs real-time (chrt)" every_rt
irqlat why --rt-only -J >"$TMP/why.json"
why_rt() { jq -e '.waits | all(.waiter_prio < 100)' "$TMP/why.json" >/dev/null; }
check "why --rt-only: every wait's waiter had a real-time priority" why_rt
