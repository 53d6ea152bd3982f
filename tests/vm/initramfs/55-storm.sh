#!/bin/sh
# vm-check-timeout: 120
# A storm on a handler silent since the daemon started (docs/storms.md, irqlat(1) STORMS).
# run-initramfs gives this guest a second serial port, ttyS1 on IRQ 3, that nothing opens
# before this check: its handler is registered at the first open. irqlatd starts and runs
# 3 s; then a writer floods ttyS1 (QEMU's UART, writing to nothing, takes 16 bytes per
# transmit interrupt without waiting for the baud rate). /proc/interrupts, the reference, must
# show IRQ 3 silent before and at least 1000 a second (the rule's floor) during the burst; then,
# once the burst lasted the rule's 20 s (STORM_SUSTAIN_S), irqlatd must log a rate storm on it
# (from a baseline of 0: "up from none") and its summary must flag it. The daemon learns of a
# handler when it first runs, and it took that first interval as the handler's normal, so
# such a burst was its normal and never flagged (what a clean-clone run of
# tests/host/52-storm.t met when the host's disk had been silent through its idle window).
# The daemon runs with the defaults (1 s intervals, every kind on). The summary may show it as
# an unhandled storm: under emulation the serial handler returns IRQ_NONE for about half its
# runs, and that kind is shown first.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ] || ! command -v jq >/dev/null; then
	skip "a storm on a handler silent since the start" "irqlatd, irqlat or jq missing in the guest"
	exit 0
fi
work=/tmp/irqlatd-storm
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
irq=3
count() { awk -v i="$irq:" '$1 == i { n = 0; for (c = 2; c <= NF && $c ~ /^[0-9]+$/; c++) n += $c; print n; f = 1 } END { if (!f) print 0 }' /proc/interrupts; }
if ! grep -q 'ttyS1 at I/O 0x2f8 (irq = 3' /proc/tty/driver/serial 2>/dev/null && ! dmesg | grep -q 'ttyS1 at I/O 0x2f8 (irq = 3'; then
	not_ok "the guest has its second serial port, ttyS1 on IRQ 3 (run-initramfs)"; dmesg | grep ttyS | sed 's/^/#   /'; exit 0
fi
before=$(count)
"$IRQLATD" --socket "$sock" --log-target stderr \
	>"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
if ! retry 30 up; then
	not_ok "irqlatd starts"; diag_file "$work/daemon.log"; exit 0
fi
sleep 3
idle=$(( $(count) - before ))
check_eq "/proc/interrupts: IRQ 3 silent from before irqlatd started to 3 s later ($idle)" "$idle" 0

# The interrupt on the writer's CPU: under single-threaded TCG one host thread runs both
# vCPUs in turn, and with the interrupt on the other vCPU (where the kernel put IRQ 3 after
# 30-irqlat-cpus.sh or 50-cpu-hotplug.sh) the burst came at 320 to 690 a second, under the
# rule's floor: the check was skipped; on one CPU 2,700 to 4,900.
echo 0 >/proc/irq/$irq/smp_affinity_list
pad=$(printf '%01000d' 0)
( while :; do echo "$pad"; done >/dev/ttyS1 ) 2>/dev/null &
writer=$!
taskset -p -c 0 "$writer" >/dev/null
sleep 0.5	# opened, its handler registered
diag "IRQ 3 on CPU $(cat /proc/irq/$irq/effective_affinity_list), the writer's CPU mask $(taskset -p "$writer" | sed 's/.*: //')"
a=$(count) t0=$(uptime_cs)
sleep 2
b=$(count) t1=$(uptime_cs)
rate=$(( (b - a) * 100 / (t1 - t0) ))
diag "burst: $((b - a)) interrupts in $((t1 - t0))0 ms: $rate a second by /proc/interrupts"
storm() {
	irqlat --top --batch -n 1 --json -w 1s >"$work/summary" &&
		jq -e --argjson irq "$irq" '[.irqs[] | select(.irq == $irq and .storm != null)] | length > 0' "$work/summary" >/dev/null
}
# a rate storm (an unhandled one reads "...% of N interrupts/s handled by no handler"): "up
# from none" when the burst filled enough of the handler's first interval to reach the floor,
# else "Nx its recent R/s" at the next, R being that first part-interval's share of the mean
logged() { grep -qE "interrupt storm on IRQ $irq \(ttyS1\): [0-9]+ runs/s, (up from none|[0-9]+x its recent [0-9.]+/s)$" "$work/daemon.log"; }
# The reference, while waiting for the log: IRQ 3's rate over each second by /proc/interrupts.
# The rule needs 20 s over 1000 a second on average with no interval under 500; a slower
# emulation's burst can hover near those bounds, and then whether the daemon must flag it is
# read from this series, not assumed from the first 2 s.
series="" prev=$b tp=$t1 deadline=$(( t1 + 4500 )) found=false
if [ "$rate" -ge 1000 ]; then
	while :; do
		if logged; then found=true; break; fi
		[ "$(uptime_cs)" -lt "$deadline" ] || break
		sleep 1
		c=$(count) t=$(uptime_cs)
		series="$series $(( (c - prev) * 100 / (t - tp) ))"
		prev=$c tp=$t
	done
fi
diag "IRQ 3 each second by /proc/interrupts:$series"
# held: 22 seconds in a row each over 600 a second, their mean over 1100 (margins for the
# daemon's intervals not being the test's seconds)
held=$(echo "$series" | awk '{ for (i = 1; i + 21 <= NF; i++) { s = 0; ok = 1
	for (j = i; j <= i + 21; j++) { if ($j < 600) ok = 0; s += $j }
	if (ok && s / 22 >= 1100) { print "yes"; exit } } print "no" }')
if [ "$rate" -lt 1000 ]; then
	skip "log: a rate storm on IRQ 3" "the emulated UART gave $rate interrupts a second, under the rule's 1000"
	skip "summary: IRQ 3 in a storm" "no burst of 1000 a second"
elif $found || [ "$held" = yes ]; then
	if $found; then ok "log: a rate storm on IRQ 3, once the burst lasted 20 s"
	else not_ok "log: a rate storm on IRQ 3, once the burst lasted 20 s"; diag_file "$work/daemon.log"; fi
	check "summary: IRQ 3 in a storm" retry 5 storm
	storm || jq -c --argjson irq "$irq" '.irqs[] | select(.irq == $irq)' "$work/summary" | sed 's/^/#   /'
else
	skip "log: a rate storm on IRQ 3" "by /proc/interrupts the burst did not hold the rule's bounds for 20 s (above)"
	skip "summary: IRQ 3 in a storm" "no storm logged"
fi
kill "$writer" 2>/dev/null || true
wait "$writer" 2>/dev/null || true
kill "$daemon"
wait "$daemon" || true
grep -E "interrupt storm|storm on IRQ" "$work/daemon.log" | sed 's/^/#   /' || true
