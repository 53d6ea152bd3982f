#!/bin/sh
# vm-check-timeout: 90
# Timers armed with an expiry already gone (bpf/timer.bpf.c, started_ns), on Debian 12's 6.1
# (the plain guest and the PREEMPT_RT one), whose hrtimers keep such an expiry: sd-event arms
# "at once" as an absolute 1 ns, and a systemd guest read timerfd_tmrproc 603 s late, its
# uptime. timerfd-past (tests/vm/helpers) arms a timerfd so, 200 times, while its reader
# thread sleeps in read(), and brackets each with its own clock, from just before the arming
# to just after the read returned: irqlatd, with its defaults, must count the reader's
# wake-ups, each within that span (a bucket's width over its longest), and timerfd_tmrproc's
# lateness must stay under a second. tests/host/26-timer-armed-past.t is the host's.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

for tool in "$IRQLATD" "$IRQLAT" jq timerfd-past; do
	if ! command -v "$tool" >/dev/null; then
		skip "timers armed with a time past" "$tool missing in the guest"
		exit 0
	fi
done
N=200
work=/tmp/irqlatd-armed-past
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
"$IRQLATD" --socket "$sock" --log-target stderr >"$work/daemon.log" 2>&1 &
daemon=$!
trap 'kill $daemon 2>/dev/null || true; wait 2>/dev/null || true' EXIT
up() { irqlat status >/dev/null 2>&1; }
if ! retry 30 up; then
	not_ok "irqlatd starts"; diag_file "$work/daemon.log"; exit 0
fi

timerfd-past $N >"$work/past.txt" 2>&1 || true
read -r _ tid _ armed _ span <"$work/past.txt" || true
check_eq "timerfd-past armed its timerfds $N times (its longest arm-to-read span: ${span:-?} ns)" "${armed:-}" $N "armings"
[ "${armed:-}" = $N ] || { diag_file "$work/past.txt"; exit 0; }
sleep 2.2	# two ticks: the totals hold the last wake-up
irqlat --top --batch --iterations 1 --json --window total >"$work/snap.json"
count=$(jq --argjson p "$tid" '[.timers.wakeups[] | select(.pid == $p) | .count] | add // 0' "$work/snap.json")
max=$(jq --argjson p "$tid" '[.timers.wakeups[] | select(.pid == $p) | .latency_max_ns] | max // 0' "$work/snap.json")
late=$(jq '[.timers.classes[] | select(.function == "timerfd_tmrproc") | .lateness_max_ns] | max // 0' "$work/snap.json")
diag "irqlatd's wake-ups of the reader ($tid): $count, the longest $max ns; timerfd_tmrproc: $(jq -c '.timers.classes[] | select(.function == "timerfd_tmrproc") | del(.cpus)' "$work/snap.json")"
# each arming's callback wakes the sleeping reader (a wake that finds it still on its way into
# read() is no wait)
check_ge "irqlatd counted the reader's wake-ups by those timers (at least 90% of $N)" \
	$((count * 10)) $((N * 9)) "10 x irqlatd's count" "9 x the armings"
check "each no longer than timerfd-past's longest span ($span ns), within a bucket ($max ns)" \
	awk -v a="$max" -v s="$span" 'BEGIN { exit !(a <= s * 1.0905077326652577) }'
check_lt "timerfd_tmrproc's longest lateness is under a second ($late ns; uptime $(cut -d' ' -f1 /proc/uptime) s)" \
	"$late" 1000000000 "irqlatd's longest (ns)" "a second"
