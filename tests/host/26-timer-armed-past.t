#!/bin/bash
# Timers armed with an expiry already gone (bpf/timer.bpf.c, started_ns): sd-event arms "at
# once" as an absolute 1 ns, and a CLOCK_REALTIME timer may be set to a date past. The kernel
# runs such a timer as soon as it is armed, so neither its lateness nor the wait of the task
# it wakes may count from that expiry (a systemd guest read timerfd_tmrproc 603 s late: its
# uptime). tests/vm/helpers/timerfd-past.c arms a timerfd so, 200 times, while its reader
# thread sleeps in read(), and brackets each with its own clock, from just before the arming
# to just after the read returned: irqlatd's wake-ups of the reader must be counted, each
# within that span (a bucket's width over its longest), and timerfd_tmrproc's lateness under a
# second, with the defaults. (On Linux 6.18 here it passed before the change too; on Debian
# 12's 6.1 it did not: tests/vm/initramfs/71-timers-armed-past.sh is the same check there.)
. "$(dirname "$0")/../lib.sh"
plan 4

N=200
past_cleanup() {
	stop_daemon
	rm -rf "$TMP"
}
trap past_cleanup EXIT
mount_fs

cc -O2 -Wall -Wextra -pthread "$TOP/tests/vm/helpers/timerfd-past.c" -o "$TMP/timerfd-past" || { echo "Bail out! cannot build timerfd-past"; exit 1; }

start_daemon
"$TMP/timerfd-past" $N >"$TMP/past.txt" 2>&1
read -r _ TID _ ARMED _ SPAN <"$TMP/past.txt" || true
check_eq "the helper armed its timerfds $N times (its longest arm-to-read span: ${SPAN:-?} ns)" "${ARMED:-}" $N "armings"
sleep 2.2	# two ticks: the totals hold the last wake-up
irqlat --top --batch --iterations 1 --json --window total >"$TMP/snap.json"
W=$(jq -c --argjson p "$TID" '[.timers.wakeups[] | select(.pid == $p)] | {count: (map(.count) | add // 0), max: (map(.latency_max_ns) | max // 0)}' "$TMP/snap.json")
diag "irqlatd's wake-ups of the reader ($TID): $W; timerfd_tmrproc: $(jq -c '.timers.classes[] | select(.function == "timerfd_tmrproc") | del(.cpus)' "$TMP/snap.json")"
# each arming's callback wakes the sleeping reader (a wake that finds it still on its way
# into read() is no wait)
check_ge "irqlatd counted the reader's wake-ups by those timers (at least 90% of $N)" \
	$(($(jq .count <<<"$W") * 10)) $((N * 9)) "10 x irqlatd's count" "9 x the armings"
check "each of them no longer than the helper's longest span ($SPAN ns), within a bucket" \
	awk_holds 'a <= s * 1.0905077326652577' "a=$(jq .max <<<"$W")" "s=$SPAN"
LATE=$(jq '[.timers.classes[] | select(.function == "timerfd_tmrproc") | .lateness_max_ns] | max // 0' "$TMP/snap.json")
check_lt "timerfd_tmrproc's longest lateness is under a second ($LATE ns; uptime $(cut -d' ' -f1 /proc/uptime) s)" \
	"$LATE" 1000000000 "irqlatd's longest (ns)" "a second"
