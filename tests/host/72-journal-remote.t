#!/bin/bash
# irqlatd's journal entries travel to a central journal the way a fleet sends them
# (docs/systemd.md, "The fleet's journal"): systemd-journal-upload reads this machine's journal
# and sends it to systemd-journal-remote listening on loopback HTTP, which writes the
# collector's journal files. There every entry of irqlatd arrives with every field, MESSAGE_ID
# selects them as it does locally, and journalctl -x explains them with irqlatd's catalog.
# Also the offline way: an export stream (journalctl -o export) into systemd-journal-remote.
# Both against the entries of the local journal, read with journalctl.
# journald is this test's own, in a private mount namespace (start_private_journald).
if [ -z "${IRQLAT_TEST_NS:-}" ]; then
	IRQLAT_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
plan 9

REMOTE=/lib/systemd/systemd-journal-remote
UPLOAD=/lib/systemd/systemd-journal-upload
MID_OUTLIER=3f0c6d0e2b1a4f7e9a51c2d8e4b7a901
MID_STARTED=0c2853ab0a474cd89e139fb75e11c43b
MID_STOPPED=7ac66507e54d46b0bd9e27b7cb52462e
JOURNALD_PID=
REMOTE_PID=
trap 'stop_daemon; for p in $REMOTE_PID $JOURNALD_PID; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

check "a private systemd-journald listens" start_private_journald

# irqlatd's entries: start-up, attach, outliers (1 us threshold under fio), shutdown, detach
# no outlier cap: the hard-IRQ outlier entries are the ones forwarded and counted
printf '[irqlatd]\nthreshold-us = 1\noutlier-rate = 20\noutlier-cap = 0\n' >"$TMP/irqlatd.conf"
start_daemon --config "$TMP/irqlatd.conf" --no-tracepoints --log-target journal
PID=$DAEMON_PID
fio_load 2
stop_daemon
journalctl --sync
# what is compared: each entry's MESSAGE_ID, text, irqlatd's own fields and the journal's
# time stamps and origin, as JSON lines in the journal's order
project() {
	jq -c '{MESSAGE_ID, MESSAGE, PRIORITY, SYSLOG_IDENTIFIER, IRQ, IRQ_NAME, CPU, DURATION_NS,
		THRESHOLD_NS, EVENT_TS_NS, INTERRUPTED_PID, VERSION, UPTIME_S, _PID, _BOOT_ID, _HOSTNAME,
		__REALTIME_TIMESTAMP, __MONOTONIC_TIMESTAMP}'
}
journalctl -o json _PID="$PID" | project >"$TMP/local.json"
n_outliers=$(grep -c "\"MESSAGE_ID\":\"$MID_OUTLIER\"" "$TMP/local.json")
diag "local journal: $(wc -l <"$TMP/local.json") entries of irqlatd, $n_outliers outliers"
local_ok() {
	is_gt "$n_outliers" 0 "outlier entries" && file_has "\"MESSAGE_ID\":\"$MID_STARTED\"" "$TMP/local.json" &&
		file_has "\"MESSAGE_ID\":\"$MID_STOPPED\"" "$TMP/local.json"
}
check "the local journal holds irqlatd's start-up, outlier and shutdown entries" local_ok

# The collector: systemd-journal-remote on a loopback port; the machine: systemd-journal-upload
PORT=$(free_port)
mkdir -p "$TMP/remote"
$REMOTE --listen-http="127.0.0.1:$PORT" --output="$TMP/remote/" --split-mode=host >"$TMP/remote.log" 2>&1 &
REMOTE_PID=$!
listens() { bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT" 2>/dev/null; }
for _ in $(seq 50); do listens && break; sleep 0.1; done
uploaded() {
	timeout 60 $UPLOAD --url="http://127.0.0.1:$PORT" --save-state="$TMP/upload.state" --follow=no \
		>"$TMP/upload.log" 2>&1 || { sed 's/^/#   /' "$TMP/upload.log" "$TMP/remote.log"; return 1; }
	grep -q '^LAST_CURSOR=' "$TMP/upload.state"
}
check "systemd-journal-upload --follow=no sends the journal to systemd-journal-remote and saves its cursor" uploaded
kill "$REMOTE_PID"; wait "$REMOTE_PID" 2>/dev/null; REMOTE_PID=	# closes its journal files
diag "collector: $(cd "$TMP/remote" && ls)"

journalctl -D "$TMP/remote" -o json _PID="$PID" | project >"$TMP/remote.json"
same() {	# same FILE: the entries of FILE are the local ones
	diff -u "$TMP/local.json" "$1" >"$TMP/diff" && return 0
	sed 's/^/#   /' "$TMP/diff" | head -n 20; return 1
}
check "every entry of irqlatd arrives, with the same fields, time stamps, _HOSTNAME and _BOOT_ID" same "$TMP/remote.json"
by_id() {
	is_eqn "$(journalctl -D "$TMP/remote" -q -o cat MESSAGE_ID=$MID_OUTLIER _PID="$PID" | wc -l)" "$n_outliers" "entries selected on the collector" "outliers here"
}
check "journalctl -D COLLECTOR MESSAGE_ID=$MID_OUTLIER selects the $n_outliers outliers" by_id
host_match() { is_eqn "$(journalctl -D "$TMP/remote" -q -o cat _HOSTNAME="$(hostname)" MESSAGE_ID=$MID_STARTED | wc -l)" 1 "start-up entries of this host"; }
check "_HOSTNAME=$(hostname) tells the machine apart on the collector" host_match
explained() {
	has_line "$(journalctl -D "$TMP/remote" -q -x --no-pager MESSAGE_ID=$MID_OUTLIER -n 1)" 'Subject: IRQ .* handler ran longer than the threshold'
}
check "journalctl -x on the collector explains them (with irqlatd's catalog installed there)" explained

# offline: an export stream, e.g. over ssh: journalctl -o export ... | systemd-journal-remote -o FILE -
journalctl -o export _PID="$PID" | $REMOTE --output="$TMP/export.journal" - >"$TMP/export.log" 2>&1
check_nonempty "systemd-journal-remote -o FILE - writes an export stream of irqlatd's entries to a journal file" "$TMP/export.journal"
journalctl --file="$TMP/export.journal" -o json | project >"$TMP/export.json"
check "the exported journal holds the same entries" same "$TMP/export.json"
done_testing
