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

# insmod_and_wait SECONDS NAME ON_FAIL: insmod sillymod (period_ms=100), then report NAME ok
# once irqlatd shows silly:me_silly attached, within SECONDS; otherwise not ok and the command
# ON_FAIL, which shows why. An insmod that fails ends a `set -e` check.
insmod_and_wait() {
	_iw_t0=$(uptime_cs)
	insmod "$SILLYMOD_KO" period_ms=100
	if retry "$1" tp_state_is attached; then
		ok "$2"
		# a measurement, not a test (timing): the presence check runs once a second
		diag "attached about $(( $(uptime_cs) - _iw_t0 ))0 ms after insmod (irqlat's own start-up included)"
	else
		not_ok "$2"
		"$3"
	fi
}
