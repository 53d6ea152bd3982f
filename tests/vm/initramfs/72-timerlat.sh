#!/bin/sh
# vm-check-timeout: 600
# rtla's timerlat thread against irqlatd, on Debian's PREEMPT_RT kernel (run-initramfs-rt; it
# has CONFIG_TIMERLAT_TRACER, the standard 6.1 kernel has not, and there this check skips).
# `rtla timerlat top` (Debian 12's rtla 6.1) runs its tracer on CPU 1, the isolated one, while
# irqlatd runs with its defaults. The tracer's own hrtimer callback (timerlat_irq) wakes the
# kernel thread timerlat/1 once a period; rtla reports that thread's latency (the timer's
# expiry to the thread running again) and irqlatd measures the same wake-up, from the same
# expiry, to the thread's sched_switch in. rtla's end summary (-q, -n: ns) is the reference:
#  1. a quiet run, then a run with a SCHED_FIFO 99 task (tests/vm/helpers/rt-burst) busy 2 ms
#     out of every 10 ms on CPU 1, above the thread's FIFO 95: in each, irqlatd's count of the
#     thread's wake-ups within 2% of ftrace's sched_wakeup events of the thread (and, quiet,
#     no less than rtla's COUNT, within 2%), and irqlatd's longest wait within one of its histogram buckets
#     (schema 3, bpf/hist_bucket.h: 2^(1/8), 9.05%) of ftrace's longest (its timer's expiry
#     to its switch-in, from ftrace's own events in a private instance over each run: rtla's
#     max also holds what delays the thread after its switch-in, see agree()). rtla's COUNT is its IRQ samples, each one wake-up
#     of the thread when nothing holds it back (rtla 6.1 prints no thread count). The thread is
#     new at each run, so irqlatd's figures of its pid, read before rtla starts and after it
#     ended, cover the thread's whole life: from rtla's choice of the tracer (which starts it)
#     to the removal of rtla's instance. rtla's samples cover less, from its turning tracing on
#     to its last read: irqlatd may count a few wake-ups more, and one of them may be the
#     longest (here the first ones are late while rtla sets up on the other CPU), so irqlatd's
#     wake-ups longer than rtla's max by more than a bucket must be no more than its count
#     less rtla's. rtla reads its clock after the switch, so its figure is a few us larger.
#  2. in the run with the burst, rtla's own max shows its thread held back by a millisecond or
#     more, and `irqlat why timerlat/1` names the burst task, by pid and policy, as the
#     blocking task that took most of the thread's late waits after the timer's callback (the
#     default wake-up threshold, 1 ms, keeps each burst's wait), and of each one that ftrace's
#     own events show it ran for most of (its sched_switch in and out less the interrupts).
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

CPU=1
T=/sys/kernel/tracing
for tool in "$IRQLATD" "$IRQLAT" jq rtla rt-burst; do
	if ! command -v "$tool" >/dev/null; then
		skip "rtla timerlat against irqlatd" "$tool missing in the guest"
		exit 0
	fi
done
if ! grep -qw timerlat "$T/available_tracers" 2>/dev/null; then
	skip "rtla timerlat against irqlatd" "no timerlat tracer in $(uname -r) (CONFIG_TIMERLAT_TRACER)"
	exit 0
fi
# (not nproc: it counts the CPUs this task may run on, and isolcpus takes CPU 1 out of those)
if [ "$(cat /sys/devices/system/cpu/cpu$CPU/online 2>/dev/null)" != 1 ]; then
	skip "rtla timerlat against irqlatd" "needs CPU $CPU online"
	exit 0
fi
work=/tmp/irqlatd-timerlat
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
diag "kernel $(uname -r) ($(uname -v | grep -o 'PREEMPT[_A-Z]*' | head -1)), $(rtla timerlat top --help 2>&1 | head -n 1)"

# the defaults: every kind on, the default thresholds (no journal or /run in this guest)
"$IRQLATD" --socket "$sock" --log-target stderr >"$work/daemon.log" 2>&1 &
daemon=$!
burst=
I=$T/instances/irqlat-timerlat
cleanup_trace() { echo 0 >"$I/tracing_on"; echo 0 >"$I/events/enable"; rmdir "$I"; }
cleanup() {
	[ -z "$burst" ] || kill "$burst" 2>/dev/null || true
	[ ! -d "$I" ] || cleanup_trace || true
	kill "$daemon" 2>/dev/null || true
	wait 2>/dev/null || true
}
trap cleanup EXIT
up() { irqlat status >/dev/null 2>&1; }
if ! retry 30 up; then
	not_ok "irqlatd starts"; diag_file "$work/daemon.log"; exit 0
