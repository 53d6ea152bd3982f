#!/bin/sh
# vm-check-timeout: 90
# Threaded IRQs: this guest boots with threadirqs (run-initramfs-threadirqs), or is Debian's
# PREEMPT_RT kernel (run-initramfs-rt), so the serial console's IRQ has a thread, irq/N-ttyS0, and its
# hard-IRQ handler (genirq's primary handler) returns IRQ_WAKE_THREAD on every arrival. The
# thread runs the handler once per wake, but a wake while one is still pending is merged
# (genirq's IRQTF_RUNTHREAD; the serial line is edge-triggered, so it can fire again before
# the thread has run): irqlatd's wake-to-run count and thread handler run count for that IRQ
# must equal its hard-IRQ run count in the same snapshot less the merged wakes that ftrace
# saw (its irq_handler_exit events less its calls of the thread's handler), within 1%; with
# nothing merged, the hard-IRQ count itself (the first runs here merged none). The reference for the wake-to-run
# times is ftrace in the same window, with irqlatd's definition: the first irq_handler_exit
# of that IRQ since the thread last started, to the thread's next sched_switch in or, when it
# was still on the CPU (the serial line often fires again while its thread runs, and genirq
# then runs the handler again without sleeping), the thread's next call of genirq's wrapper
# (the function tracer on irq_forced_thread_fn/irq_thread_fn). ftrace runs from before
# irqlatd starts to after the snapshot, so it saw every wake irqlatd measured: ftrace must have
# at least as many, the medians must agree, and irqlatd's longest must not exceed ftrace's
# longest by more than the probes' own skew. Then wake by wake: irqlatd's outlier events
# (every wait of 1 us or more) pair one to one with ftrace's wakes, none starting before its
# pair's first exit, 99% of them starting and ending 0 to 250 us after ftrace's. Both read the
# same clock (mono). The daemon runs with its defaults (every kind on) but the threshold that
# makes every wait an event.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ] || ! command -v jq >/dev/null; then
	skip "threaded IRQs measured" "irqlatd, irqlat or jq missing in the guest"
	exit 0
