#!/bin/bash
# irqlat's other commands against the kernel's own account. irqlat hist: a handler's histogram
# as text bars, by IRQ number, and as JSON lines by name (--iterations); a name no handler has
# is refused in one line. irqlat status: the programs it names by id are the ones bpftool
# lists, and its cost per IRQ is bpftool's run_time_ns / run_cnt of the same two programs
# (irqlatd --bpf-stats); its text says version, attach style, programs, drops, overhead and
# configuration. With libbpf-tools' hardirqs beside the daemon, every other program bpftool
# shows on the IRQ tracepoints is in the summary's bpf.shared, and the text output and status
# name hardirqs.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
plan 9

IRQ=$(disk_irq)
diag "disk IRQ: ${IRQ:-none}"
start_daemon --threshold-us 1 --outlier-rate 1 --interval-ms 1000 --bpf-stats --no-tracepoints
fio_load 3	# runs of the disk handler in hist's window, and for the programs' counters
name=$(irqlat --top -b -n 1 -J | jq -r --argjson irq "$IRQ" '[.irqs[] | select(.irq == $irq)][0].name')

out=$(irqlat hist "$IRQ"); rc=$?
text_bars() {
	exit_says "$rc" 0 "$out" "^IRQ $IRQ ($name)" && has_line "$out" -E ' [0-9]+ \|#'
}
check "irqlat hist IRQ: text bars of that handler" text_bars
out=$(irqlat hist no-such-handler 2>&1); rc=$?
check_exit "irqlat hist NAME that does not exist: exit 1, says so" "$rc" 1 "$out" "no handler.* matches 'no-such-handler'"
check_eq "hist --json --iterations 2: two JSON lines" "$(irqlat hist "$name" --json -n 2 -d 0.2 | jq -c .irqs[0].irq | grep -c "^$IRQ\$")" 2 \
	"lines whose first handler is IRQ $IRQ"

st=$(irqlat status --json)
ids=$(jq -r '.bpf.prog_ids[]' <<<"$st")
listed=0
for id in $ids; do bpftool prog show id "$id" 2>/dev/null | grep -q "irq_e" && listed=$((listed + 1)); done
check_eqn "status names the attached programs by id, and bpftool lists them (ids: ${ids//$'\n'/ })" "$listed" 2 \
	"ids bpftool shows as irq_e* programs"
# the cost against bpftool's own run-time counters of the same two programs
cost=$(jq '.bpf.ns_per_irq // 0' <<<"$st")
ref=$(for id in $ids; do bpftool -j prog show id "$id"; done | jq -s '(map(.run_time_ns // 0) | add) / ((.[1].run_cnt // 0) + 0.000001)')
diag "cost: status $cost ns/IRQ, bpftool $ref ns/IRQ"
check_awk "status cost per IRQ agrees with bpftool's run_time_ns/run_cnt within 25%" \
	'c > 0 && (c > r ? c - r : r - c) <= 0.25 * r' c="$cost" r="$ref"
out=$(irqlat status)
status_text_ok() {	# the lines of irqlat status, each as irqlatd(8) shows it
	has_line "$out" '^irqlatd [0-9.]*, pid' &&
		has_line "$out" -E '^attach: +(tp_btf|raw_tp)' &&
		has_line "$out" -E '^(programs:)? +irq: ([a-z_]+, )*irq_handler_(entry|exit)' &&
		has_line "$out" '^drops: ' &&
		has_line "$out" -E '^overhead: +[0-9]+ ns' &&
		has_line "$out" '^config: .*threshold 1.0us'
}
check "status text: version, attach style, programs, drops, overhead, configuration" status_text_ok

# other BPF programs on the IRQ tracepoints: libbpf-tools hardirqs beside the daemon. The
# reference is bpftool's list of links: every program it shows on irq_handler_entry/exit that
# is not this daemon's must be in the summary's bpf.shared.
hardirqs -d 8 1 >"$TMP/hardirqs.out" 2>&1 &
HARDIRQS=$!
# bpftool's raw_tracepoint links on irq_handler_entry/exit whose program is not one of $own:
# their program ids, sorted
OTHERS_ON_IRQ='[.[] | select(.type == "raw_tracepoint" and (.tp_name | test("^irq_handler_(entry|exit)$")) and ((.prog_id as $p | $own | index($p)) == null)) | .prog_id] | sort'
theirs() { bpftool -j link show 2>/dev/null | jq --argjson own "$(jq -c '.bpf.prog_ids' <<<"$st")" "$OTHERS_ON_IRQ"; }
hardirqs_on() { [ "$(bpftool -j prog show 2>/dev/null | jq '[.[] | select(.name | test("^irq_handler_"))] | length')" -ge 2 ]; }
for _ in $(seq 50); do hardirqs_on && break; sleep 0.1; done
sleep 5.5	# the daemon looks again at most every 5 s
# others' programs come and go (a benchmark's rounds): those in bpftool's lists before and
# after the summary were there all along
theirs >"$TMP/links1.json"
irqlat --top -b -n 1 -J >"$TMP/shared.json"
theirs >"$TMP/links2.json"
jq -s '.[0] - (.[0] - .[1])' "$TMP/links1.json" "$TMP/links2.json" >"$TMP/links.json"
irqlat --top -b -n 1 >"$TMP/shared.txt"
diag "bpftool: other programs on the IRQ tracepoints $(jq -c . "$TMP/links.json"); the daemon: $(jq -c '[.bpf.shared.programs[] | [.id, .comm]]' "$TMP/shared.json")"
# the summary knows the others, lists every one bpftool showed all along, hardirqs' two among them
SHARED='.bpf.shared.known and ([.bpf.shared.programs[].id] as $got | $links[0] | all(. as $i | $got | index($i) != null))
	and ([.bpf.shared.programs[] | select(.comm == "hardirqs")] | length >= 2)'
check_jq "bpf.shared lists every other program bpftool shows on the IRQ tracepoints, hardirqs' with its name" "<$TMP/shared.json" \
	"$SHARED" --slurpfile links "$TMP/links.json"
check_grep "the text output says their cost is in every time shown, and names hardirqs" \
	-E '^! every time shown includes the cost of [0-9]+ other BPF programs? on the IRQ tracepoints: .*hardirqs' "$TMP/shared.txt"
out=$(irqlat status)
check_match "status: 'shared:' names hardirqs" "$out" \
	-E "^shared: +[0-9]+ other BPF programs? on the IRQ tracepoints, whose cost .*hardirqs pid $HARDIRQS"
wait "$HARDIRQS"
stop_daemon
done_testing