fi

# count TAG PID: irqlatd's wake-ups of PID so far, from since-start totals
count() { jq --argjson p "$2" '[(.timers.wakeups // [])[] | select(.pid == $p) | .count] | add // 0' "$work/snap-$1.json"; }
snap() { irqlat --top --batch --iterations 1 --json --window total >"$work/snap-$1.json"; }

# run_rtla TAG SECONDS: rtla timerlat top on CPU $CPU, its thread FIFO 95; sets tid (the thread's
# pid), r_count, r_max (its thread latency, ns) and i_count, i_max (irqlatd's for that pid).
# irqlat why's answer for the thread is taken 5 s into the run: the daemon keeps the last 64
# explained waits of each CPU, of every task, and once the thread is gone the burst's own
# (its wake-ups, late when the host holds the emulated CPU) soon take their places.
run_rtla() {
	snap "$1-before"
	rtla timerlat top -c $CPU -p 1000 -d "$2" -q -n -P f:95 >"$work/rtla-$1.txt" 2>&1 &
	rtla=$!
	tid=
	i=0
	while [ $i -lt 100 ] && [ -z "$tid" ] && kill -0 "$rtla" 2>/dev/null; do
		tid=$(grep -lx "timerlat/$CPU" /proc/[0-9]*/comm 2>/dev/null | head -n 1 | cut -d/ -f3) || true
		[ -n "$tid" ] || sleep 0.1
		i=$((i + 1))
	done
	sleep 5
	irqlat why "timerlat/$CPU" --json >"$work/why-$1.json" || true
	irqlat why "timerlat/$CPU" >"$work/why-$1.txt" || true
	irqlat why --json >"$work/why-all-$1.json" || true
	rc=0
	wait "$rtla" || rc=$?
	diag "$1: irqlatd's kept waits 5 s into the run (CPU, class, comm): $(jq -c '[.waits[] | "\(.cpu) \(.class) \(.comm)"] | group_by(.) | map({(.[0]): length}) | add' "$work/why-all-$1.json")"
	diag "rtla ($1, exit status $rc), its thread timerlat/$CPU: ${tid:-not seen}:"
	diag_file "$work/rtla-$1.txt" 8
	# its row: "  1 #COUNT     |  cur  min  avg  max |  cur  min  avg  max" (IRQ, then thread)
	row=$(awk -v c=$CPU '$1 == c && $2 ~ /^#[0-9]+$/ && $3 == "|" && $8 == "|" && $12 ~ /^[0-9]+$/ { print substr($2, 2), $12 }' "$work/rtla-$1.txt")
	[ "$rc" -eq 0 ] && [ -n "$row" ] || return 2
	[ -n "$tid" ] || return 1
	r_count=${row% *} r_max=${row#* }
	# the thread is gone with rtla's instance; a tick later irqlatd's totals hold all of it
	retry 10 test ! -d "/proc/$tid" || diag "timerlat/$CPU ($tid) still there after rtla ended"
	sleep 2.2
	snap "$1-after"
	# its histogram now too, beside the count it must hold: the daemon gives an exited task's
	# cells back 60 s after (exited-task-grace-s), and reading the trace takes a while under
	# emulation
	irqlat hist "pid:$tid" --json --window total >"$work/hist-$1.json"
	i_count=$(( $(count "$1-after" "$tid") - $(count "$1-before" "$tid") ))
	i_max=$(jq --argjson p "$tid" '[(.timers.wakeups // [])[] | select(.pid == $p) | .latency_max_ns] | max // 0' "$work/snap-$1-after.json")
	diag "irqlatd: $(jq -c --argjson p "$tid" '(.timers.wakeups // [])[] | select(.pid == $p) | del(.cpus)' "$work/snap-$1-after.json")"
	return 0
}

# bucket NS: irqlatd's schema-3 bucket index of NS (bucket i holds (2^((i-1)/8), 2^(i/8)] s)
# (busybox's awk here has no log() or ^: the bounds are walked from 1 s, 2^(1/8) a step)
R=1.0905077326652577
bucket() {
	awk -v v="$1" -v r=$R 'BEGIN { if (v <= 0) { print "none"; exit }
		b = 1e9; i = 0; while (v <= b / r) { b /= r; i-- } while (v > b) { b *= r; i++ } print i }'
}
# agree TAG: the count within 2%, the maxima within one bucket's width of each other
agree() {
	# The count's reference is ftrace's own sched_wakeup events of the thread over the same
	# span (f_count; two of them, its start and its stop, are no timer's). rtla's COUNT (its
	# IRQ samples) is a lower bound only: its samples run from its turning tracing on to its
	# last read, a shorter span than the thread's life (a quiet run of 2026-12-07 had irqlatd
	# 2.2% over it, ftrace's events agreeing), and with the burst a timer that fires while the
	# burst still holds the thread back finds it runnable and wakes nothing (3570 wake-ups
	# against 3678 samples in one CI run of 2026-12-06).
	diag "$1: rtla's COUNT $r_count, ftrace's wake-ups of timerlat/$CPU ($tid) $f_count, irqlatd's $i_count"
	d=$((i_count - f_count)); [ $d -ge 0 ] || d=$((-d))
	check "$1: irqlatd counts timerlat/$CPU's wake-ups as ftrace's sched_wakeup events of it within 2% ($i_count against $f_count)" \
		is_le $((d * 50)) "$f_count" "50 x the difference" "ftrace's count"
	if [ "$1" = quiet ]; then
		check "$1: irqlatd's count of them is rtla's COUNT or more, within 2% ($i_count against $r_count)" \
			is_ge $((i_count * 50 + r_count)) $((r_count * 50)) "50 x irqlatd's count + rtla's" "50 x rtla's count"
	fi
	# the maxima: rtla's within one bucket of irqlatd's, and every wake-up irqlatd has more
	# than a bucket over rtla's max one of those rtla's window left out: the tracer's thread
	# starts when rtla selects the tracer and runs till rtla removes its instance, while rtla
	# takes samples only from turning tracing on to its last read (in this guest the first
	# wake-ups, while rtla sets up on the other CPU, can be the latest of all). With no such
	# wake-up, irqlatd's max is rtla's within one bucket.
	over=$(jq --argjson p "$tid" --argjson r "$r_max" --argjson k $R \
		'[(.timers.wakeups // [])[] | select(.pid == $p) | .latency_buckets[]? | select(.[1] == 0 or .[1] - 1 > $r * $k) | .[2]] | add // 0' \
		"$work/hist-$1.json")
	in_hist=$(jq --argjson p "$tid" '[(.timers.wakeups // [])[] | select(.pid == $p) | .latency_buckets[]?[2]] | add // 0' "$work/hist-$1.json")
	outside=$((i_count - r_count)); [ $outside -ge 0 ] || outside=0
	diag "$1: maxima $i_max ns (irqlatd, bucket $(bucket "$i_max")) and $r_max ns (rtla, bucket $(bucket "$r_max")); irqlatd's wake-ups more than a bucket over rtla's max: $over, wake-ups rtla's window left out: $outside"
	# The longest wait: rtla's max is no reference for it. A timer that fires while the thread
	# is still on its CPU (its previous cycle held back, by the burst or by the host taking the
	# emulated CPU) wakes it without a switch-in (ci12 of 2026-12-06: rtla's max 9.48 ms and
	# 12.75 ms against irqlatd's 6.29 and 9.28, before irqlatd measured those wake-ups); and
	# rtla's figure also holds whatever delays the thread between its switch-in, where irqlatd's
	# wait ends, and its clock read: the burst preempting it (a run of 2026-12-07: rtla's max
	# 16.88 ms, irqlatd's 14.87, the burst's 2 ms), or the host taking the emulated CPU (the
	# quiet run of the next: 14.18 ms against 11.27). The reference is ftrace's own events over
	# the same run: the timer's expiry to the thread's switch-in, or to the wake for a wake that
	# found it on its CPU and ran on (f_max, ftrace_max below); and no wake-up of irqlatd's may
	# be more than a bucket over rtla's max but outside rtla's window (the check after).
	diag "$1: ftrace's longest wait of timerlat/$CPU: $f_max ns (bucket $(bucket "$f_max"))"
	# no wrong maximum: irqlatd's longest is no longer than ftrace's, within a bucket
	check "$1: irqlatd's longest wake-up of timerlat/$CPU ($i_max ns) is no more than ftrace's longest wait of it ($f_max ns), within one bucket" \
		awk -v a="$i_max" -v f="$f_max" -v r=$R 'BEGIN { exit !(f > 0 && a <= f * r) }'
	# and none missed: a TODO in both runs. In 2 runs of 7 irqlatd's longest was 1.5 to 1.7 ms
	# short of ftrace's with the counts equal: one wait measured short, the cause not found
	# (not rtla's teardown wake, which ftrace_max() leaves out).
	saw_longest() { awk -v a="$i_max" -v f="$f_max" -v r=$R 'BEGIN { exit !(f > 0 && f <= a * r) }'; }
	saw_longest || longest_diag "$1" || diag "$1: the longest wait's diagnostic failed"
	todo "ftrace's longest was over irqlatd's by more than a bucket in 2 runs of 7 (ci17, ci18): one wait measured short, cause open" \
		"$1: irqlatd's longest wake-up of timerlat/$CPU ($i_max ns) is ftrace's longest ($f_max ns) or more, within one bucket" saw_longest
	# (the histogram must hold every wake-up counted, or a count of 0 over would prove nothing)
	over_outside() {
		is_eqn "$in_hist" "$(count "$1-after" "$tid")" "wake-ups in irqlatd's histogram" "its count" &&
			is_le "$over" "$outside" "irqlatd's wake-ups over rtla's max and a bucket" "irqlatd's count less rtla's"
	}
	check "$1: irqlatd's wake-ups more than a bucket over rtla's max ($over) are among those outside rtla's window ($outside)" \
		over_outside "$1"
}

