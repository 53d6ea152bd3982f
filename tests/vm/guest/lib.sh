# Guest-side helpers for VM checks: sourced by every check, in both guests.
# shellcheck shell=sh
# Checks report TAP lines on stdout ("ok N - name", "not ok N - name",
# "# comment"); the host counts the ok / not ok lines on the serial console.
# POSIX sh: it runs under busybox ash (initramfs guest) and dash (systemd guest).

# One counter for the whole boot, so numbers are unique across checks.
: "${VMTEST_TAP_COUNTER:=/tmp/vmtest-tap-count}"

_tap_next() {
	_tap_n=$(( $(cat "$VMTEST_TAP_COUNTER" 2>/dev/null || echo 0) + 1 ))
	echo "$_tap_n" >"$VMTEST_TAP_COUNTER"
}

# How many results have been reported so far.
tap_count() { cat "$VMTEST_TAP_COUNTER" 2>/dev/null || echo 0; }

ok() { _tap_next; echo "ok $_tap_n - $*"; }
not_ok() { _tap_next; echo "not ok $_tap_n - $*"; }
# skip NAME REASON: counts as passed, and says why it did not run.
skip() { _tap_next; echo "ok $_tap_n - $1 # SKIP $2"; }
diag() { printf '# %s\n' "$*"; }
# diag_file FILE [MAX_LINES]: show a file (its last lines) as TAP comments.
diag_file() { tail -n "${2:-20}" "$1" 2>/dev/null | sed 's/^/#   /'; }

# ---- Checks that say what they found. A check's command is best one of the predicates below,
# or a function made of them: each that fails writes what it compared, both sides named, to
# $VMTEST_WHY, and a failed check prints that as "#" lines under its "not ok" line (the
# command itself when nothing was written there).
: "${VMTEST_WHY:=/tmp/vmtest-why}"
# why LABEL VALUE: one side of a failed comparison; a value of more than one line is indented
# under its label, its first 20 lines
why() {
	if [ "$(printf '%s\n' "$2" | wc -l)" -le 1 ]; then
		printf '%s: %s\n' "$1" "${2:-(empty)}"
	else
		printf '%s:\n' "$1"
		printf '%s\n' "$2" | head -n 20 | sed 's/^/    /'
	fi >>"$VMTEST_WHY"
}
_why_print() { sed 's/^/#   /' "$VMTEST_WHY"; }

# check NAME COMMAND [ARGS...]: ok when the command succeeds.  For a pipeline,
# write a small function and pass its name.
check() {
	_check_name=$1
	shift
	: >"$VMTEST_WHY"
	if "$@"; then
		ok "$_check_name"
	else
		not_ok "$_check_name"
		if [ -s "$VMTEST_WHY" ]; then _why_print; else echo "#   command: $*"; fi
	fi
}

# is_eq ACTUAL EXPECTED [WHAT_ACTUAL [WHAT_EXPECTED]]: the same text (is_ne: not). The WHATs
# name the two sides in the report ("got" and "expected" by default).
is_eq() {
	[ "$1" = "$2" ] && return 0
	why "${3:-got}" "'$1'"; why "${4:-expected}" "'$2'"; return 1
}
is_ne() {
	[ "$1" != "$2" ] && return 0
	why "${3:-got}" "'$1'"; why "${4:-expected anything but}" "'$2'"; return 1
}
# is_ge N BOUND [WHAT_N [WHAT_BOUND]] (is_eqn, is_gt, is_le, is_lt): whole numbers compared as
# by test(1) (-ge, -eq, ...); anything but a whole number fails
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
# is_empty VALUE [WHAT] (is_set: something); is_absent PATH (test ! -e)
is_empty() { [ -z "$1" ] && return 0; why "${2:-got}" "$1"; why "expected" "nothing"; return 1; }
is_set() { [ -n "$1" ] && return 0; why "${2:-got}" ""; why "expected" "something"; return 1; }
is_absent() { [ ! -e "$1" ] && return 0; why "still there" "$(ls -ld "$1" 2>&1)"; return 1; }
# has_line TEXT GREP_ARGS...: a line of TEXT matches (grep -q GREP_ARGS); else the pattern
# and the text (lacks_line: no line matches; else the lines that do)
has_line() {
	_hl_text=$1; shift
	printf '%s\n' "$_hl_text" | grep -q "$@" && return 0
	why "no line matches" "grep $*"; why "the text" "$_hl_text"; return 1
}
lacks_line() {
	_hl_text=$1; shift
	printf '%s\n' "$_hl_text" | grep -q "$@" || return 0
	why "expected no line matching" "grep $*"; why "lines that match" "$(printf '%s\n' "$_hl_text" | grep "$@")"; return 1
}
# file_has GREP_ARGS... FILE: a line of FILE matches (grep -q); else the pattern and the
# file's last 10 lines (file_lacks: no line matches; else the lines that do)
file_has() {
	grep -q "$@" && return 0
	for _fh_file; do :; done	# the last argument
	why "no line of $_fh_file matches" "grep $*"; why "its last lines" "$(tail -n 10 "$_fh_file" 2>&1)"; return 1
}
file_lacks() {
	grep -q "$@" || return 0
	for _fh_file; do :; done	# the last argument
	why "expected no line of $_fh_file matching" "grep $*"; why "lines that match" "$(grep "$@")"; return 1
}
# check_eq NAME ACTUAL EXPECTED [WHAT_ACTUAL [WHAT_EXPECTED]], check_ge NAME N MIN ..., and so
# on: check NAME with that predicate (check_match: has_line, check_grep: file_has)
check_eq() { _ce_n=$1; shift; check "$_ce_n" is_eq "$@"; }
check_ne() { _ce_n=$1; shift; check "$_ce_n" is_ne "$@"; }
check_eqn() { _ce_n=$1; shift; check "$_ce_n" is_eqn "$@"; }
check_ge() { _ce_n=$1; shift; check "$_ce_n" is_ge "$@"; }
check_gt() { _ce_n=$1; shift; check "$_ce_n" is_gt "$@"; }
check_le() { _ce_n=$1; shift; check "$_ce_n" is_le "$@"; }
check_lt() { _ce_n=$1; shift; check "$_ce_n" is_lt "$@"; }
check_between() { _ce_n=$1; shift; check "$_ce_n" is_between "$@"; }
check_empty() { _ce_n=$1; shift; check "$_ce_n" is_empty "$@"; }
check_absent() { _ce_n=$1; shift; check "$_ce_n" is_absent "$@"; }
check_match() { _ce_n=$1; shift; check "$_ce_n" has_line "$@"; }
check_grep() { _ce_n=$1; shift; check "$_ce_n" file_has "$@"; }
check_no_grep() { _ce_n=$1; shift; check "$_ce_n" file_lacks "$@"; }

