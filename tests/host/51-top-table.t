#!/bin/bash
# irqlat --top's table, driven in tmux as a person would (helpers/top.sh) under fio load
# against a real daemon, the screen parsed by helpers/screen.py: the header and the columns,
# the default order (%TIME, the busy disk first), the '*' of a percentile of too few runs
# against the row's own rate, one format of RATE/s, the line over the header, and every sort
# key.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/host/helpers/top.sh
. "$TOP/tests/host/helpers/top.sh"
plan 18

IRQ=$(disk_irq)
diag "disk IRQ: ${IRQ:-none}"
top_under_load
check_match "the screen comes up: header with uptime, rate, handlers, window" "$(cap)" \
	-E '^irqlat - up [0-9]+:[0-9]{2}:[0-9]{2}, [0-9.kM]+ IRQ/s( \([0-9.kM]+ device, [0-9.kM]+ vector\))?, [0-9]+ handlers, window 10s'
check_eq "the screen uses the alternate screen" "$(pane_flag alternate_on)" 1 "tmux's alternate_on"
wait_for "^ +$IRQ " 10 || diag_why
# the sort checks want at least two rows to order, better three: besides the disk, an idle VM's
# balloon, console and network lines fire every few seconds; give them the time to show up
for _ in $(seq 30); do
	[ "$(irqlat status --json | jq .handlers)" -ge 3 ] && break
	sleep 0.5
done
frame >"$TMP/f0"
check_grep "header shows drops, the threshold and the BPF cost per IRQ (irqlatd --bpf-stats) with what it is" \
	-E "^drops: [0-9]+, outlier threshold 1.0us, cost: [0-9]+ ns/IRQ in irqlatd's BPF programs \(more at low" "$TMP/f0"
screen json "$TMP/f0" >"$TMP/f0.json"
check_jq "column header line has every default column" "<$TMP/f0.json" \
	'.cols == ["IRQ","NAME","CPUS","COUNT","RATE/s","AVG","P50","P99","P99.9","MAX","%TIME","FLAGS"]'
check "the default sort is %TIME, highest first" screen sorted "$TMP/f0" %TIME down
diag "default order: $(jq -c '[.rows[] | [.IRQ, .raw["%TIME"], .raw.P99]]' "$TMP/f0.json")"
# issue 14: "handlers with 11 to 165 runs sat above the disk handler running 7,000 times a second"
check "by default the busy disk IRQ $IRQ leads, above every handler with too few runs for a p99" \
	jqe --argjson irq "$IRQ" '.rows[0].IRQ == $irq and (.rows[0].few | length == 0) and ([.rows[] | select(.few | index("P99"))] | length > 0)' "$TMP/f0.json"
# the '*' against the same row's rate: under 100 runs in the 10 s window (RATE rounds to 0.1)
check_jq_all "P99 carries '*' exactly on the rows with under 100 runs in the 10 s window (RATE/s x 10)" "<$TMP/f0.json" \
	'.rows[] | select(.P99 != null)' '((.few | index("P99")) != null) == (.["RATE/s"] * 10 < 100)'
check_grep "the screen explains the '*'" -E '^\*: too few runs in the window for that percentile \(.*P99( needs)? 100' "$TMP/f0"
check_jq_all "RATE/s has one format: one decimal below 100, none from 100" "<$TMP/f0.json" \
	'.rows[] | .raw["RATE/s"]' 'test("^([0-9]{1,2}\\.[0-9]|[0-9]{3,5}|[0-9.]+[kMG])$")'
# the line over the header: COUNT under "since start", P99 and %TIME under "last 10s"
check "the line over the header says COUNT is since start and the latencies are the last 10 s" screen scope "$TMP/f0"

# each sort key, in turn: the arrow moves to its column and the rows follow that column
for spec in "m MAX down" "r RATE/s down" "n COUNT down" "t %TIME down" "i IRQ up" "a NAME up" "R NAME down" "p P99 up"; do
	# shellcheck disable=SC2086 # key, column, direction
	set -- $spec
	keys "$1"
	frame >"$TMP/sort"
	if screen sorted "$TMP/sort" "$2" "$3" >"$TMP/sort.out"; then
		ok "key $1 sorts by $2 ($3)"
	else
		not_ok "key $1 sorts by $2 ($3)" "$(cat "$TMP/sort.out")" "$(cat "$TMP/sort")"
	fi
done
"${TM[@]}" kill-server
stop_fio
stop_daemon
done_testing
