#!/bin/bash
# irqlat --rt-only and --cgroup (issue 27, "filters by task"): of the tasks woken by their
# hrtimer, the real-time ones alone, in the text table, the JSON and why; and those of one
# cgroup v2 path. Two sleepers, one SCHED_FIFO 20 (chrt) and one SCHED_OTHER in a cgroup of
# the test's own, both woken by hrtimer_wakeup 1,000 times a second; the references are the
# kernel's own words (chrt -p, /proc/PID/cgroup), not the daemon's. The daemon keeps its
# defaults but for a log-tasks naming that cgroup, whose outliers must then be entries.
. "$(dirname "$0")/../lib.sh"
plan 10

PIDS=()
CG_ROOT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
CG=/irqlat-test-$$
rt_cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	stop_daemon
	[ -n "$CG_ROOT" ] && [ -d "$CG_ROOT$CG" ] && rmdir "$CG_ROOT$CG"
	rm -rf "$TMP"
}
trap rt_cleanup EXIT
for t in chrt python3 jq; do
	command -v "$t" >/dev/null || { echo "Bail out! $t is missing (scripts/install-deps test)"; exit 1; }
done
mount_fs
[ -n "$CG_ROOT" ] && mkdir "$CG_ROOT$CG" || { echo "Bail out! no cgroup v2 hierarchy to make $CG in"; exit 1; }
# its outliers, whatever their policy: every one of them (threshold 1 us) is the cgroup's
start_daemon --log-tasks "$CG" --wakeup-threshold-us 1 --outlier-cap 0 --outlier-rate 0 ||
	{ echo "Bail out! irqlatd did not start"; exit 1; }

cat >"$TMP/sleeper.py" <<'PY'
import time
while True:
    time.sleep(0.001)
PY
chrt -f 20 python3 "$TMP/sleeper.py" &
RT=$!; PIDS+=("$RT")
sh -c 'echo $$ >"$1/cgroup.procs" && exec python3 "$2"' _ "$CG_ROOT$CG" "$TMP/sleeper.py" &
NORM=$!; PIDS+=("$NORM")
sleep 3	# a few thousand wake-ups each
# the daemon reads a task's cgroup within ten ticks of its first wake-up: wait for it (30 s at most)
for _ in $(seq 60); do
	irqlat --top -b -n 1 -w total -J | jq -e --argjson p "$NORM" '[.timers.wakeups[] | select(.pid == $p and .cgroup)] | length > 0' >/dev/null && break
	sleep 0.5
done

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

# --cgroup: the normal sleeper's cgroup, by the kernel's /proc/PID/cgroup
KCG=$(sed -n 's/^0:://p' "/proc/$NORM/cgroup")
irqlat --top -b -n 1 -w total -J --cgroup "$CG" >"$TMP/cg.json"
irqlat --top -b -n 1 -w total --cgroup "$CG/" >"$TMP/cg.txt"
diag "/proc/$NORM/cgroup: $KCG; the daemon's: $(jq -r --argjson p "$NORM" '[.timers.wakeups[] | select(.pid == $p)][0].cgroup // "absent"' "$TMP/all.json")"
check_eq "the JSON names the normal sleeper's cgroup as /proc does" \
	"$(jq -r --argjson p "$NORM" '[.timers.wakeups[] | select(.pid == $p)][0].cgroup // "absent"' "$TMP/all.json")" "$KCG" \
	"its element's cgroup" "/proc/$NORM/cgroup's 0:: line"
cg_json() { jq -e --argjson n "$NORM" '[.timers.wakeups[].pid] == [$n]' "$TMP/cg.json" >/dev/null; }
check "--cgroup $CG --json: the sleeper in it alone" cg_json
cg_text() { grep -q "^python3\[$NORM\] " "$TMP/cg.txt" && ! grep -q "^python3\[$RT\] " "$TMP/cg.txt"; }
check "--cgroup $CG/, text: its row, not the FIFO sleeper's" cg_text
# log-tasks: the normal sleeper's wake-up outliers are entries (log-wakeups=rt would leave a
# normal task's out), the FIFO one's too (real-time)
logged() { irqlat events -n 4096 --json | jq -s --argjson p "$1" '[.[] | select(.type == "outlier" and .kind == "wakeup" and .woken_pid == $p)] | length'; }
cg_logged() {
	local ev
	ev=$(logged "$NORM")
	is_gt "$ev" 0 "the normal sleeper's wake-up outliers (irqlat events)" &&
		is_gt "$(grep -c "python3\[$NORM\]" "$TMP/daemon.log")" 0 "the daemon's log lines naming python3[$NORM]"
}
check "log-tasks $CG: the normal sleeper's outliers are logged" cg_logged
