#!/bin/bash
# Why it was late, as a person reads it (irqlat why, the journal, status, /metrics), with
# interference of a known cause: cyclictest's thread (SCHED_FIFO 95, pinned to CPU 1) next to a
# SCHED_FIFO 99 busy loop of the test's on CPU 1, 2 ms busy out of every 10 ms. The wake-ups
# that come during a burst wait for it. References that are not irqlatd: the cause the test
# made (the busy loop's pid), and ftrace's own sched_switch events of CPU 1 in a private
# tracefs instance over the same run (trace_clock mono, the daemon's clock): the time the busy
# loop held the CPU within each explained wait. The daemon's defaults; a real journald in a
# private mount namespace, as 40-journal.t runs it.
if [ -z "${IRQLAT_TEST_NS:-}" ]; then
	IRQLAT_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
plan 15

MID_WAKEUP=6411285c0cca49cfb775235a459f04df	# a wake-up outlier (src/common/kinds/timer.c)
BURST=
JOURNALD_PID=
INST=/sys/kernel/tracing/instances/irqlat-why-$$
why_cleanup() {
	[ -n "$BURST" ] && kill "$BURST" 2>/dev/null && wait "$BURST" 2>/dev/null
	stop_daemon
	[ -d "$INST" ] && rmdir "$INST"
	[ -n "$JOURNALD_PID" ] && kill "$JOURNALD_PID" 2>/dev/null && wait "$JOURNALD_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap why_cleanup EXIT
why_setup curl promtool
start_private_journald || { echo "Bail out! no private journald"; exit 1; }
MP=$(free_port)
# no cap on the entries: the test reads what an entry says, not how many the limits let through
# (40-journal.t, 42-journal-quiet.t); the tick on an idle CPU would take the 3 of a minute first
# ftrace's sched_switch on CPU 1, and the interrupts there: the loop's time in a wait is its
# run less them (irqlatd counts them as theirs: a long vector interrupt can be most of a short
# wait)
ftrace_cpu1 "$INST" 8192 sched/sched_switch irq/irq_handler_entry irq/irq_handler_exit irq_vectors ||
	{ echo "Bail out! cannot make a tracefs instance"; exit 1; }
start_daemon --log-target journal --metrics "127.0.0.1:$MP" --outlier-cap 0 || { echo "Bail out! irqlatd did not start"; exit 1; }
echo 1 >"$INST/tracing_on"

burst_start || { echo "Bail out! the busy task did not start"; exit 1; }
cyclictest -m -q -t1 -p 95 -a 1 -i 1000 -l 3000 >"$TMP/cyclictest.out" 2>&1
kill "$BURST"; wait "$BURST" 2>/dev/null
BURST_PID=$BURST; BURST=
echo 0 >"$INST/tracing_on"
cp "$INST/trace" "$TMP/trace"

# every kept wait (the explained waits of every task), and cyclictest's
irqlat why -J >"$TMP/all.json"
irqlat why cyclictest -J >"$TMP/cyc.json"
irqlat why cyclictest >"$TMP/cyc.txt"
N=$(jq '.waits | length' "$TMP/cyc.json")
diag "explained: $(jq .explained "$TMP/all.json") since start, $(jq '.waits | length' "$TMP/all.json") kept; cyclictest's kept: $N"
check "cyclictest's late wake-ups on CPU 1 are explained ($N)" test "${N:-0}" -gt 0
check "every kept wait's parts add up to its total exactly" \
	jq -e '.waits | length > 0 and all(([.parts[]] | add) == .total_ns)' "$TMP/all.json"
jq -c '.waits[] | select(([.parts[]] | add) != .total_ns) | {total_ns, parts, flags, summary}' "$TMP/all.json" | head -3 | sed 's/^/#   does not add up: /'
# the cause the test made: every wait of cyclictest's measuring thread on CPU 1 (SCHED_FIFO:
# waiter_prio below 100) in which, by ftrace, the busy loop's runs, less the interrupts in
# them, held the CPU for more than half of it after the timer's callback has the loop, by pid
# and policy, as its largest part after the callback (the blocking task's part is its time in
# the wait, every run of it). (Not "most of its waits": on a shared machine a halted vCPU woken late by its host
# makes late waits of its own, exits from idle; and cyclictest's main thread, a normal task on
# CPU 1 too, is another waiter. And not before the callback: a task in user space cannot delay
# the timer's interrupt, so lateness the host added while the loop ran is the timer's.)
jq -r '.waits | to_entries[] | select(.value.cpu == 1 and .value.waiter_prio < 100 and (.value.flags | index("moved") | not))
	| "\(.value.ts_ns - .value.total_ns + .value.parts.late_busy_ns + .value.parts.late_idle_ns) \(.value.ts_ns) \(.key)"' "$TMP/cyc.json" >"$TMP/rt_windows"
python3 "$TOP/tests/host/helpers/ftrace_blocker.py" --net "$TMP/trace" 1 "$BURST_PID" "$TMP/rt_windows" | sort >"$TMP/rt_loop"
jq -r --argjson b "$BURST_PID" '.waits | to_entries[] | (.value.parts | to_entries | map(select(.key | startswith("late_") | not)) | max_by(.value)) as $top
	| "\(.key) \(.value.total_ns - .value.parts.late_busy_ns - .value.parts.late_idle_ns) \(if $top.key == "blocking_ns" and .value.blocker.pid == $b and .value.blocker.sched == "FIFO 99" then "loop" else ($top.key | sub("_ns$"; "")) end)"' \
	"$TMP/cyc.json" | sort | join "$TMP/rt_loop" - >"$TMP/rt_causes"	# wait, ftrace's loop ns, the wait after the callback, irqlatd's largest part there
# (and for 20 us at least: after a callback the host delivered late, a wait of a few us is
# the length of a vector interrupt)
held=$(awk '2 * $2 > $3 && $2 > 20000' "$TMP/rt_causes" | wc -l)
named=$(awk '2 * $2 > $3 && $2 > 20000 && $4 == "loop"' "$TMP/rt_causes" | wc -l)
diag "the measuring thread's waits on CPU 1 that ftrace covers: $(wc -l <"$TMP/rt_causes"), the loop held the CPU for most of $held after the callback, irqlatd's largest part there the loop in $named; largest parts: $(awk '{ print $4 }' "$TMP/rt_causes" | sort | uniq -c | tr -s ' \n' ' ')"
awk '2 * $2 > $3 && $2 > 20000 && $4 != "loop"' "$TMP/rt_causes" | head -3 | sed 's/^/#   not named: /'
loop_named() { is_gt "$held" 0 "waits the loop held CPU 1 for most of (ftrace)" && is_eq "$named" "$held" "of them, those whose top cause is the loop (irqlatd)" "all of them"; }
check "the busy loop (FIFO 99, pid $BURST_PID) is the largest part of every wait it held CPU 1 for most of after the callback, by ftrace ($named of $held)" loop_named
check "irqlat why names it on the screen" grep -q "blocking task .*python3\[$BURST_PID\] (FIFO 99)" "$TMP/cyc.txt"
# the screen's and the snapshot's TOP CAUSE of the measuring thread's row: the part with the
# most time over its kept wake-ups and its share, as jq finds them in irqlat why's answers
# taken before and after the snapshot (other tasks' waits may push some of its out meanwhile)
TID=$(jq '[.waits[] | select(.waiter_prio < 100 and .class == "wakeup") | .pid] | first // 0' "$TMP/cyc.json")
# a cause is a part and who it was: the blocking task by pid, an interrupt part by its top
# interrupt (two blocking tasks are two causes); CAUSES gives "KEY PCT WHO" of the largest
CAUSES='($w | map(.total_ns) | add // 0) as $t | if $t == 0 then "none 0 -" else
	([$w[] as $x | $x.parts | to_entries[] | select(.value > 0) | (.key | sub("_ns$"; "")) as $k
	  | {k: $k, ns: .value, who: (if $k == "blocking" or ($k == "remainder" and ($x.flags | index("blocker_lower")))
		then ($x.blocker.pid // 0 | tostring) elif ($k == "irq" or $k == "vector" or $k == "softirq" or $k == "nmi")
		then ($x.top[$k].name // "") else "" end)}]
	 | group_by([.k, .who]) | map({k: .[0].k, who: .[0].who, ns: (map(.ns) | add)}) | sort_by(-.ns) | first) as $top
	| "\($top.k) \(($top.ns * 100 / $t + 0.5) | floor) \(if $top.who == "" then "-" else $top.who end)" end'
top_part() {	# top_part FILE: "KEY PCT WHO" of TID's wake-ups
	jq -r --argjson p "$TID" "[.waits[] | select(.pid == \$p and .class == \"wakeup\")] as \$w | $CAUSES" "$1"
}
irqlat why -J >"$TMP/w0.json"
irqlat --top -b -n 1 >"$TMP/snap.txt"
irqlat --top -b -n 1 -C 1 >"$TMP/snap_c1.txt"
irqlat why -J >"$TMP/w1.json"
ROW=$(grep -E "^ *cyclictest\[$TID\] " "$TMP/snap.txt" | head -1)
CAUSE=$(sed -nE 's/.* ([0-9]+% .*)$/\1/p' <<<"$ROW")
diag "thread $TID's row: '$ROW'; jq's top part before and after: $(top_part "$TMP/w0.json"), $(top_part "$TMP/w1.json")"
cause_agrees() {	# cause_agrees CAUSE TOP_FUNCTION
	local f key pct who text cause=$1
	for f in "$TMP/w0.json" "$TMP/w1.json"; do
		read -r key pct who < <("$2" "$f")
		case $key in
			blocking) text="blocking task" ;; late_idle) text="exit from idle" ;; late_busy) text="timer IRQ late" ;;
			others) text="other task" ;; remainder) text="preemption off" ;; idle) text="idle" ;; *) text="" ;;
		esac
		case $key in	# and who: the blocking task's pid, the top interrupt's name
			blocking) text="$text [0-9a-zA-Z_./:-]*\\[$who\\]" ;; irq | vector | softirq | nmi) [ "$who" != - ] && text="$who" ;;
		esac
		[ "$key" != none ] && [ "${cause%%%*}" -ge $((pct - 1)) ] 2>/dev/null && [ "${cause%%%*}" -le $((pct + 1)) ] &&
			grep -q -- "$text" <<<"$cause" && return 0
	done
	return 1
}
check "the wake-up row's TOP CAUSE is its kept waits' largest part, with its share ('$CAUSE')" cause_agrees "$CAUSE" top_part
# the per-CPU table's TOP CAUSE of CPU 1 (-C 1: the last 256 kept waits of CPU 1): the part with
# the most time over them, as jq finds it in the same two answers
CPUROW=$(awk '/^Per CPU over/ { on = 1; next } on && !NF { exit } on && /^cpu1 /' "$TMP/snap_c1.txt")
CPUCAUSE=$(sed -nE 's/^cpu1 +([^ ]+ +){6}([0-9]+% .*)$/\2/p' <<<"$CPUROW")
cpu_top_part() {	# cpu_top_part FILE: "KEY PCT WHO" of CPU 1's last 256 waits
	jq -r "[.waits[] | select(.cpu == 1)] | .[-256:] as \$w | $CAUSES" "$1"
}
diag "the per-CPU table's CPU 1: '$CPUROW'; jq's top part before and after: $(cpu_top_part "$TMP/w0.json"), $(cpu_top_part "$TMP/w1.json")"
check "the per-CPU table's TOP CAUSE of CPU 1 is its kept waits' largest part, with its share ('$CPUCAUSE')" \
	cause_agrees "$CPUCAUSE" cpu_top_part
