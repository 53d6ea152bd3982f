#!/bin/bash
# Why it was late, with interrupts of a known cause on CPU 1 next to cyclictest's thread
# (SCHED_FIFO 95, pinned to CPU 1), irqlatd with its defaults (issue 29; the FIFO 99 busy task
# is 11-why-host.t's):
#  A. a disk-IRQ flood: fio's direct reads (from CPU 0) with the virtio disk's IRQ on CPU 1 (its
#     affinity set, and restored after; virtio-blk's IRQ is managed, EPERM to a new affinity:
#     then the kernel's choice, if it is CPU 1);
#  B. NET_RX of loopback traffic: tests/host/helpers/lo-flood.c, in a network namespace of its
#     own, floods lo with UDP datagrams from CPU 0, steers their receive to CPU 1 (RPS), and
#     makes each cost 20 us there (a socket filter), so that a net_rx_action() of 64 of them
#     runs about 1.3 ms, and a wake-up during one waits for its end.
# The reference is ftrace's own events of CPU 1 in a private tracefs instance over the same run
# (trace_clock mono, the daemon's clock): irq_handler_entry/exit, softirq_entry/exit,
# irq_vectors' entries and exits, sched_switch, and the timer's hrtimer_start and
# hrtimer_expire_entry, which give each wait's expiry, callback and switch-in
# (tests/host/helpers/ftrace_parts.py). Every explained wait of the measuring thread on CPU 1
# (from `irqlat events -f`: the daemon keeps the last 64 a CPU), its late wake-ups and the late
# timers that woke it, is matched to ftrace's; in the window irqlatd splits by the CPU's
# interrupt clocks (a wake-up: from its timer's callback to its switch-in; a late timer: from
# its expiry to its callback), ftrace's time in hard-IRQ handlers, vector interrupts and
# softirqs (each net of what nested in it) is irqlatd's IRQ, vector and softirq part, and the
# wait and its window are ftrace's, within one histogram bucket (9.05%) or 20 us. A source
# that took most of a wake-up after its callback, by ftrace, is its largest part there, named
# as the handler or softirq of the largest event; in B, NET_RX is the thread's top cause.
#
# What makes a wake-up late (1 ms, the default threshold) on this machine under A is not the
# disk's IRQs, a few us each, between which cyclictest runs: it is the hypervisor, which holds
# CPU 1 for 3 to 10 ms at times (no event of any kind on it meanwhile), and those waits' IRQ
# parts are what A compares (the check that a wake-up the disk's IRQ took most of is named so
# is skipped, saying so, when there is none; and when there is no late wake-up at all, by
# cyclictest's longest, so is the check that the disk's IRQ was in some).
if [ -z "${IRQLAT_TEST_NS:-}" ]; then
	IRQLAT_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
plan 16

INST=/sys/kernel/tracing/instances/irqlat-why21-$$
FOLLOW=
LOAD=
DISK_IRQ=
DISK_AFF=
irq_load_cleanup() {
	[ -n "$LOAD" ] && kill "$LOAD" 2>/dev/null && wait "$LOAD" 2>/dev/null
	[ -n "$DISK_AFF" ] && echo "$DISK_AFF" >"/proc/irq/$DISK_IRQ/smp_affinity_list" 2>/dev/null
	[ -n "$FOLLOW" ] && kill "$FOLLOW" 2>/dev/null && wait "$FOLLOW" 2>/dev/null
	stop_daemon
	[ -d "$INST" ] && rmdir "$INST"
	rm -rf "$TMP"
}
trap irq_load_cleanup EXIT
for t in cyclictest taskset fio jq python3 cc; do
	command -v "$t" >/dev/null || { echo "Bail out! $t is missing (scripts/install-deps test)"; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "1..0 # SKIP needs 2 CPUs"; exit 0; }
mount_fs
cc -O2 -Wall -Wextra "$TOP/tests/host/helpers/lo-flood.c" -o "$TMP/lo-flood" || { echo "Bail out! cannot build lo-flood"; exit 1; }
DISK_IRQ=$(disk_irq)
[ -n "$DISK_IRQ" ] || { echo "Bail out! no virtio*-req* line in /proc/interrupts"; exit 1; }
DISK_NAME=$(awk -v irq="$DISK_IRQ:" '$1 == irq { print $NF }' /proc/interrupts)

