#!/bin/bash
# The metrics endpoint as a network service (issue 30, irqlatd(8) ACCESS and LIMITS): a
# connection stays alive across requests, bytes that are no HTTP get a 400 at once, an address
# other hosts can reach without a password and TLS gets a warning, and libmicrohttpd's basic
# authentication and TLS guard the page, as curl and a real Prometheus see them.
. "$(dirname "$0")/../lib.sh"
plan 11

MP=$(free_port)
URL=http://127.0.0.1:$MP/metrics
start_daemon --interval-ms 200 --no-tracepoints --metrics "127.0.0.1:$MP"
# curl's own count of the connections it opened, per transfer: 1 for the first, 0 when reused
conns=$(curl -s -o /dev/null -o /dev/null -o /dev/null -w '%{num_connects} ' "$URL" "$URL" "$URL")
a=$(irqlat status --json | jq .http.accepted)
diag "three GETs on one curl: connections opened $conns; irqlatd accepted $a"
check "keep-alive: three GETs in a row take one connection (curl opened 1, 0, 0; irqlatd accepted 1)" \
	test "$conns" = "1 0 0 " -a "$a" -eq 1
bad() {	# bad BYTES: the first line of the answer within 2 s, or "none"
	python3 - "$MP" "$1" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
s.sendall(sys.argv[2].encode().decode("unicode_escape").encode("latin-1"))
try:
    d = s.recv(4096)
    print(d.split(b"\r\n")[0].decode(errors="replace") if d else "closed")
except socket.timeout:
    print("none")
PY
}
tls=$(bad '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03') line=$(bad 'GARBAGE\r\n\r\n') nul=$(bad '\x00\x01\x02\r\n\r\n')
diag "a TLS hello: $tls; 'GARBAGE': $line; binary: $nul"
check "bytes that are no HTTP request (a TLS hello, a line without spaces, binary): 400 at once" \
	test "$tls|$line|$nul" = "HTTP/1.1 400 Bad Request|HTTP/1.1 400 Bad Request|HTTP/1.1 400 Bad Request"
check "... counted (http.bad_requests 3), and the next scrape is 200" \
	sh -c "[ \$('$IRQLAT' --socket '$SOCK' status --json | jq .http.bad_requests) -eq 3 ] && [ \$(curl -s -o /dev/null -w '%{http_code}' '$URL') = 200 ]"
check "loopback: no warning about other hosts" sh -c "! grep -q 'takes connections from other hosts' '$TMP/daemon.log'"
stop_daemon

# an address other hosts can reach: one warning naming what is missing
for addr in "0.0.0.0:$MP" "[::]:$MP"; do
	start_daemon --interval-ms 200 --no-tracepoints --metrics "$addr"
	stop_daemon
	grep 'takes connections from other hosts' "$TMP/daemon.log" >>"$TMP/warned"
done
diag "$(head -1 "$TMP/warned")"
check "--metrics 0.0.0.0:PORT and [::]:PORT: one warning each, naming the password and TLS keys" \
	sh -c "[ \$(grep -c 'without a password, in clear.*set metrics-auth-file, metrics-tls-cert and metrics-tls-key' '$TMP/warned') -eq 2 ]"

# basic authentication and TLS: a key and a self-signed certificate for 127.0.0.1
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$TMP/key.pem" -out "$TMP/cert.pem" \
	-days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1
chmod 600 "$TMP/key.pem"
printf 'prom:%s\n' "$(head -c 18 /dev/urandom | base64)" >"$TMP/auth" && chmod 600 "$TMP/auth"
PASS=$(cut -d: -f2 "$TMP/auth")
start_daemon --interval-ms 200 --no-tracepoints --metrics "0.0.0.0:$MP" --metrics-auth-file "$TMP/auth" \
	--metrics-tls-cert "$TMP/cert.pem" --metrics-tls-key "$TMP/key.pem"