# longest_diag TAG: what each side saw of ftrace's longest wait, read once when irqlatd's
# longest fell short of it (the TODO above): ftrace's events from 1 ms before the wait to 1 ms
# after it, and irqlatd's kept events of the thread over the same span (its outliers; the
# wait's own, if irqlatd measured it over the threshold). A follower of the events slowed the
# guest and the check it is for (2026-12-07), so the daemon is asked once, here.
longest_diag() {
	from=$(awk -v e="$f_end" -v m="$f_max" 'BEGIN { printf "%.0f", e - m - 1000000 }')
	to=$(awk -v e="$f_end" 'BEGIN { printf "%.0f", e + 1000000 }')
	diag "$1: ftrace's longest wait ended at $f_end ns (mono); ftrace's events from $from to $to ns:"
	awk -v a="$from" -v b="$to" '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { split(substr($i, 1, length($i) - 1), q, "."); t = q[1] * 1e9 + (("1" q[2]) - 1000000) * 1000 } }
		t >= a && t <= b' "$work/$1-trace.txt" | head -n 60 | sed 's/^/#   /'
	diag "$1: irqlatd's kept events of $tid over the same span:"
	irqlat events --json 2>/dev/null |
		jq -c --argjson p "$tid" --argjson a "$from" --argjson b "$to" \
			'select((.pid == $p or .woken_pid == $p) and .ts_ns >= $a and .ts_ns <= $b) | del(.why.top)' |
		head -n 10 | sed 's/^/#   /'
}