# ftrace's own events of CPU 1 (tests/lib.sh's ftrace_cpu1: before the daemon starts)
ftrace_cpu1 "$INST" 65536 irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit \
	sched/sched_switch timer/hrtimer_start timer/hrtimer_expire_entry irq_vectors ||
	{ echo "Bail out! cannot make a tracefs instance"; exit 1; }

start_daemon || { echo "Bail out! irqlatd did not start"; exit 1; }
# every outlier with its explanation, as it comes
irqlat events -f -J >"$TMP/events.json" 2>"$TMP/events.err" &
FOLLOW=$!

mono_ns() { python3 -c 'import time; print(time.monotonic_ns())'; }
# cpu1_irqs: the disk IRQ's count on CPU 1; cpu1_softirq NAME: a softirq's count on CPU 1
cpu1_irqs() { awk -v irq="$DISK_IRQ:" '$1 == irq { print $3 }' /proc/interrupts; }
cpu1_softirq() { awk -v v="$1:" '$1 == v { print $3 }' /proc/softirqs; }
# run_cyclictest NAME LOOPS: cyclictest's wake-ups on CPU 1 under the trace; its trace to
# $TMP/NAME.trace, the time it ran in $TMP/NAME.span ("FROM TO", CLOCK_MONOTONIC ns), its
# measuring thread in $TMP/NAME.tid
run_cyclictest() {
	echo >"$INST/trace"
	echo 1 >"$INST/tracing_on"
	local from; from=$(mono_ns)
	cyclictest -m -q -t1 -p 95 -a 1 -i 1000 -l "$2" >"$TMP/$1.cyclictest" 2>&1
	echo "$from $(mono_ns)" >"$TMP/$1.span"
	echo 0 >"$INST/tracing_on"
	cp "$INST/trace" "$TMP/$1.trace"
	sed -nE 's/^T: *0 *\( *([0-9]+)\).*/\1/p' "$TMP/$1.cyclictest" >"$TMP/$1.tid"
	diag "$1: $(grep '^T:' "$TMP/$1.cyclictest"); ftrace's instance on CPU 1: $(grep -E '^(entries|overrun|dropped events):' "$INST"/per_cpu/cpu1/stats | tr '\n' ' ')"
	sleep 1	# the last explained waits on their way to irqlat events
}
# compare NAME: the measuring thread's explained waits on CPU 1 in NAME's span (its late
# wake-ups and the late timers that woke it), against ftrace: $TMP/NAME.waits (irqlatd's),
# $TMP/NAME.parts (ftrace's), and $TMP/NAME.cmp, a line a wait ftrace saw (names' blanks as _):
#  1 id  2 total  3 before the window (a wake-up's timer lateness)  4 the window (the rest)
#  5-7 irq, vector, softirq parts | 8 ftrace's total  9 window  10-12 irq, vector, softirq |
#  13-14 irqlatd's top IRQ, softirq (or -)  15-16 ftrace's  17 the largest part in the window
#  18 class  19 1 when the ring of recent events did not reach back to the window's start
#  20 ftrace's longest time without an event in the wait
compare() {
	local span; read -r -a span <"$TMP/$1.span"
	jq -c --argjson a "${span[0]}" --argjson b "${span[1]}" --argjson tid "$(cat "$TMP/$1.tid")" 'select(.why) | .why
		| select(.cpu == 1 and .pid == $tid and .ts_ns > $a and .ts_ns < $b and (.flags | index("moved") | not)
			and (.class == "wakeup" or (.class == "timer" and .what == "hrtimer_wakeup")))' "$TMP/events.json" >"$TMP/$1.waits"
	jq -r '"\(.class)-\(.ts_ns) \(.pid) \(.ts_ns) \(.class)"' "$TMP/$1.waits" >"$TMP/$1.ids"
	python3 "$TOP/tests/host/helpers/ftrace_parts.py" "$TMP/$1.trace" 1 "$TMP/$1.ids" >"$TMP/$1.parts"
	jq -r -n --slurpfile w "$TMP/$1.waits" --slurpfile f "$TMP/$1.parts" '
		($f | map(select(.unmatched | not)) | INDEX(.id)) as $F
		| $w[] | "\(.class)-\(.ts_ns)" as $id | $F[$id] as $x | select($x)
		| (if .class == "timer" then 0 else .parts.late_idle_ns + .parts.late_busy_ns end) as $before
		| [$id, .total_ns, $before, .total_ns - $before, .parts.irq_ns, .parts.vector_ns, .parts.softirq_ns,
		   $x.total_ns, $x.window_ns, $x.irq_ns, $x.vector_ns, $x.softirq_ns,
		   (.top.irq.name // "-"), (.top.softirq.name // "-"),
		   (if $x.irq_top == "" then "-" else $x.irq_top end), (if $x.softirq_top == "" then "-" else $x.softirq_top end),
		   ([.parts | to_entries[] | select(.key | startswith("late_") | not)] | max_by(.value) | .key | sub("_ns$"; "")),
		   .class, (if .flags | index("recent_partial") then 1 else 0 end), $x.gap_ns]
		| map(tostring | gsub(" "; "_")) | join(" ")' | sort >"$TMP/$1.cmp"
	awk '$18 == "wakeup"' "$TMP/$1.cmp" >"$TMP/$1.wakeup"
	awk '$18 == "timer" && $19 == 0' "$TMP/$1.cmp" >"$TMP/$1.timer"
	diag "$1: the measuring thread's explained waits on CPU 1: $(jq -s 'map(.class) | group_by(.) | map("\(length) \(.[0])") | join(", ")' "$TMP/$1.waits"); ftrace saw $(wc -l <"$TMP/$1.wakeup") of the wake-ups and $(awk '$18 == "timer"' "$TMP/$1.cmp" | wc -l) of the late timers ($(awk '$18 == "timer" && $19 == 1' "$TMP/$1.cmp" | wc -l) of which beyond the ring of recent events: not compared); $(grep -c unmatched "$TMP/$1.parts") not (outside the trace, or a timer another CPU armed)"
}
# few BAD N WHAT: at most 2% of N (two at least) lines in BAD. Two tracers of one tracepoint do
# not see its event at one time: ftrace's probe runs after irqlatd's, or before, and this VM's
# host takes the CPU for 20 us to 10 ms at times (no event of any kind on it meanwhile: the
# last column, ftrace's longest time without an event in the wait); now and then it does so
# between the two probes, and that time falls in one context for irqlatd and in the next for
# ftrace (seen: a switch-in 21.6 us apart, a callback's start 141 us apart, a softirq's exit
# 2.27 ms apart, its time irqlatd's blocking task's, a disk IRQ's entry 6.3 and 9.3 ms apart,
# its time irqlatd's IRQ part: 0 to 4 waits a run, most often under the disk load, whose host
# takes the CPU most). A defect of the explanation is off in more of them (the late timers'
# softirq this test found: 2 of 31 and 3 of 9).
# PCT (default 2) for the vector part alone: its events are short (a local timer's 5 to 60 us
# here) and a wait holds a few of them, so one event whose stamps were split between the two
# probes is a whole event's worth off, beyond 20 us; its time is then the next context's for one
# tracer, so the wait and its window still agree. With ftrace's probes registered after the
# daemon's (this test before 2026-12-06), under NET_RX's load (B) that was 0 or 1 of 1,150 to
# 1,330 wake-ups on a quiet machine, 4 of 1,314 with both CPUs busy at nice 19, and 73 of 1,439
# in one CI run (each 23 to 50 us off: irqlatd's largest local timer event of such a wait 42 us
# where ftrace's were 8 and 7). ftrace's probes now come first (above), which removes the
# daemon's own slow paths from between them; 10% stays for the host's, and keeps a defect of
# the vector part, which would be off in most waits, in sight.
few() {
	local n pct=${4:-2}; n=$(grep -c . <<<"$1")
	[ "$n" -le $(($2 * pct / 100 > 2 ? $2 * pct / 100 : 2)) ] && return 0
	why "$3 ($n of $2; $pct% allowed, two at least; id total before window irq vector softirq | ftrace's total window irq vector softirq | tops | largest class partial gap)" "$1"
	return 1
}
# agree FILE COLUMN_IRQLATD COLUMN_FTRACE WHAT: the part of each wait of FILE ($TMP/NAME.wakeup
# or .timer) within one bucket (9.05% of ftrace's) or 20 us of ftrace's, but for a few (few)
OFF='{ a = $(A); f = $(F); t = f * 0.0905; if (t < 20000) t = 20000; if (a < f - t || a > f + t) print }'
agree() { few "$(awk -v A="$2" -v F="$3" "$OFF" "$1")" "$(wc -l <"$1")" "$4: waits off by more than a bucket or 20 us" "${5:-2}"; }
# offs FILE: the waits off by more than a bucket or 20 us in any column, for the diagnostics
offs() { local c; for c in "2 8" "4 9" "5 10" "6 11" "7 12"; do awk -v A="${c% *}" -v F="${c#* }" "$OFF" "$@"; done | sort -u; }
# agree_all FILE WHAT: the wait, its window and its three interrupt parts (none: nothing to
# compare; the checks that some were compared are apart)
agree_all() {
	agree "$1" 2 8 "$2: the wait" && agree "$1" 4 9 "$2: the window" &&
		agree "$1" 5 10 "$2: IRQ part" && agree "$1" 6 11 "$2: vector part" 10 && agree "$1" 7 12 "$2: softirq part"
}
# worst FILE COLUMN_IRQLATD COLUMN_FTRACE: the largest difference, and ftrace's largest value
worst() { awk -v A="$2" -v F="$3" '{ d = $(A) - $(F); if (d < 0) d = -d; if (d > m) m = d; if ($(F) > fm) fm = $(F); if ($(F) > 0) n++; s += $(F) } END { printf "%d with some, the largest difference %.1f us, ftrace largest %.1f us, sum %.1f us", n, m / 1e3, fm / 1e3, s / 1e3 }' "$1"; }
# top_named FILE COL_IRQLATD COL_FTRACE WHAT: where ftrace saw an event of the class in the
# window, irqlatd's top of the class is the one of ftrace's largest (waits whose ring of recent
# events reached back to the window's start), but for a few (few)
top_named() { few "$(awk -v A="$2" -v F="$3" '$19 == 0 && $(F) != "-" && $(A) != $(F)' "$1")" "$(wc -l <"$1")" "waits whose top $4 is not ftrace's"; }
# most_named NAME IDS PART TOP: each wake-up of IDS has PART as its largest part after the
# callback, and TOP as its top, but for a few (few)
most_named() {
	local n; n=$(grep -c . <<<"$2")
	is_gt "$n" 0 "such waits, by ftrace" &&
		few "$(join <(echo "$2") "$TMP/$1.wakeup" | awk -v p="$3" -v t="$4" '$17 != p || (p == "irq" ? $13 : $14) != t')" "$n" "those not named so"
}

# ---- A: the disk's IRQs on CPU 1
# (virtio-blk's queue IRQs are managed: the kernel spreads them and refuses a new affinity,
# EPERM; then the test takes the CPU the kernel chose, if it is CPU 1)
DISK_AFF=$(cat "/proc/irq/$DISK_IRQ/smp_affinity_list")
if ! echo 1 2>/dev/null >"/proc/irq/$DISK_IRQ/smp_affinity_list"; then
	DISK_AFF=
	eff=$(cat "/proc/irq/$DISK_IRQ/effective_affinity_list")
	diag "A: IRQ $DISK_IRQ's affinity cannot be set (a managed IRQ); the kernel's: $(cat "/proc/irq/$DISK_IRQ/smp_affinity_list"), in effect $eff"
	[ "$eff" = 1 ] || A_SKIP="IRQ $DISK_IRQ is managed, and the kernel put it on CPU $eff, not 1"
fi
if [ -n "${A_SKIP:-}" ]; then
	for _ in 1 2 3 4 5 6; do skip "A: $A_SKIP"; done
else
	b0=$(cpu1_softirq BLOCK)
	taskset -c 0 fio --name=irqload --filename="$TMP/fio.dat" --size=32M --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --runtime=8 --time_based >"$TMP/fio.log" 2>&1 &
	LOAD=$!
	sleep 1.5	# fio lays out its file first
	i1=$(cpu1_irqs); t1=$(date +%s%N)
	run_cyclictest A 5000
	i2=$(cpu1_irqs); b2=$(cpu1_softirq BLOCK); t2=$(date +%s%N)
	wait "$LOAD"; LOAD=
	[ -z "$DISK_AFF" ] || { echo "$DISK_AFF" >"/proc/irq/$DISK_IRQ/smp_affinity_list" && DISK_AFF=; }
	rate=$(( (i2 - i1) * 1000000000 / (t2 - t1) ))
	diag "A: IRQ $DISK_IRQ ($DISK_NAME) on CPU 1: $((i2 - i1)) while cyclictest ran, $rate a second; BLOCK softirqs on CPU 1: $((b2 - b0))"
	check "A: the disk's IRQs came to CPU 1 while cyclictest ran ($rate a second)" is_ge "$rate" 2000 "IRQ $DISK_IRQ's rate on CPU 1" "a flood"
	compare A
	DISK="IRQ $DISK_IRQ $DISK_NAME"
	with_disk=$(jq -r --arg d "$DISK" 'select(.irq_by[$d] // 0 > 0) | .id' "$TMP/A.parts" | wc -l)
	disk_most_ids=$(jq -r --arg d "$DISK" 'select(.id | startswith("wakeup-")) | select(.irq_by[$d] and 2 * .irq_by[$d] > .window_ns and .window_ns > 20000) | .id' "$TMP/A.parts" | sort)
	disk_most=$(grep -c . <<<"$disk_most_ids")
	diag "A: ftrace saw the disk's IRQ in $with_disk of those waits' windows; IRQ time in the wake-ups after their callback: $(worst "$TMP/A.wakeup" 5 10); in the late timers: $(worst "$TMP/A.timer" 5 10)"
	diag "A: the wake-ups' timer lateness (the part before the window): $(awk '{ s += $3; a += $4 } END { printf "%.0f us, the rest %.0f us", s / 1e3, a / 1e3 }' "$TMP/A.wakeup"); their largest part after the callback: $(awk '{ print $17 }' "$TMP/A.wakeup" | sort | uniq -c | tr -s ' \n' ' ')"
	head -4 "$TMP/A.cmp" | sed 's/^/#   /'
	offs "$TMP/A.wakeup" "$TMP/A.timer" | sed 's/^/#   off by more than a bucket or 20 us: /'
	check "A: each late wake-up of the thread agrees with ftrace: the wait, after its callback, its IRQ, vector and softirq parts ($(wc -l <"$TMP/A.wakeup"))" \
		agree_all "$TMP/A.wakeup" "wake-ups"
	check "A: each late timer that woke it agrees with ftrace: the lateness, its IRQ, vector and softirq parts ($(wc -l <"$TMP/A.timer"))" \
		agree_all "$TMP/A.timer" "late timers"
	# with no late wait at all there is nothing the disk's IRQ could be in: cyclictest, the
	# reference, says so when its longest is under the threshold (a machine whose hypervisor
	# held CPU 1 for no millisecond: its longest was 218 to 300 us)
	a_max=$(sed -nE 's/^T:.* Max: *([0-9]+).*/\1/p' "$TMP/A.cyclictest")
	if [ "$(cat "$TMP/A.wakeup" "$TMP/A.timer" | wc -l)" -eq 0 ] && [ "${a_max:-1000}" -lt 1000 ]; then
		skip "A: the disk's IRQ was in some of those waits: there were none, cyclictest's longest was $a_max us, under the threshold (1000 us)"
	else
		check "A: the disk's IRQ was in some of those waits, by ftrace ($with_disk)" is_gt "$with_disk" 0 "waits with IRQ $DISK_IRQ in them"
	fi
	check "A: the top IRQ handler named is the one of ftrace's largest event, where ftrace saw one" \
		eval 'top_named "$TMP/A.wakeup" 13 15 IRQ && top_named "$TMP/A.timer" 13 15 IRQ'
	if [ "$disk_most" -gt 0 ]; then
		check "A: a wake-up the disk's IRQ took most of after the callback, by ftrace, has the IRQ as its largest part, named $DISK_NAME ($disk_most)" \
			most_named A "$disk_most_ids" irq "IRQ_${DISK_IRQ}_$DISK_NAME"
	else
		skip "A: no late wake-up on CPU 1 that the disk's IRQ took most of after its callback, by ftrace ($with_disk waits with it in them): its handlers run a few us, cyclictest runs between them"
	fi
fi

# ---- B: NET_RX of loopback traffic on CPU 1 (each datagram 20 us of it: a net_rx_action() of
# 64 of them, about 1.3 ms, which a wake-up in it waits out)
n0=$(cpu1_softirq NET_RX)
"$TMP/lo-flood" 9 0 1 20 >"$TMP/lo-flood.out" 2>&1 &
LOAD=$!
sleep 1
n1=$(cpu1_softirq NET_RX); t1=$(date +%s%N)
run_cyclictest B 3000
n2=$(cpu1_softirq NET_RX); t2=$(date +%s%N)
# the screen's TOP CAUSE of the measuring thread's row, while its kept waits are B's
irqlat --top -b -n 1 >"$TMP/B.snap"
irqlat why cyclictest >"$TMP/B.why"
wait "$LOAD"; LOAD=
rate=$(( (n2 - n1) * 1000000000 / (t2 - t1) ))
diag "B: lo-flood: $(cat "$TMP/lo-flood.out"); NET_RX on CPU 1: $((n2 - n1)) runs while cyclictest ran, $rate a second ($((n2 - n0)) in all)"
check "B: NET_RX ran on CPU 1 while cyclictest ran ($rate a second)" is_ge "$rate" 300 "NET_RX's rate on CPU 1" "runs of 1.3 ms, back to back"
compare B
netrx_most=$(jq -r 'select(.id | startswith("wakeup-")) | select(.softirq_by["softirq NET_RX"] and 2 * .softirq_by["softirq NET_RX"] > .window_ns and .window_ns > 20000) | .id' "$TMP/B.parts" | sort)
diag "B: ftrace saw NET_RX take most of $(grep -c . <<<"$netrx_most") wake-ups after the callback; softirq time in them: $(worst "$TMP/B.wakeup" 7 12); irqlatd's largest part after the callback: $(awk '{ print $17 }' "$TMP/B.wakeup" | sort | uniq -c | tr -s ' \n' ' ')"
head -3 "$TMP/B.wakeup" | sed 's/^/#   /'
offs "$TMP/B.wakeup" "$TMP/B.timer" | sed 's/^/#   off by more than a bucket or 20 us: /'
check "B: each late wake-up of the thread agrees with ftrace: the wait, after its callback, its softirq, IRQ and vector parts ($(wc -l <"$TMP/B.wakeup"); softirq: $(worst "$TMP/B.wakeup" 7 12))" \
	agree_all "$TMP/B.wakeup" "wake-ups"
check "B: each late timer that woke it agrees with ftrace ($(wc -l <"$TMP/B.timer"))" agree_all "$TMP/B.timer" "late timers"
check "B: every wake-up NET_RX took most of after the callback, by ftrace, has the softirq as its largest part, named NET_RX" \
	most_named B "$netrx_most" softirq softirq_NET_RX
check "B: the top softirq named is the one of ftrace's largest run, where ftrace saw one" top_named "$TMP/B.wakeup" 14 16 softirq
# the issue's "top cause": over the thread's explained wake-ups the largest part is the
# softirq, named NET_RX (the screen's row: TOP CAUSE), where ftrace's NET_RX time is most of them
TID=$(cat "$TMP/B.tid")
ftrace_share=$(jq -s -r 'map(select(.end_ns and (.id | startswith("wakeup-")))) | "\(map(.softirq_by["softirq NET_RX"] // 0) | add // 0) \(map(.total_ns) | add // 0)"' "$TMP/B.parts")
top_cause=$(jq -s -r 'map(select(.class == "wakeup")) | [.[].parts | to_entries[]] | group_by(.key) | map({k: .[0].key, ns: (map(.value) | add)}) | max_by(.ns) | .k' "$TMP/B.waits")
ROW=$(grep -E "^ *cyclictest\[$TID\] " "$TMP/B.snap" | head -1)
diag "B: ftrace's NET_RX time in the thread's late wake-ups, and their total: $ftrace_share ns; irqlatd's largest part over them: $top_cause; the screen's row: '$ROW'"
top_is_netrx() {
	local f t; read -r f t <<<"$ftrace_share"
	awk_holds "2 * f > t" f="${f:-0}" t="${t:-0}" &&
		is_eq "$top_cause" softirq_ns "irqlatd's largest part of the wake-ups" &&
		has_line "$ROW" -E "[0-9]+% softirq NET_RX"
}
check "B: NET_RX took most of the thread's late wake-ups, by ftrace, and it is irqlatd's top cause (why, and the screen's TOP CAUSE)" top_is_netrx
diag "B: a wait, as irqlat why prints it:"
awk -v tid="$TID" '/^[0-9]/ { block = $0 "\n"; keep = index($0, "cyclictest[" tid "]") > 0; next } { block = block $0 "\n" } /^  wake-up latency/ && keep { last = block } END { printf "%s", last }' "$TMP/B.why" | sed 's/^/#   /'
check "irqlat why names NET_RX as the thread's softirq" grep -q "softirq interference .*top: softirq NET_RX" "$TMP/B.why"

check "every explained wait of the run adds up to its total exactly" \
	jq_every "<$TMP/events.json" '.[] | .why? // empty' '([.parts[]] | add) == .total_ns' -s
check "the event stream lost nothing" is_empty "$(jq -c 'select(.lost)' "$TMP/events.json"; cat "$TMP/events.err")" "irqlat events -f"
kill "$FOLLOW"; wait "$FOLLOW" 2>/dev/null; FOLLOW=
stop_daemon
check "irqlatd exits 0" test "$DAEMON_STATUS" -eq 0
