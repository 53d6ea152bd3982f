#!/bin/sh
# vm-check-timeout: 200
# NMIs, the kernel side (bpf/nmi.bpf.c), before irqlatd loads the kind: bpf-cells loads the
# object on a cell pool of its own, with each twin in turn (tp_btf, raw_tp). sysrq's "l" (a
# backtrace of every CPU) sends an NMI to each other CPU: triggered from each CPU in turn, it
# raises NMIs on both. Reference: each CPU's NMI row of /proc/interrupts (the kernel counts
# every NMI there once), read after the programs are attached and before they are detached;
# the guest raises no NMI of its own (no NMI watchdog under TCG). Every NMI runs each handler
# registered for local NMIs (nmi:nmi_handler fires once for each), so on each CPU the count of
# its busiest handler's cell is its NMIs: within 1% or 5 (the issue's bound). The handler is
# named by its address: the backtrace's handler, nmi_cpu_backtrace_handler in /proc/kallsyms.
# And the CPU's NMI clock holds exactly the time of its NMI cells.
# Then the kind through irqlatd with its defaults: its status lists the nmi kind, and after
# the same NMIs, each CPU's busiest handler in irqlat's nmis elements (since the start) has
# counted that CPU's NMI row's growth within 1% or 5, under the backtrace handler's name.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

obj=$VMTEST_DIR/nmi.bpf.o
styles="tp_btf raw_tp"
if ! command -v bpf-cells >/dev/null || [ ! -r "$obj" ]; then
	skip "NMIs counted" "bpf-cells or nmi.bpf.o missing in the guest (make check-vm builds them)"
	styles=
fi
if [ ! -w /proc/sysrq-trigger ]; then
	skip "NMIs counted" "this kernel has no /proc/sysrq-trigger"
	exit 0
fi
ncpu=$(grep -c '^processor' /proc/cpuinfo)
# the NMI row: one count per CPU
nmi_row() { awk '$1 == "NMI:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) printf "%s ", $i; print "" }' /proc/interrupts; }
# raise_nmis: sysrq l from each CPU in turn, 10 times (NMI backtraces to every CPU)
raise_nmis() {
	i=0
	while [ $i -lt 10 ]; do
		c=0
		while [ $c -lt "$ncpu" ]; do
			taskset -c "$c" sh -c 'echo l >/proc/sysrq-trigger'
			c=$((c + 1))
		done
		i=$((i + 1))
	done
}
bt_handler=$(awk '$3 == "nmi_cpu_backtrace_handler" { print $1; exit }' /proc/kallsyms | sed 's/^0*//')
diag "nmi_cpu_backtrace_handler at 0x${bt_handler:-?}; NMI row at the start: $(nmi_row)"

