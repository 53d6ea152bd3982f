#!/bin/bash
# Each CPU's interrupt load (the summary's cpu_load): one entry per possible CPU, marked as
# /sys/devices/system/cpu/isolated and nohz_full say; under fio, the CPU that /proc/interrupts
# shows took the disk's interrupts has the disk's handler as its worst hard-IRQ source, and the
# CPU that /proc/softirqs shows ran BLOCK has BLOCK as its worst softirq; against /proc/stat's
# irq and softirq columns where the kernel has CONFIG_IRQ_TIME_ACCOUNTING (skipped where not:
# without it those columns are tick samples); the text section and the screen's view.
. "$(dirname "$0")/../lib.sh"
plan 9

per_cpu() {	# FILE ROW: the per-CPU counts of one row of /proc/interrupts or /proc/softirqs
	awk -v row="$2:" '$1 == row { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) printf "%s ", $i; print "" }' "$1"
}
busiest() {	# BEFORE AFTER: the CPU whose count grew most
	paste <(tr ' ' '\n' <<<"$1") <(tr ' ' '\n' <<<"$2") | awk 'NF == 2 { d = $2 - $1; if (d > best) { best = d; cpu = NR - 1 } } END { print cpu }'
}
IRQ=$(disk_irq)
start_daemon --interval-ms 200
irq0=$(per_cpu /proc/interrupts "$IRQ"); blk0=$(per_cpu /proc/softirqs BLOCK)
fio_load 4
sleep 0.5
irq1=$(per_cpu /proc/interrupts "$IRQ"); blk1=$(per_cpu /proc/softirqs BLOCK)
snap=$(irqlat --top --batch --iterations 1 --json --window 10s)
disk_cpu=$(busiest "$irq0" "$irq1"); block_cpu=$(busiest "$blk0" "$blk1")
diag "disk IRQ $IRQ mostly on CPU $disk_cpu, BLOCK mostly on CPU $block_cpu"
name=$(jq -r --argjson irq "$IRQ" '[.irqs[] | select(.irq == $irq)][0].name' <<<"$snap")
possible=$(awk -F- '{ print ($2 == "" ? $1 : $2) + 1 }' /sys/devices/system/cpu/possible)
check_eqn "one cpu_load entry per possible CPU ($possible)" "$(jq '.cpu_load | length' <<<"$snap")" "$possible" "cpu_load entries" "possible CPUs"
in_list() {	# LIST CPU: "true" when the kernel's CPU list (0-3,8) holds CPU, else "false"
	python3 -c 'import sys; c = int(sys.argv[2]); print(str(any(int(a) <= c <= int(b or a) for a, _, b in (r.partition("-") for r in sys.argv[1].strip().split(",") if r))).lower())' "$1" "$2"
}
marks_agree() {
	local iso nohz cpu
	iso=$(cat /sys/devices/system/cpu/isolated 2>/dev/null)
	nohz=$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)
	[ "$nohz" = "(null)" ] && nohz=
	for cpu in $(seq 0 $((possible - 1))); do
		is_eq "$(jq --argjson c "$cpu" '.cpu_load[$c].isolated' <<<"$snap")" "$(in_list "$iso" "$cpu")" \
			"CPU $cpu: isolated" "in /sys/devices/system/cpu/isolated ($iso)" || return 1
		is_eq "$(jq --argjson c "$cpu" '.cpu_load[$c].nohz_full' <<<"$snap")" "$(in_list "$nohz" "$cpu")" \
			"CPU $cpu: nohz_full" "in /sys/devices/system/cpu/nohz_full ($nohz)" || return 1
	done
}
check "isolated and nohz_full marks are those of /sys/devices/system/cpu" marks_agree
check_eq "the CPU that took the disk's IRQs (/proc/interrupts) has $name as its worst handler" \
	"$(jq -r --argjson c "$disk_cpu" '.cpu_load[$c].hardirq_worst.name' <<<"$snap")" "$name" "CPU $disk_cpu's hardirq_worst"
