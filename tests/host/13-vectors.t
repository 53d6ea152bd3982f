#!/bin/bash
# The CPU's own interrupts (x86 irq_vectors): LOC (local timer) and CAL (function-call IPIs,
# caused by tests/host/helpers/ipi-load.c's expedited memory barriers with a thread of its own on
# the other CPU) against /proc/interrupts over the same snapshots (helpers/snapshot_bracket.py), and
# every other label; the JSON fields and per-CPU counts; the one start-up line for the
# tracepoints this kernel lacks; irqlat hist with a label; /metrics through promtool;
# outliers in the log, irqlat events and a real journald; --no-vectors.
# journald is this test's own, in a private mount namespace (start_private_journald).
if [ -z "${IRQLAT_TEST_NS:-}" ]; then
	IRQLAT_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
plan 14

MID_VECTOR=5bb45ecec2b64bebb89ea48e85b1541b
JOURNALD_PID=
vector_cleanup() {
	stop_daemon
	[ -n "$JOURNALD_PID" ] && kill "$JOURNALD_PID" 2>/dev/null && wait "$JOURNALD_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap vector_cleanup EXIT

if [ ! -d /sys/kernel/tracing/events/irq_vectors ] && ! { mount_fs; [ -d /sys/kernel/tracing/events/irq_vectors ]; }; then
	for _ in $(seq 14); do skip "this kernel has no irq_vectors tracepoints (not x86)"; done
	exit 0
fi
cc -O2 -Wall -Wextra -pthread "$TOP/tests/host/helpers/ipi-load.c" -o "$TMP/ipi-load" || { echo "Bail out! cannot build ipi-load"; exit 1; }
summary() { irqlat --top --batch --iterations 1 --json --window total; }
# the exact reference: a program that only counts the vector entries (bracket_agrees)
ref_counter || { echo "Bail out! cannot build the reference counter"; exit 1; }

start_daemon --interval-ms 200
check_eqn "status lists the irq_vectors programs: local_timer and call_function among them" \
	"$(irqlat status --json | jq '[.programs[] | select(. == "irq_vectors:local_timer_entry" or . == "irq_vectors:call_function_exit")] | length')" 2 \
	"local_timer_entry and call_function_exit in status's programs"
# the pairs this kernel has no tracepoint for (tracefs lists those it has), said in one line
missing=$(for tp in local_timer spurious_apic error_apic x86_platform_ipi irq_work reschedule call_function \
	call_function_single threshold_apic deferred_error_apic thermal_apic; do
	[ -d "/sys/kernel/tracing/events/irq_vectors/${tp}_entry" ] || echo "$tp"; done | tr '\n' ' ')
diag "irq_vectors pairs this kernel lacks: ${missing:-none}"
one_line() {
	local n t
	n=$(grep -c 'vector interrupts: ' "$TMP/daemon.log")
	if [ -z "$missing" ]; then is_eqn "$n" 0 "start-up lines on vector interrupts"; return; fi
	is_eqn "$n" 1 "start-up lines on vector interrupts" || return 1
	for t in $missing; do has_line "$(grep 'vector interrupts: ' "$TMP/daemon.log")" -w "$t" || return 1; done
}
check "one start-up line names exactly the missing pairs (none: no line)" one_line

python3 "$TOP/tests/host/helpers/snapshot_bracket.py" "$SOCK" vectors 6 "${REF_ARGS[@]}" >"$TMP/bracket" 2>&1 &
BRACKET=$!
sleep 1
"$TMP/ipi-load" 0 1 4 >"$TMP/ipi.out"
wait "$BRACKET"
sed 's/^/# /' "$TMP/bracket"
diag "ipi-load: $(cat "$TMP/ipi.out") rounds (membarrier + protection change)"
check "LOC (local timer) matches its entry tracepoint's runs, never above /proc/interrupts" bracket_agrees "$TMP/bracket" LOC 500
check "CAL (function-call IPIs) matches its entry tracepoint's runs, never above /proc/interrupts" bracket_agrees "$TMP/bracket" CAL 1000
every_label() {	# the labels irqlatd measures (TLB, NMI, ... have no tracepoint of their own)
	local name
	for name in $(summary | jq -r '.vectors[].name'); do bracket_agrees "$TMP/bracket" "$name" || { echo "# $name disagrees"; return 1; }; done
}
check "every label irqlatd reports (RES, IWI, ...) agrees too" every_label

snap=$(summary)
check_jq_all "vectors elements have every documented field" "$snap" '.vectors[]' \
	'has("name","count","rate","window_count","avg_ns","p50_ns","p99_ns","p999_ns","max_ns","total_ns","time_share","cpus")'
labels_and_counts() {
	local v
	for v in $(jq -r ".vectors[].name" <<<"$snap"); do
		grep -q "^ *$v:" /proc/interrupts || { why "a label /proc/interrupts has no line of" "$v"; return 1; }
	done
	jq_all "$snap" '.vectors[]' '.count == ([.cpus[].count] | add)'
}
check "names are /proc/interrupts labels, counts the sums of the per-CPU counts" labels_and_counts
out=$(irqlat hist LOC --window total)
check_match "irqlat hist LOC: its histogram" "$out" "^vector LOC: [0-9]* runs in window"
stop_daemon

MP=$(free_port)
start_daemon --interval-ms 200 --metrics "127.0.0.1:$MP"
sleep 1
page_has() { file_has "$1" "$TMP/page"; }
vector_page() {
	scrape_lint "http://127.0.0.1:$MP/metrics" "$TMP/page" &&
		page_has '^irqlat_vector_duration_seconds_bucket{vector="LOC",le=' &&
		page_has '^irqlat_vector_runs_total{vector="LOC"}'
}
check "promtool accepts the page with the vector families" vector_page
stop_daemon

start_daemon --interval-ms 200 --vector-threshold-us 1 --outlier-rate 1000 --outlier-cap 0
irqlat events --json -n 50 >"$TMP/events" &
EV=$!
"$TMP/ipi-load" 0 1 1 >/dev/null
wait "$EV"
check_jq_every "irqlat events: vector outliers named by label, over the threshold" "<$TMP/events" \
	'.[] | select(.kind == "vector")' '.duration_ns >= 1000 and .name != null' -s
check_grep "outlier log lines name the label" -E 'outlier: vector [A-Z]{3} ran ' "$TMP/daemon.log"
stop_daemon

start_private_journald || { echo "Bail out! no private journald"; exit 1; }
"$IRQLATD" --socket "$SOCK" --log-target journal --interval-ms 200 --vector-threshold-us 1 --outlier-rate 5 --outlier-cap 0 \
	>"$TMP/daemon.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 100); do irqlat status >/dev/null 2>&1 && break; sleep 0.1; done
"$TMP/ipi-load" 0 1 1 >/dev/null
check "journal: vector outliers with their MESSAGE_ID, VECTOR and DURATION_NS" \
	journal_all $MID_VECTOR '(.VECTOR | test("^[A-Z]{3}$")) and (.DURATION_NS | tonumber) >= 1000'
check_match "journalctl -x explains them from the catalog" \
	"$(journalctl --no-pager -x _PID="$DAEMON_PID" MESSAGE_ID=$MID_VECTOR)" 'the CPU.s own interrupts'
stop_daemon

start_daemon --interval-ms 200 --no-vectors
sleep 0.5
no_vectors() {
	is_eqn "$(irqlat status --json | jq '[.programs[] | select(startswith("irq_vectors:"))] | length')" 0 "irq_vectors programs in status" &&
		jq_true "$(summary)" '(.vectors | length) == 0 and (.softirqs | length) > 0' &&
		is_eqn "$(grep -c 'vector interrupts: ' "$TMP/daemon.log")" 0 "start-up lines on vector interrupts"
}
check "--no-vectors: no irq_vectors program, no vectors, no start-up line, the rest measured" no_vectors
stop_daemon
done_testing