# and its wake-ups' MAX since the start holds cyclictest's own worst (its thread is among CPU
# 1's timer wake-ups), at least half of it: cyclictest's figure runs on past the switch-in to
# its own clock read in user space, and whatever ran on CPU 1 meanwhile is in it and in no wait
# (a sanitized CI run read cyclictest's Max 2506 us against a longest wait of 2.1 ms; a
# blocked wait here is the loop's 2 ms, so a MAX missing the loop's waits is under half)
read -r C_MAX_US < <(sed -n 's/^T: *0 .*Max: *\([0-9]*\).*/\1/p' "$TMP/cyclictest.out")
irqlat --top -b -n 1 -w total >"$TMP/snap_total.txt"
WMAX=$(awk '/^Per CPU over/ { on = 1; next } on && !NF { exit } on && /^cpu1 / { print $6 }' "$TMP/snap_total.txt")
# (the unit after the number's own text: "5.0ms" is 5 ms, not 5 and a unit of ".0ms")
WMAX_NS=$(awk -v v="$WMAX" 'BEGIN { match(v, /^[0-9.]+/); n = substr(v, 1, RLENGTH) + 0; u = substr(v, RLENGTH + 1); m = u == "ns" ? 1 : u == "us" ? 1e3 : u == "ms" ? 1e6 : u == "s" ? 1e9 : -1; printf "%.0f", n * m }')
diag "cyclictest's Max ${C_MAX_US:-?} us; the per-CPU table's CPU 1 wake-up MAX since the start $WMAX ($WMAX_NS ns)"
check "the per-CPU table's CPU 1 wake-up MAX holds at least half of cyclictest's worst" \
	python3 -c "import sys; c, w = int(sys.argv[1]) * 1000, int(sys.argv[2]); sys.exit(not (c > 0 and w >= c / 2))" "${C_MAX_US:-0}" "${WMAX_NS:--1}"
