#!/bin/sh
# vm-check-timeout: 150
# sillymod loaded 50 times in a row while irqlatd runs (period_ms=50, three periods each):
# irqlatd attaches at every load and streams its events, consecutive, none invented (how many
# loads from count 0 is printed, not tested: under emulation the kernel's part of an attach
# has a long tail that grows with the host's load, see docs/tracepoints.md; 35-module-load.sh
# tests count 0 on two loads); its open files do not grow from the 20th load to the 50th, its
# resident memory not beyond its subscriber's queue; after it stops, bpftool lists
# no BPF program or link that was not there before it started. Also the time from each
# module_load event to the attach, as the daemon logs it (a measurement, not a test).
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ]; then
	skip "50 loads of sillymod" "irqlatd/irqlat not built"
	exit 0
fi
work=/tmp/irqlatd-50
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
bpf_objects() { { bpftool prog show; bpftool link show; } 2>&1 | grep -E '^[0-9]+: ' | sort; }
echo "vmtest-40: start" >/dev/kmsg
start=$(date +%s)
bpf_objects >"$work/bpf-before"

QUEUE_KB=1024
# a small event ring (4 or 5 events a load), full long before the 20th load, and every task's
# wake-ups in its CPU's pooled series (--max-wakeup-cells 0): each load's sleep, insmod and
# irqlat are new tasks woken by hrtimers, whose series of their own stay a minute after they
# exit (exited-task-grace-s): their number, and the table that holds them, grow all test
# long (+1,524 KiB from the 20th load to the 50th in one run of several); task churn has its
# own checks (16-wakeup-cells.t, 64-metrics-churn.t). The subscriber below reads an outlier
# of every interrupt (thresholds 0) under emulation, and falls behind by up to its queue
# (--client-queue-kb, the default given here), whose memory the allocator may keep once it
# drains (+872 KiB in one run with the wake-ups pooled, 0 in another). What grows after the
# 20th load beyond that queue is a leak.
"$IRQLATD" --socket "$sock" --log-target stderr --verbose --interval-ms 200 --threshold-us 0 --softirq-threshold-us 0 --softirq-raise-threshold-us 0 --vector-threshold-us 0 --timer-threshold-us 0 --wakeup-threshold-us 0 --threaded-threshold-us 0 --threaded-run-threshold-us 0 --event-history 64 --max-wakeup-cells 0 --client-queue-kb "$QUEUE_KB" \
	--tracepoint silly:me_silly >"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
retry 10 up || { not_ok "irqlatd runs"; diag_file "$work/daemon.log"; exit 1; }
# from the ring what came before it subscribed (its start takes a few hundred ms here), then
# the stream: nothing in between is lost
irqlat events --follow --json --since "@$start" >"$work/events.json" 2>&1 &
sub=$!

usage() { echo "$(ls /proc/"$daemon"/fd | wc -l) $(awk '/^VmRSS:/ { print $2 }' /proc/"$daemon"/status)"; }
hellos() { dmesg | sed -n "/vmtest-40: load $1\$/,\$p" | grep -c 'hello! '; }
t0=$(uptime_cs)
failed=0
for i in $(seq 50); do
	echo "vmtest-40: load $i" >/dev/kmsg
	insmod "$SILLYMOD_KO" period_ms=50
	sleep 0.2	# no polling process competing with the daemon's attach (lib.sh, insmod_and_wait)
	three() { [ "$(hellos "$i")" -ge 3 ] && tp_state_is attached; }
	retry 5 three || { failed=$((failed + 1)); diag "load $i: not attached with 3 hellos: $(tp_summary)"; }
	irqlat detach silly:me_silly >/dev/null
	rmmod sillymod
	[ "$i" = 20 ] && at20=$(usage)
done
at50=$(usage)
diag "50 loads in $(( ($(uptime_cs) - t0) / 100 )) s; fds and RSS (KiB) after the 20th: $at20, after the 50th: $at50"
check_eq "attached with 3 hellos seen at each of the 50 loads ($failed not)" "$failed" 0
sleep 0.3
kill "$sub" 2>/dev/null || true
dmesg | sed -n '/vmtest-40: start/,$p' | hello_loads >"$work/hello"
tp_loads <"$work/events.json" >"$work/ours"
loads_seen=$(awk '{ print $1 }' "$work/ours" | sort -un | wc -l)
from0=$(awk '$1 != l { l = $1; if ($2 == 0) n++ } END { print n + 0 }' "$work/ours")
if same_loads "$work/ours" "$work/hello" any >"$work/diff"; then
	ok "events from each of the 50 loads ($loads_seen; $from0 from count 0), consecutive, each once, none invented"
else
	not_ok "events from each of the 50 loads ($loads_seen; $from0 from count 0), consecutive, each once, none invented"
	diag_file "$work/diff"
	diag "irqlatd: $(tr '\n' ';' <"$work/ours")"
fi
set -- $at20 $at50
check_le "no fd more after the 50th load than after the 20th ($1, $3)" "$3" "$1"
# RSS: a page or two of allocator slack and the subscriber's queue, not a page per load
check_le "RSS after the 50th load within 64 KiB and the subscriber's queue ($QUEUE_KB KiB) of the 20th's ($2 KiB, $4 KiB)" "$4" $(( $2 + 64 + QUEUE_KB ))

sed -n 's/.*attached in [0-9]* ms, \([0-9]*\) ms after module sillymod.s load event/\1/p' "$work/daemon.log" | sort -n >"$work/lat"
[ -s "$work/lat" ] && diag "module_load event to attached, ms, over $(wc -l <"$work/lat") loads: min $(head -n 1 "$work/lat"), median $(sed -n "$(( ($(wc -l <"$work/lat") + 1) / 2 ))p" "$work/lat"), max $(tail -n 1 "$work/lat")"
kill -TERM "$daemon"
rc=0; wait "$daemon" || rc=$?
check_eq "irqlatd stops cleanly (status 0)" "$rc" 0
bpf_objects >"$work/bpf-after"
if diff "$work/bpf-before" "$work/bpf-after" >"$work/bpf.diff"; then
	ok "after irqlatd stops, bpftool prog show and link show list what they listed before it started ($(wc -l <"$work/bpf-after") entries)"
else
	not_ok "after irqlatd stops, bpftool prog show and link show list what they listed before it started"
	diag_file "$work/bpf.diff"
fi
