#!/bin/bash
# Bad input: one clear line, a documented exit code, nothing half-started.
. "$(dirname "$0")/../lib.sh"
plan 9

out=$("$IRQLATD" --no-such-flag 2>&1); rc=$?
check "unknown daemon flag: exit 2" test $rc -eq 2
check "unknown daemon flag: one line naming it" sh -c "[ \$(printf '%s\n' \"\$1\" | wc -l) -eq 1 ] && printf '%s' \"\$1\" | grep -q -- \"unknown option '--no-such-flag'\"" _ "$out"
out=$("$IRQLATD" --threshold-us abc 2>&1); rc=$?
check "bad --threshold-us value: exit 2 and says what it takes" sh -c "[ $rc -eq 2 ] && printf '%s' \"\$1\" | grep -q 'threshold-us takes a whole number'" _ "$out"
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$IRQLATD" --socket "$TMP/x.sock" 2>&1); rc=$?
check "not root: exit 1" test $rc -eq 1
check "not root: names the missing capabilities" sh -c "printf '%s' \"\$1\" | grep -q 'missing capability CAP_BPF and CAP_PERFMON'" _ "$out"
check "not root: leaves no socket behind" test ! -e "$TMP/x.sock"
out=$("$IRQLAT" --socket "$TMP/none.sock" --top --batch -n 1 2>&1); rc=$?
check "client without a daemon: exit 1, says how to start it" sh -c "[ $rc -eq 1 ] && printf '%s' \"\$1\" | grep -q 'irqlatd is not running.*systemctl start irqlatd'" _ "$out"
out=$("$IRQLAT" --sort bogus 2>&1); rc=$?
check "client bad --sort: exit 2" sh -c "[ $rc -eq 2 ] && printf '%s' \"\$1\" | grep -q 'sort takes'" _ "$out"
printf 'not json\n{"cmd":"nope"}\n' > "$TMP/req"
start_daemon
resp=$(timeout 2 socat -t 1 - "UNIX-CONNECT:$SOCK" <"$TMP/req" 2>/dev/null || python3 -c '
import socket,sys
s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(open(sys.argv[2],"rb").read())
s.settimeout(1); d=b""
try:
    while d.count(b"\n")<2: d+=s.recv(65536)
except Exception: pass
print(d.decode(), end="")' "$SOCK" "$TMP/req")
check "bad socket requests get an error line each, daemon keeps serving" \
	sh -c "[ \$(printf '%s' \"\$1\" | grep -c '\"ok\":false') -eq 2 ] && \"$IRQLAT\" --socket $SOCK status >/dev/null" _ "$resp"
stop_daemon
done_testing
