#!/bin/bash
# The limits (issues 10 and 30, irqlatd(8) LIMITS): what one client, many clients, slow or idle
# HTTP clients can make the daemon hold, that it keeps serving the others, and that no user can
# keep the others out. Memory is the kernel's count of the daemon's resident pages (VmRSS),
# before and during; each bound is far under what the unbounded daemon reached (347 MB for a
# pipelining client, 215 MB for 3000 idle clients, 189 MB for 50 non-reading subscribers) and
# far over what the limits allow.
. "$(dirname "$0")/../lib.sh"
plan 27

MP=$(free_port)
URL=http://127.0.0.1:$MP/metrics
code() { curl -s -m 5 -o /dev/null -w '%{http_code}' "$@"; }
start_daemon --interval-ms 200 --threshold-us 1 --outlier-rate 1 --metrics "127.0.0.1:$MP" --client-idle-timeout-s 3
sleep 1	# past the start-up's BTF parsing: the resident size settles
base=$(rss_kb "$DAEMON_PID")
diag "resident at rest: $base KiB"
grew() { echo $(( $(rss_kb "$DAEMON_PID") - $1 )); }	# grew BASE_KB: KiB more than BASE_KB

# --- the HTTP endpoint: idle and slow clients never lock the scraper out
clients http-idle 127.0.0.1 "$MP" 20 3 >/dev/null	# 20 > max-http-connections (16), then closed
sleep 0.5
check_eq "20 idle HTTP connections held 3 s, then closed: GET /metrics 200 (dead for good on main)" "$(code "$URL")" 200 "HTTP status"
clients http-idle 127.0.0.1 "$MP" 20 2 >/dev/null &
IDLE=$!
sleep 0.5
check_eq "while 20 idle HTTP connections are open: GET /metrics 200" "$(code "$URL")" 200 "HTTP status"
wait "$IDLE"
clients http-slow 127.0.0.1 "$MP" 200 12 >"$TMP/slow.out" &
SLOW=$!
sleep 2
got=""
for _ in 1 2 3 4 5; do got="$got $(code "$URL")"; sleep 1.5; done
wait "$SLOW"
diag "200 slow clients (a byte a second): scrapes answered$got; $(cat "$TMP/slow.out")"
check_eq "200 slow clients sending a byte a second: every scrape gets 200" "$got" " 200 200 200 200 200" "the 5 scrapes' HTTP status"
st=$(irqlat status --json)
diag "http: $(jq -c .http <<<"$st")"
check_gt "... the slow ones were shut down (evicted or timed out), counted in status" \
	"$(jq '.http.evicted + .http.timed_out' <<<"$st")" 0 "status's http.evicted + http.timed_out"
# a request larger than libmicrohttpd's 32 KiB per connection (irqlatd(8), LIMITS)
long=$(head -c 40000 /dev/zero | tr '\0' a)
big_url=$(code "$URL?$long"); big_header=$(code -H "X-Long: $long" "$URL")
diag "a 40 kB URL: $big_url; a 40 kB header: $big_header (000: closed before curl read the answer)"
# (431 is sent as the header arrives: curl may still be sending it when the connection closes)
check_eq "a 40 kB URL is answered 414, a 40 kB header 431 (or closed), and the next scrape 200" \
	"$big_url ${big_header/#000/431} $(code "$URL")" "414 431 200" "the long URL's, the long header's, the next scrape's HTTP status"