S=https://127.0.0.1:$MP/metrics
code() { curl -s -o /dev/null -w '%{http_code}' --cacert "$TMP/cert.pem" "$@"; }
none=$(code "$S") wrong=$(code -u prom:wrong "$S") right=$(code -u "prom:$PASS" "$S") plain=$(curl -s -m 3 -o /dev/null -w '%{http_code}' -u "prom:$PASS" "http://127.0.0.1:$MP/metrics")
diag "HTTPS without a password $none, a wrong one $wrong, the right one $right; plain HTTP $plain"
check "TLS and basic auth: 401 without the password or with a wrong one, 200 with it, nothing over plain HTTP" \
	test "$none $wrong $right" = "401 401 200" -a "$plain" != 200
check "... 401 asks for it (WWW-Authenticate: Basic), counted in http.unauthorized" \
	sh -c "curl -s -D - -o /dev/null --cacert '$TMP/cert.pem' '$S' | grep -qi '^WWW-Authenticate: Basic realm=\"irqlatd\"' && [ \$('$IRQLAT' --socket '$SOCK' status --json | jq .http.unauthorized) -ge 2 ]"
check "... and with both on another host's address, no warning" sh -c "! grep -q 'takes connections from other hosts' '$TMP/daemon.log'"
# a real Prometheus scrapes it over TLS with the password; a job with a wrong one is refused
PP=$(free_port)
cat >"$TMP/prometheus.yml" <<EOC
global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: good
    scheme: https
    basic_auth: { username: prom, password: '$PASS' }
    tls_config: { ca_file: '$TMP/cert.pem' }
    static_configs: [ { targets: ['127.0.0.1:$MP'] } ]
  - job_name: wrong
    scheme: https
    basic_auth: { username: prom, password: wrong }
    tls_config: { ca_file: '$TMP/cert.pem' }
    static_configs: [ { targets: ['127.0.0.1:$MP'] } ]
EOC
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PP" >"$TMP/prometheus.log" 2>&1 &
PROM=$!
query() { curl -s "http://127.0.0.1:$PP/api/v1/query" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // empty'; }
scraped() { [ "$(query 'up{job="good"}')" = 1 ] && [ "$(query 'up{job="wrong"}')" = 0 ]; }
retry_for 30 scraped
good=$(query 'up{job="good"}') wrong=$(query 'up{job="wrong"}') series=$(query 'count(irqlat_handler_runs_total{job="good"})')
kill "$PROM"; wait "$PROM" 2>/dev/null
diag "Prometheus: up{good} $good with $series handler series, up{wrong} $wrong"
check "a real Prometheus scrapes it over TLS with the password (up 1, handler series), not with a wrong one (up 0)" \
	test "$good" = 1 -a "$wrong" = 0 -a "${series:-0}" -ge 1
stop_daemon

# secrets every user may read are refused at start, naming the file
chmod 644 "$TMP/auth"
out=$(timeout 10 "$IRQLATD" --socket "$TMP/x.sock" --log-target stderr --no-tracepoints --metrics "127.0.0.1:$MP" --metrics-auth-file "$TMP/auth" 2>&1); rc=$?
check "an auth file every user may read: exit 1, a line naming it" \
	sh -c "[ $rc -eq 1 ] && printf '%s' \"\$1\" | grep -q 'metrics-auth-file $TMP/auth: every user may read it (mode 0644)'" _ "$out"
chmod 600 "$TMP/auth"; chmod 644 "$TMP/key.pem"
out=$(timeout 10 "$IRQLATD" --socket "$TMP/x.sock" --log-target stderr --no-tracepoints --metrics "127.0.0.1:$MP" \
	--metrics-tls-cert "$TMP/cert.pem" --metrics-tls-key "$TMP/key.pem" 2>&1); rc=$?
check "a TLS key every user may read: exit 1, a line naming it" \
	sh -c "[ $rc -eq 1 ] && printf '%s' \"\$1\" | grep -q 'metrics-tls-key $TMP/key.pem: every user may read it (mode 0644)'" _ "$out"
done_testing