# todo REASON NAME COMMAND [ARGS...]: a check of a known, open defect (TAP's TODO): it runs and
# reports as check does, with "# TODO REASON"; its failure is shown, and counted apart, not as
# a failure of the run.
todo() {
	_todo_reason=$1 _check_name=$2
	shift 2
	: >"$VMTEST_WHY"
	if "$@"; then
		ok "$_check_name # TODO $_todo_reason"
	else
		not_ok "$_check_name # TODO $_todo_reason"
		if [ -s "$VMTEST_WHY" ]; then _why_print; else echo "#   command: $*"; fi
	fi
}

# retry SECONDS COMMAND [ARGS...]: run the command every 0.1 s until it
# succeeds or SECONDS have passed; the status is the command's last one (and what a
# predicate in it says is of its last try).
retry() {
	_retry_left=$(( $1 * 10 ))
	shift
	until : >"$VMTEST_WHY"; "$@"; do
		_retry_left=$(( _retry_left - 1 ))
		[ "$_retry_left" -gt 0 ] || return 1
		sleep 0.1
	done
}

# Hundredths of a second since boot, for timing inside the guest.
uptime_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }

# ---- irqlatd's consumed tracepoints (no jq in the guests: json-c prints plain JSON, sed
# reads it). They call `irqlat`: the binary on PATH, or the check's own function of that name.
# tp_summary: the summary object of silly:me_silly, on one line.
tp_summary() {
	irqlat --top --batch -n 1 --json | sed -n 's/.*"tracepoints":\[\(.*\)\].*/\1/p' |
		sed 's/},{"tracepoint"/}\n{"tracepoint"/g' | grep '"tracepoint":"silly:me_silly"'
}
# json_field NAME < object: the value of a number or string field.
json_field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"; }
tp_field() { tp_summary | json_field "$1"; }
tp_state_is() { is_eq "$(tp_field state)" "$1" "silly:me_silly's state"; }

# insmod_and_wait SECONDS NAME ON_FAIL [PERIOD_MS]: insmod sillymod (period_ms=100), then
# report NAME ok once irqlatd shows silly:me_silly attached, within SECONDS; otherwise not ok
# and the command ON_FAIL, which shows why. An insmod that fails ends a `set -e` check.
insmod_and_wait() {
	_iw_t0=$(uptime_cs)
	insmod "$SILLYMOD_KO" period_ms="${4:-100}"
	# the first polls later: each spawns irqlat and a pipeline, which would compete with the
	# daemon for the guest's two emulated CPUs while it attaches (within the module's first
	# period: 52 ms at period_ms=50, 202 ms at 200)
	sleep 0.2
	if retry "$1" tp_state_is attached; then
		ok "$2"
		# a measurement, not a test (timing)
		diag "attached about $(( $(uptime_cs) - _iw_t0 ))0 ms after insmod (irqlat's own start-up included)"
	else
		not_ok "$2"
		"$3"
	fi
}