# --- the client socket: one client that pipelines and never reads costs one answer, and is
# closed once it has had no answer for client-idle-timeout-s (3 s here)
b=$(rss_kb "$DAEMON_PID")
clients pipeline "$SOCK" 6 >"$TMP/pipe.out" &
PIPE=$!
peak=0
while kill -0 "$PIPE" 2>/dev/null; do g=$(grew "$b"); [ "$g" -gt "$peak" ] && peak=$g; sleep 0.2; done
wait "$PIPE"
diag "pipelining hist requests without reading: $(cat "$TMP/pipe.out"); resident grew by at most $peak KiB"
check "a client pipelining requests without reading: the daemon's resident size grows less than 24 MiB" test "$peak" -lt 24576
check "... it is closed after client-idle-timeout-s: status counts it, one line says why" \
	sh -c "[ \$('$IRQLAT' --socket '$SOCK' status --json | jq .clients.timed_out) -ge 1 ] && [ $(field closed "$(cat "$TMP/pipe.out")") = 1 ] && grep -q 'closed 1 client of .* idle for 3 s (client-idle-timeout-s)' '$TMP/daemon.log'"
check "... and the daemon serves the others" sh -c "'$IRQLAT' --socket '$SOCK' status >/dev/null"

# --- 3000 idle clients: never more than max-clients (64) held; each newcomer is taken, and the
# one waiting longest for a request is closed with a line saying so
b=$(rss_kb "$DAEMON_PID")
t0=$(date +%s)
e0=$(irqlat status --json | jq .clients.evicted)
fds0=$(fd_count "$DAEMON_PID")
prlimit --nofile=8192:8192 python3 "$TOP/tests/host/helpers/clients.py" hold-reasons "$SOCK" 3000 2 >"$TMP/hold.out" &
HOLD=$!
peak=0 held=0
while kill -0 "$HOLD" 2>/dev/null; do
	g=$(grew "$b"); [ "$g" -gt "$peak" ] && peak=$g
	h=$(ls /proc/"$DAEMON_PID"/fd | wc -l); [ "$h" -gt "$held" ] && held=$h
	sleep 0.2
