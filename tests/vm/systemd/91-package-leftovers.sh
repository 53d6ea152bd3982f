#!/bin/sh
# After 90-package-purge.sh: no file that `dpkg -L irqlatd` listed before the purge is left,
# nor /etc/irqlatd, /usr/share/doc/irqlatd, /run/irqlatd or any other file named after
# irqlatd (enable links, deb-systemd-helper's state, dpkg's info files); and systemd's trigger
# has dropped irqlatd's entries from the journal catalog.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

MID_STARTED=0c2853ab0a474cd89e139fb75e11c43b
work=/tmp/vmtest-purge

if [ ! -s "$work/files" ] || dpkg-query -W -f='${Status}' irqlatd 2>/dev/null | grep -q installed; then
	skip "nothing of irqlatd is left after the purge" "90-package-purge.sh did not purge it"
	exit 0
fi
files_gone() {
	left=0
	while read -r f; do
		# directories are shared (/usr/share/doc): only the package's own must go, below
		if [ -e "$f" ] && [ ! -d "$f" ]; then diag "left: $f"; left=1; fi
	done <"$work/files"
	[ "$left" -eq 0 ]
}
check "no file that dpkg -L listed is left" files_gone
check "/etc/irqlatd, /usr/share/doc/irqlatd and /run/irqlatd are gone" \
	sh -c '[ ! -e /etc/irqlatd ] && [ ! -e /usr/share/doc/irqlatd ] && [ ! -e /run/irqlatd ]'
nothing_named() {	# enable symlinks, deb-systemd-helper state, dpkg's info files, ...
	find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /vmtest -o -path /tmp \
		-o -path /var/log/journal \) -prune -o -name '*irqlat*' -print >"$work/named"
	[ ! -s "$work/named" ] || { diag_file "$work/named"; return 1; }
}
check "no file named *irqlat* anywhere (but the journal and /vmtest)" nothing_named
not_in_catalog() { ! journalctl --list-catalog 2>/dev/null | grep -q "^$MID_STARTED "; }
check "the trigger dropped irqlatd's entries from the journal catalog" not_in_catalog
