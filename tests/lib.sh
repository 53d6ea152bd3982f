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
# check NAME COMMAND...: ok when the command succeeds
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name" "command: $*"; fi; }
skip() { _n=$((_n + 1)); echo "ok $_n # skip $1"; }
diag() { echo "# $*"; }

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
	[ "$lo" -gt 1000 ] && [ "$dd" -le $((hi + 5)) ] && [ "$dd" -ge $((lo - lo * COUNT_SHORTFALL_PERMILLE / 1000 - 5)) ]
}

# fio_load SECONDS: direct I/O on a file, about 10,000 disk IRQs a second here.
fio_load() {
	fio --name=irqload --filename="$TMP/fio.dat" --size=32M --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --runtime="$1" --time_based >"$TMP/fio.log" 2>&1
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
retry_for() {
	local n=$(($1 * 10)); shift
	until "$@"; do
		n=$((n - 1)); [ "$n" -gt 0 ] || return 1
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
	return 1
}

# daemon_entries MESSAGE_ID: the journal's entries of this test's daemon with that MESSAGE_ID,
# one JSON object a line
daemon_entries() { journalctl --no-pager -o json _PID="$DAEMON_PID" MESSAGE_ID="$1"; }
# journal_all MESSAGE_ID JQ_EXPR: entries of that MESSAGE_ID arrive (waited for up to 5 s) and
# JQ_EXPR holds for every one of them
journal_all() {
	for _ in $(seq 50); do [ -n "$(daemon_entries "$1")" ] && break; sleep 0.1; done
	daemon_entries "$1" | jq -e -s "length > 0 and all($2)" >/dev/null
}

# bracket_agrees FILE NAME [MIN]: in FILE, the output of helpers/snapshot_bracket.py, irqlatd's
# delta for NAME lies within 1% (or 5 events) of the kernel's [LO, HI], and HI >= MIN
bracket_agrees() {
	local _ dd lo hi
	read -r _ dd lo hi < <(grep "^$2 " "$1")
	[ -n "$dd" ] && [ "$hi" -ge "${3:-0}" ] &&
		[ "$dd" -ge $((lo - (lo / 100 > 5 ? lo / 100 : 5))) ] && [ "$dd" -le $((hi + (hi / 100 > 5 ? hi / 100 : 5))) ]
}
# scrape_lint URL FILE: the page into FILE, and promtool finds no error and nothing to lint
scrape_lint() {
	curl -s -o "$2" "$1" && [ -z "$(promtool check metrics <"$2" 2>&1)" ]
}
