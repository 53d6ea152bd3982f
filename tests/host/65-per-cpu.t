#!/bin/bash
# One CPU's own numbers (irqlat -C, the request's "cpus"): the counts of vector interrupts
# asked for CPU 0 or CPU 1 alone against that CPU's column of /proc/interrupts over the same
# snapshots (helpers/snapshot_bracket.py with a CPU), while
# helpers/ipi-load.c sends function-call IPIs to the other CPU only, so that a machine-wide
# answer cannot pass; irqlat hist honours -C; a CPU the machine lacks
# (/sys/devices/system/cpu/possible) is one line and exit status 2, and the daemon refuses it;
# the CPU-load table under -C holds those CPUs' rows only.
. "$(dirname "$0")/../lib.sh"
plan 9

if [ ! -d /sys/kernel/tracing/events/irq_vectors ] && ! { mount_fs; [ -d /sys/kernel/tracing/events/irq_vectors ]; }; then
	for _ in $(seq 9); do skip "this kernel has no irq_vectors tracepoints (not x86)"; done
	exit 0
fi
if [ "$(nproc --all)" -lt 2 ]; then
	for _ in $(seq 9); do skip "one CPU: nothing to tell apart"; done
	exit 0
fi
cc -O2 -Wall -Wextra -pthread "$TOP/tests/host/helpers/ipi-load.c" -o "$TMP/ipi-load" || { echo "Bail out! cannot build ipi-load"; exit 1; }
BRACKET_PY=$TOP/tests/host/helpers/snapshot_bracket.py

start_daemon

# bracket WHAT CPU CMD OUT: the helper over 6 s while ipi-load aims at the CPU not asked for
bracket() {
	local other=$(( $2 == 0 ? 1 : 0 ))
	python3 "$BRACKET_PY" "$SOCK" "$1" 6 "$2" "$3" >"$4" 2>&1 &
	local b=$!
	sleep 1
	"$TMP/ipi-load" "$2" "$other" 4 >/dev/null
	wait "$b"
	sed 's/^/# /' "$4"
}

bracket vectors 0 summary "$TMP/cpu0"
check "-C 0: LOC is CPU 0's column of /proc/interrupts (within 1% or 5)" bracket_agrees "$TMP/cpu0" LOC 100
# the IPIs went to CPU 1: a machine-wide count is thousands over CPU 0's
check "-C 0: CAL is CPU 0's column, not CPU 1's IPIs too" bracket_agrees "$TMP/cpu0" CAL
bracket vectors 1 hist "$TMP/cpu1"
check "hist -C 1: LOC is CPU 1's column" bracket_agrees "$TMP/cpu1" LOC 100
# the IPIs went to CPU 0 this time: CPU 1's few, not CPU 0's thousands
check "hist -C 1: CAL is CPU 1's column, not CPU 0's IPIs too" bracket_agrees "$TMP/cpu1" CAL

possible=$(cat /sys/devices/system/cpu/possible)
absent=$(( ${possible##*-} + 1 ))
absent_cpu() {
	local out err rc
	out=$(irqlat "$@" -C "$absent" 2>"$TMP/err"); rc=$?
	err=$(cat "$TMP/err")
	[ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q "^irqlat: CPU $absent does not exist: this machine's CPUs are $possible\$" "$TMP/err" ||
		{ echo "# rc $rc, stdout '$out', stderr '$err'"; return 1; }
}
check "irqlat -C $absent (CPUs $possible): one line, exit status 2" absent_cpu --top -b -n 1
check "irqlat hist LOC -C $absent: the same" absent_cpu hist LOC
refused() {
	local a
	a=$(python3 -c 'import sys, json
sys.path.insert(0, sys.argv[2])
from bracket import Daemon
d = Daemon(sys.argv[1])
for cpus in (sys.argv[3], "1-x"):
    try:
        print(json.dumps(d.ask({"cmd": "summary", "cpus": cpus})))
    except SystemExit as e:
        print(json.dumps({"exit": str(e)}))' "$SOCK" "$TOP/tests/host/helpers" "$absent")
	echo "$a" | sed 's/^/# /'
	[ "$(echo "$a" | jq -s --arg c "CPU $absent does not exist" \
		'length == 2 and (.[0].error | startswith($c)) and (.[1].error | test("CPU list"))')" = true ]
}
check "the daemon refuses \"cpus\" of a CPU it lacks, or not a CPU list, in one sentence" refused
json_of_one() {
	irqlat hist LOC -C 0 -J -w total | jq -e '.cpus == "0" and (.vectors | length == 1) and
		(.vectors[0].cpus | map(.cpu) == [0]) and .vectors[0].count == .vectors[0].cpus[0].count' >/dev/null
}
check "hist LOC -C 0 --json: says its CPUs, and only CPU 0's line, whose count is the element's" json_of_one
load_of_one() {	# the CPU-load table under -C 1: CPU 1's row alone, in JSON and in text
	local j t
	j=$(irqlat --top -b -n 1 -J -C 1 | jq -c '[.cpu_load[].cpu]')
	t=$(irqlat --top -b -n 1 -C 1 | awk '/^CPU load over/ { on = 1 } on && /^cpu[0-9]/ { print $1 }' | tr '\n' ' ')
	diag "-C 1: cpu_load CPUs $j; the text's load rows: $t"
	[ "$j" = "[1]" ] && [ "$t" = "cpu1 " ]
}
check "-C 1: the CPU-load table holds CPU 1's row alone (JSON and text)" load_of_one
stop_daemon
done_testing
