#!/bin/bash
# irqlat status for a person, against what the daemon was started with and what it runs: the
# thresholds in the options' own units (--softirq-threshold-us 750 reads
# "softirq-threshold-us 750"), the metrics address of --metrics, every program of the
# daemon (status --json's programs) once, one line per program set, every line labelled in
# one column, and no JSON left in the text.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
plan 5

MP=$(free_port)
start_daemon --softirq-threshold-us 750 --timer-threshold-us 1500 --metrics "127.0.0.1:$MP"
sleep 1
irqlat status >"$TMP/status"
irqlat status --json >"$TMP/status.json"
sed 's/^/# /' "$TMP/status"
check "thresholds as the options say them: softirq-threshold-us 750, timer-threshold-us 1500, hardirq 100" \
	sh -c 'grep -E "^thresholds: " "$1" | grep -q "softirq-threshold-us 750," && grep -E "^thresholds: " "$1" | grep -q "timer-threshold-us 1500" && grep -E "^thresholds: " "$1" | grep -q "hardirq-threshold-us 100,"' _ "$TMP/status"
check "the metrics address of --metrics" grep -qE "^metrics: +http://127.0.0.1:$MP/metrics" "$TMP/status"
programs_once() {
	local p sys n
	for p in $(jq -r '.programs[]' "$TMP/status.json" | sort -u); do
		sys=${p%%:*}
		# the program's set line names it once: "SYS: a, b" on the programs: line or under it
		n=$(grep -cE "^(programs:)? +$sys: (.*, )?${p#*:}(,|$)" "$TMP/status")
		[ "$n" -eq 1 ] || { echo "# $p on $n lines"; return 1; }
	done
	[ "$(grep -cE '^(programs:)? +[a-z_]+: [a-z_]' "$TMP/status")" -eq "$(jq -r '.programs[] | sub(":.*"; "")' "$TMP/status.json" | sort -u | wc -l)" ]
}
check "every program once, one line per program set" programs_once
check "no JSON in the text" sh -c '! grep -nE "[][{}\"]" "$1"' _ "$TMP/status"
check "every line a label in 12 columns or a continuation under it" \
	sh -c 'tail -n +2 "$1" | grep -vE "^[a-z_-]+: {1,11}[^ ]|^ {13}[^ ]" | { ! grep -q .; }' _ "$TMP/status"
stop_daemon
done_testing
