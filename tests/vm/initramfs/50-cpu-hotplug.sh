#!/bin/sh
# vm-check-timeout: 150
# CPU 1 taken offline and back while irqlatd runs (echo 0, then 1, to
# /sys/devices/system/cpu/cpu1/online): the daemon keeps running and answering, the serial IRQ
# is measured on CPU 0 while CPU 1 is away and on CPU 1 again once it is back. Each per-CPU
# count is irqlatd's as of one tick, read between two readings of that CPU's column in
# /proc/interrupts (the kernel keeps an offline CPU's counts, and shows them again when it is
# back), and every delta must lie in the kernel's bracket, or exceed it by at most 2: an edge
# IRQ that arrives while its handler runs on another CPU (as when its affinity just moved) is
# run again by that CPU, two handler runs for one count. The serial IRQ fires when this
# guest writes to its console, so the lines below make the IRQs, on whichever CPU its
# affinity names.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ]; then
	skip "CPU 1 offline and back" "irqlatd/irqlat not built"
	exit 0
fi
online=/sys/devices/system/cpu/cpu1/online
if [ ! -w "$online" ]; then
	skip "CPU 1 offline and back" "this kernel cannot take CPU 1 offline (no $online)"
	exit 0
fi
work=/tmp/irqlatd-hotplug
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
serial=$(awk '/ttyS0/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
diag "serial IRQ: ${serial:-none}; CPUs online: $(cat /sys/devices/system/cpu/online)"
"$IRQLATD" --socket "$sock" --log-target stderr --no-tracepoints --interval-ms 200 --threshold-us 0 >"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
if ! retry 20 up; then
	not_ok "irqlatd starts"; diag_file "$work/daemon.log"; exit 0
fi

# /proc/interrupts' count of the serial IRQ on CPU $1, found by its column's header (an
# offline CPU has no column): "" while it is offline
proc_on() {
	awk -v irq="$serial:" -v want="CPU$1" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) col = i + 1 }
		$1 == irq { if (col) print $col; exit }' /proc/interrupts
}
# irqlatd's count of the serial IRQ on CPU $2 in the summary JSON file $1 (0 before its cell).
# One object per line: an IRQ's line, then its per-CPU cells; any other object (a storm) ends
# it; the arrays after the IRQs' (softirqs, vectors, threaded IRQs, whose elements have "irq"
# and cells too) are cut off first.
ours_on() {
	sed 's/"softirqs":.*//' "$1" | tr '{' '\n' | awk -v irq="\"irq\":$serial," -v cpu="\"cpu\":$2," '
		index($0, "\"irq\":") == 1 { mine = index($0, irq) == 1; next }
		index($0, "\"cpu\":") != 1 { mine = 0 }
		mine && index($0, cpu) == 1 { split($0, f, /[:,]/); n = f[4] }
		END { print n + 0 }'
}
snap_end() { sed -n 's/.*"snapshot_end_ns":\([0-9]*\).*/\1/p' "$1"; }
# bracket CPU: "LO OURS HI" for CPU: irqlatd's count as of its next tick, and /proc/interrupts
# read before that tick (before the request whose answer still showed the previous tick) and
# after it (after the answer that shows it). Nothing here writes to the console meanwhile.
bracket() {
	before=$(proc_on "$1")
	irqlat --top -b -n 1 -J -w total >"$work/a.json"
	n=0
	while [ $n -lt 100 ]; do
		lo=$(proc_on "$1")
		irqlat --top -b -n 1 -J -w total >"$work/b.json"
		if [ "$(snap_end "$work/b.json")" != "$(snap_end "$work/a.json")" ]; then
			hi=$(proc_on "$1")
			echo "${before:-x} $(ours_on "$work/b.json" "$1") ${hi:-x}"
			return 0
		fi
		before=$lo
		mv "$work/b.json" "$work/a.json"
		n=$((n + 1))
	done
	echo "x 0 x"
}
# agrees "LO0 D0 HI0" "LO1 D1 HI1": irqlatd's delta D1 - D0 lies in the kernel's,
# [LO1 - HI0, HI1 - LO0] (2 more for replays, above), and the kernel's is not empty
# (the brackets are split into their three numbers on purpose)
# shellcheck disable=SC2086
agrees() {
	case "$1 $2" in *x*) return 1 ;; esac
	set -- $1 $2
	[ $(($4 - $3)) -gt 0 ] &&
		[ $(($5 - $2)) -ge $(($4 - $3)) ] && [ $(($5 - $2)) -le $(($6 - $1 + 2)) ]
}
# shellcheck disable=SC2086
delta() {
	case "$1 $2" in *x*) echo "no bracket (no tick seen, or CPU offline)"; return ;; esac
	set -- $1 $2; echo "irqlatd +$(($5 - $2)), /proc/interrupts +$(($4 - $3))..+$(($6 - $1))"
}
lines() {	# lines N CPU: N lines on the console, the serial IRQ's affinity at CPU
	echo "$2" >"/proc/irq/$serial/smp_affinity_list"
	i=0
	while [ $i -lt "$1" ]; do echo "# console output with the serial IRQ on CPU $2: $i of $1"; i=$((i + 1)); done
}

