#!/bin/sh
# The Prometheus endpoint by socket activation under real systemd: irqlatd-metrics.socket
# listens on 127.0.0.1:9669 and passes the socket to irqlatd.service, which keeps
# PrivateNetwork=yes, RestrictAddressFamilies=AF_UNIX and IPAddressDeny=any, and serves
# /metrics on it (docs/metrics.md). No curl in the image: bash's /dev/tcp speaks HTTP/1.0.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if ! systemctl cat irqlatd-metrics.socket >/dev/null 2>&1; then
	skip "irqlatd-metrics.socket" "not installed (see 10-package-install.sh)"
	exit 0
fi
systemctl daemon-reload
get() {	# get PATH: the whole HTTP answer of 127.0.0.1:9669
	bash -c 'exec 3<>/dev/tcp/127.0.0.1/9669 && printf "GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n" "$1" >&3 && timeout 10 cat <&3' _ "$1"
}
check "systemctl start irqlatd-metrics.socket succeeds" systemctl start irqlatd-metrics.socket
check "systemctl restart irqlatd succeeds (it takes the socket at start)" systemctl restart irqlatd
sealed() {
	[ "$(systemctl show -p PrivateNetwork --value irqlatd)" = yes ] &&
		systemctl show -p RestrictAddressFamilies --value irqlatd | grep -qx AF_UNIX &&
		[ -n "$(systemctl show -p IPAddressDeny --value irqlatd)" ]
}
check "the service keeps PrivateNetwork=yes, RestrictAddressFamilies=AF_UNIX, IPAddressDeny=any" sealed
page_ok() {	# right after the restart no map read has happened yet: retried
	get /metrics >/tmp/metrics.http 2>&1 || true
	head -n 1 /tmp/metrics.http | grep -q '^HTTP/1.[01] 200' &&
		grep -q '^irqlat_build_info{version=' /tmp/metrics.http &&
		grep -q '^irqlat_handler_runs_total{irq=' /tmp/metrics.http
}
check "GET /metrics on 127.0.0.1:9669 answers 200 with the metrics" retry 10 page_ok
page_ok || diag_file /tmp/metrics.http
served() { journalctl -q -u irqlatd -o cat | grep -q 'metrics: serving /metrics on the socket from systemd'; }
check "irqlatd's journal says it serves the socket from systemd" served
check "GET / answers 404" sh -c "$(command -v bash) -c 'exec 3<>/dev/tcp/127.0.0.1/9669; printf \"GET / HTTP/1.0\r\n\r\n\" >&3; head -n 1 <&3' | grep -q ' 404'"
systemctl stop irqlatd irqlatd-metrics.socket || true
