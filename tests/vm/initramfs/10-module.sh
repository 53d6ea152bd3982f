#!/bin/sh
# sillymod in Debian's kernel: it loads with a period, its silly:me_silly event
# shows in tracefs, the counts ftrace records are exactly the ones the module
# printed, its BTF appears when it was built with it, and it unloads and loads
# again cleanly.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

tracing=/sys/kernel/tracing
event=$tracing/events/silly/me_silly
work=/tmp/module-check
mkdir -p "$work"

# Only kernel log lines after this marker belong to this check.
echo "vmtest: 10-module start" >/dev/kmsg
kernel_log_since_start() { dmesg | sed -n '/vmtest: 10-module start/,$p'; }

thread_running() { grep -qsx silly-thread /proc/[0-9]*/comm; }
module_gone() {
	[ ! -e /sys/module/sillymod ] && [ ! -e "$event" ] && ! thread_running
}

if insmod "$SILLYMOD_KO" period_ms=100; then
	ok "insmod sillymod.ko period_ms=100"
else
	not_ok "insmod sillymod.ko period_ms=100"
	kernel_log_since_start | diag_file /dev/stdin
	exit 1	# everything below needs the module
fi

listed() { lsmod | grep -q '^sillymod '; }
check "lsmod lists sillymod" listed
check_eq "period_ms reads back 100" "$(cat /sys/module/sillymod/parameters/period_ms)" 100
check "kthread silly-thread runs" thread_running
check "tracefs has events/silly/me_silly" [ -d "$event" ]
has_fields() { grep -q 'field:unsigned long time;' "$event/format" &&
	grep -q 'field:unsigned long count;' "$event/format"; }
check "me_silly has fields time and count" has_fields

# Trace for 2 s: about 20 events at 100 ms.  The markers in the kernel log
# bound the hellos whose tracepoint call certainly fell while the event was on.
: >"$tracing/trace"
echo 1 >"$event/enable"
echo "vmtest: me_silly on" >/dev/kmsg
sleep 2
echo "vmtest: me_silly off" >/dev/kmsg
echo 0 >"$event/enable"
grep ' me_silly: ' "$tracing/trace" >"$work/events" || true
kernel_log_since_start >"$work/kernel.log"

# "count time" in count order: the buffer is per CPU, and the merge of the
# CPUs' buffers by timestamp is only as good as the trace clock.
sed -n 's/.* time=\([0-9][0-9]*\) count=\([0-9][0-9]*\).*/\2 \1/p' "$work/events" |
	sort -n >"$work/count-time"
cut -d' ' -f1 "$work/count-time" >"$work/trace-counts"
sed -n '/vmtest: me_silly on/,/vmtest: me_silly off/s/.*hello! \([0-9][0-9]*\)$/\1/p' \
	"$work/kernel.log" >"$work/hello-counts"
events=$(wc -l <"$work/events")
diag "ftrace counts: $(tr '\n' ' ' <"$work/trace-counts")"
diag "hello! counts while on: $(tr '\n' ' ' <"$work/hello-counts")"

check_ge "me_silly fired at least 5 times in 2 s (fired $events)" "$events" 5

from_thread() { ! grep -qv '^ *silly-thread-[0-9]' "$work/events"; }
check "every me_silly event comes from silly-thread" from_thread

# Each count one above the one before: none lost, none repeated.
consecutive() {
	awk 'NR > 1 && $1 != prev + 1 { bad = 1 } { prev = $1 } END { exit bad }' "$work/trace-counts"
}
check "me_silly counts are consecutive" consecutive

# jiffies at each event, taken a period apart, rise with the count.
time_increases() {
	awk 'NR > 1 && $2 <= prev { bad = 1 } { prev = $2 } END { exit bad }' "$work/count-time"
}
check "me_silly time (jiffies) increases with count" time_increases

# The module's own printk and ftrace must hold the same counts while the
# event was on.  The markers and the enable switch are not one atomic step,
# so at each edge one iteration may fall either way: the last hello before
# "off" may miss its event, and the iterations just before "on" and just
# after "off" may have one.  Nothing else may differ.
counts_match() {
	awk 'FILENAME == ARGV[1] { hello[$1] = 1; if (FNR == 1) lo = $1; hi = $1; next }
	     { traced[$1] = 1 }
	     !($1 in hello) && $1 != lo - 1 && $1 != hi + 1 { print "in ftrace only: " $1; bad = 1 }
	     END {
		if (lo == "") { print "no hello! while the event was on"; exit 1 }
		for (c in hello) if (!(c in traced) && c != hi) { print "in dmesg only: " c; bad = 1 }
		exit bad
	     }' "$work/hello-counts" "$work/trace-counts" >"$work/mismatch"
}
if counts_match; then
	ok "hello! counts in dmesg equal me_silly counts in ftrace"
else
	not_ok "hello! counts in dmesg equal me_silly counts in ftrace"
	diag_file "$work/mismatch" 40
fi

if [ "${VM_MODULE_BTF:-0}" = 1 ]; then
	check "/sys/kernel/btf/sillymod exists" [ -e /sys/kernel/btf/sillymod ]
	btf_describes_event() {
		bpftool btf dump file /sys/kernel/btf/sillymod | grep -q "'trace_event_raw_me_silly'"
	}
	check "module BTF describes trace_event_raw_me_silly" btf_describes_event
else
	skip "/sys/kernel/btf/sillymod exists" "module built without BTF (MODULE_BTF=0)"
fi

check "rmmod sillymod" rmmod sillymod
check "module, event and thread are gone after rmmod" retry 2 module_gone

# A second load: the default period, and a clean unload again.
if insmod "$SILLYMOD_KO"; then
	ok "insmod sillymod.ko a second time"
	check_eq "period_ms defaults to 1000" "$(cat /sys/module/sillymod/parameters/period_ms)" 1000
	check "tracefs has events/silly/me_silly again" [ -d "$event" ]
	check "rmmod sillymod a second time" rmmod sillymod
	check "module is gone after the second rmmod" retry 2 module_gone
else
	not_ok "insmod sillymod.ko a second time"
fi

refused() { ! insmod "$SILLYMOD_KO" period_ms=0 2>/dev/null && [ ! -e /sys/module/sillymod ]; }
check "insmod period_ms=0 is refused" refused

kernel_log_since_start >"$work/kernel.log"
no_kernel_complaint() { ! grep -Eq 'BUG|WARNING|Oops|Call Trace|general protection' "$work/kernel.log"; }
if no_kernel_complaint; then
	ok "no kernel BUG/WARNING/Oops during the module check"
else
	not_ok "no kernel BUG/WARNING/Oops during the module check"
	diag_file "$work/kernel.log" 40
fi
