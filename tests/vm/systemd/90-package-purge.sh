#!/bin/sh
# apt-get purge irqlatd takes away all that the package brought and all that its maintainer
# scripts made, from a state an administrator may leave: the service running and
# irqlatd-metrics.socket enabled and listening. Afterwards nothing of it is loaded, enabled,
# running or listening. 91-package-leftovers.sh goes on with the files. Runs after every
# check that uses the installation of 10-package-install.sh.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

PORT_HEX=$(printf '%04X' 9669)
work=/tmp/vmtest-purge	# 91-package-leftovers.sh reads files (dpkg -L before the purge)
mkdir -p "$work"

if ! dpkg-query -W -f='${Status}' irqlatd 2>/dev/null | grep -q 'install ok installed'; then
	skip "apt-get purge irqlatd" "the package is not installed (see 10-package-install.sh)"
	exit 0
fi
# irqlatd's processes, by their executable's name (no procps in the image)
irqlatd_pids() {
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" != irqlatd ] || echo "${p#/proc/}"
	done
}
listening() { awk -v port=":$PORT_HEX" '$2 ~ port"$" && $4 == "0A"' /proc/net/tcp | grep -q .; }

systemctl enable --now irqlatd-metrics.socket >/dev/null 2>&1 || true
systemctl restart irqlatd
both_up() {
	[ "$(systemctl is-active irqlatd.service)" = active ] &&
		[ "$(systemctl is-active irqlatd-metrics.socket)" = active ] && listening && [ -n "$(irqlatd_pids)" ]
}
check "before the purge: the service runs, the socket is enabled and listens on 9669" both_up
dpkg -L irqlatd >"$work/files"
diag "dpkg -L irqlatd: $(wc -l <"$work/files") paths"

t0=$(uptime_cs)
if DEBIAN_FRONTEND=noninteractive apt-get purge -y irqlatd >"$work/apt.log" 2>&1; then
	ok "apt-get purge -y irqlatd"
else
	not_ok "apt-get purge -y irqlatd"
	diag_file "$work/apt.log" 30
fi
diag "apt-get purge took $(( ($(uptime_cs) - t0) / 100 )) s under emulation"
check "dpkg no longer knows irqlatd" sh -c '! dpkg-query -W -f="\${Status}" irqlatd 2>/dev/null | grep -q installed'

stopped() {
	for u in irqlatd.service irqlatd-metrics.socket; do
		s=$(systemctl is-active "$u" || true)
		[ "$s" = inactive ] || { diag "$u is $s"; return 1; }
	done
	[ -z "$(irqlatd_pids)" ] || { diag "irqlatd still runs: PID $(irqlatd_pids)"; return 1; }
	! listening || { diag "something still listens on 9669"; return 1; }
}
check "the service and the socket are stopped, no irqlatd process, port 9669 closed" stopped
no_units() {
	for u in irqlatd.service irqlatd-metrics.socket; do
		s=$(systemctl show -p LoadState --value "$u")
		[ "$s" = not-found ] || { diag "$u: LoadState=$s"; return 1; }
	done
	[ -z "$(systemctl list-unit-files --no-legend 'irqlatd*')" ] || { systemctl list-unit-files --no-legend 'irqlatd*' | sed 's/^/#   /'; return 1; }
}
check "no irqlatd unit is left (LoadState=not-found, no unit file)" no_units