check_eq "the CPU that ran BLOCK (/proc/softirqs) has BLOCK as its worst softirq" \
	"$(jq -r --argjson c "$block_cpu" '.cpu_load[$c].softirq_worst.vector' <<<"$snap")" BLOCK "CPU $block_cpu's softirq_worst"
check_jq_all "shares are fractions, total the classes' sum" "$snap" '.cpu_load[]' \
	'.hardirq_share >= 0 and .softirq_share < 1 and (.total_share - .hardirq_share - .vector_share - .softirq_share | fabs) < 1e-9'

# /proc/stat: with CONFIG_IRQ_TIME_ACCOUNTING its irq and softirq columns are the kernel's own
# clock of hard-IRQ and softirq context (USER_HZ units, 10 ms); without it, samples of ticks
config_has() { { zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null; } | grep -qx "$1=y"; }
if config_has CONFIG_IRQ_TIME_ACCOUNTING; then
	stat_cols() { awk '$1 == "cpu" { print $7, $8 }' /proc/stat; }	# irq softirq, all CPUs
	s0=$(irqlat --top --batch --iterations 1 --json --window total); p0=$(stat_cols)
	fio_load 10
	sleep 0.5
	s1=$(irqlat --top --batch --iterations 1 --json --window total); p1=$(stat_cols)
	read -r irq0 soft0 <<<"$p0"; read -r irq1 soft1 <<<"$p1"
	ours() { jq "[.irqs[].total_ns, .vectors[].total_ns] | add // 0" <<<"$1"; }
	ours_soft() { jq "[.softirqs[].run_total_ns] | add // 0" <<<"$1"; }
	hard_ms=$(( ($(ours "$s1") - $(ours "$s0")) / 1000000 )); soft_ms=$(( ($(ours_soft "$s1") - $(ours_soft "$s0")) / 1000000 ))
	diag "irqlatd: hard $hard_ms ms, softirq $soft_ms ms; /proc/stat: irq $(( (irq1 - irq0) * 10 )) ms, softirq $(( (soft1 - soft0) * 10 )) ms"
	# a few ticks (5 x 10 ms) and what the two leave out of each other: 10% (architecture.md section 10)
	close_to() {	# OURS_MS STAT_MS
		local d=$(($1 - $2)); d=${d#-}
		[ "$d" -le $((50 + $2 / 10)) ] && return 0
		why "irqlatd" "$1 ms"; why "/proc/stat" "$2 ms (apart by $d ms, at most $((50 + $2 / 10)) allowed)"; return 1
	}
	check "hard IRQs + vectors within a few ticks of /proc/stat's irq column" close_to "$hard_ms" $(( (irq1 - irq0) * 10 ))
	check "softirqs within a few ticks of /proc/stat's softirq column" close_to "$soft_ms" $(( (soft1 - soft0) * 10 ))
else
	skip "CONFIG_IRQ_TIME_ACCOUNTING is off here: /proc/stat's irq and softirq columns are tick samples, no reference"
	skip "the same for the softirq column"
fi

out=$(irqlat --top --batch --iterations 1)
check_eqn "the text snapshot has the CPU load section, a line per CPU" \
	"$(awk '/^CPU load over/ { on = 1; next } on && /^$/ { exit } on && /^cpu[0-9]+ / { n++ } END { print n + 0 }' <<<"$out")" "$possible" \
	"CPU lines in the section" "possible CPUs"
TM=(tmux -L "irqlat-load-$$")
"${TM[@]}" new-session -d -s top -x 130 -y 30 "env LC_ALL=C $IRQLAT --socket $SOCK --delay 0.3"
screen_shows() {	# REGEX: the screen shows it within 3 s
	for _ in $(seq 30); do "${TM[@]}" capture-pane -t top:0.0 -p | grep -q "$1" && return 0; sleep 0.1; done
	why "the screen never showed" "$1"; why "it shows" "$("${TM[@]}" capture-pane -t top:0.0 -p)"; return 1
}
screen_shows "IRQ NAME"
"${TM[@]}" send-keys -t top:0.0 v v v
check "screen: v three times shows the CPU load" screen_shows "^CPU load over"
"${TM[@]}" kill-server 2>/dev/null
stop_daemon
done_testing
