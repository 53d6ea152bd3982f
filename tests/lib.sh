# shellcheck shell=bash
# Helpers for the host tests (tests/host/*.t): TAP output, a daemon per test, IRQ load.
# Each test runs as root against the real kernel; nothing here is mocked.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
IRQLATD=$BUILD/irqlatd
IRQLAT=$BUILD/irqlat
TMP=$(mktemp -d /tmp/irqlat-test.XXXXXX)
SOCK=$TMP/irqlatd.sock
_n=0
_failed=0
DAEMON_PID=

plan() { echo "1..$1"; }
ok() { _n=$((_n + 1)); echo "ok $_n - $1"; }
not_ok() { _n=$((_n + 1)); _failed=$((_failed + 1)); echo "not ok $_n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
skip() { _n=$((_n + 1)); echo "ok $_n # skip $1"; }
diag() { echo "# $*"; }

# ---- Checks that say what they found. A check's command is best one of the predicates below,
# or a function made of them: each that fails writes what it compared, both sides named, to
# $WHY (a file, so that one failing in a subshell or a pipeline is heard too), and a failed
# check prints that under its "not ok" line. A command that wrote nothing there is printed
# itself, as before.
WHY=$TMP/why
: >"$WHY"
# check NAME COMMAND...: ok when the command succeeds
# (its command runs inside check: its own variable names start with _check, so as not to hide
# a test's variable from a function the command calls)
check() {
	local _check_name=$1; shift
	: >"$WHY"
	if "$@"; then ok "$_check_name"; return 0; fi
	if [ -s "$WHY" ]; then
		not_ok "$_check_name"
		sed 's/^/#   /' "$WHY"
	else
		not_ok "$_check_name" "command: $*"
	fi
}
# why LABEL VALUE: one side of a failed comparison; a value of more than one line is indented
# under its label, its first 20 lines
why() {
	local n
	n=$(printf '%s\n' "$2" | wc -l)
	if [ "$n" -le 1 ]; then
		printf '%s: %s\n' "$1" "${2:-(empty)}"
	else
		printf '%s:\n' "$1"
		printf '%s\n' "$2" | head -n 20 | sed 's/^/    /'
		[ "$n" -le 20 ] || printf '    (%d lines more)\n' $((n - 20))
	fi >>"$WHY"
}
# diag_why: what the predicates said, as diagnostics (for a wait outside a check)
diag_why() { sed 's/^/# /' "$WHY"; }
_quoted() { case $1 in *$'\n'*) printf '%s' "$1" ;; *) printf "'%s'" "$1" ;; esac; }

