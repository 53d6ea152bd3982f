#!/bin/bash
# What irqlatd(8) and irqlatd.conf.example say against what the daemon does: every option of
# `irqlatd --help` has its entry in the man page and (but for the command line's own and the
# older names, "also --KEY") its key in the example; the latency kinds' keys, which --help
# takes from the kind table, are those irqlatd(8) says reload applies and status shows; the
# example holds the built-in defaults (a daemon reading it runs as one that reads nothing,
# as status and the socket file show); the LIMITS table's defaults are those the daemon runs
# with.
. "$(dirname "$0")/../lib.sh"
plan 7

MAN=$TOP/docs/irqlatd.8
EXAMPLE=$TOP/docs/irqlatd.conf.example
"$IRQLATD" --help >"$TMP/help"
mapfile -t keys < <(grep -oE -- '--[a-z][a-z-]+' "$TMP/help" | sed 's/^--//' | sort -u)
# the older spellings a key is still read by: "also --threshold-us" (the text may wrap after "also")
mapfile -t aliases < <(tr '\n' ' ' <"$TMP/help" | grep -oE -- 'also +--[a-z][a-z-]+' | sed 's/^also *--//' | sort -u)
diag "${#keys[@]} long options in irqlatd --help, ${#aliases[@]} of them older names: ${aliases[*]}"
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
		[[ " ${aliases[*]} " == *" $k "* ]] && continue
		grep -qE "^#?$k = " "$EXAMPLE" || miss+=" $k"
	done
	[ -z "$miss" ] || { diag "not in irqlatd.conf.example:$miss"; return 1; }
}
check "every configuration key is in irqlatd.conf.example" not_in_example

# The kinds' threshold keys: what irqlatd(8)'s SIGHUP entry says a reload applies, and, less
# their "-us", what status's config shows in ns (threshold-us: threshold_ns, the older name's)
mapfile -t thresholds < <(printf '%s\n' "${keys[@]}" | grep -- '-threshold-us$')
reload_list() {
	local k miss=
	sed -n '/^\.B SIGHUP/,/^\.TP/p' "$MAN" | sed 's/\\-/-/g' >"$TMP/sighup"
	for k in "${thresholds[@]}"; do grep -qE "(^|[ (])$k( |,|\)|$)" "$TMP/sighup" || miss+=" $k"; done
	[ -z "$miss" ] || { diag "not in irqlatd(8)'s SIGHUP entry:$miss"; return 1; }
}
check "every kind's threshold key of --help (${#thresholds[@]}) is one irqlatd(8) says a reload applies" reload_list

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
same_view() { is_nonempty "$TMP/defaults.view" && same_file "$TMP/example.view" "$TMP/defaults.view"; }
check "a daemon reading the example runs as one on the built-in defaults (status, socket file)" same_view
status_thresholds() {	# every key but hardirq's (its older name, threshold_ns), and nothing else
	local want got
	want=$(printf '%s\n' "${thresholds[@]}" | sed -e 's/^hardirq-//' -e 's/-us$/_ns/' -e 's/-/_/g' | sort)
	got=$(head -1 "$TMP/defaults.view" | jq -r '.config | keys[] | select(endswith("threshold_ns"))' | sort)
	is_set "$want" "--help's threshold keys" && is_eq "$got" "$want" "status's config, *threshold_ns" "--help's *-threshold-us, as status names them"
}
check "status's config shows a threshold for each kind's key of --help, and no other" status_thresholds

# the LIMITS table: "what|key|default" rows between .TS and .TE
limit() { sed -n '/^\.TS/,/^\.TE/p' "$MAN" | awk -F'|' -v k="$1" '{ gsub(/\\-/, "-", $2) } $2 == k { print $3 }'; }
d=$(head -1 "$TMP/defaults.view")
js() { jq -r "$1" <<<"$d"; }
table_socket() {
	is_eq "$(limit max-clients)" "$(js .clients.max_clients)" "LIMITS: max-clients" "status" &&
		is_eq "$(limit max-subscribers)" "$(js .clients.max_subscribers)" "LIMITS: max-subscribers" "status" &&
		is_eq "$(limit client-queue-kb)" "$(($(js .clients.client_queue_bytes) / 1024)) KiB" "LIMITS: client-queue-kb" "status" &&
		is_eq "$(limit max-request-kb)" "$(($(js .clients.max_request_bytes) / 1024)) KiB" "LIMITS: max-request-kb" "status"
}
check "irqlatd(8) LIMITS: the socket's defaults are the daemon's ($(limit max-clients), $(limit max-subscribers), $(limit client-queue-kb), $(limit max-request-kb))" table_socket
table_http() {
	is_eq "$(limit max-http-connections)" "$(js .http.max_connections)" "LIMITS: max-http-connections" "status" &&
		is_eq "$(limit http-timeout-s)" "$(js .http.timeout_s) s" "LIMITS: http-timeout-s" "status"
}
check "... and the HTTP ones ($(limit max-http-connections), $(limit http-timeout-s))" table_http
