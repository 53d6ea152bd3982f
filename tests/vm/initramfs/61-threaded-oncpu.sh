#!/bin/sh
# vm-check-timeout: 90
# Threaded IRQs' run time as the thread's on-CPU time (threaded-run = on-cpu, the source where
# the kernel refuses fentry on genirq's thread wrappers): irqlatd measures each interval of the
# serial IRQ's thread (irq/N-ttyS0) from its sched_switch in to its sched_switch out. The
# reference is ftrace's sched_switch events of that thread in the same window, paired the same
# way, in the same clock (mono, BPF's). The window: ftrace runs from before irqlatd starts to
# after the snapshot; a trace_marker line once irqlatd answers (its programs are attached), and
# nothing is printed on the console from there until the load, nor after it until ftrace is
# stopped, so the serial thread runs only for the load: irqlatd's interval count must be
# ftrace's count of intervals that ended after the marker, within 1%, its median as ftrace's,
# and one by one (irqlatd's outlier events, threshold 1 us, paired with ftrace's intervals:
# tests/vm/guest/lib.sh) 99% of its intervals must start and end 0 to 250 us after ftrace's
# (the probes' order: ftrace was enabled first). Not the longest against ftrace's longest: the
# guest is emulated (TCG) on a shared host, its vCPU thread can be descheduled between
# ftrace's probe and irqlatd's while guest time runs on, and the longest carries whatever hit
# it (60-threaded.sh says more). Without fentry the wake-to-run latency ends at the
# thread's switch-in only, and a wake served by genirq running the handler again while the
# thread was on the CPU is dropped when the thread goes to sleep (sched_switch out with
# prev_state S): ftrace's irq_handler_exit and sched_switch events, paired that way, must give
# the same count within 1%, the same median, and the same waits one by one. Runs in the threadirqs
# guest (run-initramfs-threadirqs).
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ] || ! command -v jq >/dev/null; then
	skip "threaded IRQs' on-CPU time measured" "irqlatd, irqlat or jq missing in the guest"
	exit 0
fi
work=/tmp/irqlatd-threaded-oncpu
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
serial=$(awk '/ttyS0/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
tid=$(ps -o pid,comm | awk -v p="irq/$serial-" 'index($2, p) == 1 { print $1; exit }')
thread=$(ps -o pid,comm | awk -v p="$tid" '$1 == p { print $2; exit }')
diag "serial IRQ ${serial:-none}, its thread: ${thread:-none} (pid ${tid:-none})"
if [ -z "$thread" ]; then
	if grep -qw threadirqs /proc/cmdline || [ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ]; then
		not_ok "the serial IRQ has a thread (threadirqs or PREEMPT_RT)"
	else	# the plain initramfs guest: run-initramfs-threadirqs runs this check
		skip "threaded IRQs' on-CPU time measured" "no threaded IRQ in this guest (booted without threadirqs, not PREEMPT_RT)"
	fi
	exit 0
fi

T=/sys/kernel/tracing
echo 0 >"$T/tracing_on"
echo nop >"$T/current_tracer"
echo >"$T/trace"
echo 4096 >"$T/buffer_size_kb"
old_clock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$T/trace_clock")
echo mono >"$T/trace_clock"	# BPF's clock (bpf_ktime_get_ns)
echo "prev_pid == $tid || next_pid == $tid" >"$T/events/sched/sched_switch/filter"
echo "irq == $serial" >"$T/events/irq/irq_handler_exit/filter"
echo 1 >"$T/events/sched/sched_switch/enable"
echo 1 >"$T/events/irq/irq_handler_exit/enable"
echo 1 >"$T/tracing_on"

# the key from the configuration file, as an administrator would set it
echo "threaded-run = on-cpu" >"$work/irqlatd.conf"
# every interval and wait of 1 us or more is also an outlier event, for the pairing with
# ftrace's one by one (as 60-threaded.sh); the other kinds' outliers off, no rate limit
"$IRQLATD" --config "$work/irqlatd.conf" --socket "$sock" --log-target stderr --no-tracepoints --interval-ms 200 \
	--threaded-threshold-us 1 --threaded-run-threshold-us 1 --outlier-rate 0 --threshold-us 0 \
	--no-softirqs --no-vectors --no-timers --event-history 65536 >"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
if ! retry 20 up; then
	echo 0 >"$T/tracing_on"
	not_ok "irqlatd starts with threaded-run = on-cpu"; diag_file "$work/daemon.log"; exit 0
fi
echo "irqlatd-up" >"$T/trace_marker"
# the load: console lines with pauses, so that the thread runs about once a line; 300 of
# them for the 200 intervals the count check wants (the serial driver serves two lines in
# one run now and then: 200 lines made 199 intervals once)
i=0
while [ $i -lt 300 ]; do echo "# threaded on-CPU: serial load, line $i of 300"; i=$((i + 1)); sleep 0.01; done
sleep 0.6	# three ticks
irqlat --top -b -n 1 -J -w total >"$work/snap.json"
irqlat events -n 65536 --json >"$work/events.json" 2>/dev/null || true
echo 0 >"$T/tracing_on"
cp "$T/trace" "$work/trace"
echo 0 >"$T/events/sched/sched_switch/enable"
echo 0 >"$T/events/sched/sched_switch/filter"
echo 0 >"$T/events/irq/irq_handler_exit/enable"
echo 0 >"$T/events/irq/irq_handler_exit/filter"
echo "${old_clock:-local}" >"$T/trace_clock"
echo >"$T/trace"
irqlat status --json >"$work/status.json" 2>/dev/null || true
kill "$daemon"
wait "$daemon" 2>/dev/null || true

check "the start line says the run time is the thread's on-CPU time" \
	grep -q "threaded IRQs: run time from the thread's on-CPU time" "$work/daemon.log"
check "status says threaded_run on-cpu, with the kind threaded_run" \
	jq -e '.threaded_run == "on-cpu" and (.kinds | index("threaded_run"))' "$work/status.json"
el=$(jq -c --argjson irq "$serial" '[.threaded[] | select(.irq == $irq)][0] | del(.cpus)' "$work/snap.json")
diag "threaded element: $el"
f() { echo "$el" | jq -r ".$1 // 0"; }
runs=$(f run_count) rmax=$(f run_max_ns) r50=$(f run_p50_ns)
wakes=$(f count) wmax=$(f wakeup_max_ns) w50=$(f wakeup_p50_ns)
check_eq "the element says run_source on-cpu" "$(f run_source)" on-cpu

# ftrace's on-CPU intervals of the thread, switch-in to switch-out: ns, whether it ended after
# the marker, its two time stamps
awk -v tid="$tid" '
	/ tracing_mark_write: irqlatd-up/ { up = 1; next }
	/ sched_switch: / {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = substr($i, 1, length($i) - 1); break }
		split(ts, p, ".")	# "071495": busybox awk reads a leading 0 as octal, so 1 goes in front
		ns = p[1] * 1000000000 + (("1" p[2]) - 1000000) * 1000
		prev = next_ = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^prev_pid=/) prev = substr($i, 10)
			if ($i ~ /^next_pid=/) next_ = substr($i, 10)
		}
		if (prev == tid && from) printf "%d %d %s %s %.0f %.0f\n", ns - from, up, fts, ts, from, ns
		if (prev == tid) from = 0
		if (next_ == tid) { from = ns; fts = ts }
	}' "$work/trace" | sort -n >"$work/ftrace.txt"