# A private ftrace instance on CPU $CPU in the daemon's clock (mono) over each run: the thread's
# wake-ups, its timer's starts (their expiry) and its switches, the burst's switches, the
# interrupts. trace_off TAG: its events into $work/TAG-trace.txt; f_max: the thread's longest
# wait by them (ftrace_max).
trace_on() {
	mkdir "$I"
	echo mono >"$I/trace_clock"
	printf '%x\n' $((1 << CPU)) >"$I/tracing_cpumask"
	echo 8192 >"$I/buffer_size_kb"
	echo "prev_comm == \"rt-burst\" || next_comm == \"rt-burst\" || prev_comm == \"timerlat/$CPU\" || next_comm == \"timerlat/$CPU\"" \
		>"$I/events/sched/sched_switch/filter"
	echo 1 >"$I/events/sched/sched_switch/enable"
	echo "comm == \"timerlat/$CPU\"" >"$I/events/sched/sched_wakeup/filter"
	echo 1 >"$I/events/sched/sched_wakeup/enable"
	echo 1 >"$I/events/timer/hrtimer_start/enable"
	for e in "$I"/events/irq_vectors/*_entry "$I"/events/irq_vectors/*_exit "$I"/events/irq/irq_handler_entry "$I"/events/irq/irq_handler_exit; do
		[ ! -e "$e/enable" ] || echo 1 >"$e/enable"
	done
	echo 1 >"$I/tracing_on"
}
trace_off() {
	echo 0 >"$I/tracing_on"
	cp "$I/trace" "$work/$1-trace.txt"
	diag "$1: ftrace on CPU $CPU: $(grep -E '^(entries|overrun|dropped events):' "$I/per_cpu/cpu$CPU/stats" | tr '\n' ' ')"
	cleanup_trace
	f_count=0
	[ -z "${tid:-}" ] || f_count=$(grep -c " sched_wakeup: comm=timerlat/$CPU pid=$tid " "$work/$1-trace.txt") || true
	f_max=$(ftrace_max "$work/$1-trace.txt")
	f_end=${f_max#* } f_max=${f_max% *}
}
# ftrace_max FILE: ftrace's longest wait of the thread and when it ended ("NS END_NS"), by the definition irqlatd's README gives, from ftrace's
# own events: from its timer's expiry (the last hrtimer_start of timerlat_irq, in the trace's
# mono clock) to its switch-in; a wake that finds it on its CPU (after its switch-in, before
# its switch-out) ends at the wake if it then leaves the CPU asleep (it ran on), and at its
# next switch-in if it leaves runnable (prev_state R: preempted). Only wakes in hard-IRQ
# context (an h among the flags, wherever PREEMPT_RT's extra columns put it) are the timer's: when rtla turns tracing off, timerlat_irq stops
# waking the thread, which sleeps past its last expiry until rtla's teardown stops it
# (kthread_stop(), from a task), and that wait is no timer's, nor irqlatd's.
ftrace_max() {
	# (only the lines it reads: the trace's interrupts are for the wait-by-wait check, and
	# busybox's awk under emulation is slow)
	grep -E ' hrtimer_start: .*function=timerlat_irq | sched_wakeup: | sched_switch: ' "$1" |
	awk -v c="timerlat/$CPU" '
function done(d, end) { if (d > m) { m = d; me = end } }
match($0, / [0-9]+\.[0-9]+: /) { split(substr($0, RSTART + 1, RLENGTH - 3), q, "."); now = q[1] * 1e9 + (("1" q[2]) - 1000000) * 1000 }
/ hrtimer_start: / && / function=timerlat_irq / { for (i = 1; i <= NF; i++) if ($i ~ /^expires=/) ex = substr($i, 9) + 0 }
$0 ~ (" sched_wakeup: comm=" c " ") {
	if ($0 !~ / \[[0-9]+\] [^ ]*[hH]/) next	# not in hard-IRQ context: no timer'"'"'s (kthread_stop()'"'"'s at the end)
	if (!on) { w = ex; next }
	if (onw) done(onwake - onw, onwake)	# woken on its CPU again: it ran on through a cycle
	onw = ex; onwake = now
}
$0 ~ " sched_switch: " {
	if (index($0, "==> next_comm=" c " ")) { if (w) done(now - w, now); w = 0; on = 1 }
	else if (index($0, "prev_comm=" c " ")) {
		on = 0
		if (onw) { if ($0 ~ / prev_state=R/) w = onw; else done(onwake - onw, onwake) }
		onw = 0
	}
}
END { printf "%.0f %.0f\n", m, me }'
}

# ---- 1. quiet
rc=0
trace_on
run_rtla quiet 8 || rc=$?
trace_off quiet
if [ $rc -eq 2 ]; then	# rtla itself could not run: say what it said
	said=$(grep -v '^ *$' "$work/rtla-quiet.txt" | head -n 3 | tr '\n' ' ')
	skip "rtla timerlat against irqlatd" "rtla timerlat top did not run here: ${said:-no output}"
	exit 0
fi
check "rtla's timerlat/$CPU thread seen while it ran" test $rc -eq 0
[ $rc -eq 0 ] || exit 0
agree quiet

# ---- 2. a SCHED_FIFO 99 task busy 2 ms out of every 10 ms on CPU 1, through the whole run;
# ftrace's own events there, in a private instance in the daemon's clock (mono), tell which of
# the thread's waits it held the CPU for: its sched_switch in and out, less the interrupts
# that ran on it (the vectors and hard IRQs, whose time irqlatd counts as theirs, not the
# blocking task's: under emulation a local timer interrupt can take a few hundred us)
trace_on
rt-burst $CPU 99 2000 10000 40 >"$work/burst.txt" 2>&1 &
burst=$!
sleep 0.5
if ! kill -0 "$burst" 2>/dev/null; then
	not_ok "rt-burst runs on CPU $CPU at SCHED_FIFO 99"; diag_file "$work/burst.txt"; exit 0
fi
rc=0
run_rtla burst 8 || rc=$?
check "rtla timerlat top runs beside the burst, its thread seen" test $rc -eq 0
[ $rc -eq 0 ] || exit 0
kill "$burst" 2>/dev/null || true
wait "$burst" 2>/dev/null || true
burst_pid=$burst burst=
trace_off burst
agree burst
check "rtla's own max thread latency ($r_max ns) shows the burst holding its thread back (1 ms or more)" \
	is_ge "$r_max" 1000000 "rtla's max (ns)"

cp "$work/why-burst.json" "$work/why.json"
cp "$work/why-burst.txt" "$work/why.txt"
# shellcheck disable=SC2016 # $p and $b are jq's
W='[.waits[] | select(.pid == $p and .class == "wakeup")]'
n=$(jq --argjson p "$tid" "$W | length" "$work/why.json")
by_burst=$(jq --argjson p "$tid" --argjson b "$burst_pid" "$W | map(select(.cause == \"blocking\" and .blocker.pid == \$b and .blocker.sched == \"FIFO 99\")) | length" "$work/why.json")
# the part with the most time over all the kept waits after the timer's callback, as the TOP
# CAUSE column sums them (the lateness before it, exit from idle or a late timer interrupt, is
# the timer's: a task cannot delay the interrupt, and in this emulated guest the host holding
# the vCPU makes much of it)
top=$(jq -r --argjson p "$tid" "$W"' | [.[].parts | to_entries[] | select(.key | startswith("late_") | not)] | group_by(.key) | map({k: .[0].key, ns: (map(.value) | add)}) | sort_by(-.ns) | first | "\(.k) \(.ns)"' "$work/why.json")
diag "irqlat why: $n kept waits of timerlat/$CPU ($tid), $by_burst of them mostly the burst (pid $burst_pid); largest part over all after the callback: $top; causes: $(jq -c --argjson p "$tid" "$W | group_by(.cause) | map({(.[0].cause): length}) | add" "$work/why.json")"
jq -r --argjson p "$tid" --argjson b "$burst_pid" "$W"' | map(select(.cause != "blocking" or .blocker.pid != $b)) | .[:3][] | .summary' "$work/why.json" | sed 's/^/#   not the burst: /'
sed -n '1,10s/^/#   /p' "$work/why.txt"
check_gt "irqlat why keeps late waits of timerlat/$CPU ($n)" "$n" 0
# wait by wait, against ftrace: each of the thread's waits in which the burst ran on CPU $CPU
# (less its interrupts) for more than half of it after the timer's callback, by a margin over
# the rest of a histogram bucket of that span (9.05%) or 20 us, whichever is more, has the
# burst as its top cause and blocking task. (Without the margin a near tie counted: a wait the
# burst held 273 us of 517, the LOC vectors the rest, read about 264 us each by irqlatd, and
# the vectors came out on top: ci35 of 2026-12-07.) Not every wait: in this emulated guest some are late because the
# host held the vCPU (timer IRQ late, exit from idle), which irqlatd names as such.
# the burst's time on CPU $CPU less its interrupts, as "START END" ns pieces
# and, the same way, what held CPU $CPU meanwhile, as "WHAT START END" pieces: the burst
# (less its interrupts), or an interrupt, hard IRQ or vector (by the outermost, nested ones in it)
awk 'function upto() { if (now > last) { if (depth) printf "%s %.0f %.0f\n", outer, last, now; else if (burst) printf "burst %.0f %.0f\n", last, now } last = now }
/ sched_switch: | [a-z_]+_(entry|exit): / {
	if (match($0, / [0-9]+\.[0-9]+: /)) { split(substr($0, RSTART + 1, RLENGTH - 3), q, "."); now = q[1] * 1e9 + (("1" q[2]) - 1000000) * 1000 }
	upto()
	if ($0 ~ / sched_switch: /) {	# (never inside an interrupt: an entry whose exit was lost ends here)
		depth = 0
		if ($0 ~ /==> next_comm=rt-burst /) burst = 1; else if ($0 ~ /prev_comm=rt-burst /) burst = 0
	}
	else if ($0 ~ /_entry: /) { if (!depth++) outer = $0 ~ / irq_handler_entry: / ? "irq" : "vector" }
	else if (depth) depth--
}' "$work/burst-trace.txt" >"$work/pieces.txt"
awk '$1 == "burst" { print $2, $3 }' "$work/pieces.txt" >"$work/burst-runs.txt"
# (the part compared is the largest after the callback, as tests/host/11-why-host.t does: a
# task cannot delay a timer's interrupt, so lateness before the callback is the timer's)
jq -r --argjson p "$tid" "$W"' | .[] | select(.flags | index("moved") | not)
	| "\(.ts_ns - .total_ns + .parts.late_busy_ns + .parts.late_idle_ns) \(.ts_ns) \(.parts | to_entries | map(select(.key | startswith("late_") | not)) | max_by(.value) | .key | sub("_ns$"; "")) \(.blocker.pid // 0) \(.blocker.sched // "-" | sub(" "; "_")) \(.summary)"' \
	"$work/why.json" >"$work/waits.txt"
awk -v runs="$work/burst-runs.txt" 'BEGIN { while ((getline l <runs) > 0) { split(l, f, " "); n++; s[n] = f[1]; e[n] = f[2] } }
	{ o = 0; for (i = 1; i <= n; i++) { a = s[i] > $1 ? s[i] : $1; b = e[i] < $2 ? e[i] : $2; if (b > a) o += b - a }
	  $1 = sprintf("%.0f %.0f", o, $2 - $1); $2 = ""; print }' "$work/waits.txt" | tr -s ' ' >"$work/held.txt"
# the burst's time held more than the rest's by the margin ($1: held, $2: the span after the callback)
MOST='2 * $1 - $2 > ($2 * 0.0905 > 20000 ? $2 * 0.0905 : 20000)'
held=$(awk "$MOST" "$work/held.txt" | wc -l)
named=$(awk -v b="$burst_pid" "($MOST)"' && $3 == "blocking" && $4 == b && $5 == "FIFO_99"' "$work/held.txt" | wc -l)
diag "ftrace: $(grep -c ' sched_switch: .*==> next_comm=rt-burst ' "$work/burst-trace.txt") runs of the burst on CPU $CPU, $(grep -c '_entry: ' "$work/burst-trace.txt") interrupts there; of the $(wc -l <"$work/held.txt") kept waits, it held the CPU for most of $held after the callback (by the margin), irqlatd names it in $named (ns held, ns after the callback, largest part after it, blocker, irqlatd's summary):"
sed 's/^/#   /' "$work/held.txt" | head -n 4
if [ ! -s "$work/burst-runs.txt" ]; then
	diag "no run of the burst found in ftrace's events; the first of them:"
	grep -m 2 ' sched_switch: ' "$work/burst-trace.txt" | sed 's/^/#   /'
	grep -m 2 '_entry: ' "$work/burst-trace.txt" | sed 's/^/#   /'
	grep -m 2 '_exit: ' "$work/burst-trace.txt" | sed 's/^/#   /'
fi
awk -v b="$burst_pid" "($MOST)"' && !($3 == "blocking" && $4 == b && $5 == "FIFO_99")' "$work/held.txt" | head -n 5 | sed 's/^/#   not named: /'
awk "!($MOST) && 2 * \$1 > \$2" "$work/held.txt" | head -n 3 | sed 's/^/#   near tie, not counted: /'
held_named() { is_gt "$held" 0 "waits the burst held CPU $CPU for most of (ftrace)" && is_eq "$named" "$held" "of them, those whose top cause is the burst (irqlatd)" "all of them"; }
check "each wait of timerlat/$CPU the burst held CPU $CPU for most of, by ftrace, has it as top cause ($named of $held)" held_named
# the thread's row's TOP CAUSE: the part with the most time over its kept waits after the
# callback, of the burst (blocking), the vectors and the hard IRQs, is the one ftrace's pieces
# give the most time in the same windows, and when it is the burst, it is named as in the wait
# it took most of. Which one that is depends on the machine: under a slower emulation the
# vCPU's local timer interrupts take long enough to outweigh the burst.
# (the waits in time order and the pieces in theirs, which do not overlap: each wait's search
# starts where the last one's did, not at the first piece; from the first, it was the
# waits times the pieces, minutes under a slow emulation, and the check ran out of time)
sort -n "$work/waits.txt" | awk -v pieces="$work/pieces.txt" 'BEGIN { while ((getline l <pieces) > 0) { split(l, f, " "); n++; w[n] = f[1]; s[n] = f[2]; e[n] = f[3] } k = 1 }
	{ a0 = $1; b0 = $2; while (k <= n && e[k] <= a0) k++
	  for (j = k; j <= n && s[j] < b0; j++) { a = s[j] > a0 ? s[j] : a0; b = e[j] < b0 ? e[j] : b0; if (b > a) t[w[j]] += b - a } }
	END { printf "%.0f %.0f %.0f\n", t["burst"], t["vector"], t["irq"] }' >"$work/ftrace-parts.txt"
read -r f_burst f_vec f_irq <"$work/ftrace-parts.txt"
# irqlatd's over the same waits (not moved): the burst's blocking part, the vectors', the IRQs'
read -r i_burst i_vec i_irq <<EOF_PARTS
$(jq -r --argjson p "$tid" --argjson b "$burst_pid" "$W"' | map(select(.flags | index("moved") | not))
	| "\(map(select(.blocker.pid == $b) | .parts.blocking_ns) | add // 0) \(map(.parts.vector_ns) | add // 0) \(map(.parts.irq_ns) | add // 0)"' "$work/why.json")
EOF_PARTS
diag "over the kept waits after the callback (ns): ftrace: burst $f_burst, vectors $f_vec, hard IRQs $f_irq; irqlatd: blocking (the burst) $i_burst, vector $i_vec, irq $i_irq; irqlatd's largest part of all: $top"
# largest NAME_A A NAME_B B NAME_C C: the name of the largest
largest() { awk -v a="$1" -v x="$2" -v b="$3" -v y="$4" -v c="$5" -v z="$6" 'BEGIN { m = a; v = x; if (y > v) { m = b; v = y } if (z > v) { m = c; v = z } print m }'; }
top_named() {
	f_top=$(largest burst "$f_burst" vector "$f_vec" irq "$f_irq")
	i_top=$(largest burst "$i_burst" vector "$i_vec" irq "$i_irq")
	is_eq "$i_top" "$f_top" "irqlatd's largest of the burst, the vectors and the hard IRQs" "ftrace's" || return 1
	[ "$f_top" = burst ] || return 0
	b=$(jq -r --argjson p "$tid" "$W"' | max_by(.parts.blocking_ns) | "\(.blocker.pid) \(.blocker.sched)"' "$work/why.json")
	is_eq "$b" "$burst_pid FIFO 99" "the blocker in the wait it took most of" "the burst"
}
check "the top cause of timerlat/$CPU's late waits after the callback, of the burst, the vectors and the hard IRQs, is ftrace's, and names the burst, rt-burst[$burst_pid] (FIFO 99), when it is" top_named
check_grep "irqlat why names it on the screen" "blocking task .*rt-burst\[$burst_pid\] (FIFO 99)" "$work/why.txt"

# ---- 3. the stacks' kernel frames, named by the kernel itself (bpf/ksym.bpf.c, a syscall
# program: Linux 5.14 and later, so Debian 12's 6.1 too): every named frame of the kept waits'
# stacks is a text symbol of /proc/kallsyms. A CPU takes stacks once a second at most, so the
# kept waits may hold none: then this says so and skips.
jq -r '[.waits[] | .stacks.kernel // [] | .[]] | .[]' "$work/why-all-burst.json" "$work/why-all-quiet.json" >"$work/frames.txt"
sed -n 's/^\([A-Za-z0-9_.]*\)+0x[0-9a-f]*\( \[.*\]\)\{0,1\}$/\1/p' "$work/frames.txt" | sort -u >"$work/frame-names.txt"
awk '$2 ~ /^[tTwW]$/ { print $3 }' /proc/kallsyms >"$work/text-symbols.txt"
unknown=$(awk 'FNR == NR { t[$1] = 1; next } !($1 in t)' "$work/text-symbols.txt" "$work/frame-names.txt" | head -n 5 | tr '\n' ' ')
addresses=$(grep -c '^0x' "$work/frames.txt") || true
diag "kernel frames in the kept waits' stacks: $(wc -l <"$work/frames.txt"), $(wc -l <"$work/frame-names.txt") functions named; as addresses: $addresses"
if [ ! -s "$work/frames.txt" ]; then
	skip "the stacks' kernel frames named" "no kept wait holds a stack (one a CPU each second)"
else
	named_frames() {
		is_gt "$(wc -l <"$work/frame-names.txt")" 0 "functions named in the stacks' frames" &&
			is_eq "${unknown:-none}" none "named frames that are no text symbol of /proc/kallsyms" "none"
	}
	check "the stacks' kernel frames are named, each a text symbol of /proc/kallsyms" named_frames
fi
