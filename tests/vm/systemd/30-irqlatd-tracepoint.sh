#!/bin/sh
# vm-check-timeout: 300
# irqlatd.service consumes sillymod's silly:me_silly under the hardened unit (uid 0 with only
# CAP_BPF, CAP_PERFMON and CAP_SYSLOG, tracefs mounted by systemd at boot): started before the module, it
# attaches after `insmod`; the counts it streams (irqlat events) and journals (TRACEPOINT=,
# ARG_COUNT=) are the module's own "hello! N" kernel-log lines; `irqlat detach` lets `rmmod`
# unload the module while the service runs; `systemctl stop` is clean. Runs after
# 21-irqlatd-reload.sh, which leaves the service stopped. No jq in this guest: sed on the JSON
# (json-c prints it plain).
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if ! systemctl cat irqlatd.service >/dev/null 2>&1; then
	skip "irqlatd.service consumes silly:me_silly" "not installed (see 10-package-install.sh)"
	exit 0
fi
work=/tmp/irqlatd-svc-tp
mkdir -p "$work"
rm -f /etc/irqlatd/irqlatd.conf	# the built-in defaults: silly:me_silly
systemctl reset-failed irqlatd 2>/dev/null || true
kmsg_mark() { echo "vmtest-30: $1" >/dev/kmsg; }

check_grep "tracefs is mounted at boot (sys-kernel-tracing.mount)" ' /sys/kernel/tracing tracefs ' /proc/self/mounts
check "systemctl start irqlatd succeeds" systemctl start irqlatd
pid=$(systemctl show -p MainPID --value irqlatd)
diag "MainPID $pid, uid $(awk '/^Uid/ { print $3 }' "/proc/$pid/status"), CapEff $(awk '/^CapEff/ { print $2 }' "/proc/$pid/status")"
why_not() { diag "$(tp_summary)"; journalctl -q -u irqlatd --no-pager -o cat | tail -n 5 | sed 's/^/#   /'; }
if retry 5 tp_state_is waiting; then ok "silly:me_silly is waiting before insmod (tracefs readable)"; else
	not_ok "silly:me_silly is waiting before insmod (tracefs readable)"; why_not; fi

irqlat events --follow --json >"$work/events.json" 2>&1 &
sub=$!
sleep 0.3
kmsg_mark start
insmod_and_wait 10 "irqlatd (the service) attaches to silly:me_silly after insmod" why_not
kmsg_mark attached
# raw_tp either way: the unit's CAP_BPF and CAP_PERFMON do not open the module's kernel BTF
# object (BPF_BTF_GET_FD_BY_ID wants CAP_SYS_ADMIN), which a tp_btf program is loaded against
if [ "${VM_MODULE_BTF:-0}" = 1 ]; then src='BTF (module sillymod)'; else src='tracefs format'; fi
style=raw_tp
# journald reads its socket on its own time: waited for, not read once
names_logged() { journalctl -q -u irqlatd -o cat | grep -qF "silly:me_silly ($style): 2 arguments from $src: time, count"; }
check "$style, argument names from $src: time, count" retry 5 names_logged
e0=$(tp_field events)
sleep 2.5
counting() { [ "$(tp_field events)" -ge $(( ${e0:-0} + 10 )) ] && [ "$(tp_field gaps)" = 0 ]; }
check "counting events (>= 10 more in 2.5 s at 100 ms), no gaps" counting
diag "summary: $(tp_summary)"

in_use() { ! rmmod sillymod 2>"$work/rmmod.err" && [ -e /sys/module/sillymod ]; }
check "while attached, rmmod fails (in use)" in_use
diag "rmmod said: $(cat "$work/rmmod.err")"
check "irqlat status names the module held and the way out" \
	sh -c "irqlat status | grep -qF 'silly:me_silly attached ($style, arguments from $src' && irqlat status | grep -qF \"holding module sillymod: 'irqlat detach silly:me_silly' before rmmod\""