fall=$(wc -l <"$work/ftrace.txt")
fup=$(awk '$2 == 1 { n++ } END { print n + 0 }' "$work/ftrace.txt")
fmax=$(tail -n 1 "$work/ftrace.txt" | cut -d' ' -f1)
fupmax=$(awk '$2 == 1 { m = $1 } END { print m + 0 }' "$work/ftrace.txt")
fmed=$(awk '$2 == 1 { print $1 }' "$work/ftrace.txt" | sed -n "$(( (fup + 1) / 2 ))p")
fmax=${fmax:-0} fmed=${fmed:-0}
diag "ftrace: $fall on-CPU intervals of $thread, $fup of them ended after irqlatd was up, longest $fmax ns ($fupmax ns after), median $fmed ns (after); irqlatd: $runs intervals, p50 $r50 ns, max $rmax ns"
check_ge "enough on-CPU intervals to compare counts at 1% (at least 200 after irqlatd was up: $fup)" "$fup" 200
within() { d=$(($1 - $2)); [ $d -lt 0 ] && d=$((-d)); [ $((d * 100)) -le "$2" ]; }
check "on-CPU interval count ($runs) is ftrace's sched_switch pairs after irqlatd was up ($fup) within 1%" \
	within "$runs" "$fup"
# one by one (tests/vm/guest/lib.sh, pair_with_ftrace; why 99% and not the longest against
# ftrace's longest: 60-threaded.sh)
one_by_one() {	# KIND VALUE_KEY FTRACE_FILE WHAT
	jq -r --argjson irq "$serial" --arg k "$1" --arg v "$2" \
		'select(.type == "outlier" and .kind == $k and .irq == $irq) | "\(.ts_ns) \(.[$v])"' \
		"$work/events.json" >"$work/irqlatd-$1.txt" 2>/dev/null || true
	awk '{ print $5, $6 }' "$3" >"$work/ftrace-$1.txt"
	pair_with_ftrace "$work/irqlatd-$1.txt" "$work/ftrace-$1.txt" "$work/skews-$1.txt" >"$work/pairs-$1.txt"
	read -r en unpaired twice kmin kat <"$work/pairs-$1.txt" || true
	good=$(awk '$1 >= -20000 && $1 <= 250000 && $2 >= -20000 && $2 <= 250000' "$work/skews-$1.txt" 2>/dev/null | wc -l)
	diag "irqlatd's $4 events: ${en:-0}, unpaired ${unpaired:-?}, paired twice ${twice:-?}; start after ftrace's: earliest ${kmin:-?} ns, p99 $(cut -d' ' -f1 "$work/skews-$1.txt" | pct 99), most $(cut -d' ' -f1 "$work/skews-$1.txt" | pct 100) ns; end after ftrace's: p99 $(cut -d' ' -f2 "$work/skews-$1.txt" | pct 99), most $(cut -d' ' -f2 "$work/skews-$1.txt" | pct 100) ns"
	[ "${en:-0}" -gt 0 ] && [ $(( (${unpaired:-1000} + ${twice:-1000}) * 100 )) -le "${en:-0}" ] &&
		[ $((good * 100)) -ge $((en * 99)) ]
}
check "on-CPU intervals one by one: each paired with its own in ftrace, 99% starting and ending 0 to 250 us after ftrace's (-20 us allowed)" \
	one_by_one threaded_run duration_ns "$work/ftrace.txt" "on-CPU interval"