fi
work=/tmp/irqlatd-threaded
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
serial=$(awk '/ttyS0/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
thread=$(ps -o pid,comm | awk -v p="irq/$serial-" 'index($2, p) == 1 { print $2; exit }')
diag "kernel $(uname -r) ($(uname -v | grep -o 'PREEMPT[_A-Z]*' | head -1)), cmdline: $(cat /proc/cmdline)"
diag "serial IRQ ${serial:-none}, its thread: ${thread:-none}"
if [ -z "$thread" ]; then
	if grep -qw threadirqs /proc/cmdline || [ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ]; then
		not_ok "the serial IRQ has a thread (threadirqs or PREEMPT_RT)"
	else	# the plain initramfs guest: run-initramfs-threadirqs and -rt run this check
		skip "threaded IRQs measured" "no threaded IRQ in this guest (booted without threadirqs, not PREEMPT_RT)"
	fi
	exit 0
fi

T=/sys/kernel/tracing
echo 0 >"$T/tracing_on"
echo >"$T/trace"
echo 4096 >"$T/buffer_size_kb"
# BPF's clock (bpf_ktime_get_ns): under TCG the default trace clock (global, from sched_clock)
# ran some 5% apart from it over tens of ms
old_clock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$T/trace_clock")
echo mono >"$T/trace_clock"
echo "irq == $serial" >"$T/events/irq/irq_handler_exit/filter"
echo "next_comm ~ \"irq/$serial-*\"" >"$T/events/sched/sched_switch/filter"
echo 1 >"$T/events/irq/irq_handler_exit/enable"
echo 1 >"$T/events/sched/sched_switch/enable"
echo "irq_forced_thread_fn irq_thread_fn" >"$T/set_ftrace_filter"
echo function >"$T/current_tracer"
echo 1 >"$T/tracing_on"

# every wake-to-run of 1 us or more is also an outlier event (its end time and length), for
# the pairing with ftrace's wakes below, with no rate limit; the rest as a user gets it
"$IRQLATD" --socket "$sock" --log-target stderr --no-tracepoints --interval-ms 200 \
	--threaded-threshold-us 1 --outlier-rate 0 --event-history 65536 >"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
if ! retry 20 up; then
	echo 0 >"$T/tracing_on"
	not_ok "irqlatd starts"; diag_file "$work/daemon.log"; exit 0
fi
echo "irqlatd-up" >"$T/trace_marker"	# its programs are attached: every wake from here is stamped
irqlat status --json >"$work/status.json" 2>/dev/null || true
check "irqlatd measures threaded IRQs (kinds threaded and threaded_run)" \
	jq -e '.kinds | index("threaded") and index("threaded_run")' "$work/status.json"
# the load: this guest's console output raises the serial IRQ; then nothing is printed until
# the snapshot is taken and ftrace stopped
# (pauses between lines: the port then sends each line on its own IRQs rather than the thread
# draining a full buffer at a time, so that there are enough IRQs to count at 1%)
i=0
while [ $i -lt 200 ]; do echo "# threaded: serial load, line $i of 200"; i=$((i + 1)); sleep 0.01; done
sleep 0.6	# three ticks
irqlat --top -b -n 1 -J -w total >"$work/snap.json"
irqlat events -n 65536 --json >"$work/events.json" 2>/dev/null || true
echo 0 >"$T/tracing_on"
cp "$T/trace" "$work/trace"	# before the tracer is reset: that empties the buffer
echo nop >"$T/current_tracer"
echo 0 >"$T/events/irq/irq_handler_exit/enable"
echo 0 >"$T/events/sched/sched_switch/enable"
kill "$daemon"
wait "$daemon" 2>/dev/null || true

el=$(jq -c --argjson irq "$serial" '[.threaded[] | select(.irq == $irq)][0] | del(.cpus)' "$work/snap.json")
hard=$(jq --argjson irq "$serial" '[.irqs[] | select(.irq == $irq) | .count] | add // 0' "$work/snap.json")
diag "threaded element: $el"
f() { echo "$el" | jq -r ".$1 // 0"; }
wakes=$(f count) runs=$(f run_count) wmax=$(f wakeup_max_ns) w50=$(f wakeup_p50_ns) w99=$(f wakeup_p99_ns)
r99=$(f run_p99_ns)
diag "hard-IRQ runs $hard, wakes measured $wakes, thread handler runs $runs"
exits=$(grep -c ' irq_handler_exit: ' "$work/trace" || true)
calls=$(grep -cE "^ *irq/$serial-.* irq_(forced_)?thread_fn <-" "$work/trace" || true)
merged=$((exits - calls))
diag "ftrace: $exits hard-IRQ exits, $calls calls of the thread's handler, so $merged wakes merged; $(grep -c ' sched_switch: ' "$work/trace" || true) switches to the thread"
names() { [ "$(f thread)" = "$thread" ] && [ "$(f name)" = "ttyS0" ]; }
check "the element names the thread ($thread) and the handler (ttyS0)" names
check_ge "enough serial IRQs to compare counts at 1% (at least 200: $hard)" "$hard" 200
within() { d=$(($1 - $2)); [ $d -lt 0 ] && d=$((-d)); [ $((d * 100)) -le "$2" ]; }
check "wake-to-run count ($wakes) is the line's hard-IRQ count ($hard) less the merged wakes ($merged) within 1%" \
	within "$wakes" $((hard - merged))
check "thread handler run count ($runs) is the wake count ($wakes) within 1%" within "$runs" "$wakes"
check_gt "thread handler run time measured (run_p99_ns $r99 > 0)" "$r99" 0

# ftrace's wake-to-run times for the thread, in ns, sorted
awk '
	/ tracing_mark_write: irqlatd-up/ { up = 1; next }
	/ irq_handler_exit: / || / sched_switch: / || / irq_(forced_)?thread_fn <-/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = substr($i, 1, length($i) - 1); break }
		split(ts, p, ".")	# "071495": busybox awk reads a leading 0 as octal, so 1 goes in front
		ns = p[1] * 1000000000 + (("1" p[2]) - 1000000) * 1000
		if ($0 ~ / irq_handler_exit: /) { if (!pending) { pending = ns; after = up; from = ts }; next }
		if ($0 ~ / irq_(forced_)?thread_fn <-/ && $0 !~ "^ *irq/'"$serial"'-") next	# another thread
		if (pending) printf "%d %d %s %s %.0f %.0f\n", ns - pending, after, from, ts, pending, ns
		pending = 0
	}' "$work/trace" | sort -n >"$work/ftrace.txt"