MID_HELD=8d71a7ee567240d8baf7e365b637c7cc
held_entries() { journalctl --sync; journalctl -q -u irqlatd MESSAGE_ID=$MID_HELD -o export | grep -c '^MODULE=sillymod$' || true; }
# kmod's rmmod reads /sys/module/sillymod/refcnt and stops without asking the kernel: nothing
# for irqlatd to see. delete_module(2) itself (perl's syscall, 176 on x86-64, O_NONBLOCK) is
# refused with EWOULDBLOCK, and irqlatd journals that once.
check_eq "kmod's rmmod asks no kernel: no 'could not unload' entry" "$(held_entries)" 0
unload_syscall() { perl -e 'my $name = "sillymod"; exit(syscall(176, $name, 2048) == -1 && $! + 0 == 11 ? 0 : 1)'; }
check "delete_module(2) refused: EWOULDBLOCK" unload_syscall
unload_syscall || true
logged_once() { is_eq "$(held_entries)" 1 "entries"; }
check "irqlatd journals the refused unload once (of two): MODULE=sillymod, TRACEPOINT=silly:me_silly" retry 5 logged_once
journalctl -q -u irqlatd MESSAGE_ID=$MID_HELD -o cat | sed 's/^/#   /'
detach() { irqlat detach silly:me_silly >"$work/detach.out" 2>&1; }
# the mark goes before the request: a line printed after it may race the detach (and under
# emulation several can, before a mark written after the detach would land)
kmsg_mark detached
if detach; then ok "irqlat detach silly:me_silly (as root) succeeds"; else
	not_ok "irqlat detach silly:me_silly (as root) succeeds"; fi
diag "irqlat detach said: $(cat "$work/detach.out")"
check "rmmod sillymod works while the service runs" rmmod sillymod
check_eq "the service is still active" "$(systemctl is-active irqlatd)" active
# the stream follows the ring buffer as the daemon reads it, which is behind when outliers
# flood it (an emulated CPU's every tick late): the subscriber stops once it has the last count
# the references below ask of it, 10 s at most, not after a fixed time
last=$(dmesg | sed -n '/vmtest-30: attached/,/vmtest-30: detached/s/.*hello! \([0-9][0-9]*\)$/\1/p' | sed '$d' | tail -n 1)
caught_up() { grep -q "\"count\":$last[,}]" "$work/events.json"; }
[ -z "$last" ] || retry 10 caught_up || diag "the stream did not reach count $last in 10 s"
kill "$sub" 2>/dev/null || true

# The references: the module's own "hello! N" lines. Every N printed after irqlatd showed
# the attach and before the detach request (less the last, whose trace call may have raced
# the detach: the module prints, then traces) must be in
# irqlatd's list, and from irqlatd's first count to its last the module printed exactly those.
dmesg | sed -n '/vmtest-30: start/,$p' >"$work/kernel.log"
sed -n 's/.*hello! \([0-9][0-9]*\)$/\1/p' "$work/kernel.log" >"$work/hello"
sed -n '/vmtest-30: attached/,/vmtest-30: detached/s/.*hello! \([0-9][0-9]*\)$/\1/p' "$work/kernel.log" |
	sed '$d' >"$work/hello-attached"