# -C: the kept waits of those CPUs alone (the loop made CPU 1's; every task's are kept)
irqlat why -C 1 -J >"$TMP/c1.json"
diag "why -C 1: $(jq -c '[.waits[].cpu] | group_by(.) | map({cpu: .[0], waits: length})' "$TMP/c1.json"); every CPU's: $(jq -c '[.waits[].cpu] | group_by(.) | map({cpu: .[0], waits: length})' "$TMP/all.json")"
check "irqlat why -C 1: CPU 1's waits alone, and some" jq -e '(.waits | length > 0) and all(.waits[]; .cpu == 1)' "$TMP/c1.json"
diag "a wait, as irqlat why prints it:"
sed -n '1,14s/^/#   /p' "$TMP/cyc.txt"

# ftrace: within each wait blocked by the loop, the time of its runs on CPU 1 (the model's
# blocking task: the one switched out for the waiter, with every run of it in the wait, as
# README says; a migration thread preempts the loop now and then) is its blocking
# part plus what interrupted it (interrupts, the timer's own lateness), within one histogram bucket
# (9.05%: the issue's measure) or 20 us, whichever is more: coming out of idle, the switch to
# the loop took 29 us of scheduler that irqlatd counts in the blocking part and ftrace before
# the loop's switch-in
jq -r --argjson b "$BURST_PID" '.waits | to_entries[] | select(.value.cpu == 1 and .value.blocker.pid == $b and (.value.flags | index("moved") | not))
	| "\(.value.ts_ns - .value.total_ns) \(.value.ts_ns) \(.key)"' "$TMP/cyc.json" >"$TMP/windows"