fn=$(wc -l <"$work/ftrace.txt")
fmax=$(tail -n 1 "$work/ftrace.txt" | cut -d' ' -f1)
fmed=$(sed -n "$(( (fn + 1) / 2 ))p" "$work/ftrace.txt" | cut -d' ' -f1)
fupmax=$(awk '$2 == 1 { m = $1 } END { print m + 0 }' "$work/ftrace.txt")	# wakes after irqlatd was up
fmax=${fmax:-0} fmed=${fmed:-0}
diag "ftrace: $fn wakes paired with the thread's switch-in or handler call, longest $fmax ns ($fupmax ns of those after irqlatd was up), median $fmed ns; irqlatd: p50 $w50, p99 $w99, max $wmax ns"
# The two tools' probes sit at the same kernel points and read the same clock, but not
# atomically with each other: an interrupt can fall between ftrace's record and irqlatd's
# program. Seen: within 8 us of each other. Tolerance: 2% of the longest plus 100 us.
positive() { [ "$w50" -gt 0 ] && [ "$wmax" -gt 0 ]; }
check "wake-to-run positive (p50 $w50 ns, max $wmax ns)" positive
# Each wake, one by one: irqlatd's outlier events (threshold 1 us) give each wait's end and
# length, so its start; each is paired with ftrace's wake that ended last at or before it.
# irqlatd's probes run after ftrace's on both tracepoints (ftrace was enabled first), so its
# start and end lie a little after ftrace's: a stale or wrongly kept stamp (a wait counted
# from an exit before the first since the thread last ran) starts before. A few wakes may be
# far off, none of them a fault of either tool: the emulated vCPU can be away between the two
# probes (the host deschedules QEMU's thread while guest time runs on; seen: 5 ms), QEMU
# translates irqlatd's programs' code the first time they run (180 to 210 us on the first
# wakes), and an exit on one CPU can fall between ftrace's record of the thread's handler call
# on the other and irqlatd's fentry (the next wait's start for ftrace, this one's for irqlatd:
# a pair off by one). So 99% of them.
jq -r --argjson irq "$serial" 'select(.type == "outlier" and .kind == "threaded" and .irq == $irq) | "\(.ts_ns) \(.latency_ns)"' \
	"$work/events.json" >"$work/irqlatd-wakes.txt" 2>/dev/null || true
awk '{ print $5, $6 }' "$work/ftrace.txt" >"$work/ftrace-wakes.txt"
pair_with_ftrace "$work/irqlatd-wakes.txt" "$work/ftrace-wakes.txt" "$work/skews.txt" >"$work/pairs.txt"
read -r en unpaired twice kmin kat <"$work/pairs.txt" || true
good=$(awk '$1 >= -20000 && $1 <= 250000 && $2 >= -20000 && $2 <= 250000' "$work/skews.txt" 2>/dev/null | wc -l)
diag "irqlatd's wake events: ${en:-0}, unpaired ${unpaired:-?}, paired twice ${twice:-?}; start after ftrace's: earliest ${kmin:-?} ns (the wait ending at ${kat:-?}), p50 $(cut -d' ' -f1 "$work/skews.txt" | pct 50), p99 $(cut -d' ' -f1 "$work/skews.txt" | pct 99), most $(cut -d' ' -f1 "$work/skews.txt" | pct 100) ns; end after ftrace's: p50 $(cut -d' ' -f2 "$work/skews.txt" | pct 50), p99 $(cut -d' ' -f2 "$work/skews.txt" | pct 99), most $(cut -d' ' -f2 "$work/skews.txt" | pct 100) ns"
check "irqlatd's wake events (${en:-0}) number its wake count ($wakes) within 1%" within "${en:-0}" "$wakes"
check "each pairs with its own wake in ftrace but for 1% (unpaired ${unpaired:-?}, twice ${twice:-?})" \
	[ $(( (${unpaired:-1000} + ${twice:-1000}) * 100 )) -le "${en:-0}" ]
