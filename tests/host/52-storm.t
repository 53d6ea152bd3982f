#!/bin/bash
# Interrupt storms (irqlat(1), STORMS): a burst of disk IRQs after an idle period is flagged on
# the screen, in the summary, in the journal (its own MESSAGE_ID, explained by the catalog) and
# in /metrics, and its end is logged; the same disk under a steady load is never flagged.
# The reference is /proc/interrupts: the test sees for itself that the disk was idle before
# the burst and busy during it, so the rule must fire; that the load was steady, so it must
# not. journald is this test's own, in a private mount namespace (start_private_journald).
if [ -z "${IRQLAT_TEST_NS:-}" ]; then
	IRQLAT_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
plan 13

MID_STORM=adeb493c171c432185694ac625bcb1cf
MID_STORM_ENDED=b470dea4e34b4073b75d2a0503cdd636
TM=(tmux -L "irqlat-storm-$$")
JOURNALD_PID=
FIO_PID=
storm_cleanup() {
	"${TM[@]}" kill-server 2>/dev/null
	[ -n "$FIO_PID" ] && kill "$FIO_PID" 2>/dev/null && wait "$FIO_PID" 2>/dev/null
	stop_daemon
	[ -n "$JOURNALD_PID" ] && kill "$JOURNALD_PID" 2>/dev/null && wait "$JOURNALD_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap storm_cleanup EXIT

# A benchmark (make bench holds this lock) keeps the disk busy and would not want fio beside
# it: wait for it to end, and keep the next one from starting meanwhile.
exec 9>>/tmp/irqlat-bench.lock
flock -s -w 600 9 || diag "a benchmark held /tmp/irqlat-bench.lock for 10 minutes: going on beside it"
check "a private systemd-journald listens" start_private_journald
IRQ=$(disk_irq)
PORT=$(free_port)
DAEMON_ARGS=(--no-tracepoints --log-target journal --interval-ms 1000 --metrics "127.0.0.1:$PORT")
diag "disk IRQ: $IRQ"
fio_run() {	# fio_run SECONDS: the disk load of machine.md, in the background (FIO_PID)
	fio --name=storm --filename="$TMP/fio.dat" --size=32M --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --runtime="$1" --time_based >"$TMP/fio.log" 2>&1 &
	FIO_PID=$!
}
fio --name=prep --filename="$TMP/fio.dat" --size=32M --rw=write --bs=1M --runtime=1 >/dev/null 2>&1
# rates of the disk IRQ per second from /proc/interrupts, one a line, for $1 seconds
sample_rates() {
	local a b
	a=$(proc_irq_count "$IRQ")
	for _ in $(seq "$1"); do
		sleep 1
		b=$(proc_irq_count "$IRQ")
		echo $((b - a))
		a=$b
	done
}

# --- a burst after an idle period. Others share this machine: wait for the disk to be quiet
# (under QUIET IRQs every second) for 5 s, start the daemon (the disk's normal is its rate in
# the daemon's first second, 0 when it was silent then), see 10 more quiet seconds, then burst. Noise in between: start over. The recent
# rate is then under QUIET, and fio's 10,000 a second is more than 20 times that.
QUIET=200
quiet() { sample_rates "$1" >"$TMP/quiet"; [ "$(sort -n "$TMP/quiet" | tail -1)" -lt "$QUIET" ]; }
prepared=0
for attempt in $(seq 8); do
	if ! quiet 5; then
		diag "attempt $attempt: the disk was not idle (IRQs a second: $(tr '\n' ' ' <"$TMP/quiet")); again"
		continue
	fi
	start_daemon "${DAEMON_ARGS[@]}" || break
	if quiet 10; then prepared=1; break; fi
	diag "attempt $attempt: the disk was not idle (IRQs a second: $(tr '\n' ' ' <"$TMP/quiet")); again"
	stop_daemon
done
if [ "$prepared" = 0 ]; then
	for _ in $(seq 7); do skip "storm after idle: the disk of this shared machine was never idle for 15 s in 8 tries"; done
else
	diag "idle before the burst (IRQs a second): $(tr '\n' ' ' <"$TMP/quiet")"
	"${TM[@]}" new-session -d -s top -x 140 -y 30 "env LC_ALL=C $IRQLAT --socket $SOCK --delay 0.5 -w 1s"
	fio_run 10
	sample_rates 3 >"$TMP/burst" &
	SAMPLER=$!
	# the summary, the text output, /metrics and the screen while it lasts (it ends once the
	# rate is its recent one: about 7 s), each polled until it shows it
	json_storm() { irqlat --top -b -n 1 -J -w 1s | jq -e --argjson irq "$IRQ" '[.irqs[] | select(.irq == $irq) | .storm.kind] | index("rate") != null' >/dev/null; }
	text_storm() {
		irqlat --top -b -n 1 -w 1s -o irq,name,rate,flags >"$TMP/text"
		grep -qE "^ +$IRQ .* S" "$TMP/text" && grep -qE "^! storm: IRQ $IRQ .*/s, ([0-9]+x its recent|up from none)" "$TMP/text"
	}
	metric_storm() { curl -s "http://127.0.0.1:$PORT/metrics" | grep -qE "^irqlat_handler_storm\\{irq=\"$IRQ\",[^}]*\\} 1$"; }
	screen_storm() {
		"${TM[@]}" capture-pane -t top:0.0 -p -e >"$TMP/screen"
		# the row: bold magenta (SGR 35), FLAGS S at the end
		grep -P "\\e\\[([0-9]+;)*35(;[0-9]+)*m" "$TMP/screen" | sed 's/\x1b\[[0-9;]*m//g' | grep -qE "^ +$IRQ .* S *$"
	}
	poll() { for _ in $(seq 30); do "$@" && return 0; sleep 0.2; done; return 1; }
	poll json_storm; j=$?
	poll text_storm; t=$?
	poll metric_storm; m=$?
	poll screen_storm; s=$?
	wait "$SAMPLER"
	diag "burst (IRQs a second): $(tr '\n' ' ' <"$TMP/burst")"
	diag "text: $(grep -E "^ +$IRQ |^! storm" "$TMP/text" | tr -s ' ')"
	# the rule, on /proc/interrupts' own counts: under QUIET/s before, at least 1000/s and 20
	# times that during the burst
	check "the burst is a storm by the rule: /proc/interrupts shows at least 1000 IRQs a second, 20x the idle" \
		test "$(sort -n "$TMP/burst" | tail -1)" -ge $((QUIET * 20 > 1000 ? QUIET * 20 : 1000))
	check "summary: the disk IRQ's storm is {kind: rate}" test "$j" = 0
	check "text output: FLAGS S on the disk IRQ's row and a '! storm: IRQ $IRQ' note" test "$t" = 0
	check "screen: the disk IRQ's row in magenta with FLAGS S" test "$s" = 0
	[ "$s" = 0 ] || sed 's/\x1b/\\e/g; s/^/#   /' "$TMP/screen"
	check "/metrics: irqlat_handler_storm of the disk IRQ is 1" test "$m" = 0
	wait "$FIO_PID"; FIO_PID=
	entries() { journalctl --no-pager -o json _PID="$DAEMON_PID" MESSAGE_ID="$1" IRQ="$IRQ"; }
	logged() { [ "$(entries "$MID_STORM" | jq -s 'map(select(.STORM_KIND == "rate" and (.RATE | tonumber) >= 1000)) | length')" -ge 1 ]; }
	ended() { [ "$(entries "$MID_STORM_ENDED" | jq -s 'map(select(.STORM_KIND == "rate" and (.DURATION_S | tonumber) >= 1)) | length')" -ge 1 ]; }
	poll logged
	check "journal: MESSAGE_ID=$MID_STORM with IRQ=$IRQ, STORM_KIND=rate, RATE >= 1000" logged
	for _ in $(seq 20); do ended && break; sleep 1; done
	check "journal: its end, MESSAGE_ID=$MID_STORM_ENDED, with how long it lasted" ended
	diag "journal: $(journalctl --no-pager -o cat _PID="$DAEMON_PID" MESSAGE_ID="$MID_STORM" + _PID="$DAEMON_PID" MESSAGE_ID="$MID_STORM_ENDED" | tr '\n' '|')"
	"${TM[@]}" kill-server 2>/dev/null
	stop_daemon
fi
explained() { journalctl --no-pager -q -x MESSAGE_ID="$MID_STORM" -n 1 | grep -q "Subject: Interrupt storm on IRQ"; }
if [ "$prepared" = 1 ]; then
	check "journalctl -x explains the storm entry (catalog)" explained
else
	skip "journalctl -x explains the storm entry: no storm was caused"
fi

# --- a steady load: the daemon starts under it (its first second is the load) and sees 20 s
# of it. The disk stays busy with this fio alone, so no other load can make it 20 times
# busier: nothing may be flagged.
fio_run 40
sleep 2
start_daemon "${DAEMON_ARGS[@]}"
sample_rates 20 >"$TMP/steady" &
SAMPLER=$!
flagged=0
for _ in $(seq 20); do
	irqlat --top -b -n 1 -J -w 1s >"$TMP/snap" || break
	jq -e --argjson irq "$IRQ" '[.irqs[] | select(.irq == $irq) | .storm] | map(select(. != null)) | length > 0' "$TMP/snap" >/dev/null && flagged=$((flagged + 1))
	sleep 1
done
wait "$SAMPLER"
diag "steady (IRQs a second): $(tr '\n' ' ' <"$TMP/steady")"
check "the load was steady by /proc/interrupts: every second at least 1000 IRQs" test "$(sort -n "$TMP/steady" | head -1)" -ge 1000
check "steady load: no storm on the disk IRQ in 20 summaries" test "$flagged" = 0
storms_total=$(curl -s "http://127.0.0.1:$PORT/metrics" | sed -nE "s/^irqlat_handler_storms_total\\{irq=\"$IRQ\",[^}]*\\} ([0-9]+)$/\\1/p")
check "steady load: /metrics counts no storm of the disk IRQ (${storms_total:-missing})" test "${storms_total:-x}" = 0
n=$(journalctl --no-pager -o json _PID="$DAEMON_PID" MESSAGE_ID="$MID_STORM" IRQ="$IRQ" | wc -l)
check "steady load: no storm entry in the journal ($n)" test "$n" = 0
kill "$FIO_PID" 2>/dev/null; wait "$FIO_PID" 2>/dev/null; FIO_PID=
stop_daemon
done_testing