done
wait "$HOLD"
out=$(cat "$TMP/hold.out")
e1=$(irqlat status --json | jq .clients.evicted)
diag "3000 clients: $out; $((e1 - e0)) evicted; at most $held descriptors ($fds0 before); resident grew by at most $peak KiB, $(grew "$b") KiB after they left"
# (one closed as idle meanwhile, client-idle-timeout-s being 3 s here, made room without one)
held_ok() {
	local ev idle
	ev=$(field evicted "$out") idle=$(field idle "$out")
	[ "$(field connected "$out")" -eq 3000 ] && [ "$(field full "$out")" -eq 0 ] && [ "$ev" -le 2936 ] &&
		[ $((ev + idle)) -ge 2936 ] && [ $((e1 - e0)) -eq "$ev" ] && [ "$held" -le $((fds0 + 64 + 2)) ]
}
check "3000 idle clients: each taken, the 2936 over max-clients (64) made room by closing the longest idle, told 'evicted'" held_ok
# the sanitized build (mk/sanitize.mk) keeps up to quarantine_size_mb of freed memory resident
# in ASan's quarantine: that much more may stay after they left (4,344 KiB did, with 4 MiB of it)
quarantine_kb=0
case "${ASAN_OPTIONS:-}" in *quarantine_size_mb=*)
	q=${ASAN_OPTIONS##*quarantine_size_mb=}; quarantine_kb=$(( ${q%%:*} * 1024 )) ;;
esac
check "... the resident size grows less than 16 MiB, and is back within 4 MiB after they left" \
	test "$peak" -lt 16384 -a "$(grew "$b")" -lt $(( 4096 + quarantine_kb ))
lines=$(grep -c 'closed a client of .* to make room' "$TMP/daemon.log")
check "... those closings are a line per 10 s at most ($lines in $(( $(date +%s) - t0 )) s)" \
	sh -c "[ $lines -ge 1 ] && [ $lines -le $(( ($(date +%s) - t0) / 10 + 1 )) ]"

# --- 50 subscribers that never read, while events flow: sched:sched_switch, consumed by a
# second daemon, tens of thousands a second
SOCK2=$TMP/subs.sock
"$IRQLATD" --socket "$SOCK2" --log-target stderr --tracepoint sched:sched_switch >"$TMP/subs.log" 2>&1 &
SUBD=$!
retry_for 10 "$IRQLAT" --socket "$SOCK2" status >/dev/null 2>&1
sleep 1
b2=$(rss_kb "$SUBD")
clients subscribers "$SOCK2" 50 5 >"$TMP/subs.out" &
SUBS=$!
sleep 0.5
fio_load 4 &	# blocking reads: a context switch each
FIO=$!
peak=0
while kill -0 "$SUBS" 2>/dev/null; do g=$(( $(rss_kb "$SUBD") - b2 )); [ "$g" -gt "$peak" ] && peak=$g; sleep 0.2; done
wait "$SUBS" "$FIO"
out=$(cat "$TMP/subs.out")
ev=$("$IRQLAT" --socket "$SOCK2" status --json | jq '.tracepoints[0].events')
kill -TERM "$SUBD"; wait "$SUBD"; rc=$?
diag "50 subscribers: $out; $ev sched_switch events; resident grew by at most $peak KiB"
subscribed() { is_eqn "$(field subscribed "$out")" 16 "subscribed" && is_eqn "$(field refused "$out")" 34 "refused"; }
check "50 subscribers: 16 subscribed (max-subscribers), 34 refused" subscribed
# Each event reaches a subscriber as a line of 400 bytes or more (sched_switch's: 408 to 420
# here): what fills a queue (1 MiB) and its socket's buffers (about 0.25 MiB) is about 3,300 of
# them; 6,600, twice that, leave no queue short of its bound. The sanitized build's daemon
# reads 13,000 to 16,000 here in this time, the plain one more.
queues_bounded() { is_lt "$peak" 40960 "KiB grown at most" && is_gt "${ev:-0}" 6600 "sched_switch events"; }
check "... the 16 that never read cost less than 40 MiB (a 1 MiB queue each) while $ev events flowed" queues_bounded
check_eqn "... and that daemon stops cleanly" "$rc" 0 "exit status"

# --- a 10 MB request line: one error, skipped to its newline, nothing held
b=$(rss_kb "$DAEMON_PID")
out=$(clients longline "$SOCK" 10000000)
diag "10 MB line: $out; resident grew by $(grew "$b") KiB"
check_eq "a 10 MB request line: one 'longer than' error, the tail on its line is not read, the next request answered" \
	"$(field too_long "$out") $(field next_ok "$out") $(field answers "$out")" "1 1 2" "too_long, next_ok, answers"
check_lt "... and the daemon holds no more than before (+4 MiB)" "$(grew "$b")" 4096 "KiB more than before"

# --- requests are read strictly (issue 10, item 10)
ask() { printf '%s\n' "$1" | clients send "$SOCK"; }
check_match "{\"cmd\":\"status\"} trailing: refused, not half read" "$(ask '{"cmd":"status"} trailing')" '"ok":false'
check_match "{\"cmd\":\"hist\",\"irq\":\"x\"}: refused naming irq (not ok with an empty list)" \
	"$(ask '{"cmd":"hist","irq":"x"}')" '"irq\\" must be an IRQ number'
out=$(timeout 10 "$IRQLATD" --socket "$TMP/x.sock" --threshold-us ' 5' 2>&1); rc=$?
check_exit "--threshold-us ' 5' is refused like '5 ' (exit 2)" "$rc" 2 "$out" 'threshold-us takes a whole number'

check "requests are strict JSON: a key twice, single quotes, a trailing comma refused, saying so" \
	sh -c "for r in '{\"cmd\":\"hist\",\"cmd\":\"status\"}' \"{'cmd':'status'}\" '{\"cmd\":\"status\",}'; do printf '%s\n' \"\$r\" | python3 '$TOP/tests/host/helpers/clients.py' send '$SOCK' | grep -q '\"ok\":false,\"error\":\"request is not one JSON object on one line' || exit 1; done"

# --- an HTTP client that never finishes its request is closed after http-timeout-s
stop_daemon
check_eqn "the daemon stops cleanly after all that (exit 0)" "$DAEMON_STATUS" 0 "exit status"
start_daemon --interval-ms 200 --no-tracepoints --metrics "127.0.0.1:$MP" --http-timeout-s 2
out=$(clients http-partial 127.0.0.1 "$MP")
diag "half a request: $out"
check_awk "half an HTTP request: closed after http-timeout-s (2 s), well before a minute" \
	's >= 1.5 && s < 10' s="$(field closed_after_s "$out")"
stop_daemon

# --- no user keeps the others out (issue 30: 64 idle connections of an unprivileged user made
# irqlat status fail 25 times of 25): the socket open to every user, nobody holding 64
chmod 755 "$TMP"
start_daemon --interval-ms 200 --no-tracepoints --socket-mode 0666
setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 "$TOP/tests/host/helpers/clients.py" hold-reasons "$SOCK" 64 3 >"$TMP/nobody.out" &
HOLD=$!
sleep 1.5	# all 64 are in by now
ok_root=0 ok_other=0
for _ in 1 2 3 4 5; do
	irqlat status >/dev/null 2>&1 && ok_root=$((ok_root + 1))
	setpriv --reuid=daemon --regid=daemon --clear-groups "$IRQLAT" --socket "$SOCK" status >/dev/null 2>&1 && ok_other=$((ok_other + 1))
done
wait "$HOLD"
st=$(irqlat status --json)
diag "nobody's 64: $(cat "$TMP/nobody.out"); root answered $ok_root of 5, uid daemon $ok_other of 5; clients $(jq -c '.clients | {evicted, refused, max_clients_per_uid}' <<<"$st")"
check "an unprivileged user holding 64 connections: root and another user get their status 5 times of 5" \
	test "$ok_root" -eq 5 -a "$ok_other" -eq 5
check "... that user holds at most max-clients-per-uid (16): its own oldest gave way, 48 of 64" \
	test "$(field evicted "$(cat "$TMP/nobody.out")")" -eq 48
stop_daemon
# an idle connection is closed after client-idle-timeout-s (4 s), and irqlat, finding it so,
# connects again: two statuses 5 s apart on one irqlat both answer
start_daemon --interval-ms 200 --no-tracepoints --client-idle-timeout-s 4
out=$(clients hold-reasons "$SOCK" 1 5)
check "a connection idle for client-idle-timeout-s: closed with a line saying so" test "$(field idle "$out")" -eq 1
check "... irqlat status -n 2 -d 5 (idle 5 s in between) answers twice, connecting again by itself" \
	sh -c "[ \$('$IRQLAT' --socket '$SOCK' status -n 2 -d 5 --json | grep -c '\"version\"') -eq 2 ]"
stop_daemon
# a table full of subscribers (nobody waits on its client, nobody can give way): irqlat says
# the daemon's words, never "Broken pipe" (its send may come after the daemon closed)
start_daemon --interval-ms 200 --no-tracepoints --max-clients 4 --max-subscribers 4
clients subscribers "$SOCK" 4 6 >/dev/null &
SUBS=$!
sleep 1
said=0 pipe=0
for _ in $(seq 10); do
	out=$(irqlat status 2>&1)
	grep -q 'irqlatd says: too many clients: irqlatd serves at most 4 at once (max-clients), and each is busy' <<<"$out" && said=$((said + 1))
	grep -q 'Broken pipe' <<<"$out" && pipe=$((pipe + 1))
done
wait "$SUBS"
diag "a full table of subscribers: the daemon's words $said of 10, Broken pipe $pipe"
check "a full table: irqlat reports the daemon's reason 10 times of 10, never Broken pipe" test "$said" -eq 10 -a "$pipe" -eq 0
stop_daemon
done_testing
