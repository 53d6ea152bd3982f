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
check "period_ms reads back 100" [ "$(cat /sys/module/sillymod/parameters/period_ms)" = 100 ]
check "kthread silly-thread runs" thread_running
check "tracefs has events/silly/me_silly" [ -d "$event" ]
has_fields() { grep -q 'field:unsigned long time;' "$event/format" &&
	grep -q 'field:unsigned long count;' "$event/format"; }
check "me_silly has fields time and count" has_fields

# Trace for 2 s: about 20 events at 100 ms.
: >"$tracing/trace"
echo 1 >"$event/enable"
sleep 2
echo 0 >"$event/enable"
grep ' me_silly: ' "$tracing/trace" >"$work/events" || true
kernel_log_since_start >"$work/kernel.log"

sed -n 's/.* count=\([0-9][0-9]*\).*/\1/p' "$work/events" >"$work/trace-counts"
sed -n 's/.*hello! \([0-9][0-9]*\)$/\1/p' "$work/kernel.log" >"$work/hello-counts"
events=$(wc -l <"$work/events")
diag "ftrace counts: $(tr '\n' ' ' <"$work/trace-counts")"
diag "hello! counts: $(tr '\n' ' ' <"$work/hello-counts")"

check "me_silly fired at least 5 times in 2 s (fired $events)" [ "$events" -ge 5 ]

from_thread() { ! grep -qv '^ *silly-thread-[0-9]' "$work/events"; }
check "every me_silly event comes from silly-thread" from_thread

# Each event has a count one above the previous one: none lost, none repeated.
consecutive() {
	awk 'NR > 1 && $1 != prev + 1 { bad = 1 } { prev = $1 } END { exit bad }' "$work/trace-counts"
}
check "me_silly counts are consecutive" consecutive

time_increases() {
	sed -n 's/.* time=\([0-9][0-9]*\) .*/\1/p' "$work/events" |
		awk 'NR > 1 && $1 <= prev { bad = 1 } { prev = $1 } END { exit bad }'
}
check "me_silly time (jiffies) increases" time_increases

# Over the traced window, the module's own printk and ftrace must hold the
# same set of counts.
counts_match() {
	[ -s "$work/trace-counts" ] || return 1
	lo=$(sort -n "$work/trace-counts" | head -n 1)
	hi=$(sort -n "$work/trace-counts" | tail -n 1)
	awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 <= hi' "$work/hello-counts" |
		sort -n -u >"$work/hello-window"
	sort -n -u "$work/trace-counts" >"$work/trace-window"
	diff -U0 "$work/hello-window" "$work/trace-window" >"$work/window.diff"
}
if counts_match; then
	ok "hello! counts in dmesg equal me_silly counts in ftrace"
else
	not_ok "hello! counts in dmesg equal me_silly counts in ftrace"
	diag "diff of hello! (-) against ftrace (+) over the traced window:"
	diag_file "$work/window.diff" 40
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
	check "period_ms defaults to 1000" [ "$(cat /sys/module/sillymod/parameters/period_ms)" = 1000 ]
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
