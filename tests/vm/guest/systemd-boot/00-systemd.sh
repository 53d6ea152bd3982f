#!/bin/sh
# Built-in checks of the systemd guest itself: real systemd as PID 1, boot
# finished, the journal takes and returns messages.  They run before the
# checks in tests/vm/systemd/ and prove the guest fit for them.
set -eu
# shellcheck source=../lib.sh
. "$VMTEST_DIR/lib.sh"

check_eq "PID 1 is systemd" "$(cat /proc/1/comm)" systemd

state=$(timeout 30 systemctl is-system-running --wait 2>&1) || true
case $state in
running|degraded) ok "systemctl is-system-running --wait: $state" ;;
*) not_ok "systemctl is-system-running --wait: '$state'" ;;
esac
[ "$state" = running ] || systemctl --failed --no-legend --plain | sed 's/^/#   failed: /'

marker="vmtest-journal-$$-$(uptime_cs)"
echo "$marker" | systemd-cat -t vmtest
journal_has_marker() { journalctl -q -t vmtest -o cat 2>/dev/null | grep -qx "$marker"; }
check "journalctl returns a message sent to journald" retry 10 journal_has_marker
