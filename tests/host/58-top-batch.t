#!/bin/bash
# irqlat --top's text (-b) and JSON (-J) outputs: a batch snapshot between two JSON ones lists
# the same handlers with counts between theirs (helpers/batch_json.py); one answer is one
# snapshot (each handler's count the sum of its CPUs' and of its buckets'); and over a fio
# burst the JSON count moves as /proc/interrupts does, each answer bracketed by readings of it
# around the daemon's tick (helpers/summary_bracket.py); the header's IRQ/s counts the vectors
# (LOC, IPIs) as /proc/interrupts does.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
plan 5

IRQ=$(disk_irq)
diag "disk IRQ: ${IRQ:-none}"
start_daemon --threshold-us 1 --outlier-rate 1 --interval-ms 1000 --bpf-stats --no-tracepoints
fio_load 2	# the disk handler has runs, and cells the ticks read
sleep 1

# batch and JSON agree with each other: a batch snapshot between two JSON ones lists the same
# handlers (but one that first ran meanwhile: a clean-clone run saw virtio0-stats appear
# between them), each count between the two JSON counts (counts are live; batch rounds to 0.1k)
j1=$(irqlat --top -b -n 1 -J -w total); b=$(irqlat --top -b -n 1 -w total -o irq,count,name); j2=$(irqlat --top -b -n 1 -J -w total)
printf '%s\n' "$b" >"$TMP/batch"
jq -c '[.irqs[] | [.irq, .name, .count]] | sort' <<<"$j1" >"$TMP/json1"
jq -c '[.irqs[] | [.irq, .name, .count]] | sort' <<<"$j2" >"$TMP/json2"
check "batch and JSON list the same handlers with the same counts" \
	python3 "$TOP/tests/host/helpers/batch_json.py" "$TMP/batch" "$TMP/json1" "$TMP/json2"

# One snapshot, one truth (issue 14, item 3): every figure of an answer is from the same tick,
# so a handler's count is the sum of its CPUs' counts and of its histogram's buckets.
irqlat hist -w total --json >"$TMP/snap"
check_jq "one snapshot: each handler's count is the sum of its CPUs' counts and of its buckets since start" "<$TMP/snap" \
	'(.irqs | length > 0) and ([.irqs[] | .count == ([.cpus[].count] | add // 0) and .count == ([.buckets[][2]] | add // 0)] | all)'

# ... and with /proc/interrupts, over a fio burst: the daemon's count of the disk IRQ in one
# answer lies between the readings of /proc/interrupts around its tick
read -r lo0 j0 hi0 < <(python3 "$TOP/tests/host/helpers/summary_bracket.py" "$IRQLAT" "$SOCK" "$IRQ")
fio_load 3
read -r lo1 j1 hi1 < <(python3 "$TOP/tests/host/helpers/summary_bracket.py" "$IRQLAT" "$SOCK" "$IRQ")
b1=$(irqlat --top -b -n 1 -o irq,count | awk -v irq="$IRQ" '$1 == irq { v = $2; m = 1; if (v ~ /k$/) m = 1e3; if (v ~ /M$/) m = 1e6; sub(/[kM]$/, "", v); s += v * m } END { printf "%d", s }')
j2=$(irqlat --top -b -n 1 -J | jq --argjson irq "$IRQ" '[.irqs[] | select(.irq == $irq) | .count] | add // 0')
dj=$((j1 - j0)); dmin=$((lo1 - hi0)); dmax=$((hi1 - lo0)); slack=$(( dmin / 100 > 5 ? dmin / 100 : 5 ))
diag "IRQ $IRQ over the burst: irqlatd +$dj, /proc/interrupts between +$dmin and +$dmax"
delta_in_bracket() {
	is_gt "$dmin" 1000 "/proc/interrupts' delta, at least" &&
		is_between "$dj" $((dmin - slack)) $((dmax + slack)) "irqlatd's delta" "/proc/interrupts', $slack of slack"
}
check "JSON count delta lies within /proc/interrupts' (1% or 5 slack)" delta_in_bracket
diag "IRQ $IRQ: JSON $j1, then batch $b1, then JSON $j2"
check_between "batch count lies between the JSON counts before and after it (within the 0.1k rounding)" \
	"$b1" $((j1 - 50)) $((j2 + 50)) "the batch's count" "the JSON counts before and after, 50 of rounding"

# The header's rate counts the kernel's own vectors with the devices' IRQs (issue 27: it left
# out ~2,000 LOC, IWI and RES a second). The 10 s window's vector figure, times 10 s, lies
# between /proc/interrupts' LOC alone over an inner bracket (1.2 s to 9.8 s after the start:
# inside any window the answer at 11 s can have) and every row that is not a device IRQ over
# the outer one (all of it); and the total is the sum of its parts.
proc_rows() {	# LOC, then every non-device row, summed over the CPUs
	awk 'NR > 1 && $1 !~ /^[0-9]+:$/ { n = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i; all += n; if ($1 == "LOC:") loc = n }
		END { printf "%d %d\n", loc, all }' /proc/interrupts
}
unit_rate() { awk -v v="$1" 'BEGIN { m = 1; if (v ~ /k$/) m = 1e3; if (v ~ /M$/) m = 1e6; sub(/[kM]$/, "", v); printf "%.1f", v * m }'; }
read -r _ all0 < <(proc_rows); sleep 1.2
read -r loc1 _ < <(proc_rows); sleep 8.6
read -r loc2 _ < <(proc_rows); sleep 1.2
head=$(irqlat --top -b -n 1 | head -1)
read -r _ all3 < <(proc_rows)
diag "header: $head"
rates=$(sed -nE 's/.*, ([0-9.]+[kM]?) IRQ\/s \(([0-9.]+[kM]?) device, ([0-9.]+[kM]?) vector\), .*/\1 \2 \3/p' <<<"$head")
read -r r_all r_dev r_vec <<<"$rates"
vec_ok() {
	[ -n "$rates" ] || { diag "no 'N IRQ/s (D device, V vector)' in the header"; return 1; }
	local all dev vec
	all=$(unit_rate "$r_all") dev=$(unit_rate "$r_dev") vec=$(unit_rate "$r_vec")
	diag "vector $vec/s x 10 s against LOC's +$((loc2 - loc1)) (inner) and every non-device row's +$((all3 - all0)) (outer); total $all = $dev + $vec"
	# 5% and 1 a second of slack for the header's rounding (one decimal, or 0.1k)
	awk -v v="$vec" -v lo=$((loc2 - loc1)) -v hi=$((all3 - all0)) 'BEGIN { exit !(v * 10 * 1.05 + 10 >= lo && v * 10 * 0.95 - 10 <= hi) }' &&
		awk -v a="$all" -v d="$dev" -v v="$vec" 'BEGIN { s = d + v; exit !(a >= s * 0.95 - 1 && a <= s * 1.05 + 1) }'
}
check "the header's IRQ/s holds the vectors: their rate within /proc/interrupts' brackets, and the total their sum with the devices'" vec_ok
stop_daemon
done_testing
