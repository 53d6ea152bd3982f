#!/bin/sh
# The guest boots with isolcpus=1 nohz_full=1 (run-initramfs): irqlat marks CPU 1 wherever CPUs
# appear, and flags a handler that runs there, or outside its IRQ's affinity. The serial
# console's IRQ is moved to CPU 1 and made to fire (this guest's output is on it), then moved
# back. References: /sys/devices/system/cpu/{isolated,nohz_full}, /proc/irq/N/*_affinity_list
# and /proc/interrupts. No jq here: grep and sed on the text and JSON lines.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ]; then
	skip "irqlat marks isolated CPUs" "irqlatd/irqlat not built"
	exit 0
fi
work=/tmp/irqlat-cpus
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
iso=$(cat /sys/devices/system/cpu/isolated)
nohz=$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null || echo)
[ "$nohz" != "(null)" ] || nohz=	# what the kernel writes without nohz_full=
diag "isolated: '$iso', nohz_full: '$nohz', $(nproc) CPUs online of $(cat /sys/devices/system/cpu/online)"
check_eq "the guest booted with CPU 1 isolated (kernel command line isolcpus=1)" "$iso" 1

# the serial line: its IRQ number from /proc/interrupts
serial=$(awk '/ttyS0/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
diag "serial IRQ: ${serial:-none}"
"$IRQLATD" --socket "$sock" --log-target stderr --no-tracepoints --interval-ms 200 >"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
if ! retry 20 up; then
	not_ok "irqlatd starts"; diag_file "$work/daemon.log"; exit 0
fi
# on CPU 1 (isolated): this guest's own output raises the serial IRQs
echo 1 >"/proc/irq/$serial/smp_affinity_list"
count_on() { awk -v irq="$serial:" -v col=$(($1 + 2)) '$1 == irq { print $col }' /proc/interrupts; }
before=$(count_on 1)
i=0
while [ $i -lt 40 ]; do echo "# serial output on CPU 1: line $i of 40"; i=$((i + 1)); done
after=$(count_on 1)
diag "IRQ $serial on CPU 1 by /proc/interrupts: $before -> $after; effective affinity $(cat "/proc/irq/$serial/effective_affinity_list")"
sleep 0.5
irqlat --top -b -n 1 -w 10s -C 1 -o irq,name,cpus,rate,flags >"$work/isolated.txt"
sed 's/^/#   /' "$work/isolated.txt"
row() { grep -E "^ +$serial " "$1"; }
check_gt "/proc/interrupts: the serial IRQ ran on CPU 1 ($before -> $after)" "$after" "$before"
check "the header says CPU 1 is isolated (and nohz_full: ${nohz:-none})" \
	grep -q "^isolated CPUs 1, nohz_full ${nohz:--}: a handler that runs there is marked !" "$work/isolated.txt"
check "the serial IRQ's row marks CPU 1 (1!) and flags I" sh -c "row() { grep -E '^ +$serial ' \"\$1\"; }; row '$work/isolated.txt' | grep -qE ' 1! .* I *\$'"
check "its per-CPU line (-C 1): cpu 1 (isolated...)! with its affinity 1" \
	sh -c "grep -A1 -E '^ +$serial ' '$work/isolated.txt' | grep -qE '^ +affinity 1, effective 1 \\| cpu 1 \\(isolated(, nohz_full)?\\)!: '"
irqlat --top -b -n 1 -J >"$work/summary.json"
check_grep "JSON: isolated_cpus is /sys/devices/system/cpu/isolated ($iso)" "\"isolated_cpus\":\"$iso\"" "$work/summary.json"
# the per-CPU interrupt load marks CPU 1 too, in the text section and in the JSON
check "the CPU load section marks CPU 1 isolated${nohz:+ and nohz_full}" \
	sh -c "sed -n '/^CPU load over/,/^\$/p' '$work/isolated.txt' | grep -qE '^cpu1 .* isolated${nohz:+ nohz_full} *\$'"
check "JSON: cpu_load marks CPU 1 isolated, CPU 0 not" \
	sh -c "grep -q '\"cpu\":1,\"isolated\":true' '$work/summary.json' && grep -q '\"cpu\":0,\"isolated\":false' '$work/summary.json'"

# back to CPU 0: within the window it ran on CPU 1, now outside its affinity
echo 0 >"/proc/irq/$serial/smp_affinity_list"
i=0
while [ $i -lt 10 ]; do echo "# serial output on CPU 0: line $i of 10"; i=$((i + 1)); done
eff=$(cat "/proc/irq/$serial/effective_affinity_list")
# the daemon reads an IRQ's affinity at most once a second: wait for it to see the move
moved() {
	irqlat --top -b -n 1 -w 10s -C 0-1 -o irq,name,cpus,flags >"$work/moved.txt"
	grep -E '^ +'"$serial"' ' "$work/moved.txt" | grep -qE ' [IA]*A[IA]* *$' &&
		grep -A1 -E '^ +'"$serial"' ' "$work/moved.txt" | grep -qE 'cpu 1 \(isolated.*outside affinity\)!'
}
check "moved to CPU 0 (effective $eff): the row flags A, its line says cpu 1 is outside the affinity" retry 5 moved
sed 's/^/#   /' "$work/moved.txt"
kill "$daemon"
wait "$daemon" 2>/dev/null || true