# ---- one module's loads, as counts: "LOAD COUNT" lines, LOAD counting from 1. hello_loads <
# the kernel log: a load starts at each "hello! 0" (sillymod counts from 0 on every load);
# tp_loads < the JSON lines of irqlat events --json: a load starts with each new silly-thread
# (its pid), so a load whose first events were missed still counts as one.
hello_loads() { sed -n 's/.*hello! \([0-9][0-9]*\)$/\1/p' | awk 'BEGIN { n = 0 } $1 == 0 { n++ } { print n, $1 }'; }
tp_loads() {
	grep '"tracepoint":"silly:me_silly"' | sed -n 's/.*"pid":\([0-9]*\).*"count":\([0-9]*\).*/\1 \2/p' |
		awk 'BEGIN { n = 0 } $1 != pid { n++; pid = $1 } { print n, $2 }'
}
# same_loads OURS HELLO [FIRST]: every load in OURS counts 0, 1, 2, ... once each (FIRST
# "any": from whichever count it starts at), and each of its counts is one the module printed
# in that load (none invented); the same number of loads as HELLO. Says what differs.
same_loads() {
	awk -v any="${3:-}" 'FILENAME == ARGV[1] { said[$1 " " $2] = 1; if ($1 > hl) hl = $1; next }
	     $1 == 0 { print "a count before the first 0: " $2; bad = 1; next }
	     { if ($1 != l) { l = $1; want = any == "any" ? $2 : 0 } }
	     $2 != want { print "load " $1 ": count " $2 " where " want " was due"; bad = 1 }
	     !(($1 " " $2) in said) { print "load " $1 ": count " $2 " the module did not print"; bad = 1 }
	     { want = $2 + 1; if ($1 > ol) ol = $1 }
	     END { if (ol != hl) { print ol " loads seen, the module was loaded " hl " times"; bad = 1 } exit bad }' "$2" "$1"
}
# realtime_at_uptime: "S U": the wall clock was S.00 s when /proc/uptime said U (busybox
# date has no %N: wait for the second to turn)
realtime_at_uptime() {
	_s0=$(date +%s)
	while [ "$(date +%s)" = "$_s0" ]; do :; done
	echo "$((_s0 + 1)) $(cut -d' ' -f1 /proc/uptime)"
}

# ---- one by one against ftrace: irqlatd's outlier events (with a threshold of 1 us, every
# measurement is one: its end time and length) paired with ftrace's own intervals.
# pair_with_ftrace IRQLATD FTRACE SKEWS: IRQLATD has "END_NS LENGTH_NS" lines, FTRACE
# "START_NS END_NS" lines (ftrace's stamps are whole microseconds). Each of irqlatd's is
# paired with ftrace's interval that ended last at or before it (irqlatd's probes run after
# ftrace's, enabled first, on the same tracepoints). Writes "START_SKEW END_SKEW" per pair to
# SKEWS (how far irqlatd's start and end lie after ftrace's) and prints
# "COUNT UNPAIRED TWICE EARLIEST_START_SKEW ITS_END".
pair_with_ftrace() {
	sort -n -k2 "$2" | awk '{ print $2, $1 }' >"$3.ftrace"
	sort -n "$1" | awk -v out="$3" '
		FNR == NR { fe[NR] = $1; fs[NR] = $2; nf = NR; next }
		{
			e = $1; d = $2; n++
			while (j < nf && fe[j + 1] <= e + 1000) j++	# 1 us of slack: ftrace rounds down
			if (!j) { unpaired++; next }
			if (used[j]++) twice++
			k = (e - d) - fs[j]
			printf "%.0f %.0f\n", k, e - fe[j] >out
			if (n == 1 || k < kmin) { kmin = k; kat = e }
		}
		END { printf "%d %d %d %.0f %.0f\n", n, unpaired + 0, twice + 0, kmin, kat }
	' "$3.ftrace" -
}
# pct Q < numbers: the Q-th percentile (nearest rank) of the numbers, one a line
pct() { sort -n | awk -v q="$1" '{ v[NR] = $1 } END { i = int(NR * q / 100 + 0.999); if (i < 1) i = 1; print v[i] + 0 }'; }
# median_window LENGTHS SKEWS: "LO HI", where irqlatd's histogram p50 must lie when its
# samples are ftrace's LENGTHS (one a line) measured with the per-pair skews in SKEWS
# (pair_with_ftrace's "START_SKEW END_SKEW"). Not ftrace's median within a fixed margin: each
# of irqlatd's samples differs from its pair by its end skew less its start skew, which a
# loaded host stretches (the vCPU is away between ftrace's probe and irqlatd's on one
# tracepoint; seen: the medians 70 us apart while 99% of the pairs were within 250 us). If
# 97% of the pairs differ by at most S and 1% of irqlatd's samples are unpaired, irqlatd's
# sample median lies between ftrace's 46th percentile less S and its 54th plus S, and the
# histogram's p50 in that median's bucket, within 2^(1/8) - 1 = 9.05%; 1 us more for
# ftrace's microsecond stamps.
median_window() {
	_mw_s=$(awk '{ d = $2 - $1; if (d < 0) d = -d; print d }' "$2" | pct 97)
	_mw_lo=$(pct 46 <"$1") _mw_hi=$(pct 54 <"$1")
	echo "$(( (_mw_lo - _mw_s) * 10000 / 10905 - 1000 )) $(( (_mw_hi + _mw_s) * 10905 / 10000 + 1000 )) $_mw_lo $_mw_hi $_mw_s"
}
