#!/bin/sh
# irqlatd.service under real systemd, installed from the Debian package (10-package-install.sh,
# whose postinst started it with the shipped configuration): restarted with a configuration of
# its own (Type=notify) -> active with the STATUS= line, runs as uid 0 with only CAP_BPF and
# CAP_PERFMON, irqlat answers (also as nobody), the journal holds the start-up,
# attach and outlier entries with their fields, journalctl -x explains them.
# 21-irqlatd-reload.sh goes on with reload, stop and a bad file (a check has 90 s).
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

MID_OUTLIER=3f0c6d0e2b1a4f7e9a51c2d8e4b7a901
MID_STARTED=0c2853ab0a474cd89e139fb75e11c43b
MID_STOPPED=7ac66507e54d46b0bd9e27b7cb52462e
MID_ATTACHED=ecf79d2eaa0847ea80d067b558d10b42
MID_DETACHED=9014608f5bd644a9aecf8102c976a5a3
MID_RELOADED=326f2dafe60f49468b9b4b9b2bfb2f22
MID_RELOAD_FAILED=44ced59eb6fe44c69bf739bd6d8645cd

if ! systemctl cat irqlatd.service >/dev/null 2>&1; then
	skip "irqlatd.service" "not installed (see 10-package-install.sh)"
	exit 0
fi

CONF=/etc/irqlatd/irqlatd.conf
mkdir -p /etc/irqlatd
# under TCG every handler is slow: 1 us makes outliers of most IRQs; no cap, so that the
# hard-IRQ ones are entries whatever the timers (late under TCG) take first
printf '[irqlatd]\nthreshold-us = 1\noutlier-rate = 5\noutlier-cap = 0\n' >"$CONF"
systemctl daemon-reload
# entries of this run of the service only (the package's postinst started an earlier one)
n_entries() { journalctl -q _SYSTEMD_INVOCATION_ID="$inv" -o cat MESSAGE_ID="$1" 2>/dev/null | wc -l; }
load() {	# disk IRQs: direct writes and reads on the root disk
	dd if=/dev/zero of=/var/tmp/irqload bs=4k count=300 oflag=direct,sync 2>/dev/null
	dd if=/var/tmp/irqload of=/dev/null bs=4k iflag=direct 2>/dev/null
	rm -f /var/tmp/irqload
}

check "systemctl restart irqlatd succeeds" systemctl restart irqlatd
check_eq "irqlatd is active" "$(systemctl is-active irqlatd)" active
pid=$(systemctl show -p MainPID --value irqlatd)
inv=$(systemctl show -p InvocationID --value irqlatd)
diag "MainPID $pid, InvocationID $inv"
# the hard-IRQ pair among the attach entries (softirq and irq_vectors programs come after it)
hardirq_attached() { journalctl -q _SYSTEMD_INVOCATION_ID="$inv" -o cat MESSAGE_ID=$MID_ATTACHED 2>/dev/null | grep -c 'tracepoint irq:irq_handler_'; }
started() { [ "$(n_entries $MID_STARTED)" -eq 1 ] && [ "$(hardirq_attached)" -eq 2 ] && [ "$(n_entries $MID_ATTACHED)" -gt 2 ]; }
# journald reads its socket on its own time: waited for, not read once after the start
check "start-up entry and the hard-IRQ pair's two attach entries (and the other kinds') in journalctl -u irqlatd" retry 10 started
journalctl -q -u irqlatd --no-pager -o cat | head -n 3 | sed 's/^/#   /'

caps=$(awk '/^CapEff/ { print $2 }' "/proc/$pid/status")
bnd=$(awk '/^CapBnd/ { print $2 }' "/proc/$pid/status")
uid=$(awk '/^Uid/ { print $2 }' "/proc/$pid/status")
diag "uid $uid, CapEff $caps, CapBnd $bnd"
# uid 0 (tracefs is root's, 0700), but with no capability beyond the three (CAP_SYSLOG: bit 34,
# so that /proc/kallsyms shows it addresses)
root_bpf_only() { [ "$uid" -eq 0 ] && [ "$caps" = 000000c400000000 ] && [ "$bnd" = 000000c400000000 ]; }
check "runs as uid 0 with only CAP_BPF, CAP_PERFMON and CAP_SYSLOG (effective and bounding)" root_bpf_only

