#!/bin/bash
# metrics-cpu-label (opt-in): promtool reads the page without an error or a lint message, and
# the cpu-labelled vector counts agree with /proc/interrupts' per-CPU columns (LOC on each CPU,
# between brackets of /proc readings); without the key the page has no such label.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
plan 4

if [ ! -d /sys/kernel/tracing/events/irq_vectors ] && ! { mount_fs; [ -d /sys/kernel/tracing/events/irq_vectors ]; }; then
	for _ in $(seq 4); do skip "this kernel has no irq_vectors tracepoints (not x86)"; done
	exit 0
fi
loc_of() {	# the LOC count of CPU $1 in /proc/interrupts
	awk -v col=$(($1 + 2)) '$1 == "LOC:" { print $col }' /proc/interrupts
}
MP=$(free_port)
start_daemon --metrics "127.0.0.1:$MP" --metrics-cpu-label
sleep 3
check "promtool: the page with cpu labels has no error and nothing to lint" scrape_lint "http://127.0.0.1:$MP/metrics" "$TMP/page"
ncpu=$(nproc --all)
# two scrapes 3 s apart. Each page shows a snapshot at most one interval (1 s) older than the
# scrape, so the increase between the pages lies inside an outer bracket (one reading of /proc
# an interval before the first scrape, one after the second) and holds an inner one (a reading
# just after the first scrape, one 1.5 s before the second). An idle nohz CPU ticks unevenly,
# so a share of the outer bracket is no bound; the inner bracket is.
loc_all() {	# LOC of every CPU into variables $1_<cpu>
	local cpu
	for cpu in $(seq 0 $((ncpu - 1))); do
		eval "$1_$cpu=\$(loc_of $cpu)"
	done
}
per_cpu() {
	local cpu p0 p1 lo hi ilo ihi d bad=
	loc_all a0
	sleep 1.1	# past the tick that may be running: its snapshot starts after the reading
	curl -s "http://127.0.0.1:$MP/metrics" >"$TMP/p0"
	loc_all i0
	sleep 1.5
	loc_all i1
	sleep 1.5
	curl -s "http://127.0.0.1:$MP/metrics" >"$TMP/p1"
	sleep 1.1
	loc_all a1
	for cpu in $(seq 0 $((ncpu - 1))); do
		p0=$(awk -v c="$cpu" -F'[ ]' 'index($1, "irqlat_vector_runs_total{vector=\"LOC\",cpu=\"" c "\"}") == 1 { print $2 }' "$TMP/p0")
		p1=$(awk -v c="$cpu" -F'[ ]' 'index($1, "irqlat_vector_runs_total{vector=\"LOC\",cpu=\"" c "\"}") == 1 { print $2 }' "$TMP/p1")
		eval "lo=\$a0_$cpu hi=\$a1_$cpu ilo=\$i0_$cpu ihi=\$i1_$cpu"
		d=$((${p1:-0} - ${p0:-0}))
		diag "CPU $cpu: page +$d in 3 s; /proc/interrupts +$((ihi - ilo)) inner, +$((hi - lo)) outer"
		# 2 for an interrupt that /proc counted and the program had not yet (or the reverse)
		[ -n "$p0" ] && [ "$d" -le $((hi - lo + 2)) ] && [ "$d" -ge $((ihi - ilo - 2)) ] || bad+=" $cpu"
	done
	[ -z "$bad" ]
}
check "irqlat_vector_runs_total{vector=LOC,cpu=N}: each CPU's increase within /proc/interrupts' column" per_cpu
check "every vector series has a cpu label" sh -c '! grep -E "^irqlat_vector_runs_total\{" "$1" | grep -v "cpu=\""' _ "$TMP/p1"
stop_daemon
start_daemon --metrics "127.0.0.1:$MP"
sleep 2
curl -s "http://127.0.0.1:$MP/metrics" >"$TMP/plain"
check "without the key: no cpu label on the vector families" sh -c 'grep -q "^irqlat_vector_runs_total{vector=\"LOC\"}" "$1" && ! grep -q "^irqlat_vector_runs_total{.*cpu=" "$1"' _ "$TMP/plain"
stop_daemon
done_testing
