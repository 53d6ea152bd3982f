#!/bin/bash
# What irqlatd(8) and irqlatd.conf.example say against what the daemon does: every option of
# `irqlatd --help` has its entry in the man page and (but for the command line's own) its key
# in the example; the example holds the built-in defaults (a daemon reading it runs as one
# that reads nothing, as status and the socket file show); the LIMITS table's defaults are
# those the daemon runs with.
. "$(dirname "$0")/../lib.sh"
plan 5

MAN=$TOP/docs/irqlatd.8
EXAMPLE=$TOP/docs/irqlatd.conf.example
mapfile -t keys < <("$IRQLATD" --help | grep -oE -- '--[a-z][a-z-]+' | sed 's/^--//' | sort -u)
diag "${#keys[@]} long options in irqlatd --help"
undocumented() {	# the option as the man page writes it, \-\-key, in the head of an entry
	local k miss=
	awk 'prev ~ /^\.T[PQ]$/ { print } { prev = $0 }' "$MAN" >"$TMP/heads"
	for k in "${keys[@]}"; do
		grep -qE "\\\\-\\\\-${k//-/\\\\-}([ =\"]|$)" "$TMP/heads" || miss+=" $k"
	done
	[ -z "$miss" ] || { diag "not in irqlatd.8:$miss"; return 1; }
}
check "every option of irqlatd --help has an entry in irqlatd(8)" undocumented
not_in_example() {	# set or commented out; help, version and config belong to the command line
	local k miss=
	for k in "${keys[@]}"; do
		case $k in help | version | config) continue ;; esac
		grep -qE "^#?$k = " "$EXAMPLE" || miss+=" $k"
	done
	[ -z "$miss" ] || { diag "not in irqlatd.conf.example:$miss"; return 1; }
}
check "every configuration key is in irqlatd.conf.example" not_in_example

# two daemons, one on the example, one on the built-in defaults (a missing --config file is an
# error, the default path is not ours: an empty file stands for none)
: >"$TMP/empty.conf"
view() {	# what status says of a daemon's settings and limits, and its socket file
	"$IRQLAT" --socket "$1" status --json |
		jq -c '{config: (.config | del(.socket)), clients: (.clients | {max_clients, max_subscribers, client_queue_bytes, max_request_bytes}), http: (.http | {max_connections, timeout_s})}'
	stat -c '%U:%G %a' "$1"
}
run_on() {	# run_on CONFIG NAME: a daemon's view
	local sock=$TMP/$2.sock pid
	"$IRQLATD" -c "$1" --socket "$sock" --log-target stderr --metrics "127.0.0.1:$(free_port)" >"$TMP/$2.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do "$IRQLAT" --socket "$sock" status >/dev/null 2>&1 && break; sleep 0.1; done
	view "$sock" >"$TMP/$2.view"
	kill -TERM "$pid"; wait "$pid"
}
run_on "$EXAMPLE" example
run_on "$TMP/empty.conf" defaults
diag "defaults: $(head -1 "$TMP/defaults.view")"
check "a daemon reading the example runs as one on the built-in defaults (status, socket file)" \
	sh -c "[ -s '$TMP/defaults.view' ] && cmp -s '$TMP/example.view' '$TMP/defaults.view'"

# the LIMITS table: "what|key|default" rows between .TS and .TE
limit() { sed -n '/^\.TS/,/^\.TE/p' "$MAN" | awk -F'|' -v k="$1" '{ gsub(/\\-/, "-", $2) } $2 == k { print $3 }'; }
d=$(head -1 "$TMP/defaults.view")
js() { jq -r "$1" <<<"$d"; }
table_socket() {
	[ "$(limit max-clients)" = "$(js .clients.max_clients)" ] &&
		[ "$(limit max-subscribers)" = "$(js .clients.max_subscribers)" ] &&
		[ "$(limit client-queue-kb)" = "$(($(js .clients.client_queue_bytes) / 1024)) KiB" ] &&
		[ "$(limit max-request-kb)" = "$(($(js .clients.max_request_bytes) / 1024)) KiB" ]
}
check "irqlatd(8) LIMITS: the socket's defaults are the daemon's ($(limit max-clients), $(limit max-subscribers), $(limit client-queue-kb), $(limit max-request-kb))" table_socket
table_http() {
	[ "$(limit max-http-connections)" = "$(js .http.max_connections)" ] &&
		[ "$(limit http-timeout-s)" = "$(js .http.timeout_s) s" ]
}
check "... and the HTTP ones ($(limit max-http-connections), $(limit http-timeout-s))" table_http
