#!/bin/bash
# Faults (issue 10): a --socket path that is not a socket, kill -9 under load and a restart, a
# second daemon, every documented signal in every mode, a closed stderr (SIGPIPE), the
# descriptor limit (EMFILE), and an irqlat whose connect() meets a full listen queue. The
# references are the file system (stat), the kernel's own list of BPF programs and links
# (bpftool), its system-call record (strace) and the processes' exit statuses.
. "$(dirname "$0")/../lib.sh"
plan 27

IRQ=$(disk_irq)

# --- 1. what is at --socket PATH is replaced only when it is a socket a dead daemon left
printf 'data\n' >"$TMP/file"
# (timeout: a daemon that took the path would run until stopped)
out=$(timeout 10 "$IRQLATD" --socket "$TMP/file" --log-target stderr --no-tracepoints 2>&1); rc=$?
check_exit "--socket on a regular file: exit 1, one line saying it is not a socket" "$rc" 1 "$out" one-line 'exists and is not a socket'
file_kept() {
	[ -f "$TMP/file" ] || { why "not a regular file any more" "$(ls -ld "$TMP/file" 2>&1)"; return 1; }
	is_eq "$(cat "$TMP/file")" data "its data"
}
check "... and the file is left as it was (a regular file, its data)" file_kept
ln -s file "$TMP/link"
mkfifo "$TMP/fifo"
timeout 10 "$IRQLATD" --socket "$TMP/link" --log-target stderr --no-tracepoints >/dev/null 2>&1; rc1=$?
timeout 10 "$IRQLATD" --socket "$TMP/fifo" --log-target stderr --no-tracepoints >/dev/null 2>&1; rc2=$?
link_fifo_kept() {
	is_eqn "$rc1" 1 "exit status on the link" && is_eqn "$rc2" 1 "exit status on the FIFO" || return 1
	[ -L "$TMP/link" ] && [ -p "$TMP/fifo" ] || { why "not a link and a FIFO any more" "$(ls -l "$TMP/link" "$TMP/fifo" 2>&1)"; return 1; }
	is_eq "$(cat "$TMP/file")" data "the link's target's data"
}
check "a symbolic link and a FIFO there: refused (exit 1), both left, the link's target too" link_fifo_kept

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
	for id in $progs; do bpftool prog show id "$id" >/dev/null 2>&1 && { why "a program still loaded" "$id"; return 1; }; done
	for id in $links; do bpftool link show id "$id" >/dev/null 2>&1 && { why "a link still there" "$id"; return 1; }; done
	is_set "$progs" "the daemon's programs" && is_set "$links" "the daemon's links"
}
check "kill -9 under load: none of its BPF programs or links is left" retry_for 5 gone
is_socket() { [ -S "$1" ] && return 0; why "not a socket" "$(ls -ld "$1" 2>&1)"; return 1; }
check "... its socket file is left behind, a socket" is_socket "$SOCK"
start_daemon --interval-ms 100
restarted() {
	is_set "$DAEMON_PID" "irqlatd's pid" && is_socket "$SOCK" &&
		{ irqlat status >/dev/null || { why "irqlat status" "failed"; false; }; }
}
check "a restart on the same path replaces the stale socket and answers" restarted
wait "$FIO"

