#!/bin/bash
# /metrics stays bounded at any task churn (issue 27, "bounded metrics"): 10,000 short-lived
# sleepers (tests/host/helpers/churn.c: each a child that sleeps 8 ms three times and exits,
# 32 alive at once: about 8 s, so that several of the daemon's ticks, each taking back the
# cells of the tasks that exited, fall in it) each get wake-up cells; while they come and go
# the page holds at most --max-wakeup-cells (512) of their series, and its wake-up family at
# most that many and "(other)"'s (every cell held: a task that exited gives its
# cells back at once); then 50 more one by one, while cells are free, keep their series for
# exited-task-grace-s after their exit, and after it none is left: the page holds the series of
# live tasks only. The references: the helper's own
# count of children that slept and exited, their comm ("churn", a fork without exec), and the
# page's own lines, counted by curl, before, during and after.
. "$(dirname "$0")/../lib.sh"
plan 6

GRACE=5
MP=$(free_port)
URL=http://127.0.0.1:$MP/metrics
cc -O2 -Wall -Wextra "$TOP/tests/host/helpers/churn.c" -o "$TMP/churn" || { echo "Bail out! cannot build churn"; exit 1; }
start_daemon --metrics "127.0.0.1:$MP" --exited-task-grace-s "$GRACE"
sleep 3	# a few ticks: the machine's own sleepers have their series
page() { curl -s -m 10 "$URL" >"$TMP/page"; }
samples() { grep -vc '^#' "$TMP/page"; }
wake_lines() { grep -c '^irqlat_wakeup_latency_seconds' "$TMP/page"; }
churn_series() { grep -c '^irqlat_wakeup_latency_seconds_count{.*comm="churn"' "$TMP/page"; }
page
before=$(samples)
# the lines of one wake-up series (its buckets, _sum and _count), from any task's on the page
pid1=$(sed -n 's/^irqlat_wakeup_latency_seconds_count{pid="\([0-9]*\)".*/\1/p' "$TMP/page" | head -1)
per_series=$(grep -c "^irqlat_wakeup_latency_seconds[_a-z]*{pid=\"${pid1:-x}\"," "$TMP/page")
max_cells=$(irqlat status --json | jq '.wakeup_cells.max')
diag "before: $before samples; a wake-up series is $per_series lines (pid $pid1); max-wakeup-cells $max_cells"

exited0=$(irqlat status --json | jq '.wakeup_cells.tasks_exited')
"$TMP/churn" 10000 32 8 >"$TMP/churn.out" &
CHURN=$!
most=0 most_churn=0 most_wake=0 pages=0
while kill -0 "$CHURN" 2>/dev/null; do
	page || continue
	pages=$((pages + 1))
	n=$(samples); c=$(churn_series); k=$(wake_lines)
	[ "$n" -gt "$most" ] && most=$n
	[ "$c" -gt "$most_churn" ] && most_churn=$c
	[ "$k" -gt "$most_wake" ] && most_wake=$k
	sleep 0.2
done
wait "$CHURN"
read -r started exited <"$TMP/churn.out"
sleep 2	# the ticks after the last exit
page
n=$(samples); c=$(churn_series); k=$(wake_lines)
[ "$n" -gt "$most" ] && most=$n
[ "$c" -gt "$most_churn" ] && most_churn=$c
[ "$k" -gt "$most_wake" ] && most_wake=$k
given_back=$(( $(irqlat status --json | jq '.wakeup_cells.tasks_exited') - exited0 ))
diag "churn: $started children started, $exited slept and exited; irqlatd gave back the cells of $given_back tasks that exited; $pages pages meanwhile, the largest $most samples (before: $before), the most churn series $most_churn, the most wake-up lines $most_wake"
# while every cell is held, a task that exited gives its cells back at once: most of them
# never reach a page, but each took cells and gave them back
churned() {
	is_eq "$started" 10000 "children started (churn's count)" && is_eq "$exited" 10000 "children that slept and exited (churn's count)" &&
		is_ge "$given_back" 1000 "tasks that exited whose cells irqlatd gave back (status)"
}
check "10,000 sleepers started and exited, and irqlatd gave back the cells of at least 1,000 tasks that exited" churned
# the task-keyed family is bounded; the others (a cause's series of late waits, an "(other)"
# series...) may appear as the load makes them, each once
bounded() {
	is_le "$most_churn" "$max_cells" "the most churn series on a page" "max-wakeup-cells" &&
		is_le "$most_wake" $(((max_cells + 1) * per_series)) "the most wake-up family lines on a page" "($max_cells + \"(other)\") x $per_series"
}
check "while they came and went: at most max-wakeup-cells ($max_cells) of their series, and of every task's with \"(other)\" ($most_wake lines <= ($max_cells + 1) x $per_series)" bounded

