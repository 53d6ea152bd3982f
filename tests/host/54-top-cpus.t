#!/bin/bash
# irqlat --top's CPUs, driven in tmux (helpers/top.sh) under fio load: c shows per-CPU lines
# under each handler, and the CPUs under the disk IRQ took it by /proc/interrupts; the C key
# and -C LIST show only the handlers that ran on the CPU, each with that CPU's line alone (the
# CPU that took most disk IRQs, and the reference for the rest, are /proc/interrupts'), in the
# screen, the text output and the JSON; a bad -C is refused in one line.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/host/helpers/top.sh
. "$TOP/tests/host/helpers/top.sh"
plan 6

IRQ=$(disk_irq)
diag "disk IRQ: ${IRQ:-none}"
top_under_load
wait_for "^ +$IRQ " 10 || diag_why

# per-CPU: every CPU listed under the disk IRQ took that IRQ according to /proc/interrupts
keys c
frame >"$TMP/cpu"
# the CPUs of the per-CPU lines under the rows of IRQ $irq, once each
CPUS_UNDER='. as $s | [range(0; $s.rows | length) | select($s.rows[.].IRQ == $irq) | $s.cpus[tostring][]?] | unique | join(" ")'
cpus=$(screen json "$TMP/cpu" | jq -r --argjson irq "$IRQ" "$CPUS_UNDER")
proc_cpus=$(awk -v irq="$IRQ:" '$1 == irq { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) if ($i > 0) printf "%d ", i - 2 }' /proc/interrupts)
diag "per-CPU under IRQ $IRQ: [$cpus]; CPUs with IRQ $IRQ in /proc/interrupts: [$proc_cpus]"
subset=1
for c in $cpus; do [[ " $proc_cpus" == *" $c "* ]] || subset=0; done
cpus_took_it() {
	is_set "$cpus" "CPUs listed under IRQ $IRQ" &&
		is_eq "$subset" 1 "all of them ($cpus) among /proc/interrupts' ($proc_cpus) (1: yes)"
}
check "c shows per-CPU lines; their CPUs took the IRQ per /proc/interrupts" cpus_took_it
keys c

# -C LIST and the C key: only handlers that ran on the CPU, only that CPU's lines
CPU=$(awk -v irq="$IRQ:" '$1 == irq { b = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) if ($i > m) { m = $i; b = i - 2 } print b }' /proc/interrupts)
on_cpu() {	# the IRQ numbers with a count on CPU $1 in /proc/interrupts, one a line
	awk -v col=$(($1 + 2)) 'NR > 1 && $1 ~ /^[0-9]+:$/ && $col ~ /^[0-9]+$/ && $col > 0 { sub(":", "", $1); print $1 }' /proc/interrupts
}
# the rows of a -C view: some, the disk IRQ's among them, each an IRQ /proc/interrupts counted
# on the CPU, and as many per-CPU lines as rows, of the CPU alone
CPU_VIEW='(.rows | length > 0) and ([.rows[].IRQ] | index($irq) != null)
	and ([.rows[].IRQ | . as $i | $on[0] | index($i) != null] | all)
	and (.cpus | length) == (.rows | length) and ([.cpus[][]] | unique) == [$cpu]'
check_cpu_view() {	# check_cpu_view FILE: the rows and CPU lines of a -C $CPU view
	screen json "$1" >"$1.json"
	on_cpu "$CPU" | jq -s . >"$TMP/on_cpu.json"
	jq_true "<$1.json" "$CPU_VIEW" --argjson cpu "$CPU" --argjson irq "$IRQ" --slurpfile on "$TMP/on_cpu.json"
}
keys C
"${TM[@]}" send-keys -t "$PANE" -l "$CPU"
keys Enter
wait_for "window 10s, CPUs $CPU" 5
frame >"$TMP/cpuview"
check "C $CPU: only handlers with IRQs on CPU $CPU per /proc/interrupts, each with a line of CPU $CPU alone" check_cpu_view "$TMP/cpuview"
keys C Escape
frame >"$TMP/cpuall"
check_ge "C then Esc: every handler again" "$(screen json "$TMP/cpuall" | jq '.rows | length')" "$(jq '.rows | length' "$TMP/cpuview.json")" \
	"rows after Esc" "rows of CPU $CPU"
irqlat --top -b -n 1 -C "$CPU" >"$TMP/cpubatch"
check "irqlat -b -C $CPU: the same in the text output" check_cpu_view "$TMP/cpubatch"
irqlat --top -b -n 1 -J -C "$CPU" >"$TMP/cpujson"
check "irqlat -J -C $CPU: only handlers that ran on CPU $CPU, each whole" \
	jqe --argjson cpu "$CPU" '(.irqs | length > 0) and ([.irqs[] | [.cpus[].cpu] | index($cpu) != null] | all)' "$TMP/cpujson"
out=$(irqlat -C 1-x 2>&1); rc=$?
check_exit "-C 1-x: exit 2, one line naming --cpus" "$rc" 2 "$out" one-line -- "--cpus .*'1-x'"
"${TM[@]}" kill-server
stop_fio
stop_daemon
done_testing
