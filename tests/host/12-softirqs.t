#!/bin/bash
# Softirqs: per-vector run counts against /proc/softirqs over the same snapshots (bracketed,
# tests/host/helpers/snapshot_bracket.py) under disk load (BLOCK) and a network load on a
# private loopback (NET_RX, and NET_TX from a token-bucket qdisc that makes the stack
# reschedule transmission); the JSON fields, per-CPU lines and raise latencies; irqlat hist
# with a vector; /metrics through promtool; outliers in the log, irqlat events and a real
# journald (own MESSAGE_IDs, the catalog); --no-softirqs.
#
# journald is this test's own, in a private mount namespace (start_private_journald).
if [ -z "${IRQLAT_TEST_NS:-}" ]; then
	IRQLAT_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
plan 24

MID_SOFTIRQ=f7f2f3acaedf480791bfdb5e03cfb218
MID_SOFTIRQ_RAISE=fc984fba5ba5471fbfaf3c2548420e0e
JOURNALD_PID=
softirq_cleanup() {
	stop_daemon
	[ -n "$JOURNALD_PID" ] && kill "$JOURNALD_PID" 2>/dev/null && wait "$JOURNALD_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap softirq_cleanup EXIT

# net_load SECONDS: TCP over the loopback of a network namespace of its own, through a
# token-bucket qdisc (lo's MTU lowered so that a packet fits its burst): NET_RX on every
# packet, NET_TX each time the qdisc's watchdog reschedules the queue.
net_load() {
	unshare -n sh -c 'ip link set lo mtu 1500 up && tc qdisc add dev lo root tbf rate 200mbit burst 16kb latency 20ms &&
		exec python3 -c "$0" "$1"' '
import socket, sys, threading, time
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
def sink():
    c, _ = srv.accept()
    while c.recv(1 << 16): pass
threading.Thread(target=sink, daemon=True).start()
s = socket.create_connection(srv.getsockname())
end, buf = time.time() + float(sys.argv[1]), b"x" * 65536
while time.time() < end: s.sendall(buf)
' "$1" >"$TMP/net.log" 2>&1
}

summary() { irqlat --top --batch --iterations 1 --json --window total; }

# the exact reference: a program that only counts softirq_entry calls (bracket_agrees)
ref_counter || { echo "Bail out! cannot build the reference counter"; exit 1; }
start_daemon --interval-ms 200
check_eqn "daemon starts and lists the softirq tracepoints among its programs" \
	"$(irqlat status --json | jq '[.programs[] | select(startswith("irq:softirq_"))] | length')" 3 "softirq programs in status"

# counts over the same snapshots: a bracket of 7 s, the loads in the middle 5 s of it
bracket() {	# SECONDS FILE: snapshot_bracket.py in the background
	python3 "$TOP/tests/host/helpers/snapshot_bracket.py" "$SOCK" softirqs "$1" "${REF_ARGS[@]}" >"$2" 2>&1 &
	BRACKET=$!
}
bracket 7 "$TMP/bracket"
sleep 1
fio_load 5 &
FIO=$!
net_load 5
wait "$FIO" "$BRACKET"
sed 's/^/# /' "$TMP/bracket"
check "BLOCK runs (fio) match the runs of softirq_entry, never above /proc/softirqs" bracket_agrees "$TMP/bracket" BLOCK 5000
check "NET_RX runs (loopback) match the runs of softirq_entry, never above /proc/softirqs" bracket_agrees "$TMP/bracket" NET_RX 5000
check "NET_TX runs (qdisc) match the runs of softirq_entry, never above /proc/softirqs" bracket_agrees "$TMP/bracket" NET_TX 1000
# every vector, under disk load alone: the network load costs the BPF programs a few runs of
# every vector that ftrace still sees (docs/architecture.md, section 10), which the 5-event
# floor does not cover for the vectors that run a few hundred times
bracket 4 "$TMP/bracket2"
sleep 0.5
fio_load 3
wait "$BRACKET"
sed 's/^/# /' "$TMP/bracket2"
every_vector() {
	local name
	for name in $(awk 'NR > 1 { print $1 }' "$TMP/bracket2"); do
		bracket_agrees "$TMP/bracket2" "$name" || { echo "# $name disagrees"; return 1; }
	done
}
check "every vector (TIMER, SCHED, RCU, ...) agrees too" every_vector

snap=$(summary)
block() { jq -c '.softirqs[] | select(.vector == "BLOCK")' <<<"$snap"; }
# the fields irqlat(1) documents for a softirqs element
SOFTIRQ_FIELDS='has("vector","count","rate","window_count","time_share","run_avg_ns","run_p50_ns","run_p90_ns","run_p99_ns","run_p999_ns","run_max_ns","run_total_ns","raise_count","raise_p50_ns","raise_p99_ns","raise_max_ns","cpus")'
check_jq_all "softirqs elements have every documented field" "$(block)" . "$SOFTIRQ_FIELDS"
names_in_proc() {
	local v
	for v in $(jq -r ".softirqs[].vector" <<<"$snap"); do
		grep -q "^ *$v:" /proc/softirqs || { why "a vector /proc/softirqs has no line of" "$v"; return 1; }
	done
}
check "vector names are those of /proc/softirqs" names_in_proc
check_jq_all "count is the sum of the per-CPU counts, raise_count of theirs" "$snap" '.softirqs[]' \
	'(.count // 0) == ([.cpus[].count // 0] | add) and (.raise_count // 0) == ([.cpus[].raise_count // 0] | add)'
# run percentiles ordered, raise ones too, and no more raises than runs (5 in flight)
ORDERED='.run_p50_ns <= .run_p99_ns and .run_p99_ns <= .run_p999_ns and .run_p999_ns <= .run_max_ns and
	(.raise_count // 0) <= .count + 5 and (.raise_p50_ns // 0) <= (.raise_max_ns // 0)'
check_jq_all "run and raise percentiles are ordered, raises no more than runs" "$snap" '.softirqs[] | select(.count > 0)' "$ORDERED"
check_gt "BLOCK had raise latencies measured" "$(block | jq .raise_count)" 1000 "BLOCK's raise_count"

batch=$(irqlat --top --batch --iterations 1 --window total)
softirq_section() { awk '/^softirqs \(run time/ { on = 1; next } on && /^$/ { exit } on' <<<"$1"; }
check_match "batch output: a softirqs section with a BLOCK row" "$(softirq_section "$batch")" -E "^BLOCK +[0-9.]+[kM]? "
out=$(irqlat hist BLOCK --window total)
both_histograms() {
	has_line "$out" "^softirq BLOCK: [0-9]* runs in window" &&
		has_line "$out" "^softirq BLOCK raise-to-run latency: [0-9]* raises in window"
}
check "irqlat hist BLOCK: run time and raise latency histograms" both_histograms
hist=$(irqlat hist BLOCK --window total --json)
check_jq "hist BLOCK buckets sum to the window counts" "$hist" \
	'.softirqs[0] | ([.run_buckets[][2]] | add) == .window_count and ([.raise_buckets[][2]] | add) == .raise_window_count'
irqlat hist NO_SUCH_VECTOR >/dev/null 2>"$TMP/err"; rc=$?
unknown_refused() {
	is_eqn "$rc" 1 "exit status" && is_eqn "$(wc -l <"$TMP/err")" 1 "lines on stderr" || { why "stderr" "$(cat "$TMP/err")"; return 1; }
}
check "irqlat hist of an unknown name: exit 1 and one line" unknown_refused
# the screen, in tmux: v shows the softirqs, with the raise latency columns
TM=(tmux -L "irqlat-softirq-$$")
"${TM[@]}" new-session -d -s top -x 130 -y 30 "env LC_ALL=C $IRQLAT --socket $SOCK --delay 0.3"
screen_shows() {	# REGEX: the screen shows it within 3 s
	for _ in $(seq 30); do "${TM[@]}" capture-pane -t top:0.0 -p | grep -q "$1" && return 0; sleep 0.1; done
	why "the screen never showed" "$1"; why "it shows" "$("${TM[@]}" capture-pane -t top:0.0 -p)"; return 1
}
screen_shows "IRQ NAME"
"${TM[@]}" send-keys -t top:0.0 v
softirq_screen() { screen_shows 'showing softirqs' && screen_shows 'RAISE99 RAISEMAX' && screen_shows '^ *BLOCK '; }
check "screen: v shows the softirqs with RAISE99 and RAISEMAX, BLOCK among them" softirq_screen
"${TM[@]}" send-keys -t top:0.0 v
vector_screen() { screen_shows 'showing vector interrupts' && screen_shows '^ *LOC '; }
check "screen: v again shows the vector interrupts, LOC among them" vector_screen
"${TM[@]}" kill-server 2>/dev/null
stop_daemon

MP=$(free_port)
start_daemon --interval-ms 200 --metrics "127.0.0.1:$MP"
fio_load 1
page_has() { file_has "$1" "$TMP/page"; }
softirq_page() {
	scrape_lint "http://127.0.0.1:$MP/metrics" "$TMP/page" &&
		page_has '^irqlat_softirq_duration_seconds_bucket{vector="BLOCK",le=' &&
		page_has '^irqlat_softirq_raise_latency_seconds_count{vector="BLOCK"}' &&
		page_has '^irqlat_softirq_runs_total{vector="TIMER"}'
}
check "promtool accepts the page with the softirq families" softirq_page
stop_daemon

# outliers: a 1 us threshold on both makes nearly every BLOCK run and raise one
start_daemon --interval-ms 200 --softirq-threshold-us 1 --softirq-raise-threshold-us 1 --outlier-rate 1000 --outlier-cap 0
irqlat events --json -n 200 >"$TMP/events" &
EV=$!
fio_load 1
wait "$EV"
check_jq_every "irqlat events: softirq run outliers, over the threshold" "<$TMP/events" \
	'.[] | select(.kind == "softirq")' '.duration_ns >= 1000' -s
check_jq_some "irqlat events: softirq raise outliers carry their latency" "<$TMP/events" \
	'.[]' '.kind == "softirq_raise" and .latency_ns >= 1000 and .vector != null' -s
both_logged() {
	file_has 'outlier: softirq [A-Z_]* ran ' "$TMP/daemon.log" && file_has 'outlier: softirq [A-Z_]* waited to run for ' "$TMP/daemon.log"
}
check "outlier log lines name the vector (run and raise)" both_logged
stop_daemon

# the journal: a private journald with irqlatd's catalog
start_private_journald || { echo "Bail out! no private journald"; exit 1; }
"$IRQLATD" --socket "$SOCK" --log-target journal --interval-ms 200 --softirq-threshold-us 1 \
	--softirq-raise-threshold-us 1 --outlier-rate 5 --outlier-cap 0 >"$TMP/daemon.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 100); do irqlat status >/dev/null 2>&1 && break; sleep 0.1; done
fio_load 1
check "journal: softirq run outliers with their MESSAGE_ID, vector and duration" \
	journal_all $MID_SOFTIRQ '.SOFTIRQ != null and (.DURATION_NS | tonumber) >= 1000 and .CPU != null'
check "journal: raise outliers with their own MESSAGE_ID and LATENCY_NS" \
	journal_all $MID_SOFTIRQ_RAISE '.SOFTIRQ != null and (.LATENCY_NS | tonumber) >= 1000'
explained() { has_line "$(journalctl --no-pager -x _PID="$DAEMON_PID" MESSAGE_ID="$1")" "$2"; }
both_explained() { explained $MID_SOFTIRQ 'softirq vector ran' && explained $MID_SOFTIRQ_RAISE 'after it was raised'; }
check "journalctl -x explains both from the catalog" both_explained
stop_daemon

start_daemon --interval-ms 200 --no-softirqs
fio_load 1
sleep 0.5
st=$(irqlat status --json)
no_softirqs() {
	is_eqn "$(jq '[.programs[] | select(startswith("irq:softirq_"))] | length' <<<"$st")" 0 "softirq programs in status" &&
		jq_true "$(summary)" '(.softirqs | length) == 0 and (.irqs | length) > 0'
}
check "--no-softirqs: no softirq program, no softirqs, hard IRQs still measured" no_softirqs
stop_daemon
done_testing
