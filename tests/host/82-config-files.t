#!/bin/bash
# Only a regular file is read as the configuration (issue 10, items 4 and 8): a FIFO, a
# device (/dev/zero), a folder or a file over 1 MiB is refused in one line, exit 78 at start;
# at a reload (SIGHUP) it keeps the running configuration, logs why, and the daemon stays
# responsive (it answers, SIGTERM stops it). The reference is the daemon's own status answer
# of the setting a good file gave, read before and after.
. "$(dirname "$0")/../lib.sh"
plan 13

CONF=$TMP/irqlatd.conf
mkfifo "$TMP/fifo"
mkdir "$TMP/dir"
ln -s /dev/zero "$TMP/zero"
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' '#' >"$TMP/big"

at_start() {	# at_start FILE TEXT: exit 78 within 10 s, one line "irqlatd: FILE" TEXT
	local out rc
	out=$(timeout 10 "$IRQLATD" --config "$1" --socket "$SOCK" --log-target stderr 2>&1); rc=$?
	[ $rc -eq 78 ] && [ "$(grep -c . <<<"$out")" -eq 1 ] && grep -qF "irqlatd: $1$2" <<<"$out" && [ ! -e "$SOCK" ] && return 0
	echo "# exit $rc: $out"; return 1
}
check "-c FIFO at start: exit 78, one line (it does not wait for a writer)" at_start "$TMP/fifo" ": is a FIFO, not a configuration file"
check "-c /dev/zero (a link to it) at start: exit 78, one line (it does not read forever)" at_start "$TMP/zero" ": is a device, not a configuration file"
check "-c FOLDER at start: exit 78, one line (it is not an empty file)" at_start "$TMP/dir" ": is a folder, not a configuration file"
check "-c FILE over 1 MiB at start: exit 78, one line" at_start "$TMP/big" ": is longer than 1048576 bytes"
printf 'threshold-us = 5\n# %0300d\n' 0 >"$TMP/long"
check "a line longer than the parser reads whole: exit 78, naming line 2 (its rest is not read as a line)" \
	at_start "$TMP/long" ":2: line longer than"

# a link to a regular file is a configuration file like any other
printf 'threshold-us = 7\n' >"$TMP/real.conf"
ln -s real.conf "$CONF"
start_daemon --config "$CONF" --interval-ms 200
threshold() { timeout 10 "$IRQLAT" --socket "$SOCK" status --json | jq .config.threshold_ns; }
check_eq "a symbolic link to a regular file is read (threshold 7000 ns)" "$(threshold)" 7000 "status's threshold_ns"

reload_with() {	# reload_with FILE WORDS: SIGHUP with CONF pointing at FILE
	local n0 n1
	n0=$(grep -c 'reload' "$TMP/daemon.log")
	ln -sfn "$1" "$CONF"
	kill -HUP "$DAEMON_PID"
	refused() { grep -qF "reload failed, keeping the running configuration: $CONF: $2" "$TMP/daemon.log"; }
	retry_for 10 refused "$@" || { echo "# no line '$CONF: $2'"; return 1; }
	[ "$(threshold)" = 7000 ] || { echo "# threshold is $(threshold) now"; return 1; }
	n1=$(grep -c 'reload' "$TMP/daemon.log")
	[ "$n1" -gt "$n0" ]
}
check "reload with a FIFO there: refused in a line, the daemon answers with its configuration (7000 ns)" reload_with "$TMP/fifo" "is a FIFO"
check "reload with a link to /dev/zero: the same" reload_with /dev/zero "is a device"
check "reload with a folder: the same (it did not reset every setting to the defaults)" reload_with "$TMP/dir" "is a folder"
check "reload with a file over 1 MiB: the same" reload_with "$TMP/big" "is longer than 1048576 bytes"
ln -sfn real.conf "$CONF"
printf 'threshold-us = 9\n' >"$TMP/real.conf"
kill -HUP "$DAEMON_PID"
nine() { is_eq "$(threshold)" 9000 "status's threshold_ns"; }
check "a good file again: applied (9000 ns)" retry_for 10 nine
stop_daemon
check_eqn "... and SIGTERM stops it, exit 0, after all those reloads" "$DAEMON_STATUS" 0 "exit status"
files_kept() {
	[ -p "$TMP/fifo" ] && [ -d "$TMP/dir" ] || { why "not a FIFO and a folder any more" "$(ls -ld "$TMP/fifo" "$TMP/dir" 2>&1)"; return 1; }
	is_eqn "$(stat -c %s "$TMP/big")" $((1024 * 1024 + 1)) "the big file's size"
}
check "the files it refused are as they were (the FIFO, the folder, the big file)" files_kept
done_testing
