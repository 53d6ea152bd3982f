#!/bin/sh
# irqlatd consumes sillymod's silly:me_silly: started before the module, it attaches when
# the module appears; the counts it reports are the module's own (its "hello! N" lines in
# the kernel log) and ftrace's, none missing; rmmod works after "irqlat detach"; a second
# insmod is picked up again; SIGUSR1 detaches too. No jq in this guest: sed on the JSON lines
# (json-c prints them plain, one object per line).
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ]; then
	skip "irqlatd consumes silly:me_silly" "irqlatd/irqlat not built"
	exit 0
fi
tracing=/sys/kernel/tracing
event=$tracing/events/silly/me_silly
work=/tmp/irqlatd-tp
sock=$work/irqlatd.sock
mkdir -p "$work"
echo "vmtest: 20-irqlatd-tracepoints start" >/dev/kmsg
kernel_log_since_start() { dmesg | sed -n '/vmtest: 20-irqlatd-tracepoints start/,$p'; }
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }

"$IRQLATD" --socket "$sock" --log-target stderr --verbose --interval-ms 200 --threshold-us 0 --softirq-threshold-us 0 --softirq-raise-threshold-us 0 --vector-threshold-us 0 --timer-threshold-us 0 --wakeup-threshold-us 0 --threaded-threshold-us 0 --threaded-run-threshold-us 0 \
	--tracepoint silly:me_silly --tracepoint-period silly:me_silly=100ms >"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
if retry 10 up; then ok "irqlatd starts before the module is loaded"; else
	not_ok "irqlatd starts before the module is loaded"; diag_file "$work/daemon.log"; exit 1; fi
check_grep "irqlatd says it waits for silly:me_silly" 'waiting for tracepoint silly:me_silly' "$work/daemon.log"
check "summary shows silly:me_silly waiting" tp_state_is waiting

irqlat events --follow --json >"$work/events.json" 2>&1 &
sub_json=$!
irqlat events --follow >"$work/events.txt" 2>&1 &
sub_text=$!
sleep 0.5

daemon_log() { diag_file "$work/daemon.log"; }
insmod_and_wait 5 "irqlatd attaches after insmod" daemon_log
if [ "${VM_MODULE_BTF:-0}" = 1 ]; then
	check "tp_btf, argument names from the module's BTF" \
		grep -q 'silly:me_silly (tp_btf): 2 arguments from BTF (module sillymod): time, count' "$work/daemon.log"
else
	check "raw_tp, argument names from the tracefs format" \
		grep -q 'silly:me_silly (raw_tp): 2 arguments from tracefs format: time, count' "$work/daemon.log"
fi

# ftrace's record of the same events, for a part of irqlatd's window
: >"$tracing/trace"
echo 1 >"$event/enable"
sleep 2
echo 0 >"$event/enable"
grep ' me_silly: ' "$tracing/trace" >"$work/ftrace" || true
sleep 0.5

# busybox says "Resource temporarily unavailable" (EWOULDBLOCK: references held), kmod "in use"
in_use() { ! rmmod sillymod 2>"$work/rmmod.err" && [ -e /sys/module/sillymod ]; }
check "while attached, rmmod fails: module in use" in_use
diag "rmmod said: $(cat "$work/rmmod.err")"
check "irqlat detach silly:me_silly" irqlat detach silly:me_silly
check "rmmod works after the detach" rmmod sillymod
sleep 0.3
kill "$sub_json" "$sub_text" 2>/dev/null || true
kernel_log_since_start >"$work/kernel.log"

grep '"tracepoint":"silly:me_silly"' "$work/events.json" | sed -n 's/.*"count":\([0-9]*\).*/\1/p' >"$work/ours"
sed -n 's/.*hello! \([0-9][0-9]*\)$/\1/p' "$work/kernel.log" >"$work/hello"
sed -n 's/.* count=\([0-9][0-9]*\).*/\1/p' "$work/ftrace" >"$work/theirs"
n=$(wc -l <"$work/ours")
diag "irqlatd counts: $(tr '\n' ' ' <"$work/ours")"
diag "hello! counts: $(tr '\n' ' ' <"$work/hello")"
diag "ftrace counts: $(tr '\n' ' ' <"$work/theirs")"
check_ge "irqlatd reported at least 15 me_silly events ($n)" "$n" 15
# from irqlatd's first count to its last, the module printed exactly these counts
same_as() {	# same_as REFERENCE: over ours' range, REFERENCE holds the same counts
	[ -s "$work/ours" ] || return 1
	lo=$(head -n 1 "$work/ours"); hi=$(tail -n 1 "$work/ours")
	awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 <= hi' "$1" >"$work/ref-window"
	diff -U0 "$work/ref-window" "$work/ours" >"$work/diff"
}
if same_as "$work/hello"; then ok "irqlatd's counts equal the module's hello! N lines (none missing)"; else
	not_ok "irqlatd's counts equal the module's hello! N lines (none missing)"; diag_file "$work/diff"; fi
