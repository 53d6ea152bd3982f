#!/bin/bash
# Faults (issue 10): a --socket path that is not a socket, kill -9 under load and a restart, a
# second daemon, every documented signal in every mode, a closed stderr (SIGPIPE), the
# descriptor limit (EMFILE), and an irqlat whose connect() meets a full listen queue. The
# references are the file system (stat), the kernel's own list of BPF programs and links
# (bpftool), its system-call record (strace) and the processes' exit statuses.
. "$(dirname "$0")/../lib.sh"
plan 23

IRQ=$(disk_irq)

# --- 1. what is at --socket PATH is replaced only when it is a socket a dead daemon left
printf 'data\n' >"$TMP/file"
# (timeout: a daemon that took the path would run until stopped)
out=$(timeout 10 "$IRQLATD" --socket "$TMP/file" --log-target stderr --no-tracepoints 2>&1); rc=$?
check "--socket on a regular file: exit 1, one line saying it is not a socket" \
	sh -c "[ $rc -eq 1 ] && [ \$(printf '%s\n' \"\$1\" | wc -l) -eq 1 ] && printf '%s' \"\$1\" | grep -q 'exists and is not a socket'" _ "$out"
check "... and the file is left as it was (a regular file, its data)" sh -c "[ -f '$TMP/file' ] && [ \"\$(cat '$TMP/file')\" = data ]"
ln -s file "$TMP/link"
mkfifo "$TMP/fifo"
timeout 10 "$IRQLATD" --socket "$TMP/link" --log-target stderr --no-tracepoints >/dev/null 2>&1; rc1=$?
timeout 10 "$IRQLATD" --socket "$TMP/fifo" --log-target stderr --no-tracepoints >/dev/null 2>&1; rc2=$?
check "a symbolic link and a FIFO there: refused (exit 1), both left, the link's target too" \
	sh -c "[ $rc1 -eq 1 ] && [ $rc2 -eq 1 ] && [ -L '$TMP/link' ] && [ -p '$TMP/fifo' ] && [ \"\$(cat '$TMP/file')\" = data ]"

