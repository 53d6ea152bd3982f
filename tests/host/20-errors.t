#!/bin/bash
# Bad input: one clear line, a documented exit code, nothing half-started.
. "$(dirname "$0")/../lib.sh"
plan 10

out=$("$IRQLATD" --no-such-flag 2>&1); rc=$?
check_eqn "unknown daemon flag: exit 2" "$rc" 2 "exit status"
one_line_naming() {
	is_eqn "$(printf '%s\n' "$out" | wc -l)" 1 "lines of output" || { why "output" "$out"; return 1; }
	has_line "$out" -- "unknown option '--no-such-flag'"
}
check "unknown daemon flag: one line naming it" one_line_naming
out=$("$IRQLATD" --threshold-us abc 2>&1); rc=$?
check_exit "bad --threshold-us value: exit 2 and says what it takes" "$rc" 2 "$out" 'threshold-us takes a whole number'
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$IRQLATD" --socket "$TMP/x.sock" 2>&1); rc=$?
check_eqn "not root: exit 1" "$rc" 1 "exit status"
check_match "not root: names the missing capabilities" "$out" 'missing capability CAP_BPF and CAP_PERFMON'
check_absent "not root: leaves no socket behind" "$TMP/x.sock"
out=$("$IRQLAT" --socket "$TMP/none.sock" --top --batch -n 1 2>&1); rc=$?
check_exit "client without a daemon: exit 1, says how to start it" "$rc" 1 "$out" 'irqlatd is not running.*systemctl start irqlatd'
out=$("$IRQLAT" --sort bogus 2>&1); rc=$?
check_exit "client bad --sort: exit 2" "$rc" 2 "$out" 'sort takes'
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
error_lines_then_serves() {
	is_eqn "$(printf '%s' "$resp" | grep -c '"ok":false')" 2 "error lines in the answers" || { why "the answers" "$resp"; return 1; }
	irqlat status >/dev/null || { why "irqlat status afterwards" "failed"; return 1; }
}
check "bad socket requests get an error line each, daemon keeps serving" error_lines_then_serves
stop_daemon

# Something at the socket (a daemon gone wrong, another program) that sends an endless line:
# irqlat stops at --max-answer-mb (64 by default), says so, and holds no more (main read a
# 200 MB line whole: 207 MB resident). The kernel's count of its peak resident pages decides.
clients endless "$TMP/fake.sock" 200000000 >"$TMP/fake.out" &
FAKE=$!
retry_for 5 grep -q listening "$TMP/fake.out"
res=$(python3 -c '
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=60)
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, p.stderr.strip().replace("\n", "|"))' \
	"$IRQLAT" --socket "$TMP/fake.sock" status)
kill "$FAKE" 2>/dev/null; wait "$FAKE" 2>/dev/null
read -r rc rss msg <<<"$res"
# under AddressSanitizer (make check SANITIZE=1) a realloc always copies, so the last growth
# holds the 32 and the 64 MiB buffers at once, with their shadow: 160 MiB, still far below what
# reading the 200 MB whole would take there
limit=100; [ -n "${SAN_FLAGS:-}" ] && limit=160
diag "irqlat against a 200 MB line: exit $rc, peak resident $rss KiB: $msg"
check "an answer of 200 MB: irqlat exits 1 saying it is over --max-answer-mb (64 MiB), peak resident under $limit MiB" \
	sh -c "[ $rc -eq 1 ] && [ $rss -lt $((limit * 1024)) ] && printf '%s' \"\$1\" | grep -q 'longer than 64 MiB (--max-answer-mb): not read'" _ "$msg"
done_testing