# ftrace traced a 2 s part of irqlatd's window: every count in it is in irqlatd's list
ftrace_within() {
	[ -s "$work/theirs" ] || return 1
	lo=$(head -n 1 "$work/theirs"); hi=$(tail -n 1 "$work/theirs")
	awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 <= hi' "$work/ours" >"$work/ours-window"
	diff -U0 "$work/theirs" "$work/ours-window" >"$work/diff2"
}
if ftrace_within; then ok "irqlatd's counts equal ftrace's me_silly lines over ftrace's window"; else
	not_ok "irqlatd's counts equal ftrace's me_silly lines over ftrace's window"; diag_file "$work/diff2"; fi
line_format() {	# "    silly-thread-57    [001]   12.345678: me_silly: time=4294... count=3"
	grep -qE '^ *silly-thread-[0-9]+ +\[[0-9]{3}\] +[0-9]+\.[0-9]{6}: me_silly: time=[0-9]+ count=[0-9]+$' "$work/events.txt"
}
check "irqlat events --follow prints ftrace's line format" line_format
diag "$(grep -m 2 me_silly "$work/events.txt" || true)"

check "after rmmod irqlatd waits for the tracepoint again" retry 3 tp_state_is waiting
sum=$(tp_summary)
diag "summary: $sum"
# after rmmod, the detached tracepoint is gone: irqlatd waits for it again
check_eq "summary: no gaps, none missed" "$(echo "$sum" | json_field gaps) $(echo "$sum" | json_field missed)" "0 0"
check_grep "irqlatd logged that the tracepoint is gone" 'tracepoint silly:me_silly is gone' "$work/daemon.log"
check_ge "summary: events >= the ones streamed" "$(echo "$sum" | json_field events)" "$n"
lateness_ordered() {
	p50=$(echo "$sum" | json_field lateness_p50_ns); p99=$(echo "$sum" | json_field lateness_p99_ns)
	max=$(echo "$sum" | json_field lateness_max_ns)
	[ "$(echo "$sum" | json_field intervals)" -ge 10 ] && [ "$p50" -le "$p99" ] && [ "$p99" -le "$max" ] &&
		[ "$(echo "$sum" | json_field period_ns)" = 100000000 ]
}
check "summary: lateness against the 100 ms period, p50 <= p99 <= max" lateness_ordered

# a second load is picked up again, and its count starting over is not a gap
insmod "$SILLYMOD_KO" period_ms=100
reattached() { tp_state_is attached && [ "$(tp_field attaches)" = 2 ]; }
check "a second insmod is attached again" retry 5 reattached
sleep 1.5
counting() { [ "$(tp_field events)" -gt "$(echo "$sum" | json_field events)" ] && [ "$(tp_field gaps)" = 0 ]; }
check "events counted again after the reload, no gap counted" counting
check "top JSON has the tracepoints section" sh -c "'$IRQLAT' --socket '$sock' --top --batch -n 1 --json | grep -q '\"tracepoints\":\[{\"tracepoint\":\"silly:me_silly\"'"
kill -USR1 "$daemon"
check "SIGUSR1 detaches" retry 3 tp_state_is detached
check "rmmod works after SIGUSR1" rmmod sillymod
# the same module name with a three-argument me_silly (built by mk/check-vm.mk, without BTF):
# irqlatd must re-read the arity, here from the tracefs format, and read the third argument
# VM_EXTRA_FILES (mk/check-vm.mk) puts it here
arity_ko=/vmtest/extra/sillymod-arity/sillymod.ko
[ -f "$arity_ko" ] || arity_ko=
if [ -n "$arity_ko" ] && retry 3 tp_state_is waiting; then
	: >"$work/events3.json"
	irqlat events --follow --json >"$work/events3.json" 2>&1 &
	sub3=$!
	insmod "$arity_ko" period_ms=100
	three() { tp_state_is attached && [ "$(tp_field attaches)" = 3 ]; }
	check "the three-argument sillymod is attached" retry 5 three
	check "its arity re-read: 3 arguments from the tracefs format" \
		grep -q 'silly:me_silly (raw_tp): 3 arguments from tracefs format: time, count, twice' "$work/daemon.log"
	sleep 1.5
	irqlat detach silly:me_silly >/dev/null
	kill "$sub3" 2>/dev/null || true
	rmmod sillymod
	grep '"tracepoint":"silly:me_silly"' "$work/events3.json" |
		sed -n 's/.*"count":\([0-9]*\),"twice":\([0-9]*\).*/\1 \2/p' >"$work/twice"
	diag "count twice: $(tr '\n' ';' <"$work/twice")"
	twice_right() { [ -s "$work/twice" ] && awk '$2 != 2 * $1 { bad = 1 } END { exit bad }' "$work/twice"; }
	check "third argument read right: twice = 2 x count in every event" twice_right
else
	not_ok "the three-argument sillymod: its .ko is not in the guest (VM_EXTRA_FILES, mk/check-vm.mk) or silly:me_silly did not go back to waiting"
fi

kill -TERM "$daemon"
rc=0; wait "$daemon" || rc=$?
check_eq "irqlatd stops cleanly (status 0)" "$rc" 0
diag "$(grep 'tracepoint silly:me_silly: ' "$work/daemon.log" | tr '\n' ';')"
if ! grep -q 'attached to tracepoint silly:me_silly' "$work/daemon.log"; then diag_file "$work/daemon.log" 30; fi