# both online: IRQs on each CPU (their cells exist before CPU 1 goes)
a0=$(bracket 0); b0=$(bracket 1)
lines 60 1; lines 60 0
a1=$(bracket 0); b1=$(bracket 1)
diag "both online: CPU 0 $(delta "$a0" "$a1"); CPU 1 $(delta "$b0" "$b1")"
both() { agrees "$a0" "$a1" && agrees "$b0" "$b1"; }
check "both CPUs online: irqlatd's per-CPU deltas lie in /proc/interrupts' brackets" both

# CPU 1 offline: the serial IRQ moves to CPU 0; irqlatd keeps measuring there
if ! echo 0 >"$online"; then
	not_ok "echo 0 > $online"; kill "$daemon"; exit 0
fi
gone() { [ "$(cat /sys/devices/system/cpu/online)" = 0 ] && [ -z "$(proc_on 1)" ]; }
check "CPU 1 is offline (cpu/online says 0, /proc/interrupts has no CPU1 column)" retry 5 gone
lines 60 0
a2=$(bracket 0)
# shellcheck disable=SC2086
set -- $b1
ours1=$(irqlat --top -b -n 1 -J -w total >"$work/c.json" && ours_on "$work/c.json" 1)
diag "CPU 1 offline: CPU 0 $(delta "$a1" "$a2"); irqlatd's CPU 1 count $2 then $ours1"
alive() { kill -0 "$daemon" 2>/dev/null && irqlat status >/dev/null 2>&1; }
check "irqlatd runs and answers with CPU 1 offline" alive
check "CPU 1 offline: measurements go on on CPU 0, in /proc/interrupts' bracket" agrees "$a1" "$a2"
check_eq "... and nothing is counted on CPU 1 while it is away ($2, then $ours1)" "$ours1" "$2"

# CPU 1 back: the serial IRQ on it again; its count picks up where the kernel's does
echo 1 >"$online"
back() { [ "$(cat /sys/devices/system/cpu/online)" = 0-1 ] && [ -n "$(proc_on 1)" ]; }
check "CPU 1 is back online" retry 5 back
lines 60 1
b3=$(bracket 1)
diag "CPU 1 back: CPU 1 $(delta "$b1" "$b3") (from before it went)"
check "CPU 1 back: measurements resume on it, in /proc/interrupts' bracket" agrees "$b1" "$b3"
echo 0 >"/proc/irq/$serial/smp_affinity_list"

kill -TERM "$daemon"
rc=0; wait "$daemon" || rc=$?
check_eq "irqlatd stops cleanly after it all (status 0)" "$rc" 0
# (warnings may come: the serial handler under emulation returns IRQ_NONE half the time, a storm)
grep -E '^irqlatd: (emerg|alert|crit|error):' "$work/daemon.log" >"$work/complaints" || true
check "... having logged no error" [ ! -s "$work/complaints" ]
diag_file "$work/complaints" 5