# then 50 one after another, once cells are free: each keeps its series for the grace after
# its exit, then it leaves the page. The churn's last tasks hold every cell when it ends; the
# daemon takes theirs back at a tick and queues them at the next (up to 2 s, more on a loaded
# machine), and 50 sleepers of 3 ms each started before that would all fall in "(other)".
# Each takes a cell on each CPU it wakes on: room for two each, and slack for the machine's own.
cells_free() { [ "$(irqlat status --json | jq --argjson n 128 '.wakeup_cells.held + $n <= .wakeup_cells.max')" = true ]; }
retry_for 30 cells_free || diag "cells held 30 s after the churn: $(irqlat status --json | jq -c .wakeup_cells)"
"$TMP/churn" 50 1 >"$TMP/churn2.out"
t0=$(date +%s)
sleep 2
page; shown=$(churn_series)
gone() { page && [ "$(churn_series)" -eq 0 ]; }
# the exit is seen up to 9 ticks late, then the grace; the rest is slack for a loaded machine
retry_for $((GRACE + 25)) gone; r=$?
diag "50 more: $shown of their series on the page 2 s after they exited; the last left $(( $(date +%s) - t0 )) s after (grace $GRACE s)"
check_gt "the 50 exited sleepers' series stay after their exit ($shown on the page 2 s after)" "$shown" 0 "their series on the page 2 s after"
grace_over() {	# gone succeeded within the grace, the 10 s look and slack; else what the last page held
	[ "$r" = 0 ] && return 0
	why "churn series on the last page, $((GRACE + 25)) s after" "$(churn_series)"; return 1
}
check "exited-task-grace-s ($GRACE s) after their exits were seen (up to 10 s), none of their series is left" grace_over
# the page after: no series of a task that exited longer ago than the grace. A task of this
# shared machine may exit at any time, so the check brackets it: the tasks gone (by /proc) when
# one page was read must all have left a page read the grace (and 2 s of ticks) later; a task
# that exited after the first page has its grace and is not counted. While cells are left the
# daemon looks at each task once in 10 ticks (src/daemon/collect/wakeup_reclaim.c), so an exit
# is seen up to 10 s late: the second page comes the grace and 12 s after the first.
series() { sed -n 's/^irqlat_wakeup_latency_seconds_count{pid="\([0-9]*\)",comm="\([^"]*\)".*/\1 \2/p' "$TMP/page"; }
sleep $((GRACE + 2))
page
after=$(samples)
series >"$TMP/series1"
dead1=$(while read -r p comm; do [ "$p" = 0 ] || [ -d "/proc/$p" ] || echo "$p $comm"; done <"$TMP/series1")
sleep $((GRACE + 12))
page
series >"$TMP/series2"
stale=$(echo "$dead1" | while read -r p comm; do [ -n "$p" ] && grep -qx "$p $comm" "$TMP/series2" && echo "$comm[$p]"; done)
live=$(wc -l <"$TMP/series2")
diag "after: $after samples (before: $before); gone at the first read: $(echo "$dead1" | grep -c .); still there $((GRACE + 12)) s later: $(echo $stale)"
none_stale() {
	is_gt "$before" 0 "samples on the page before" && is_gt "$live" 0 "wake-up series on the last page" &&
		is_empty "$stale" "series of tasks gone longer than the grace"
}
check "after the grace, the page holds no series of a task gone longer than the grace (of $live series, $(echo "$stale" | grep -c .) stale)" none_stale
lint=$(promtool check metrics <"$TMP/page" 2>&1); rc=$?
lint_clean() {
	[ "$rc" -eq 0 ] && [ -z "$lint" ] && return 0
	why "promtool check metrics: exit status" "$rc"; why "and said" "$lint"; return 1
}
check "promtool check metrics after the churn: no error, no lint problem" lint_clean
done_testing