# --- 2. kill -9 under load, then a restart on the same path
start_daemon --interval-ms 100 --threshold-us 1 --outlier-rate 0
fio_load 3 &
FIO=$!
irqlat events --follow --json >/dev/null 2>&1 &
SUB=$!
"$IRQLAT" --socket "$SOCK" --top --batch --delay 0.1 --iterations 0 >/dev/null 2>&1 &
POLL=$!
sleep 1.5
# this daemon's programs and links, by the descriptors it holds
progs=$(awk '$1 == "prog_id:" { print $2 }' /proc/"$DAEMON_PID"/fdinfo/* 2>/dev/null | sort -u | tr '\n' ' ')
links=$(awk '$1 == "link_id:" { print $2 }' /proc/"$DAEMON_PID"/fdinfo/* 2>/dev/null | sort -u | tr '\n' ' ')
diag "irqlatd $DAEMON_PID holds programs $progs, links $links"
kill -KILL "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null; DAEMON_PID=
wait "$POLL" "$SUB" 2>/dev/null
gone() {	# the kernel frees them when the last descriptor closes, after an RCU grace period
	local id
	for id in $progs; do bpftool prog show id "$id" >/dev/null 2>&1 && return 1; done
	for id in $links; do bpftool link show id "$id" >/dev/null 2>&1 && return 1; done
	[ -n "$progs" ] && [ -n "$links" ]
}
check "kill -9 under load: none of its BPF programs or links is left" retry_for 5 gone
check "... its socket file is left behind, a socket" test -S "$SOCK"
start_daemon --interval-ms 100
check "a restart on the same path replaces the stale socket and answers" \
	sh -c "[ -n '$DAEMON_PID' ] && [ -S '$SOCK' ] && '$IRQLAT' --socket '$SOCK' status >/dev/null"
wait "$FIO"

# --- 3. a second daemon on the same socket: refused, the first untouched
ino=$(stat -c %i "$SOCK")
timeout 10 "$IRQLATD" --socket "$SOCK" --log-target stderr --no-tracepoints >"$TMP/second.log" 2>&1; rc=$?
check "a second daemon: exit 1 naming the socket, the first's socket file is the same inode and answers" \
	sh -c "[ $rc -eq 1 ] && grep -q 'another irqlatd is already serving' '$TMP/second.log' && [ \"\$(stat -c %i '$SOCK')\" = '$ino' ] && '$IRQLAT' --socket '$SOCK' status >/dev/null"
stop_daemon
check "... and the first stops cleanly (exit 0), removing its socket" sh -c "[ $DAEMON_STATUS -eq 0 ] && [ ! -e '$SOCK' ]"

# --- 4. every signal irqlatd(8) documents, in every mode: HUP reloads, USR1 detaches, none
# of them kills it; TERM and INT stop it with status 0
MP=$(free_port)
signals_in_mode() {	# signals_in_mode NAME ARGS...
	local name=$1 sig st; shift
	start_daemon --interval-ms 200 "$@" || return 1
	for sig in HUP USR1 HUP USR1; do
		kill -"$sig" "$DAEMON_PID"; sleep 0.2
		kill -0 "$DAEMON_PID" 2>/dev/null || { diag "$name: SIG$sig killed it"; return 1; }
	done
	irqlat status >/dev/null || { diag "$name: not answering after the signals"; return 1; }
	kill -INT "$DAEMON_PID"; wait "$DAEMON_PID"; st=$?; DAEMON_PID=
	[ "$st" -eq 0 ] && [ ! -e "$SOCK" ] || { diag "$name: SIGINT gave status $st"; return 1; }
}
check "--no-tracepoints: SIGHUP and SIGUSR1 do not kill it, SIGINT stops it (0)" signals_in_mode none --no-tracepoints
check "... and SIGUSR1 there says there is nothing to detach" grep -q 'SIGUSR1: no tracepoint is consumed, nothing to detach' "$TMP/daemon.log"
check "with tracepoints (waiting and attached): the same" signals_in_mode tracepoints --tracepoint sched:sched_process_exec --tracepoint silly:me_silly
check "with --metrics: the same" signals_in_mode metrics --no-tracepoints --metrics "127.0.0.1:$MP"
# A signal while it starts (loading its programs, before the loop runs) must not kill it
# either. strace holds its first bpf(2) call for 1.5 s, so the signal surely comes then.
strace -E "$NO_LSAN" -f -qq -o /dev/null -e trace=bpf -e inject=bpf:delay_enter=1500000:when=1 \
	"$IRQLATD" --socket "$SOCK" --log-target stderr >"$TMP/early.log" 2>&1 &
STRACE=$!
early=
for _ in $(seq 50); do early=$(pgrep -P "$STRACE" -x irqlatd) && break; sleep 0.02; done
sleep 0.5	# in the held bpf() call by now
kill -USR1 "$early"
retry_for 10 "$IRQLAT" --socket "$SOCK" status >/dev/null 2>&1
kill -TERM "$early"; wait "$STRACE"; rc=$?
check "SIGUSR1 while it loads its programs: it lives, and exits 0 on SIGTERM" test "$rc" -eq 0

# --- 5. a reader of stderr that went away: EPIPE, not SIGPIPE (exit 141 on main)
mkfifo "$TMP/errpipe"
head -n 2 <"$TMP/errpipe" >/dev/null &
HEAD=$!
"$IRQLATD" --socket "$SOCK" --log-target stderr --no-tracepoints 2>"$TMP/errpipe" &
DAEMON_PID=$!
wait "$HEAD"	# two lines read, the pipe has no reader now
for _ in 1 2 3; do kill -USR1 "$DAEMON_PID" 2>/dev/null; kill -HUP "$DAEMON_PID" 2>/dev/null; sleep 0.2; done
alive=0; kill -0 "$DAEMON_PID" 2>/dev/null && alive=1
stop_daemon
check "stderr's reader gone (| head -2): log lines cost EPIPE, the daemon lives and exits 0 on SIGTERM" \
	test "$alive" -eq 1 -a "$DAEMON_STATUS" -eq 0

# --- 6. at the descriptor limit the loop waits instead of spinning on accept4() (EMFILE)
# (about 26 descriptors are its own with the hard-IRQ kind alone: the limit leaves room for some
# 20 clients, under max-clients; every other kind would add its programs' and links')
prlimit --nofile=48:48 "$IRQLATD" --socket "$SOCK" --log-target stderr --no-tracepoints \
	--no-softirqs --no-vectors --no-timers --no-threaded --metrics "127.0.0.1:$MP" >"$TMP/emfile.log" 2>&1 &
DAEMON_PID=$!
retry_for 10 irqlat status >/dev/null 2>&1
clients hold "$SOCK" 60 4 >"$TMP/hold.out" &
HOLD=$!
sleep 1.5
# 2 s of its system calls: a spinning loop makes thousands of failed accept4() calls
timeout -s INT 2 strace -qq -p "$DAEMON_PID" -e trace=accept4 -o "$TMP/accept.strace" 2>/dev/null
curl -s -m 1 -o /dev/null "http://127.0.0.1:$MP/metrics"	# the HTTP listener meets the limit too
timeout -s INT 1 strace -qq -p "$DAEMON_PID" -e trace=accept4 -o "$TMP/accept2.strace" 2>/dev/null
emfile=$(cat "$TMP/accept.strace" "$TMP/accept2.strace" | grep -c EMFILE)
diag "accept4() failing with EMFILE in 3 s at the limit: $emfile"
check "at the descriptor limit (accept4() failing with EMFILE): retried a few times a second, not in a busy loop" \
	test "$emfile" -gt 0 -a "$emfile" -le 40
check "... and one warning line says so, naming the limit to raise" \
	sh -c "[ \$(grep -c 'cannot accept on the client socket .*Too many open files' '$TMP/emfile.log') -eq 1 ] && grep -q 'raise LimitNOFILE=' '$TMP/emfile.log'"
wait "$HOLD"
answers() { irqlat status >/dev/null; }
check "when they leave, it accepts again" retry_for 5 answers
stop_daemon
check "... and stops cleanly" test "$DAEMON_STATUS" -eq 0

# --- 7. irqlat against a listen queue that stays full: a timeout, and a signal, end it
clients fullqueue "$TMP/full.sock" 30 >"$TMP/fullq.out" &
FULL=$!
retry_for 5 grep -q queued "$TMP/fullq.out"
t0=$(date +%s%N)
out=$(timeout 30 "$IRQLAT" --socket "$TMP/full.sock" status 2>&1); rc=$?
el=$(( ($(date +%s%N) - t0) / 1000000 ))
diag "full queue: irqlat status exited $rc after $el ms: $out"
check "connect() to a full queue times out: exit 1 with one line, not a hang (timeout(1) would give 124)" \
	sh -c "[ $rc -eq 1 ] && [ \$(printf '%s\n' \"\$1\" | wc -l) -eq 1 ] && printf '%s' \"\$1\" | grep -q 'did not take the connection within 5 s'" _ "$out"
"$IRQLAT" --socket "$TMP/full.sock" --top --batch >"$TMP/int.out" 2>&1 &
CL=$!
in_connect() { [ "$(cut -d' ' -f1 /proc/"$CL"/syscall 2>/dev/null)" = 42 ]; }	# x86_64 connect(2)
retry_for 5 in_connect || diag "irqlat did not reach connect(2) within 5 s"
kill -INT "$CL"
ended() { ! kill -0 "$CL" 2>/dev/null; }
check "SIGINT while connecting ends irqlat at once (no SA_RESTART)" retry_for 2 ended
wait "$CL"; rc=$?
check "... with exit 1 and one line, 'interrupted while connecting'" \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMP/int.out') -eq 1 ] && grep -q 'interrupted while connecting' '$TMP/int.out'"
kill "$FULL" 2>/dev/null; wait "$FULL" 2>/dev/null
# (connect(2) with a send timeout ends with EINTR whatever the flags; the kernel's record of
# how the handlers were installed says whether any other blocking call would be restarted)
strace -E "$NO_LSAN" -qq -e trace=rt_sigaction -o "$TMP/sigaction" "$IRQLAT" --socket "$TMP/none.sock" status >/dev/null 2>&1
handlers=$(grep -E '^rt_sigaction\((SIGINT|SIGTERM), \{sa_handler=0x' "$TMP/sigaction")
diag "irqlat's handlers: $(sed -E 's/.*\((SIG[A-Z]+), .*sa_flags=([^,]*),.*/\1 \2/' <<<"$handlers" | tr '\n' ' ')"
check "irqlat catches SIGINT and SIGTERM with sigaction(2), without SA_RESTART (strace)" \
	sh -c "[ \$(printf '%s\n' \"\$1\" | grep -c .) -eq 2 ] && ! printf '%s' \"\$1\" | grep -q SA_RESTART" _ "$handlers"

# --- 8. the reference of section 2 can see what it checks: bpftool shows a live daemon's
# programs and links by the ids its descriptors name
start_daemon --interval-ms 200
live() {
	local id n=0
	for id in $(awk '$1 == "prog_id:" || $1 == "link_id:" { print $1 $2 }' /proc/"$DAEMON_PID"/fdinfo/* | sort -u); do
		case $id in
		prog_id:*) bpftool prog show id "${id#*:}" >/dev/null || return 1 ;;
		link_id:*) bpftool link show id "${id#*:}" >/dev/null || return 1 ;;
		esac
		n=$((n + 1))
	done
	[ "$n" -ge 4 ]
}
check "the reference works: bpftool shows a live daemon's programs and links" live
stop_daemon
done_testing
