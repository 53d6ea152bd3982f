#!/bin/bash
# Nobody but root (or irqlatd's user) can put anything at the socket's path or make the daemon
# act on another file through it (issue 30, irqlatd(8) ACCESS). The references are the file
# system (stat) and the daemon's exit status and lines.
. "$(dirname "$0")/../lib.sh"
plan 9

chmod 755 "$TMP"	# nobody below reaches its folders
run() {	# run SOCKET [ARGS...]: a daemon that should refuse at once; its exit status in rc, lines in out
	local sock=$1; shift
	out=$(timeout 10 "$IRQLATD" --socket "$sock" --log-target stderr --no-tracepoints "$@" 2>&1); rc=$?
}
one_line_naming() {	# one_line_naming WORDS: exit 1, one line, holding WORDS
	[ "$rc" -eq 1 ] && [ "$(grep -c . <<<"$out")" -eq 1 ] && grep -qF -- "$1" <<<"$out"
}

# --- only the socket's own folder is made, in a folder that exists
run "$TMP/none/dir/s.sock"
diag "$out"
check "--socket under two missing folders: exit 1, one line naming the first missing ($TMP/none)" one_line_naming "the folder $TMP/none does not exist"
check "... and nothing is created" test ! -e "$TMP/none"
SOCK=$TMP/run/s.sock start_daemon --interval-ms 200 --no-tracepoints
made() { [ "$(stat -c '%U %a' "$TMP/run")" = "root 755" ] && [ -S "$TMP/run/s.sock" ] && grep -q "created the folder $TMP/run for the socket" "$TMP/daemon.log"; }
check "the socket's own folder missing: made (root, 0755), with a line saying so" made
stop_daemon

# --- folders someone else could write in
mkdir "$TMP/nobodys" && chown nobody "$TMP/nobodys"
run "$TMP/nobodys/s.sock"
check "a folder of another user: exit 1, one line naming it and its owner" one_line_naming "the folder $TMP/nobodys belongs to uid 65534"
mkdir -m 1777 "$TMP/shared" && chmod 1777 "$TMP/shared"
run "$TMP/shared/s.sock"
check "a folder every user may write (sticky, as /tmp): refused as the socket's own, naming it" one_line_naming "the folder $TMP/shared is writable by every user (mode 1777)"
mkdir "$TMP/shared/rootdir"
SOCK=$TMP/shared/rootdir/s.sock start_daemon --interval-ms 200 --no-tracepoints
check "... above a root folder of its own it is fine (the sticky bit keeps that folder root's)" test -n "$DAEMON_PID"
stop_daemon
ln -s nobodys "$TMP/link"
run "$TMP/link/s.sock"
check "a link to another user's folder: refused, naming the folder it leads to" one_line_naming "the folder $TMP/nobodys belongs to uid 65534"

# --- the race of issue 30: with the socket in a folder nobody may write, nobody swaps the
# socket for a link to a root-owned 0600 file between bind() and the mode being set. On main
# the file became 0666 within 3 starts; now no start takes the folder, and the file keeps its
# mode whatever the timing.
chmod 777 "$TMP/nobodys"
printf 'secret\n' >"$TMP/victim" && chmod 600 "$TMP/victim"
setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 - "$TMP/nobodys/s.sock" "$TMP/victim" 15 <<'PY' &
import os, sys, time
path, target, end = sys.argv[1], sys.argv[2], time.time() + float(sys.argv[3])
tmp = path + ".new"
while time.time() < end:
    try:
        os.symlink(target, tmp)
        os.rename(tmp, path)	# atomic: whatever the daemon bound there is now a link
    except OSError:
        pass
PY
SWAPPER=$!
refused=0
for i in $(seq 10); do
	run "$TMP/nobodys/s.sock" --socket-mode 0666
	grep -q "the folder $TMP/nobodys" <<<"$out" && refused=$((refused + 1))
	[ "$(stat -c %a "$TMP/victim")" = 600 ] || break
done
swapped=no; [ -L "$TMP/nobodys/s.sock" ] && swapped=yes	# the swapper ran (as nobody)
kill "$SWAPPER" 2>/dev/null; wait "$SWAPPER" 2>/dev/null
diag "10 starts against the swapper (a link at the path: $swapped): $refused refused naming the folder; the file's mode $(stat -c %a "$TMP/victim")"
check "a swapper racing 10 starts: the root-owned 0600 file keeps its mode" test "$(stat -c '%U %a' "$TMP/victim")" = "root 600" -a "$swapped" = yes
check "... each start refused, naming the folder" test "$refused" -eq 10
done_testing