load
status_line() { systemctl show -p StatusText --value irqlatd | grep -qE '^[0-9]+ handlers, [0-9.]+[kM]? IRQ/s'; }
check "STATUS= becomes 'N handlers, R IRQ/s, ...'" retry 10 status_line
diag "$(systemctl show -p StatusText --value irqlatd)"
status_shows() { systemctl status --no-pager irqlatd | grep -qE 'Status: "[0-9]+ handlers, '; }
check "systemctl status irqlatd shows the STATUS line" status_shows
systemctl status --no-pager irqlatd | head -n 8 | sed 's/^/#   /'
top_works() { irqlat --top --batch -n 1 | grep -qE '^ *[0-9]+ +[^ ]+ +[0-9]+'; }
check "irqlat --top --batch lists handlers" top_works
irqlat --top --batch -n 1 | head -n 6 | sed 's/^/#   /'
# (the socket is root:irqlat 0660: a member of the group, 10-package-install.sh checks who else)
as_member() { setpriv --reuid=nobody --regid=nogroup --groups=irqlat irqlat status >/dev/null; }
check "irqlat works as an unprivileged member of irqlat (socket in RuntimeDirectory=)" as_member
watchdog() { [ "$(systemctl show -p WatchdogUSec --value irqlatd)" = 30s ] && [ -n "$(systemctl show -p WatchdogTimestamp --value irqlatd)" ]; }
check "watchdog armed and pinged (WatchdogUSec=30s, WatchdogTimestamp set)" watchdog

outliers() { is_gt "$(n_entries $MID_OUTLIER)" 0 "outlier entries"; }
check "outlier entries in journalctl -u irqlatd" retry 10 outliers
entry=$(journalctl -q _SYSTEMD_INVOCATION_ID="$inv" -o export MESSAGE_ID=$MID_OUTLIER -n 1)
has_fields() {
	for f in IRQ IRQ_NAME CPU DURATION_NS THRESHOLD_NS INTERRUPTED_PID INTERRUPTED_COMM; do
		printf '%s\n' "$entry" | grep -q "^$f=" || { diag "no $f"; return 1; }
	done
	printf '%s\n' "$entry" | grep -qx 'PRIORITY=4' && printf '%s\n' "$entry" | grep -qx 'THRESHOLD_NS=1000'
}
check "an outlier entry has every field, PRIORITY=4, THRESHOLD_NS=1000" has_fields
irq=$(printf '%s\n' "$entry" | sed -n 's/^IRQ=//p')
name=$(printf '%s\n' "$entry" | sed -n 's/^IRQ_NAME=//p')
check "its IRQ $irq ($name) is a line of /proc/interrupts" grep -qE "^ *$irq:.* $name( |\$)" /proc/interrupts
by_irq() {	# journalctl IRQ=N finds that IRQ's outliers and nothing else
	# One read: entries keep arriving, so two journalctl runs would count different sets.
	sel=$(journalctl -q -u irqlatd IRQ="$irq" -o export)
	n=$(printf '%s\n' "$sel" | grep -c "^IRQ=")
	m=$(printf '%s\n' "$sel" | grep -c "^IRQ=$irq\$")
	[ "$n" -gt 0 ] && [ "$n" -eq "$m" ]
}
check "journalctl -u irqlatd IRQ=$irq finds exactly that IRQ's entries" by_irq
explained() { journalctl -q -u irqlatd -x --no-pager MESSAGE_ID=$MID_OUTLIER -n 1 | grep -q 'Subject: IRQ .* handler ran longer than the threshold'; }
check "journalctl -x explains the outlier entry (installed catalog)" explained