check "99% of the waits start and end 0 to 250 us after ftrace's (-20 us allowed): $good of ${en:-0}" \
	[ $((good * 100)) -ge $(( ${en:-1} * 99 )) ] && [ "${en:-0}" -gt 0 ]
# No wrong maximum. A stamp kept past the wake it was for (one that no switch-in or handler
# start took) pairs with a later run: that wait starts before ftrace's, which pairs the run
# with its own wake. irqlatd's probes run after ftrace's, so none may start earlier.
early=$(awk '$1 < -20000' "$work/skews.txt" 2>/dev/null | wc -l)
check "no wait starts before its pair in ftrace (-20 us allowed): $early of ${en:-0}" [ "$early" -eq 0 ]
# Then irqlatd's longest is no longer than ftrace's, but for how much later than ftrace's
# irqlatd's probe ran at a wait's end: the emulated vCPU can be away between the two probes
# of one switch (single-threaded TCG runs the vCPUs in turn while guest time goes on; seen:
# 3.6 ms), and then both tools measure that wait right with their own clock reading.
endmax=$(cut -d' ' -f2 "$work/skews.txt" | pct 100)
[ "${endmax:-0}" -gt 0 ] || endmax=0
tol_hi=$((fmax / 50 + 100000 + endmax))
if [ "$wmax" -le $((fmax + tol_hi)) ]; then
	ok "wake-to-run max ($wmax ns) within ftrace's longest ($fmax ns) + 2% + 100 us + the largest end skew ($endmax ns)"
else
	not_ok "wake-to-run max ($wmax ns) within ftrace's longest ($fmax ns) + 2% + 100 us + the largest end skew ($endmax ns)"
	# the longest of irqlatd's wait events, and ftrace's lines around it
	longest=$(jq -r --argjson irq "$serial" 'select(.type == "outlier" and .kind == "threaded" and .irq == $irq) | "\(.latency_ns) \(.ts_ns)"' \
		"$work/events.json" 2>/dev/null | sort -n | tail -n 1)
	diag "irqlatd's longest wait event: ${longest:-none} (LENGTH END_NS)"
	if [ -n "$longest" ]; then
		set -- $longest
		awk -v a="$(( ($2 - $1) / 1000 - 200 ))" -v b="$(( $2 / 1000 + 50 ))" '
			{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { split(substr($i, 1, length($i) - 1), p, "."); us = p[1] * 1000000 + ("1" p[2]) - 1000000; break } }
			us >= a && us <= b' "$work/trace" | head -n 60 | sed 's/^/#   /'
	fi
fi
check_ge "ftrace paired as many wakes as irqlatd counted, or more ($fn >= $wakes - 1%)" $((fn * 100)) $((wakes * 99))
# irqlatd's p50 is read from its histogram: in the bucket of its samples' median, which the
# pairs' skews keep near ftrace's (median_window in guest/lib.sh)
cut -d' ' -f1 "$work/ftrace.txt" >"$work/ftrace-lengths.txt"
read -r mlo mhi mp46 mp54 ms97 <<EOW
$(median_window "$work/ftrace-lengths.txt" "$work/skews.txt")
EOW
diag "ftrace's 46th to 54th percentile: $mp46 to $mp54 ns; 97% of the pairs differ by $ms97 ns or less"
check "wake-to-run median as ftrace's (p50 $w50 ns; ftrace's median $fmed ns, with the pairs' skews $mlo to $mhi ns)" \
	is_between "$w50" "$mlo" "$mhi"
echo 0 >"$T/events/irq/irq_handler_exit/filter"
echo 0 >"$T/events/sched/sched_switch/filter"
echo >"$T/set_ftrace_filter"
echo "${old_clock:-local}" >"$T/trace_clock"
echo >"$T/trace"
