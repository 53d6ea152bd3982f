#!/bin/sh
# The on-threshold actions under the hardened unit (irqlatd(8), ACTIONS; docs/systemd.md): with
# hardirq-on-threshold=trace,signal,...,shell,... and a 1 us threshold, which every emulated
# interrupt crosses, the trace action makes its tracefs instance and saves captures under the
# unit's StateDirectory (/var/lib/irqlatd/captures, mode 0700, files 0600) that `irqlat
# captures` lists and the journal's outlier entries name (CAPTURE_FILE=); the signal reaches a
# process of this script with the number asked; the shell runs with the outlier in IRQLAT_*
# and the unit's sandbox: it writes where the daemon may (its state and runtime folders) and
# nowhere else, whatever its command tries. Runs after 22-irqlatd-restarts.sh (the service
# stopped); leaves it stopped, with no configuration file.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if ! systemctl cat irqlatd.service >/dev/null 2>&1; then
	skip "irqlatd.service's on-threshold actions" "not installed (see 10-package-install.sh)"
	exit 0
fi
CONF=/etc/irqlatd/irqlatd.conf
STATE=/var/lib/irqlatd
DIR=$STATE/captures
INST=/sys/kernel/tracing/instances/irqlatd
work=/tmp/irqlatd-captures
rm -rf "$work" && mkdir -p "$work"
systemctl reset-failed irqlatd 2>/dev/null || true

# the signal's target: writes each SIGUSR1 (10 on x86) it gets
sh -c "trap 'echo USR1 >>$work/signals' USR1; while :; do sleep 0.1; done" &
target=$!
# the shell: a script (a configuration line holds 200 bytes) that adds its environment to a
# file in the runtime folder (each action is due once a second on its own: the first outlier
# sets off trace and shell together, and its shell has the capture's file), then tries a
# write in each place the unit forbids, each one's result after it (the sandbox's /tmp and
# /var/tmp are its own: a file there is not this script's)
mkdir -p /etc/irqlatd
cat >/etc/irqlatd/vmtest-shell.sh <<'EOF'
{ env | grep ^IRQLAT_; echo --; } >>/run/irqlatd/shell.env
for p in /etc /usr /root /home /var/lib /run /sys/fs/bpf /dev/shm /tmp /var/tmp; do
	if touch "$p/irqlat-denied" 2>/dev/null; then echo "$p wrote"; else echo "$p refused"; fi
done >/run/irqlatd/shell.writes
EOF
# (outlier-cap 0: with the journal's cap, the few entries of a minute may be other kinds')
printf '[irqlatd]\noutlier-cap = 0\nhardirq-threshold-us = 1\nhardirq-on-threshold = trace,signal,num=10,pid=%s,shell,command=/bin/sh /etc/irqlatd/vmtest-shell.sh\n' \
	"$target" >"$CONF"
check "systemctl start irqlatd with hardirq-on-threshold=trace,signal,shell succeeds" systemctl start irqlatd
inv=$(systemctl show -p InvocationID --value irqlatd)
check "its tracefs instance is there ($INST)" retry 10 test -d "$INST"
why_not() { journalctl -q -u irqlatd --no-pager -o cat | tail -n 5 | sed 's/^/#   /'; }

signalled() { [ -s "$work/signals" ]; }
if retry 20 signalled; then ok "the signal action reached pid $target with SIGUSR1 ($(wc -l <"$work/signals") times)"; else
	not_ok "the signal action reached pid $target with SIGUSR1"; why_not; fi
captured() { ls "$DIR"/*.trace >/dev/null 2>&1; }
check "the trace action saved a capture in $DIR" retry 20 captured
first=$(ls "$DIR" | head -n 1)
diag "captures: $(ls "$DIR" | wc -l), the first $first ($(stat -c %s "$DIR/$first") bytes)"
check_eq "... mode 0600 in a 0700 folder" "$(stat -c %a "$DIR") $(stat -c %a "$DIR/$first")" "700 600" "modes"
check_grep "... holding the tracefs instance's interrupt events" 'irq_handler_entry' "$DIR/$first"
irqlat captures >"$work/listed"
check_grep "irqlat captures lists it" "$first" "$work/listed"
named() {	# an outlier entry of this run names a capture, and the file is there
	journalctl -q _SYSTEMD_INVOCATION_ID="$inv" -o export | sed -n 's/^CAPTURE_FILE=//p' | head -n 1 >"$work/named"
	[ -s "$work/named" ] && test -f "$(cat "$work/named")"
}
check "a journal entry of the outlier names its capture (CAPTURE_FILE=$(cat "$work/named" 2>/dev/null))" retry 10 named
check_match "... in $DIR" "$(cat "$work/named")" "^$DIR/"

ran() { [ -s /run/irqlatd/shell.writes ] && [ "$(wc -l </run/irqlatd/shell.writes)" -ge 10 ]; }
check "the shell action ran" retry 20 ran
cp /run/irqlatd/shell.env /run/irqlatd/shell.writes "$work/" 2>/dev/null || true
sed 's/^/#   /' "$work/shell.writes"
check_grep "... with IRQLAT_KIND=hardirq" '^IRQLAT_KIND=hardirq$' "$work/shell.env"
check_grep "... and, with a capture, IRQLAT_CAPTURE_FILE in $DIR" "^IRQLAT_CAPTURE_FILE=$DIR/" "$work/shell.env"
check_empty "... and never elsewhere" "$(grep '^IRQLAT_CAPTURE_FILE=' "$work/shell.env" | grep -v "^IRQLAT_CAPTURE_FILE=$DIR/")"
check_no_grep "its writes to /etc, /usr, /root, /home, /var/lib, /run, /sys/fs/bpf and /dev/shm were refused" \
	'^/\(etc\|usr\|root\|home\|var/lib\|run\|sys/fs/bpf\|dev/shm\) wrote' "$work/shell.writes"
leaked() {	# what this script sees of the shell's writes: none, /tmp's and /var/tmp's included
	for p in /etc /usr /root /home /var/lib /run /sys/fs/bpf /dev/shm /tmp /var/tmp; do
		[ ! -e "$p/irqlat-denied" ] || { why "written" "$p/irqlat-denied"; return 1; }
	done
}
check "none of them is in the machine's file system (its /tmp and /var/tmp are its own)" leaked
# (a capture is written as .NAME.tmp, then renamed)
other=$(find "$STATE" -mindepth 1 ! -path "$DIR" ! -path "$DIR/*.trace" ! -path "$DIR/.*.tmp" 2>/dev/null | head -n 3)
check_empty "the state folder holds the captures and nothing else" "$other"

t0=$(date +%s%N)
check "systemctl stop irqlatd succeeds" systemctl stop irqlatd
diag "the stop took $((($(date +%s%N) - t0) / 1000000)) ms ($(systemctl show -p Result --value irqlatd), TimeoutStopSec 10 s)"
check_absent "the tracefs instance is gone" "$INST"
if [ -e "$INST" ]; then
	journalctl -q _SYSTEMD_INVOCATION_ID="$inv" --no-pager -o cat | grep -v ' outliers lost: ' | tail -n 8 | sed 's/^/#   /'
fi
kill "$target" 2>/dev/null || true
wait "$target" 2>/dev/null || true
rm -f "$CONF" /etc/irqlatd/vmtest-shell.sh
systemctl reset-failed irqlatd 2>/dev/null || true