# within 1% or 5: close DIFF REFERENCE
close() { [ $(($1 * 100)) -le "$2" ] || [ "$1" -le 5 ]; }
for style in $styles; do
	out=/tmp/nmi-$style.txt
	bpf-cells "$style" "$obj" >"$out" 2>/tmp/nmi-$style.err &
	pid=$!
	attached() { grep -q "^attached" "$out" 2>/dev/null; }
	if ! retry 30 attached; then
		not_ok "$style: nmi.bpf.o loads and attaches"
		diag_file /tmp/nmi-$style.err
		kill "$pid" 2>/dev/null || true
		continue
	fi
	ok "$style: nmi.bpf.o loads and attaches ($(head -n 1 "$out"))"
	before=$(nmi_row)
	raise_nmis
	after=$(nmi_row)
	kill -TERM "$pid"
	wait "$pid" || true
	diag "$style: NMI row before $before, after $after"
	grep -E '^(cell|clock)' "$out" | sed 's/^/# /'
	c=0
	for b in $before; do
		a=$(echo "$after" | cut -d' ' -f$((c + 1)))
		came=$((a - b))
		# the busiest handler of this CPU's NMI cells (kind 9), and the cells' time
		counted=$(awk -v cpu=$c '$1 == "cell" && $4 == 9 && $10 == cpu && $12 > n { n = $12 } END { print n + 0 }' "$out")
		cells_ns=$(awk -v cpu=$c '$1 == "cell" && $4 == 9 && $10 == cpu { n += $14 } END { printf "%.0f\n", n }' "$out")
		clock_ns=$(awk -v cpu=$c '$1 == "clock" && $3 == cpu { print $11 }' "$out")
		d=$((counted - came))
		[ $d -ge 0 ] || d=$((-d))
		check "$style: CPU $c: NMIs counted ($counted) as /proc/interrupts ($came) within 1% or 5" close "$d" "$came"
		check "$style: CPU $c: NMIs raised there ($came, at least 5)" [ "$came" -ge 5 ]
		check "$style: CPU $c: the NMI clock ($clock_ns ns) is the time of its NMI cells ($cells_ns ns)" \
			[ "${clock_ns:-x}" = "$cells_ns" ]
		c=$((c + 1))
	done
	named() { [ -n "$bt_handler" ] && grep -q "^cell .* kind 9 id 0x$bt_handler " "$out"; }
	check "$style: the backtrace's NMIs are under their handler's address (nmi_cpu_backtrace_handler)" named
done

# the kind through irqlatd
if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ] || ! command -v jq >/dev/null; then
	skip "irqlatd counts NMIs" "irqlatd, irqlat or jq missing in the guest"
	exit 0
fi
work=/tmp/irqlatd-nmi
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
"$IRQLATD" --socket "$sock" --log-target stderr >"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
if ! retry 90 up; then
	not_ok "irqlatd starts"
	diag_file "$work/daemon.log"
	kill "$daemon" 2>/dev/null || true
	exit 0
fi
irqlat status --json >"$work/status.json" 2>/dev/null || true
check "irqlatd measures NMI handlers (kind nmi)" jq -e '.kinds | index("nmi")' "$work/status.json"
before=$(nmi_row)
raise_nmis
after=$(nmi_row)
diag "irqlatd: NMI row before $before, after $after"
snap() { irqlat --top --batch --iterations 1 --json --window total >"$work/snap.json" 2>/dev/null; }
busiest() { jq --argjson c "$1" '[.nmis[]? | .cpus[]? | select(.cpu == $c) | .count] | max // 0' "$work/snap.json"; }
# the collector reads the cells every interval: until it has seen every CPU's NMIs (less the
# bound), then its counts are compared once
seen_all() {
	snap || return 1
	c=0
	for b in $before; do
		a=$(echo "$after" | cut -d' ' -f$((c + 1)))
		[ $(($(busiest "$c") + 5)) -ge $((a - b)) ] || return 1
		c=$((c + 1))
	done
}
retry 15 seen_all || true
jq -c '[.nmis[]? | {handler, count, cpus: [.cpus[]? | {cpu, count}]}]' "$work/snap.json" 2>/dev/null | sed 's/^/# /'
c=0
for b in $before; do
	a=$(echo "$after" | cut -d' ' -f$((c + 1)))
	came=$((a - b))
	counted=$(busiest "$c")
	d=$((counted - came))
	[ $d -ge 0 ] || d=$((-d))
	check "irqlatd: CPU $c: NMIs counted ($counted) as /proc/interrupts ($came) within 1% or 5" close "$d" "$came"
	c=$((c + 1))
done
named_by_irqlatd() { jq -e '[.nmis[]? | .handler] | index("nmi_cpu_backtrace_handler")' "$work/snap.json" >/dev/null; }
check "irqlatd: the backtrace's NMIs are under nmi_cpu_backtrace_handler" named_by_irqlatd
kill -TERM "$daemon"
wait "$daemon" && rc=0 || rc=$?
check "irqlatd exits 0 ($rc)" [ "$rc" -eq 0 ]