# --- 3. a second daemon on the same socket: refused, the first untouched
ino=$(stat -c %i "$SOCK")
timeout 10 "$IRQLATD" --socket "$SOCK" --log-target stderr --no-tracepoints >"$TMP/second.log" 2>&1; rc=$?
second_refused() {
	exit_says "$rc" 1 "$(cat "$TMP/second.log")" 'another irqlatd is already serving' &&
		is_eq "$(stat -c %i "$SOCK")" "$ino" "the socket's inode" "the first's" &&
		{ irqlat status >/dev/null || { why "irqlat status" "failed"; false; }; }
}
check "a second daemon: exit 1 naming the socket, the first's socket file is the same inode and answers" second_refused
stop_daemon
stopped_clean() { is_eqn "$DAEMON_STATUS" 0 "exit status" && is_absent "$SOCK"; }
check "... and the first stops cleanly (exit 0), removing its socket" stopped_clean

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
check_grep "... and SIGUSR1 there says there is nothing to detach" 'SIGUSR1: no tracepoint is consumed, nothing to detach' "$TMP/daemon.log"
check "with tracepoints (waiting and attached): the same" signals_in_mode tracepoints --tracepoint sched:sched_process_exec --tracepoint silly:me_silly
check "with --metrics: the same" signals_in_mode metrics --no-tracepoints --metrics "127.0.0.1:$MP"
# Every other signal a daemon may be sent whose default ends or stops a process: ignored
# (SIGUSR2 killed it on main, exit 140, its socket left); the job-control stops (TSTP, STOP)
# and the program-error signals keep their default, as irqlatd(8) says
start_daemon --interval-ms 200 --no-tracepoints
ignored="USR2 ALRM VTALRM PROF IO PWR STKFLT XCPU XFSZ TTIN TTOU CHLD URG WINCH CONT RTMIN RTMIN+1 RTMAX-1 RTMAX"
survives() {
	local sig
	for sig in $ignored; do
		kill -s "$sig" "$DAEMON_PID"; sleep 0.05
		kill -0 "$DAEMON_PID" 2>/dev/null || { diag "SIG$sig ended it"; return 1; }
	done
	irqlat status >/dev/null
}
check "SIGUSR2, the timers', I/O, power, CPU and file limits', terminal and real-time signals: ignored, it answers" survives
stop_daemon
check "... and stops cleanly after them (exit 0, socket removed)" sh -c "[ $DAEMON_STATUS -eq 0 ] && [ ! -e '$SOCK' ]"
# irqlatd(8) SIGNALS names each signal the kernel has (kill -l: 1 to 31, and the real-time range)
undocumented_signals() {
	local sec miss= n name
	sec=$(sed -n '/^\.SH SIGNALS/,/^\.SH /p' "$TOP/docs/irqlatd.8")
	for n in $(seq 1 31); do
		name=$(kill -l "$n")
		grep -qw "SIG$name" <<<"$sec" || miss+=" SIG$name"
	done
	grep -qw SIGRTMIN <<<"$sec" && grep -qw SIGRTMAX <<<"$sec" || miss+=" SIGRTMIN..SIGRTMAX"
	[ -z "$miss" ] || { diag "not in irqlatd(8) SIGNALS:$miss"; return 1; }
}
check "irqlatd(8) SIGNALS says what each signal does" undocumented_signals

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
check_eqn "SIGUSR1 while it loads its programs: it lives, and exits 0 on SIGTERM" "$rc" 0 "exit status (under strace)"

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
lives_on_epipe() { is_eqn "$alive" 1 "alive after the signals (1: yes)" && is_eqn "$DAEMON_STATUS" 0 "exit status"; }
check "stderr's reader gone (| head -2): log lines cost EPIPE, the daemon lives and exits 0 on SIGTERM" lives_on_epipe

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
check_between "at the descriptor limit (accept4() failing with EMFILE): retried a few times a second, not in a busy loop" \
	"$emfile" 1 40 "accept4() calls failing with EMFILE in 3 s"
one_warning() {
	is_eqn "$(grep -c 'cannot accept on the client socket .*Too many open files' "$TMP/emfile.log")" 1 "lines saying it cannot accept" ||
		{ why "the log" "$(cat "$TMP/emfile.log")"; return 1; }
	file_has 'raise LimitNOFILE=' "$TMP/emfile.log"
}
check "... and one warning line says so, naming the limit to raise" one_warning
wait "$HOLD"
answers() { irqlat status >/dev/null 2>"$TMP/answers.err" && return 0; why "irqlat status" "$(cat "$TMP/answers.err")"; return 1; }
check "when they leave, it accepts again" retry_for 5 answers
stop_daemon
check_eqn "... and stops cleanly" "$DAEMON_STATUS" 0 "exit status"

# Far too few descriptors to load its programs: the first warning says EMFILE, and no line
# takes the shortage for the kernel refusing a program (main's first warning blamed fentry on
# irq_thread_fn, and its retry without it failed as well)
out=$(prlimit --nofile=32:32 timeout 20 "$IRQLATD" --socket "$TMP/emfile.sock" --log-target stderr --no-tracepoints 2>&1); rc=$?
first=$(grep -m1 -E '^irqlatd: (warning|error):' <<<"$out")
diag "--nofile=32: exit $rc; first warning: $first"
check "under prlimit --nofile=32: the first warning names EMFILE, none blames fentry, exit 1 naming EMFILE" \
	sh -c "[ $rc -eq 1 ] && printf '%s' \"\$1\" | grep -q EMFILE && ! printf '%s' \"\$2\" | grep -qi 'refused fentry' && printf '%s' \"\$2\" | grep -q '^irqlatd: error: .*EMFILE'" _ "$first" "$out"