# is_eq ACTUAL EXPECTED [WHAT_ACTUAL [WHAT_EXPECTED]]: the same text (is_ne: not the same).
# The WHATs name the two sides in the report ("got" and "expected" by default).
is_eq() {
	[ "$1" = "$2" ] && return 0
	why "${3:-got}" "$(_quoted "$1")"; why "${4:-expected}" "$(_quoted "$2")"; return 1
}
is_ne() {
	[ "$1" != "$2" ] && return 0
	why "${3:-got}" "$(_quoted "$1")"; why "${4:-expected anything but}" "$(_quoted "$2")"; return 1
}
# is_ge N BOUND [WHAT_N [WHAT_BOUND]] (is_eqn, is_gt, is_le, is_lt): whole numbers, compared
# as by test(1) (-ge, -eq, ...); anything but a whole number fails
_compare() {	# OP RELATION N BOUND [WHAT_N [WHAT_BOUND]]
	test "$3" "$1" "$4" 2>/dev/null && return 0
	why "${5:-got}" "$3"; why "$2${6:+ ($6)}" "$4"; return 1
}
is_eqn() { _compare -eq "expected" "$@"; }
is_ge() { _compare -ge "at least" "$@"; }
is_gt() { _compare -gt "more than" "$@"; }
is_le() { _compare -le "at most" "$@"; }
is_lt() { _compare -lt "less than" "$@"; }
# is_between N LO HI [WHAT_N [WHAT_RANGE]]: LO <= N <= HI, whole numbers
is_between() {
	[ "$1" -ge "$2" ] 2>/dev/null && [ "$1" -le "$3" ] 2>/dev/null && return 0
	why "${4:-got}" "$1"; why "between${5:+ ($5)}" "$2 and $3"; return 1
}
# is_empty VALUE [WHAT]: nothing (is_set: something)
is_empty() { [ -z "$1" ] && return 0; why "${2:-got}" "$1"; why "expected" "nothing"; return 1; }
is_set() { [ -n "$1" ] && return 0; why "${2:-got}" ""; why "expected" "something"; return 1; }
# is_nonempty FILE: a file with something in it (test -s)
is_nonempty() { [ -s "$1" ] && return 0; why "empty or missing" "$1"; return 1; }
# is_empty_file FILE: nothing in it, or no such file (test ! -s); else what is in it
is_empty_file() { [ ! -s "$1" ] && return 0; why "expected empty, $1 holds" "$(cat "$1")"; return 1; }
# is_absent PATH: nothing there (test ! -e); else what is
is_absent() { [ ! -e "$1" ] && return 0; why "still there" "$(ls -ld "$1" 2>&1)"; return 1; }
# has_line TEXT GREP_ARGS...: a line of TEXT matches (grep -q GREP_ARGS); else the pattern
# and the text (lacks_line: no line matches; else the lines that do)
has_line() {
	local text=$1; shift
	grep -q "$@" <<<"$text" && return 0
	why "no line matches" "grep $*"; why "the text" "$text"; return 1
}
lacks_line() {
	local text=$1; shift
	grep -q "$@" <<<"$text" || return 0
	why "expected no line matching" "grep $*"; why "lines that match" "$(grep "$@" <<<"$text")"; return 1
}
# file_has GREP_ARGS... FILE: a line of FILE matches (grep -q); else the pattern and the
# file's last 10 lines (file_lacks: no line matches; else the lines that do)
file_has() {
	grep -q "$@" && return 0
	why "no line of ${*: -1} matches" "grep ${*:1:$#-1}"; why "its last lines" "$(tail -n 10 "${*: -1}" 2>&1)"; return 1
}
file_lacks() {
	grep -q "$@" || return 0
	why "expected no line of ${*: -1} matching" "grep ${*:1:$#-1}"; why "lines that match" "$(grep "$@")"; return 1
}
# same_file FILE1 FILE2: the same bytes (cmp -s); else how they differ (diff -u)
same_file() {
	cmp -s "$1" "$2" && return 0
	why "$1 and $2 differ" "$(diff -u "$1" "$2" 2>&1)"; return 1
}
# exit_says RC WANT OUTPUT [one-line] [GREP_ARGS...]: the exit status RC is WANT and, with
# one-line, OUTPUT is a single line; with GREP_ARGS, a line of OUTPUT matches them
exit_says() {
	local rc=$1 want=$2 out=$3; shift 3
	local one=; [ "${1:-}" = one-line ] && { one=1; shift; }
	[ "$rc" -eq "$want" ] 2>/dev/null &&
		{ [ -z "$one" ] || [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]; } &&
		{ [ $# -eq 0 ] || grep -q "$@" <<<"$out"; } && return 0
	why "exit status" "$rc (expected $want)"
	[ -z "$one" ] || why "lines of output" "$(printf '%s\n' "$out" | wc -l) (expected 1)"
	[ $# -eq 0 ] || why "a line matching" "grep $*"
	why "output" "$out"
	return 1
}
# jq_true INPUT FILTER [JQ_OPTIONS...]: jq prints true (nothing else) for FILTER over INPUT,
# JSON text or <FILE; else what it printed and the start of the input
_jq_in() { if [ "${1:0:1}" = "<" ]; then cat "${1:1}"; else printf '%s\n' "$1"; fi; }
_jq_input_why() {
	why "over" "$(_jq_in "$1" | head -c 100000 | jq -c . 2>/dev/null | head -n 5 | cut -c 1-400)"
}
jq_true() {
	local in=$1 filter=$2 out; shift 2
	out=$(_jq_in "$in" | jq "$@" "$filter" 2>&1)
	[ "$out" = true ] && return 0
	why "jq${*:+ $*} gave" "$out"; why "the filter" "$filter"; _jq_input_why "$in"; return 1
}
# jq_all INPUT LIST PREDICATE [JQ_OPTIONS...]: every value of LIST satisfies PREDICATE (jq's
# [LIST | (PREDICATE)] | all: true when LIST is empty); else the first three that do not.
# jq_every: the same, and LIST has a value.
jq_all() {
	local in=$1 list=$2 pred=$3 out; shift 3
	out=$(_jq_in "$in" | jq "$@" "[$list | ($pred)] | all" 2>&1)
	[ "$out" = true ] && return 0
	_jq_all_why "$in" "$list" "$pred" "$out" "$@"; return 1
}
jq_every() {
	local in=$1 list=$2 pred=$3 out; shift 3
	out=$(_jq_in "$in" | jq "$@" "([$list] | length > 0) and ([$list | ($pred)] | all)" 2>&1)
	[ "$out" = true ] && return 0
	_jq_all_why "$in" "$list" "$pred" "$out" "$@"; return 1
}
# jq_some INPUT LIST PREDICATE [JQ_OPTIONS...]: a value of LIST satisfies PREDICATE (jq's
# [LIST | select(PREDICATE)] | length > 0); else how many values there were, and the first three
jq_some() {
	local in=$1 list=$2 pred=$3 out; shift 3
	out=$(_jq_in "$in" | jq "$@" "[$list | select($pred)] | length > 0" 2>&1)
	[ "$out" = true ] && return 0
	why "no value of" "$list"
	why "satisfies" "$pred"
	[ "$out" = false ] || why "but jq gave" "$out"
	why "values" "$(_jq_in "$in" | jq "$@" "[$list] | length" 2>&1)"
	why "the first" "$(_jq_in "$in" | jq -c "$@" "[$list][:3][]" 2>&1 | cut -c 1-400)"
	return 1
}
_jq_all_why() {	# INPUT LIST PREDICATE OUTPUT JQ_OPTIONS...
	local in=$1 list=$2 pred=$3 out=$4; shift 4
	why "every value of" "$list"
	why "satisfies" "$pred"
	[ "$out" = false ] || why "but jq gave" "$out"
	why "values" "$(_jq_in "$in" | jq "$@" "[$list] | length" 2>&1)"
	why "the first that do not" "$(_jq_in "$in" | jq -c "$@" "[$list | select(($pred) | not)][:3][]" 2>&1 | cut -c 1-400)"
}
# awk_holds EXPRESSION NAME=VALUE...: awk's EXPRESSION over those variables is true (numbers
# with a fraction, which test(1) cannot compare); else the expression and the values
awk_holds() {
	local expr=$1 a; shift
	local vars=()
	for a in "$@"; do vars+=(-v "$a"); done
	awk "${vars[@]}" "BEGIN { exit !($expr) }" && return 0
	why "does not hold" "$expr"; why "with" "$*"; return 1
}
# check_eq NAME ACTUAL EXPECTED [WHAT_ACTUAL [WHAT_EXPECTED]], check_ge NAME N MIN ..., and
# so on: check NAME with that predicate (check_match: has_line, check_grep: file_has,
# check_same: same_file, check_exit: exit_says, check_jq: jq_true, check_awk: awk_holds)
check_eq() { local _check_name=$1; shift; check "$_check_name" is_eq "$@"; }
check_ne() { local _check_name=$1; shift; check "$_check_name" is_ne "$@"; }
check_eqn() { local _check_name=$1; shift; check "$_check_name" is_eqn "$@"; }
check_ge() { local _check_name=$1; shift; check "$_check_name" is_ge "$@"; }
check_gt() { local _check_name=$1; shift; check "$_check_name" is_gt "$@"; }
check_le() { local _check_name=$1; shift; check "$_check_name" is_le "$@"; }
check_lt() { local _check_name=$1; shift; check "$_check_name" is_lt "$@"; }
check_between() { local _check_name=$1; shift; check "$_check_name" is_between "$@"; }
check_empty() { local _check_name=$1; shift; check "$_check_name" is_empty "$@"; }
check_set() { local _check_name=$1; shift; check "$_check_name" is_set "$@"; }
check_absent() { local _check_name=$1; shift; check "$_check_name" is_absent "$@"; }
check_nonempty() { local _check_name=$1; shift; check "$_check_name" is_nonempty "$@"; }
check_empty_file() { local _check_name=$1; shift; check "$_check_name" is_empty_file "$@"; }
check_match() { local _check_name=$1; shift; check "$_check_name" has_line "$@"; }
check_no_match() { local _check_name=$1; shift; check "$_check_name" lacks_line "$@"; }
check_grep() { local _check_name=$1; shift; check "$_check_name" file_has "$@"; }
check_no_grep() { local _check_name=$1; shift; check "$_check_name" file_lacks "$@"; }
check_same() { local _check_name=$1; shift; check "$_check_name" same_file "$@"; }
check_exit() { local _check_name=$1; shift; check "$_check_name" exit_says "$@"; }
check_jq() { local _check_name=$1; shift; check "$_check_name" jq_true "$@"; }
check_jq_all() { local _check_name=$1; shift; check "$_check_name" jq_all "$@"; }
check_jq_every() { local _check_name=$1; shift; check "$_check_name" jq_every "$@"; }
check_jq_some() { local _check_name=$1; shift; check "$_check_name" jq_some "$@"; }
check_awk() { local _check_name=$1; shift; check "$_check_name" awk_holds "$@"; }

cleanup() {
	stop_daemon
	rm -rf "$TMP"
}
trap cleanup EXIT

# start_daemon [ARGS...]: irqlatd on a private socket, logging to $TMP/daemon.log; waits for
# the socket to answer.
start_daemon() {
	"$IRQLATD" --socket "$SOCK" --log-target stderr "$@" >"$TMP/daemon.log" 2>&1 &
	DAEMON_PID=$!
	for _ in $(seq 100); do
		"$IRQLAT" --socket "$SOCK" status >/dev/null 2>&1 && return 0
		kill -0 "$DAEMON_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "# irqlatd did not come up; its log:"; sed 's/^/#   /' "$TMP/daemon.log"
	return 1
}

# LeakSanitizer cannot work under ptrace: with a sanitized build (make check SANITIZE=1) what
# a test runs under strace runs without it (strace -E "$NO_LSAN"), every other check on.
NO_LSAN=ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0

# stop_daemon: SIGTERM, and its exit status in DAEMON_STATUS. One that does not stop within
# 20 s is killed (status 137 then): a test must fail, never hang.
stop_daemon() {
	[ -n "$DAEMON_PID" ] || return 0
	kill -TERM "$DAEMON_PID" 2>/dev/null
	for _ in $(seq 200); do kill -0 "$DAEMON_PID" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$DAEMON_PID" 2>/dev/null; then
		echo "# irqlatd $DAEMON_PID did not stop within 20 s of SIGTERM: killed"
		kill -KILL "$DAEMON_PID" 2>/dev/null
	fi
	wait "$DAEMON_PID" 2>/dev/null
	DAEMON_STATUS=$?
	DAEMON_PID=
	return 0
}

irqlat() { "$IRQLAT" --socket "$SOCK" "$@"; }

# reap_tops: an irqlat of this test's socket still running 5 s after the test's tmux went
# (its terminal hung up) is killed, and said: one of the sanitized build, stuck in
# LeakSanitizer's exit check, would spin a CPU long after its test, under the tests after it.
reap_tops() {
	local mine="^$IRQLAT --socket $SOCK" left
	for _ in $(seq 25); do
		pgrep -f "$mine" >/dev/null || return 0
		sleep 0.2
	done
	left=$(pgrep -f "$mine" | tr '\n' ' ')
	echo "# irqlat still running 5 s after its terminal went (pids $left): killed"
	pkill -KILL -f "$mine"
}

# A TCP port on 127.0.0.1 that nothing listens on now.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The IRQ line that the virtio disk completes requests on (machine.md): the busiest
# virtio*-req* line in /proc/interrupts, or the first one.
disk_irq() {
	awk '/virtio[0-9]+-req/ { n = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; sub(":", "", $1); print n, $1 }' /proc/interrupts | sort -rn | awk 'NR == 1 { print $2 }'
}

# Sum over CPUs of /proc/interrupts for one IRQ number.
proc_irq_count() {
	awk -v irq="$1:" '$1 == irq { n = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; else break; print n }' /proc/interrupts
}

# bracket daemon|proc|ticks ...: counts read between two readings of /proc/interrupts
# (tests/host/helpers/bracket.py), so that other load on the machine cannot part them
bracket() { python3 "$TOP/tests/host/helpers/bracket.py" "$@"; }

# count_agrees D0 LO0 HI0 D1 LO1 HI1: irqlatd's delta D1 - D0 against the kernel's over the same
# time, which lies in [LO1 - HI0, HI1 - LO0] when each D was read between the readings LO and HI
# of /proc/interrupts. irqlatd may count a few less under load, more with an outlier on every
# interrupt (docs/architecture.md, "What irqlatd counts and the kernel's count"): the delta may fall short of the kernel's by at most
# COUNT_SHORTFALL_PERMILLE per mille, and exceed it by at most 5 (a handler still running while
# the kernel's count was read). COUNT_DIAG says what was compared.
COUNT_SHORTFALL_PERMILLE=5
count_agrees() {
	local dd=$(($4 - $1)) lo=$(($5 - $3)) hi=$(($6 - $2))
	COUNT_DIAG="irqlatd +$dd, /proc/interrupts between +$lo and +$hi"
	[ "$lo" -gt 1000 ] && [ "$dd" -le $((hi + 5)) ] && [ "$dd" -ge $((lo - lo * COUNT_SHORTFALL_PERMILLE / 1000 - 5)) ] && return 0
	why "irqlatd's delta" "$dd"
	why "/proc/interrupts' delta between" "$lo and $hi (more than 1000 needed; allowed: $((lo - lo * COUNT_SHORTFALL_PERMILLE / 1000 - 5)) to $((hi + 5)))"
	return 1
}

# fio_load SECONDS: direct I/O on a file, about 10,000 disk IRQs a second here.
fio_load() {
	fio --name=irqload --filename="$TMP/fio.dat" --size=32M --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --runtime="$1" --time_based >"$TMP/fio.log" 2>&1
}

# why_setup [TOOL...]: what the why tests need before they start: cyclictest, chrt, taskset,
# jq, python3 and the TOOLs (a Bail out! line naming the one missing), two CPUs (the load on
# CPU 1, the rest elsewhere: a SKIP plan on one) and tracefs
why_setup() {
	local t
	for t in cyclictest chrt taskset jq python3 "$@"; do
		command -v "$t" >/dev/null || { echo "Bail out! $t is missing (scripts/install-deps test)"; exit 1; }
	done
	[ "$(nproc)" -ge 2 ] || { echo "1..0 # SKIP needs 2 CPUs"; exit 0; }
	mount_fs
}

# burst_start [PRIO [BUSY_US PERIOD_US]]: the SCHED_FIFO (99) busy task of the why tests on CPU 1
# (tests/host/helpers/burst.py: 2 ms out of 10), its pid in BURST, once its loop runs: a
# test's waits are the burst's from then on
burst_start() {
	rm -f "$TMP/burst.ready"
	chrt -f "${1:-99}" taskset -c 1 python3 "$TOP/tests/host/helpers/burst.py" "$TMP/burst.ready" "${@:2}" &
	BURST=$!
	retry_for 30 test -e "$TMP/burst.ready"
}

# The misbehaving clients of tests/host/helpers/clients.py (one summary line each)
clients() { python3 "$TOP/tests/host/helpers/clients.py" "$@"; }

# rss_kb PID: resident memory in KiB, as the kernel counts it
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status"; }
# fd_count PID: open descriptors
fd_count() { ls "/proc/$1/fd" | wc -l; }

# field KEY LINE: the value of KEY=value in a summary line
field() { sed -n "s/.*\<$1=\([^ ]*\).*/\1/p" <<<"$2"; }

# retry_for SECONDS COMMAND...: run COMMAND every 0.1 s until it succeeds or the time is up
# (what a predicate in it says is of its last try)
retry_for() {
	local _retry_left=$(($1 * 10)); shift
	until : >"$WHY"; "$@"; do
		_retry_left=$((_retry_left - 1)); [ "$_retry_left" -gt 0 ] || return 1
		sleep 0.1
	done
}

done_testing() {
	[ "$_failed" -eq 0 ]
}

mount_fs() {
	mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf 2>/dev/null || true
}

# ftrace_cpu1 DIR KB EVENT...: a private tracefs instance DIR of CPU 1's EVENTs ("irq/softirq_exit";
# "irq_vectors": every vector's entry and exit), KB of buffer, in the daemon's clock (mono),
# tracing off (the caller turns it on). Made before the daemon starts: a tracepoint calls its
# probes in the order they were registered, and a probe of ftrace's after irqlatd's stamps the
# event late by the time irqlatd's program took, several us on its slow path (an explanation,
# a ring-buffer record whose wake-up is a self-IPI, which this VM's host traps).
ftrace_cpu1() {
	local dir=$1 kb=$2 e v
	shift 2
	mkdir "$dir" || return 1
	echo 0 >"$dir/tracing_on"
	echo mono >"$dir/trace_clock"
	echo 2 >"$dir/tracing_cpumask"
	echo "$kb" >"$dir/buffer_size_kb"
	for e in "$@"; do
		if [ "$e" = irq_vectors ]; then
			for v in "$dir"/events/irq_vectors/*_entry "$dir"/events/irq_vectors/*_exit; do echo 1 >"$v/enable"; done
		else
			echo 1 >"$dir/events/$e/enable" || return 1
		fi
	done
}

# start_private_journald: a systemd-journald of the test's own, for a test that re-executed
# itself in a private mount namespace (unshare --mount): tmpfs on /run/systemd, /run/log,
# /var/log/journal and /var/lib/systemd/catalog, so neither the host's journal nor another
# test's journald sees its entries and nothing is left behind; irqlatd's catalog compiled in,
# as `make install` would set it up. Sets JOURNALD_PID; the caller kills it.
start_private_journald() {
	local d
	for d in /run/systemd /run/log /var/log/journal /var/lib/systemd/catalog; do
		mkdir -p "$d" && mount -t tmpfs tmpfs "$d" || { echo "Bail out! cannot mount a private $d"; exit 1; }
	done
	/lib/systemd/systemd-journald >"$TMP/journald.log" 2>&1 &
	JOURNALD_PID=$!
	mkdir -p "$TMP/catalog-root/usr/lib/systemd/catalog"
	cp "$TOP/docs/irqlatd.catalog" "$TMP/catalog-root/usr/lib/systemd/catalog/"
	journalctl --root="$TMP/catalog-root" --update-catalog &&
		cp "$TMP/catalog-root/var/lib/systemd/catalog/database" /var/lib/systemd/catalog/
	for _ in $(seq 50); do [ -S /run/systemd/journal/socket ] && return 0; sleep 0.1; done
	why "no /run/systemd/journal/socket after 5 s; journald's output" "$(cat "$TMP/journald.log")"
	return 1
}

# daemon_entries MESSAGE_ID: the journal's entries of this test's daemon with that MESSAGE_ID,
# one JSON object a line
daemon_entries() { journalctl --no-pager -o json _PID="$DAEMON_PID" MESSAGE_ID="$1"; }
# journal_all MESSAGE_ID JQ_EXPR: entries of that MESSAGE_ID arrive (waited for up to 5 s) and
# JQ_EXPR holds for every one of them
journal_all() {
	for _ in $(seq 50); do [ -n "$(daemon_entries "$1")" ] && break; sleep 0.1; done
	daemon_entries "$1" >"$TMP/entries.json"
	jq -e -s "length > 0 and all($2)" "$TMP/entries.json" >/dev/null && return 0
	why "entries of MESSAGE_ID=$1" "$(wc -l <"$TMP/entries.json")"
	why "expected in every one" "$2"
	why "the first that are not" "$(jq -c -s "[.[] | select(($2) | not)][:3][]" "$TMP/entries.json" 2>&1 | cut -c 1-600)"
	return 1
}

# bracket_agrees FILE NAME [MIN]: in FILE, the output of helpers/snapshot_bracket.py, irqlatd's
# delta for NAME lies within 1% (or 5 events) of the kernel's [LO, HI], and HI >= MIN. With a
# reference counter's [RLO, RHI] on the line (the same tracepoints' program runs), irqlatd's
# delta must lie in it, less one run in flight per CPU at each end (counted at entry there, at
# exit by irqlatd), and never above the kernel's HI + 5; the kernel's count itself may run
# ahead of every BPF program's (docs/architecture.md, section 11).
bracket_agrees() {
	local _ dd lo hi rlo rhi ncpu
	read -r _ dd lo hi rlo rhi < <(grep "^$2 " "$1")
	if [ -z "$dd" ] || [ "$hi" -lt "${3:-0}" ]; then
		why "$2: irqlatd's delta" "${dd:-(no line for $2 in $1)}"
		[ -z "$dd" ] || why "the kernel's delta" "$lo to $hi, under the ${3:-0} needed"
		return 1
	fi
	if [ -n "$rlo" ]; then
		ncpu=$(nproc)
		[ "$dd" -ge $((rlo - ncpu)) ] && [ "$dd" -le $((rhi + ncpu)) ] && [ "$dd" -le $((hi + 5)) ] && return 0
		why "$2: irqlatd's delta" "$dd"
		why "the counter-only program's delta between" "$rlo and $rhi (one run per CPU allowed at each end; /proc's $lo to $hi, at most 5 over)"
		return 1
	fi
	[ "$dd" -ge $((lo - (lo / 100 > 5 ? lo / 100 : 5))) ] && [ "$dd" -le $((hi + (hi / 100 > 5 ? hi / 100 : 5))) ] && return 0
	why "$2: irqlatd's delta" "${dd:-(no line for $2 in $1)}"
	[ -z "$dd" ] || why "the kernel's delta between" "$lo and $hi (at least ${3:-0} needed; 1% or 5 slack)"
	return 1
}
# ref_counter: builds bench/count-ref.c and its programs into $TMP (REF_ARGS: the two
# arguments snapshot_bracket.py takes after SECONDS)
ref_counter() {
	clang -target bpf -D__TARGET_ARCH_x86 -g -O2 -mcpu=v3 -Wall -I"$TOP/vmlinux" -I"$TOP/bpf" -I"$BUILD" \
		-c "$TOP/bench/count-ref.bpf.c" -o "$TMP/count-ref.bpf.o" &&
		cc -O2 -Wall "$TOP/bench/count-ref.c" -o "$TMP/count-ref" -lbpf &&
		REF_ARGS=("$TMP/count-ref" "$TMP/count-ref.bpf.o")
}
# scrape_lint URL FILE: the page into FILE, and promtool finds no error and nothing to lint
scrape_lint() {
	local lint
	curl -s -o "$2" "$1" || { why "curl $1" "failed"; return 1; }
	lint=$(promtool check metrics <"$2" 2>&1)
	is_empty "$lint" "promtool check metrics"
}
