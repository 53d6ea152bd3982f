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

# check NAME COMMAND [ARGS...]: ok when the command succeeds.  For a pipeline,
# write a small function and pass its name.
check() {
	_check_name=$1
	shift
	if "$@"; then ok "$_check_name"; else not_ok "$_check_name"; fi
}

# todo REASON NAME COMMAND [ARGS...]: a check of a known, open defect (TAP's TODO): it runs and
# reports as check does, with "# TODO REASON"; its failure is shown, and counted apart, not as
# a failure of the run.
todo() {
	_todo_reason=$1 _check_name=$2
	shift 2
	if "$@"; then ok "$_check_name # TODO $_todo_reason"; else not_ok "$_check_name # TODO $_todo_reason"; fi
}

# retry SECONDS COMMAND [ARGS...]: run the command every 0.1 s until it
# succeeds or SECONDS have passed; the status is the command's last one.
retry() {
	_retry_left=$(( $1 * 10 ))
	shift
	until "$@"; do
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
tp_state_is() { [ "$(tp_field state)" = "$1" ]; }

# insmod_and_wait SECONDS NAME ON_FAIL [PERIOD_MS]: insmod sillymod (period_ms=100), then
# report NAME ok once irqlatd shows silly:me_silly attached, within SECONDS; otherwise not ok
# and the command ON_FAIL, which shows why. An insmod that fails ends a `set -e` check.
insmod_and_wait() {
	_iw_t0=$(uptime_cs)
	insmod "$SILLYMOD_KO" period_ms="${4:-100}"
	# the first polls later: each spawns irqlat and a pipeline, which would compete with the
	# daemon for the guest's two emulated CPUs while it attaches (within the module's first
	# period: 52 ms at period_ms=50)
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