grep '"tracepoint":"silly:me_silly"' "$work/events.json" | sed -n 's/.*"count":\([0-9]*\).*/\1/p' >"$work/events"
journalctl --sync
MID_TP=700d107311d14408a01c540cd110166f	# the event entries; attach and detach entries have TRACEPOINT= too
journalctl -q -u irqlatd TRACEPOINT=silly:me_silly MESSAGE_ID=$MID_TP -o export >"$work/journal.export"
sed -n 's/^ARG_COUNT=//p' "$work/journal.export" >"$work/journal"
diag "hello! counts: $(tr '\n' ' ' <"$work/hello")"
diag "irqlat events counts: $(tr '\n' ' ' <"$work/events")"
diag "journal ARG_COUNT: $(tr '\n' ' ' <"$work/journal")"
matches_hello() {	# matches_hello LIST
	[ "$(wc -l <"$work/hello-attached")" -ge 15 ] || { diag "only $(wc -l <"$work/hello-attached") hello! lines while attached"; return 1; }
	lo=$(head -n 1 "$1"); hi=$(tail -n 1 "$1")
	[ -n "$lo" ] || { diag "$1 is empty"; return 1; }
	awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 <= hi' "$work/hello" >"$1.ref"
	diff -U0 "$1.ref" "$1" >"$1.diff" || { diag "hello! lines vs $1:"; diag_file "$1.diff"; return 1; }
	# every hello! while attached is in the list
	sort "$1" >"$1.sorted"
	missing=$(sort "$work/hello-attached" | comm -23 - "$1.sorted" | tr '\n' ' ')
	[ -z "$missing" ] || { diag "hello! N while attached, not in $1: $missing"; return 1; }
}
# (what the ring buffer refused, to tell a lost event from one never sent)
diag "the daemon's drops: $(irqlat status -J | tr -d "\n" | sed -n 's/.*"drops": *\({[^}]*}\).*/\1/p')"
# The stream to a subscriber is lossy by design: one that reads slower than the daemon sends
# (here the emulated guest's irqlat under a flood of outliers, thousands a second) has lines
# dropped past its queue, and is told how many in a {"lost":N} line (irqlatd(8), LIMITS); the
# journal, below, has every event. So: each of the module's counts is in the stream but for
# as many as the stream said it lost, and no count in it is not the module's, nor twice.
stream_holds() {
	matches_hello "$work/events" && return 0
	lost=$(sed -n 's/^{"lost":\([0-9]*\)}$/\1/p' "$work/events.json" | awk '{ n += $1 } END { print n + 0 }')
	sort -u "$work/hello" >"$work/hello.sorted"
	sort -u "$work/events" >"$work/events.sorted"
	extra=$(comm -13 "$work/hello.sorted" "$work/events.sorted" | wc -l)
	twice=$(sort "$work/events" | uniq -d | wc -l)
	missed=$(sort -u "$work/hello-attached" | comm -23 - "$work/events.sorted" | wc -l)
	diag "the stream said it lost $lost lines (outliers among them); the module's counts missing from it: $missed, in it but not the module's: $extra, twice: $twice"
	[ "$extra" -eq 0 ] && [ "$twice" -eq 0 ] && [ "$missed" -le "$lost" ]
}
check "irqlat events --json counts equal the module's hello! N lines (none missing but as many as the stream said it lost)" stream_holds
check "journalctl -u irqlatd TRACEPOINT=silly:me_silly ARG_COUNT values equal the hello! N lines" matches_hello "$work/journal"
jfields() {
	entry=$(journalctl -q -u irqlatd TRACEPOINT=silly:me_silly MESSAGE_ID=$MID_TP -o export -n 1)
	for f in PRIORITY=7 TRACEPOINT=silly:me_silly; do
		printf '%s\n' "$entry" | grep -qx "$f" || { diag "no $f"; return 1; }
	done
	for f in ARG_TIME ARG_COUNT CPU PID COMM EVENT_TS_NS; do
		printf '%s\n' "$entry" | grep -qE "^$f=[^ ]" || { diag "no $f"; return 1; }
	done
	printf '%s\n' "$entry" | grep -qx 'COMM=silly-thread'
}
check "an event entry (MESSAGE_ID $MID_TP) has PRIORITY=7 (debug), ARG_TIME, ARG_COUNT, COMM=silly-thread" jfields
journalctl -q -u irqlatd TRACEPOINT=silly:me_silly MESSAGE_ID=$MID_TP -o cat -n 1 | sed 's/^/#   /'

# gone after rmmod: waiting again, with the service still running
check "after rmmod the service waits for silly:me_silly again" retry 5 tp_state_is waiting
check "systemctl stop irqlatd succeeds" systemctl stop irqlatd
stopped() { [ "$(systemctl is-active irqlatd || true)" = inactive ] && [ "$(systemctl show -p ExecMainStatus --value irqlatd)" = 0 ]; }
check "inactive after stop, main process exited 0" stopped
