#!/bin/bash
# irqlat --top's keys, driven in tmux (helpers/top.sh) under fio load: w cycles the window and
# an idle handler's row shows '-', never 0 (and null in the JSON); / filters by name and Esc
# clears it; Enter opens the histogram of the selected handler, its bucket counts adding up to
# its runs; ? shows the help and any key leaves it.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/host/helpers/top.sh
. "$TOP/tests/host/helpers/top.sh"
plan 17

IRQ=$(disk_irq)
diag "disk IRQ: ${IRQ:-none}"
top_under_load
wait_for "^ +$IRQ " 10 || diag_why

# w cycles the window and says which
for w in 60s total 1s; do
	keys w
	check "w switches the window to $w" wait_for "window $w" 5
done
# idle is not a measurement: in the 1 s window some handler of an idle VM line has no run
idle_frame() {
	for _ in $(seq 40); do
		frame >"$TMP/idle"
		screen json "$TMP/idle" >"$TMP/idle.json"
		jq -e '[.rows[] | select(.P99 == null)] | length > 0' "$TMP/idle.json" >/dev/null && return 0
		sleep 0.5
	done
	why "no row without runs in 20 s of 1 s windows; the last" "$(cat "$TMP/idle")"
	return 1
}
check "in the 1 s window an idle handler shows up (within 20 s)" idle_frame
diag "idle rows: $(jq -c '[.rows[] | select(.P99 == null) | [.IRQ, .raw]]' "$TMP/idle.json")"
# a row without runs in the window shows '-' in every latency and RATE/s 0.0; a busy row no '-'
IDLE_ROW='([.raw.AVG, .raw.P50, .raw.P99, .raw["P99.9"], .raw.MAX] | unique) as $l
	| if .P99 == null then $l == ["-"] and .raw["RATE/s"] == "0.0" else ($l | index("-")) == null end'
check_jq_all "idle rows show '-' in AVG, P50, P99, P99.9 and MAX, never 0ns, and RATE/s 0.0; busy rows no '-'" "<$TMP/idle.json" \
	'.rows[]' "$IDLE_ROW"
# the daemon's side: no run in the window is null in JSON, never 0 (one snapshot read once)
irqlat --top -b -n 1 -J -w 1s >"$TMP/idle-json"
# a handler without runs in the window: every latency null; with runs: numbers
IDLE_JSON='if .window_count == 0 then [.avg_ns, .p50_ns, .p90_ns, .p99_ns, .p999_ns, .max_ns] == [null, null, null, null, null, null]
	else ([.avg_ns, .p50_ns, .p99_ns, .max_ns] | map(type == "number") | all) end'
check_jq_all "JSON: handlers without runs in the window have null latencies, the others numbers" "<$TMP/idle-json" \
	'.irqs[]' "$IDLE_JSON"
keys w
check "w switches the window to 10s" wait_for "window 10s" 5

# / filters by name
name=$(irqlat --top -b -n 1 -J | jq -r --argjson irq "$IRQ" '[.irqs[] | select(.irq == $irq)][0].name')
part=${name%%.*}
want=$(irqlat --top -b -n 1 -J | jq --arg p "$part" '[.irqs[] | select(.name | ascii_downcase | contains($p | ascii_downcase))] | length')
keys /
"${TM[@]}" send-keys -t "$PANE" -l "$part"
keys Enter
frame >"$TMP/filter"
got=$(screen json "$TMP/filter" | jq --arg p "$part" '([.rows[] | select(.NAME | contains($p))] | length), (.rows | length)' | tr '\n' ' ')
check_eq "/$part keeps just the $want handlers whose name has it (got: matching, shown = $got)" "$got" "$want $want " \
	"rows matching, rows shown" "handlers whose name has it, twice"
keys / Escape
frame >"$TMP/nofilter"
check_gt "Esc in the filter clears it" "$(screen json "$TMP/nofilter" | jq '.rows | length')" "$want" "rows after Esc" "rows matching /$part"

# Enter: the histogram of the selected handler (sorted by count, the disk IRQ is on top)
keys n Home Enter
check "Enter opens a histogram of the selected handler (the busiest: IRQ $IRQ)" wait_for "^histogram of IRQ $IRQ " 5
frame >"$TMP/hist"
bars() { screen hist "$TMP/hist" && return 0; why "the histogram" "$(cat "$TMP/hist")"; return 1; }
check "histogram has bars over increasing buckets and p50/p99/p99.9 markers" bars
total=$(grep -oE '^[0-9]+ runs' "$TMP/hist" | grep -oE '[0-9]+')
sum=$(grep -E '^ *[0-9.]+(ns|us|ms|s) - ' "$TMP/hist" | awk '{ s += $4 } END { print s + 0 }')
buckets_add_up() { is_gt "${total:-0}" 0 "runs" && is_eq "$sum" "${total:-x}" "the buckets' sum" "runs"; }
check "histogram bucket counts add up to its runs ($sum of $total)" buckets_add_up
keys Escape
check "Esc goes back to the table" wait_for "^ +IRQ +.*NAME" 5
keys '?'
check "? shows the help" wait_for "sort by P99" 5
check "the help explains the default order" wait_for "^Default order %TIME: the share of time in the handler, so what costs" 2
check "the help says q quits and any other key goes back" wait_for "^q quits; any other key goes back" 2
keys x
check "any key leaves the help" wait_for "^ +IRQ +.*NAME" 5
"${TM[@]}" kill-server
stop_fio
stop_daemon
done_testing