python3 "$TOP/tests/host/helpers/ftrace_blocker.py" "$TMP/trace" 1 "$BURST_PID" "$TMP/windows" >"$TMP/ftrace.out"
jq -r '.waits | to_entries[] | "\(.key) \(.value.parts.blocking_ns) \(.value.parts.irq_ns + .value.parts.vector_ns + .value.parts.softirq_ns + .value.parts.nmi_ns + .value.parts.late_busy_ns + .value.parts.late_idle_ns + .value.parts.remainder_ns)"' \
	"$TMP/cyc.json" | sort >"$TMP/irqlatd.out"
sort "$TMP/ftrace.out" | join - "$TMP/irqlatd.out" >"$TMP/compare"
diag "wait, ftrace's time of the loop's runs, irqlatd's blocking part, its interrupts + lateness + remainder (ns):"
head -5 "$TMP/compare" | sed 's/^/#   /'
OFF='{ t = $2 * 0.0905; if (t < 20000) t = 20000 } $2 < $3 - t || $2 > $3 + $4 + t'
BAD=$(awk "$OFF" "$TMP/compare" | wc -l)
awk "$OFF" "$TMP/compare" | head -5 | sed 's/^/#   off: /'
diag "ftrace's instance on CPU 1: $(grep -E '^(overrun|dropped events):' "$INST"/per_cpu/cpu1/stats 2>/dev/null | tr '\n' ' ')"
check "ftrace agrees with the blocking part of each of $(wc -l <"$TMP/compare") waits ($BAD off by more than a bucket or 20 us)" \
	test "$(wc -l <"$TMP/compare")" -gt 0 -a "$BAD" -eq 0