# --- 7. irqlat against a listen queue that stays full: a timeout, and a signal, end it
clients fullqueue "$TMP/full.sock" 30 >"$TMP/fullq.out" &
FULL=$!
retry_for 5 grep -q queued "$TMP/fullq.out"
t0=$(date +%s%N)
out=$(timeout 30 "$IRQLAT" --socket "$TMP/full.sock" status 2>&1); rc=$?
el=$(( ($(date +%s%N) - t0) / 1000000 ))
diag "full queue: irqlat status exited $rc after $el ms: $out"
check_exit "connect() to a full queue times out: exit 1 with one line, not a hang (timeout(1) would give 124)" \
	"$rc" 1 "$out" one-line 'did not take the connection within 5 s'
"$IRQLAT" --socket "$TMP/full.sock" --top --batch >"$TMP/int.out" 2>&1 &
CL=$!
in_connect() { [ "$(cut -d' ' -f1 /proc/"$CL"/syscall 2>/dev/null)" = 42 ]; }	# x86_64 connect(2)
retry_for 5 in_connect || diag "irqlat did not reach connect(2) within 5 s"
kill -INT "$CL"
ended() { kill -0 "$CL" 2>/dev/null || return 0; why "irqlat still runs" "pid $CL"; return 1; }
check "SIGINT while connecting ends irqlat at once (no SA_RESTART)" retry_for 2 ended
wait "$CL"; rc=$?
interrupted() {
	is_eqn "$rc" 1 "exit status" && is_eqn "$(wc -l <"$TMP/int.out")" 1 "lines of output" || { why "output" "$(cat "$TMP/int.out")"; return 1; }
	file_has 'interrupted while connecting' "$TMP/int.out"
}
check "... with exit 1 and one line, 'interrupted while connecting'" interrupted
kill "$FULL" 2>/dev/null; wait "$FULL" 2>/dev/null
# (connect(2) with a send timeout ends with EINTR whatever the flags; the kernel's record of
# how the handlers were installed says whether any other blocking call would be restarted)
strace -E "$NO_LSAN" -qq -e trace=rt_sigaction -o "$TMP/sigaction" "$IRQLAT" --socket "$TMP/none.sock" status >/dev/null 2>&1
handlers=$(grep -E '^rt_sigaction\((SIGINT|SIGTERM), \{sa_handler=0x' "$TMP/sigaction")
diag "irqlat's handlers: $(sed -E 's/.*\((SIG[A-Z]+), .*sa_flags=([^,]*),.*/\1 \2/' <<<"$handlers" | tr '\n' ' ')"
no_restart() {
	is_eqn "$(printf '%s\n' "$handlers" | grep -c .)" 2 "rt_sigaction() calls for SIGINT and SIGTERM with a handler" ||
		{ why "irqlat's rt_sigaction() calls" "$(cat "$TMP/sigaction")"; return 1; }
	lacks_line "$handlers" SA_RESTART
}
check "irqlat catches SIGINT and SIGTERM with sigaction(2), without SA_RESTART (strace)" no_restart

# --- 8. the reference of section 2 can see what it checks: bpftool shows a live daemon's
# programs and links by the ids its descriptors name
start_daemon --interval-ms 200
live() {
	local id n=0
	for id in $(awk '$1 == "prog_id:" || $1 == "link_id:" { print $1 $2 }' /proc/"$DAEMON_PID"/fdinfo/* | sort -u); do
		case $id in
		prog_id:*) bpftool prog show id "${id#*:}" >/dev/null || { why "bpftool does not show program" "${id#*:}"; return 1; } ;;
		link_id:*) bpftool link show id "${id#*:}" >/dev/null || { why "bpftool does not show link" "${id#*:}"; return 1; } ;;
		esac
		n=$((n + 1))
	done
	is_ge "$n" 4 "programs and links the daemon holds"
}
check "the reference works: bpftool shows a live daemon's programs and links" live
stop_daemon
done_testing
