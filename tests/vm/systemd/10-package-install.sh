#!/bin/sh
# The Debian package installed the way a user installs it: apt-get install ./irqlatd_*.deb,
# offline (the image holds what it depends on: tests/vm/systemd-base). Its maintainer scripts
# run under real systemd: irqlatd.service enabled and started, irqlatd-metrics.socket
# installed but neither enabled nor started (docs/metrics.md), /etc/irqlatd/irqlatd.conf a
# conffile, and systemd's dpkg trigger compiles the catalog, so journalctl -x explains
# irqlatd's entries with no --update-catalog by hand. The checks after this one use this
# installation; 90-package-purge.sh removes it.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

MID_STARTED=0c2853ab0a474cd89e139fb75e11c43b
log=/tmp/vmtest-apt-install.log

if [ ! -r "${IRQLATD_DEB:-}" ]; then
	not_ok "the package is in the guest (IRQLATD_DEB=${IRQLATD_DEB:-})"
	exit 0
fi
in_catalog() { journalctl --list-catalog 2>/dev/null | grep -q "^$MID_STARTED "; }
not_in_catalog() { ! in_catalog; }
check "before the install, the journal catalog does not know irqlatd's entries" not_in_catalog

t0=$(uptime_cs)
if DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$IRQLATD_DEB" >"$log" 2>&1; then
	ok "apt-get install ./${IRQLATD_DEB##*/} (offline: every dependency is in the image)"
else
	not_ok "apt-get install ./${IRQLATD_DEB##*/} (offline: every dependency is in the image)"
	diag_file "$log" 30
	exit 0
fi
diag "apt-get install took $(( ($(uptime_cs) - t0) / 100 )) s under emulation"
version=$(dpkg-deb -f "$IRQLATD_DEB" Version)
check "dpkg: irqlatd $version is installed" \
	[ "$(dpkg-query -W -f='${Status} ${Version}' irqlatd)" = "install ok installed $version" ]
check "irqlatd -V and irqlat -V print the package's version" \
	[ "$(irqlatd -V) $(irqlat -V)" = "irqlatd $version irqlat $version" ]

# what the maintainer scripts did
check_eq "irqlatd.service is enabled by the package" "$(systemctl is-enabled irqlatd.service)" enabled
active() { is_eq "$(systemctl is-active irqlatd.service)" active "systemctl is-active"; }
check "irqlatd.service is started by the package" retry 10 active
socket_off() {
	[ "$(systemctl is-enabled irqlatd-metrics.socket || true)" = disabled ] &&
		[ "$(systemctl is-active irqlatd-metrics.socket || true)" = inactive ]
}
check "irqlatd-metrics.socket is installed, neither enabled nor started" socket_off
conffile() {
	dpkg-query -W -f='${Conffiles}\n' irqlatd | grep -q '^ /etc/irqlatd/irqlatd.conf [0-9a-f]' &&
		cmp -s /etc/irqlatd/irqlatd.conf /usr/share/doc/irqlatd/irqlatd.conf.example
}
check "/etc/irqlatd/irqlatd.conf is a conffile holding the example (the built-in defaults)" conffile

# who may connect (irqlatd(8), ACCESS): the package made the group irqlat (sysusers.d, from
# its postinst), the service runs in it and hands it the socket, root:irqlat mode 0660; a
# member connects, another user is refused in one line
check "the package made the system group irqlat (systemd-sysusers)" getent group irqlat
sock=/run/irqlatd/irqlatd.sock
sock_access() { is_eq "$(stat -c '%U:%G %a' "$sock" 2>/dev/null)" "root:irqlat 660" "the socket's owner, group, mode"; }
check "the socket is root:irqlat, mode 0660" retry 10 sock_access
diag "socket: $(stat -c '%U:%G %a' "$sock" 2>&1)"
useradd --system --no-create-home --shell /usr/sbin/nologin --groups irqlat vmtest-member 2>/dev/null || true
useradd --system --no-create-home --shell /usr/sbin/nologin vmtest-other 2>/dev/null || true
as_member() { setpriv --reuid=vmtest-member --regid=nogroup --init-groups irqlat status >/tmp/vmtest-member.txt 2>&1; }
check "a member of irqlat connects (irqlat status)" as_member
diag_file /tmp/vmtest-member.txt 2
refused() {
	setpriv --reuid=vmtest-other --regid=nogroup --init-groups irqlat status >/tmp/vmtest-other.txt 2>&1
	[ $? -eq 1 ] && [ "$(wc -l </tmp/vmtest-other.txt)" -eq 1 ] && grep -q 'no permission to connect' /tmp/vmtest-other.txt
}
check "another user is refused: exit 1, one line saying why" refused
diag_file /tmp/vmtest-other.txt 2
userdel vmtest-member 2>/dev/null; userdel vmtest-other 2>/dev/null

# what a user does next
check "systemctl start irqlatd succeeds" systemctl start irqlatd
top_works() { irqlat --top -b -n 1 >/tmp/vmtest-top.txt 2>&1 && grep -qE '^ *[0-9]+ +[^ ]+ +[0-9]+' /tmp/vmtest-top.txt; }
check "irqlat --top -b -n 1 lists handlers" retry 10 top_works
diag_file /tmp/vmtest-top.txt 6
check "the package's trigger compiled the catalog (journalctl --list-catalog)" in_catalog
explained() {
	journalctl -q -u irqlatd -x --no-pager MESSAGE_ID=$MID_STARTED |
		grep -q 'Subject: irqlatd started measuring hard-IRQ handlers'
}
check "journalctl -u irqlatd -x explains the start-up entry with the catalog's text" explained
journalctl -q -u irqlatd -x --no-pager MESSAGE_ID=$MID_STARTED -n 1 | head -n 4 | sed 's/^/#   /'