# the aggregates: status and /metrics, status read between two scrapes (the daemon keeps
# explaining the waits of other tasks on CPU 1)
check "/metrics passes promtool" scrape_lint "http://127.0.0.1:$MP/metrics" "$TMP/metrics"
irqlat status -J >"$TMP/status.json"
curl -s -o "$TMP/metrics2" "http://127.0.0.1:$MP/metrics"
cpu1_metric() { awk '/^irqlat_late_wait_seconds_total\{cpu="1",wait="wakeup",/ { s += $2 } END { printf "%.0f", s * 1e9 }' "$1"; }
M1=$(cpu1_metric "$TMP/metrics"); M2=$(cpu1_metric "$TMP/metrics2")
S=$(jq '.why.cpus[] | select(.cpu == 1) | .wakeup.total_ns' "$TMP/status.json")
P=$(jq '.why.cpus[] | select(.cpu == 1) | .wakeup | [.parts[]] | add' "$TMP/status.json")
diag "CPU 1's wake-ups: /metrics $M1 then $M2 ns, status between: total $S ns, its parts $P ns"
check "status' total of CPU 1's late wake-ups lies between two scrapes' causes (within 1 us a cause)" \
	python3 -c "import sys; a, b, s = map(int, sys.argv[1:]); sys.exit(not (s > 0 and a - 11000 <= s <= b + 11000))" "${M1:-0}" "${M2:-0}" "${S:-0}"
# (a wait whose blocking task had lower priority than its real-time waiter has that time in the
# remainder, which why_clamp() in bpf/why.bpf.h sets last to what the other parts leave)
check "status: CPU 1's late wake-ups' parts add up to their total ($P = $S)" test "${P:-x}" = "${S:-y}"

# the journal: an explained outlier's entry reads like rtla's summary and its WHY_* fields add up
daemon_entries "$MID_WAKEUP" >"$TMP/journal.json"
diag "wake-up outlier entries: $(wc -l <"$TMP/journal.json")"
jq -r 'select(.WHY_TOTAL_NS) | .MESSAGE' "$TMP/journal.json" | head -3 | sed 's/^/#   /'
SUMS='[.[] | select(.WHY_TOTAL_NS) | {total: (.WHY_TOTAL_NS | tonumber), parts: ([to_entries[] | select(.key | test("^WHY_[A-Z_]+_NS$")) | select(.key != "WHY_TOTAL_NS" and .key != "WHY_TIMELINE_START_NS" and (.key | startswith("WHY_TOP_") | not)) | .value | tonumber] | add), flags: .WHY_FLAGS, msg: .MESSAGE}]'
jq -s -c "$SUMS | .[] | select(.parts != .total)" "$TMP/journal.json" | head -3 | sed 's/^/#   does not add up: /'
check "every explained entry's WHY_*_NS fields add up to WHY_TOTAL_NS" \
	jq -e -s "$SUMS | length > 0 and all(.parts == .total)" "$TMP/journal.json"
# (those the loop blocked: cyclictest's main thread, a normal task, is blocked by its own
# real-time thread at times)
check "cyclictest's explained entries the loop blocked name it in their MESSAGE" \
	jq -e -s --arg b "$BURST_PID" '[.[] | select(.WHY_COMM == "cyclictest" and .WHY_CAUSE == "blocking" and .WHY_BLOCKER_PID == $b)] | length > 0 and all(.MESSAGE | test("^cyclictest\\[[0-9]+\\] woke .* late on CPU 1: [0-9]+% blocking task python3\\[" + $b + "\\] \\(FIFO 99\\)"))' \
	"$TMP/journal.json"
stop_daemon
check "irqlatd exits 0" test "$DAEMON_STATUS" -eq 0