# irqlatd's p50 is read from its histogram: in the bucket of its samples' median, which the
# pairs' skews keep near ftrace's (median_window in guest/lib.sh)
near_median() {	# P50 FTRACE_FILE SKEWS WHAT
	awk '$2 == 1 { print $1 }' "$2" >"$2.lengths"
	read -r mlo mhi mp46 mp54 ms97 <<EOW
$(median_window "$2.lengths" "$3")
EOW
	diag "ftrace's 46th to 54th percentile: $mp46 to $mp54 ns; 97% of the pairs differ by $ms97 ns or less"
	check "$4 median as ftrace's (p50 $1 ns; ftrace's median, with the pairs' skews: $mlo to $mhi ns)" \
		is_between "$1" "$mlo" "$mhi"
}
near_median "$r50" "$work/ftrace.txt" "$work/skews-threaded_run.txt" "on-CPU"

# ftrace's wake-to-run times, paired as irqlatd does without fentry: the first
# irq_handler_exit since the thread last started or went to sleep, to its next switch-in; a
# switch-out to sleep (prev_state S: not preempted, interruptible) drops a pending one. Each
# line: ns, whether the exit came after the marker, the exit's and the switch-in's stamps.
awk -v tid="$tid" '
	/ tracing_mark_write: irqlatd-up/ { up = 1; next }
	/ irq_handler_exit: / || / sched_switch: / {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = substr($i, 1, length($i) - 1); break }
		split(ts, p, ".")
		ns = p[1] * 1000000000 + (("1" p[2]) - 1000000) * 1000
		if ($0 ~ / irq_handler_exit: /) { if (!pending) { pending = ns; after = up; from = ts }; next }
		prev = next_ = state = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^prev_pid=/) prev = substr($i, 10)
			if ($i ~ /^prev_state=/) state = substr($i, 12)
			if ($i ~ /^next_pid=/) next_ = substr($i, 10)
		}
		if (prev == tid && state == "S") pending = 0
		if (next_ == tid) { if (pending) printf "%d %d %s %s %.0f %.0f\n", ns - pending, after, from, ts, pending, ns; pending = 0 }
	}' "$work/trace" | sort -n >"$work/wakes.txt"
wn=$(awk '$2 == 1 { n++ } END { print n + 0 }' "$work/wakes.txt")
wfmax=$(tail -n 1 "$work/wakes.txt" | cut -d' ' -f1)
wfupmax=$(awk '$2 == 1 { m = $1 } END { print m + 0 }' "$work/wakes.txt")
wfmed=$(awk '$2 == 1 { print $1 }' "$work/wakes.txt" | sed -n "$(( (wn + 1) / 2 ))p")
wfmax=${wfmax:-0} wfmed=${wfmed:-0}
diag "ftrace: $wn wakes paired with a switch-in after irqlatd was up, longest $wfmax ns ($wfupmax ns after), median $wfmed ns; irqlatd: $wakes wakes, p50 $w50 ns, max $wmax ns"
check "wake-to-run count ($wakes) is ftrace's pairs after irqlatd was up ($wn) within 1%" within "$wakes" "$wn"
check "wake-to-run one by one: each paired with its own in ftrace, 99% starting and ending 0 to 250 us after ftrace's (-20 us allowed)" \
	one_by_one threaded latency_ns "$work/wakes.txt" "wake"
near_median "$w50" "$work/wakes.txt" "$work/skews-threaded.txt" "wake-to-run"
