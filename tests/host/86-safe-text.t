#!/bin/bash
# Names from the kernel are safe on a terminal (issue 30): a task names itself with escape
# sequences (prctl PR_SET_NAME: OSC "set the title", BEL, the C1 CSI U+009B); its wake-ups are
# outliers (--wakeup-threshold-us 1) and a series of their own. The text of irqlat events,
# hist and --top -b, and the daemon's log lines, carry no control character but newlines
# and tabs, and show the name escaped (\xNN, as ps does); --json carries it exactly, as the
# kernel has it in /proc/PID/comm (the independent reference). The log lines are the point of
# --log-wakeups all and --outlier-cap 0: by default a SCHED_OTHER task's wake-up outliers are
# not logged, and the cap's 3 a minute would go to other tasks first.
. "$(dirname "$0")/../lib.sh"
plan 6

NAME='\x1b]0;PWN\x07\xc2\x9b31m'	# 13 bytes: under the kernel's 16 of a comm
ESCAPED='\x1b]0;PWN\x07\xc2\x9b31m'	# what \xNN escaping writes of it, byte for byte
start_daemon --interval-ms 200 --wakeup-threshold-us 1 --outlier-rate 0 --log-wakeups all --outlier-cap 0 \
	--no-tracepoints
# a task that names itself so and sleeps (an hrtimer wakes it) every 2 ms, for 8 s
python3 - "$NAME" 8 >"$TMP/sleeper.out" <<'PY' &
import ctypes, sys, time
name = sys.argv[1].encode().decode("unicode_escape").encode("latin-1")
ctypes.CDLL(None).prctl(15, ctypes.c_char_p(name), 0, 0, 0)	# PR_SET_NAME
print("ready", flush=True)
end = time.time() + float(sys.argv[2])
while time.time() < end:
    time.sleep(0.002)
PY
SLEEPER=$!
retry_for 5 grep -q ready "$TMP/sleeper.out"
cp "/proc/$SLEEPER/comm" "$TMP/comm"	# the kernel's bytes, and a newline
sleep 2	# a few hundred wake-ups, and a tick or two with its series
irqlat events -n 4096 >"$TMP/events.txt"
irqlat events -n 4096 --json >"$TMP/events.json"
irqlat hist "pid:$SLEEPER" >"$TMP/hist.txt"
"$IRQLAT" --socket "$SOCK" --top -b -n 1 -w 1s >"$TMP/top.txt"
wait "$SLEEPER"
stop_daemon

# safe: no byte under 0x20 but tab and newline, no DEL, no C1 control (0xc2 0x80..0x9f)
terminal_safe() {
	python3 -c 'import re, sys; d = open(sys.argv[1], "rb").read(); sys.exit(1 if re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", d) else 0)' "$1"
}
safe_and_escaped() { terminal_safe "$1" && grep -qF -- "$ESCAPED" "$1"; }
for f in events hist top; do diag "$f: $(grep -F -m1 -- 'PWN' "$TMP/$f.txt" | cut -c1-140)"; done
check "irqlat events: the name escaped (\\x1b]0;PWN\\x07\\xc2\\x9b31m), no control character" safe_and_escaped "$TMP/events.txt"
check "irqlat hist pid:N: the same" safe_and_escaped "$TMP/hist.txt"
top_safe() { terminal_safe "$TMP/top.txt" && grep -qF -- '\x1b]0;PWN' "$TMP/top.txt"; }
check "irqlat --top -b: no control character (its wake-ups section names the task, cut to 16 bytes)" top_safe
check "the daemon's log lines: the name escaped, no control character" safe_and_escaped "$TMP/daemon.log"
# --json: exact, as /proc/PID/comm has it
jq -j --argjson pid "$SLEEPER" 'select(.kind == "wakeup" and .pid == $pid) | .comm + "\n"' "$TMP/events.json" | head -n 1 >"$TMP/json-comm"
diag "/proc/$SLEEPER/comm: $(od -An -c "$TMP/comm" | tr -s ' ')"
check "irqlat events --json: the name exactly as /proc/PID/comm has it" cmp -s "$TMP/comm" "$TMP/json-comm"
given() { python3 -c 'import sys; sys.exit(open(sys.argv[1], "rb").read() != sys.argv[2].encode().decode("unicode_escape").encode("latin-1") + b"\n")' "$TMP/comm" "$NAME"; }
check "... and it is the name the task gave itself (escapes and all)" given
done_testing
