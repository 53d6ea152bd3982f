#!/bin/bash
# hardirq-on-threshold=trace,shell,command=... against ftrace's own events and the folder:
# a disk-IRQ flood with a 1 us threshold; the shell command's environment names the outlier
# that the capture of its CPU's tracefs events brackets (tests/host/helpers/capture_check.py);
# the shell never runs more than action-interval-ms allows; `irqlat captures` lists what ls
# finds; a smaller capture-budget-kb removes the oldest first; the tracefs instance is there
# while the daemon runs, on the mono clock, and gone after it exits. The journal's cap is off
# (--outlier-cap 0) in the first run: with it, the one outlier entry of a minute may be another
# kind's, and the check that the captured outlier's entry names its file would have none to read.
. "$(dirname "$0")/../lib.sh"
plan 12
mount_fs

INST=/sys/kernel/tracing/instances/irqlatd
export STATE_DIRECTORY=$TMP/state	# as systemd's StateDirectory=irqlatd sets it
DIR=$STATE_DIRECTORY/captures
SHELL_CMD="env | grep ^IRQLAT_ > $TMP/shell.\$\$.env"

listed_is_ls() {	# irqlat captures --json: exactly the folder's capture files, with their sizes
	irqlat captures --json | jq -r '.captures[] | "\(.file | split("/") | last) \(.size)"' >"$TMP/listed"
	(cd "$DIR" && stat -c '%n %s' -- *.trace) | sort >"$TMP/ls"
	diff "$TMP/listed" "$TMP/ls" >&2 && [ -s "$TMP/ls" ]
}

t0=$(date +%s.%N)
check "irqlatd starts with hardirq-on-threshold=trace,shell" \
	start_daemon --hardirq-threshold-us 1 --outlier-cap 0 --hardirq-on-threshold "trace,shell,command=$SHELL_CMD"
check "its tracefs instance runs on the mono clock" grep -q '\[mono\]' "$INST/trace_clock"
fio_load 4
# the last shell may still be writing: its file is complete once the daemon has reaped it
retry_for 5 bash -c "[ \"\$(ls $TMP/shell.*.env 2>/dev/null | wc -l)\" -ge \"\$($IRQLAT --socket $SOCK status --json | jq .actions.shell.ran)\" ]"
runs=$(ls "$TMP"/shell.*.env 2>/dev/null | wc -l)
t1=$(date +%s.%N)
max_runs=$(python3 -c "import math; print(math.floor($t1 - $t0) + 1)")
outliers=$(irqlat status --json | jq '.outliers | .logged + .held_back + .not_logged')
diag "$runs shell runs in $(python3 -c "print(round($t1 - $t0, 1))") s, $outliers outliers"
check "the shell ran, at most once a second (action-interval-ms 1000): $runs <= $max_runs, of $outliers outliers" \
	test "$runs" -ge 2 -a "$runs" -le "$max_runs" -a "$outliers" -gt "$runs"
all_agree() {
	local f r=0
	for f in "$TMP"/shell.*.env; do
		grep -q IRQLAT_CAPTURE_FILE "$f" || continue
		python3 "$TOP/tests/host/helpers/capture_check.py" "$f" | sed 's/^/# /' || r=1
		[ "${PIPESTATUS[0]}" -eq 0 ] || r=1
	done
	return $r
}
check "each shell's IRQLAT_* outlier is in its capture: its CPU's ftrace lines bracket it, its IRQ's exit within 100 us" all_agree
check "irqlat captures lists exactly the files in the folder (ls, stat)" listed_is_ls
first=$(ls "$DIR" | head -1)
check "the outlier's log line names its capture" grep -q "captured in $DIR/$first" "$TMP/daemon.log"
check "the daemon's capture files are its own: mode 0600 in a 0700 folder" \
	test "$(stat -c %a "$DIR")" = 700 -a "$(stat -c %a "$DIR/$first")" = 600
stop_daemon
check "the tracefs instance is gone after the daemon exits (status $DAEMON_STATUS)" test ! -e "$INST" -a "$DAEMON_STATUS" -eq 0

# the budget: what the folder holds now, to the KiB; the next capture must make room
before=$(ls "$DIR")
total=$(stat -c %s "$DIR"/*.trace | paste -sd+ | bc)
budget=$(((total + 1023) / 1024))
rm -f "$TMP"/shell.*.env
check "irqlatd starts again with capture-budget-kb $budget (the folder's $total bytes)" \
	start_daemon --hardirq-threshold-us 1 --hardirq-on-threshold trace --capture-budget-kb "$budget"
fio_load 2
retry_for 5 bash -c "[ \"\$($IRQLAT --socket $SOCK status --json | jq .actions.trace.ran)\" -ge 1 ]"
after_total=$(stat -c %s "$DIR"/*.trace | paste -sd+ | bc)
oldest_gone() {
	local new old
	new=$(comm -13 <(echo "$before") <(ls "$DIR"))
	old=$(comm -23 <(echo "$before") <(ls "$DIR"))
	diag "added: $(echo $new); removed: $(echo $old); $after_total bytes of $((budget * 1024))"
	# removed ones are the oldest of before, in order, and the folder is within its budget
	[ -n "$new" ] && [ -n "$old" ] && [ "$old" = "$(echo "$before" | head -n "$(echo "$old" | wc -l)")" ] &&
		[ "$after_total" -le $((budget * 1024)) ]
}
check "the budget removed the oldest captures first and holds" oldest_gone
check "irqlat captures still lists exactly the folder" listed_is_ls
stop_daemon
check "the instance is gone again" test ! -e "$INST"
done_testing
