#!/bin/sh
# irqlatd.service under real systemd, after 20-irqlatd-unit.sh (which leaves it running):
# reload with a good file (applied, same process, histograms kept) and a bad one (refused,
# logged), stop (exit 0, shutdown and detach entries), a bad file at start (status 78, no
# restart loop, the one line in the journal).
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

MID_STOPPED=7ac66507e54d46b0bd9e27b7cb52462e
MID_DETACHED=9014608f5bd644a9aecf8102c976a5a3
MID_ATTACHED=ecf79d2eaa0847ea80d067b558d10b42
MID_RELOADED=326f2dafe60f49468b9b4b9b2bfb2f22
MID_RELOAD_FAILED=44ced59eb6fe44c69bf739bd6d8645cd
CONF=/etc/irqlatd/irqlatd.conf

if ! systemctl cat irqlatd.service >/dev/null 2>&1; then
	skip "irqlatd.service reload and stop" "not installed (see 10-package-install.sh)"
	exit 0
fi
# entries of this run of the service only (earlier runs logged theirs too)
n_entries() { journalctl -q _SYSTEMD_INVOCATION_ID="$inv" -o cat MESSAGE_ID="$1" 2>/dev/null | wc -l; }
if [ "$(systemctl is-active irqlatd || true)" != active ]; then
	mkdir -p /etc/irqlatd
	printf '[irqlatd]\nthreshold-us = 1\noutlier-rate = 5\n' >"$CONF"
	check "systemctl start irqlatd succeeds" systemctl start irqlatd
fi
pid=$(systemctl show -p MainPID --value irqlatd)
inv=$(systemctl show -p InvocationID --value irqlatd)

# reload: a good file applies, same process, histograms kept
count() {	# every count in the snapshot (handlers and their CPUs), summed: it only grows
	irqlat --top --batch -n 1 --window total --json | grep -o '"count":[0-9]*' | awk -F: '{ n += $2 } END { print n + 0 }'
}
c0=$(count)
printf '[irqlatd]\nthreshold-us = 2\noutlier-rate = 5\n' >"$CONF"
check "systemctl reload irqlatd succeeds" systemctl reload irqlatd
reloaded() { journalctl -q -u irqlatd -o export MESSAGE_ID=$MID_RELOADED | grep -qx 'THRESHOLD_NS=2000'; }
check "reload entry with THRESHOLD_NS=2000" retry 10 reloaded
same_process() { [ "$(systemctl is-active irqlatd)" = active ] && [ "$(systemctl show -p MainPID --value irqlatd)" = "$pid" ]; }
check "still active, same MainPID after reload" same_process
c1=$(count)
check_ge "histograms kept across the reload (counts summed: $c0 -> $c1)" "${c1:-0}" "${c0:-1}"
printf '[irqlatd]\nthreshold-us = 2\noutlier-rate = many\n' >"$CONF"
systemctl reload irqlatd || true
refused() { journalctl -q -u irqlatd -o export MESSAGE_ID=$MID_RELOAD_FAILED | grep -q "^ERROR=$CONF:3: outlier-rate: "; }
check "bad file on reload: error entry naming $CONF:3: outlier-rate" retry 10 refused
kept() { same_process && irqlat status --json | grep -q '"threshold_ns":2000'; }
check "bad file on reload: still active, same MainPID, threshold still 2000 ns" kept

# stop
check "systemctl stop irqlatd succeeds" systemctl stop irqlatd
stopped() { [ "$(systemctl is-active irqlatd || true)" = inactive ] && [ "$(systemctl show -p ExecMainStatus --value irqlatd)" = 0 ]; }
check "inactive after stop, main process exited 0" stopped
stop_entries() { [ "$(n_entries $MID_STOPPED)" -eq 1 ] && [ "$(n_entries $MID_DETACHED)" -eq "$(n_entries $MID_ATTACHED)" ] && [ "$(n_entries $MID_DETACHED)" -ge 2 ]; }
check "shutdown entry and a detach entry per attach entry" retry 10 stop_entries
check "the socket and RuntimeDirectory are gone" [ ! -e /run/irqlatd/irqlatd.sock ]

# a bad file at start: exit 78 (EX_CONFIG), no restart loop, the line in the journal
printf 'threshold-us = 10\ninterval-ms = soon\n' >"$CONF"
systemctl start irqlatd 2>/dev/null || true
failed78() {
	[ "$(systemctl show -p ExecMainStatus --value irqlatd)" = 78 ] && [ "$(systemctl is-active irqlatd || true)" = failed ]
}
check "bad file at start: failed with status 78" retry 5 failed78
check_eq "bad file at start: no restart (NRestarts=0)" "$(systemctl show -p NRestarts --value irqlatd)" 0
said() { journalctl -q -u irqlatd -o cat | grep -qx "irqlatd: $CONF:2: interval-ms: takes a whole number from 10 to 60000, not 'soon'"; }
check "bad file at start: the journal has the one line naming file, line and key" retry 5 said
systemctl status --no-pager irqlatd 2>/dev/null | grep -E 'Main PID|Active' | sed 's/^/#   /' || true
rm -f "$CONF"
systemctl reset-failed irqlatd 2>/dev/null || true
