#!/bin/bash
# The systemd unit as `make install` writes it: systemd-analyze verify is clean, the
# exposure score of systemd-analyze security is at most 2.0, and what the hardening allows is
# what irqlatd needs: it runs as uid 0 with only CAP_BPF, CAP_PERFMON and CAP_SYSLOG (as User=root and
# CapabilityBoundingSet= give it), reads tracefs that way, fails clearly with less (or as
# another uid, or without tracefs), and every system call it makes (strace) passes the unit's
# SystemCallFilter=.
. "$(dirname "$0")/../lib.sh"
plan 27

chmod 0711 "$TMP"	# the unprivileged runs below reach $TMP/run
ROOT=$TMP/root
make -s -C "$TOP" BUILD="$BUILD" install DESTDIR="$ROOT" PREFIX=/usr >"$TMP/install.log" 2>&1; rc=$?
check_exit "make install DESTDIR=... PREFIX=/usr succeeds" "$rc" 0 "$(cat "$TMP/install.log")"
UNIT=$ROOT/usr/lib/systemd/system/irqlatd.service
installed() {
	for f in /usr/sbin/irqlatd /usr/bin/irqlat /usr/lib/systemd/system/irqlatd.service \
		 /usr/lib/systemd/catalog/irqlatd.catalog /usr/share/man/man8/irqlatd.8 \
		 /usr/share/man/man1/irqlat.1 /usr/share/doc/irqlatd/irqlatd.conf.example \
		 /usr/lib/sysusers.d/irqlatd.conf; do
		[ -f "$ROOT$f" ] || { echo "# missing $f"; return 1; }
	done
}
check "it installs the binaries, unit, catalog, man pages, configuration example and sysusers.d file" installed
check_grep "ExecStart= names the installed binary (PREFIX=/usr)" -x 'ExecStart=/usr/sbin/irqlatd' "$UNIT"
make -s -C "$TOP" BUILD="$BUILD" install DESTDIR="$TMP/local" PREFIX=/usr/local >/dev/null 2>&1
check_grep "ExecStart= follows PREFIX (/usr/local)" \
	-x 'ExecStart=/usr/local/sbin/irqlatd' "$TMP/local/usr/local/lib/systemd/system/irqlatd.service"

# verify an install into a PREFIX on this machine, so that ExecStart=, ExecReload='s /bin/sh
# and the man pages (MANPATH) are checked for real; the machine's catalog and groups are left
# alone (a group irqlat would change every other test's daemon on this shared machine)
P=$TMP/prefix
make -s -C "$TOP" BUILD="$BUILD" install PREFIX="$P" UPDATE_CATALOG=no CREATE_GROUP=no >/dev/null 2>&1
out=$(MANPATH=$P/share/man systemd-analyze verify "$P/lib/systemd/system/irqlatd.service" 2>&1); rc=$?
clean() { is_eqn "$rc" 0 "exit status" || { why "output" "$out"; return 1; }; is_empty "$out" "output"; }
check "systemd-analyze verify: clean (no output, exit 0)" clean
# the optional socket unit of the Prometheus endpoint (docs/metrics.md), next to the service
out=$(cd "$P/lib/systemd/system" && MANPATH=$P/share/man systemd-analyze verify irqlatd-metrics.socket 2>&1); rc=$?
check "systemd-analyze verify irqlatd-metrics.socket: clean" clean
SOCKU=$ROOT/usr/lib/systemd/system/irqlatd-metrics.socket
socket_unit() {	# the fd reaches the service under the name irqlatd looks for; the service stays sealed
	file_has -x FileDescriptorName=metrics "$SOCKU" && file_has -x Service=irqlatd.service "$SOCKU" &&
		file_has -x 'ListenStream=127.0.0.1:9669' "$SOCKU" && file_has -x PrivateNetwork=yes "$UNIT" &&
		file_has -x RestrictAddressFamilies=AF_UNIX "$UNIT" && file_has -x IPAddressDeny=any "$UNIT"
}
check "irqlatd-metrics.socket: loopback, FileDescriptorName=metrics for irqlatd.service, which keeps PrivateNetwork/AF_UNIX/IPAddressDeny" socket_unit
sec=$(systemd-analyze security --offline=yes --root="$ROOT" "$UNIT" 2>&1)
score=$(sed -n 's/.*Overall exposure level for irqlatd.service: \([0-9.]*\).*/\1/p' <<<"$sec")
diag "exposure: ${score:-?}"
check_awk "systemd-analyze security --offline=yes: exposure <= 2.0" 's <= 2.0' s="${score:-99}"
# the issue's own command, on the unit `make` generates in the source tree
security_passes() {
	local out rc
	out=$(cd "$TOP" && make -s systemd/irqlatd.service && systemd-analyze security --offline=yes --threshold=20 systemd/irqlatd.service 2>&1); rc=$?
	is_eqn "$rc" 0 "exit status" || { why "output" "$(tail -n 15 <<<"$out")"; return 1; }
}
check "systemd-analyze security --offline=yes --threshold=20 systemd/irqlatd.service passes" security_passes
unit_has() { file_has -x "$1" "$UNIT"; }
notify_unit() {
	unit_has Type=notify && file_has '^WatchdogSec=' "$UNIT" && unit_has RuntimeDirectory=irqlatd &&
		unit_has "ExecReload=/bin/sh -c 'kill -HUP \$MAINPID'"
}
check "Type=notify, WatchdogSec=, RuntimeDirectory=irqlatd, ExecReload= sends SIGHUP" notify_unit
caps_unit() {
	unit_has 'CapabilityBoundingSet=CAP_BPF CAP_PERFMON CAP_SYSLOG' && unit_has User=root && unit_has NoNewPrivileges=yes &&
		file_lacks '^DynamicUser=yes' "$UNIT"
}
check "User=root, CapabilityBoundingSet=CAP_BPF CAP_PERFMON CAP_SYSLOG exactly, NoNewPrivileges=yes" caps_unit

# What User=root + CapabilityBoundingSet= + NoNewPrivileges= give the daemon, with setpriv: uid
# 0, and at exec only what the bounding set keeps: CAP_BPF, CAP_PERFMON and CAP_SYSLOG, no CAP_DAC_*.
# systemd mounts tracefs at boot (sys-kernel-tracing.mount); the host does not: do it here.
grep -q ' /sys/kernel/tracing tracefs ' /proc/self/mounts || mount -t tracefs nodev /sys/kernel/tracing
mkdir -p "$TMP/run" "$TMP/urun" && chown nobody:nogroup "$TMP/urun"
as_service() {	# as_service CAPS ARGS...
	local caps=$1; shift
	exec setpriv --inh-caps=-all --bounding-set="-all$caps" --no-new-privs "$@"
}
as_nobody() {	# as_nobody CAPS ARGS...: what DynamicUser= gave, before
	local caps=$1; shift
	exec setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps="-all$caps" \
		--ambient-caps="-all$caps" --bounding-set="-all$caps" --no-new-privs "$@"
}
tp_json() {	# tp_json SOCKET FIELD: the first tracepoint's FIELD
	"$IRQLAT" --socket "$1" --top --batch -n 1 --json | jq -r ".tracepoints[0].$2"
}
USOCK=$TMP/run/irqlatd.sock
as_service ,+bpf,+perfmon,+syslog "$IRQLATD" --socket "$USOCK" --log-target stderr --interval-ms 200 \
	--tracepoint sched:sched_process_exec >"$TMP/unpriv.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 100); do "$IRQLAT" --socket "$USOCK" status >/dev/null 2>&1 && break; sleep 0.1; done
fio_load 1; sleep 0.5
st=/proc/$DAEMON_PID/status
caps=$(capsh --decode="$(awk '/^CapEff/ { print $2 }' "$st")" | sed 's/.*=//')
bnd=$(capsh --decode="$(awk '/^CapBnd/ { print $2 }' "$st")" | sed 's/.*=//')
uid=$(awk '/^Uid/ { print $3 }' "$st")
n=$("$IRQLAT" --socket "$USOCK" --top --batch -n 1 --json --window total | jq '[.irqs[].count] | add // 0')
diag "euid $uid, effective capabilities $caps, bounding $bnd: $n handler runs measured"
runs_as_unit() {
	is_eq "$uid" 0 "euid" && is_eq "$caps" "cap_syslog,cap_perfmon,cap_bpf" "effective capabilities" &&
		is_eq "$bnd" "cap_syslog,cap_perfmon,cap_bpf" "bounding set" && is_gt "${n:-0}" 100 "handler runs measured"
}
check "as uid 0 with only CAP_BPF, CAP_PERFMON and CAP_SYSLOG: runs and measures" runs_as_unit
# CAP_SYSLOG: /proc/kallsyms shows it the addresses, so the timer functions are named (the
# tick's class) and hrtimer_wakeup found (the wake-up kind)
named=$("$IRQLAT" --socket "$USOCK" --top --batch -n 1 --json --window total | jq '[.timers.classes[] | select(.class == "tick" and .count > 0)] | length')
names_and_wakeups() {
	is_ge "${named:-0}" 1 "tick classes that counted" &&
		jq_true "$("$IRQLAT" --socket "$USOCK" status --json)" '.kinds | index("wakeup") != null'
}
check "... names the timer functions (the tick class) and measures wake-ups" names_and_wakeups
# tracefs is read to find the tracepoint (events/sched/sched_process_exec): the state says so
for _ in 1 2 3 4 5; do /bin/true; done
tp_state=$(tp_json "$USOCK" state); tp_events=$(tp_json "$USOCK" events)
diag "sched:sched_process_exec: $tp_state, $tp_events events"
tp_counts() { is_eq "$tp_state" attached "state" && is_ge "${tp_events:-0}" 5 "events" "execs"; }
check "... and reads tracefs: a tracepoint attached and counting (state $tp_state, $tp_events events)" tp_counts
stop_daemon
check_eqn "... and stops cleanly (exit 0)" "$DAEMON_STATUS" 0 "exit status"
# without CAP_SYSLOG: whether /proc/kallsyms hides the addresses is the kernel's settings'
# (kptr_restrict, perf_event_paranoid); when it does, one line says the timer functions go
# unnamed, and the rest runs: wake-ups too (any hrtimer callback's wake-up is stamped
# without hrtimer_wakeup's address since bpf/sched.bpf.c)
hidden=$(as_service ,+bpf,+perfmon awk '$3 == "hrtimer_wakeup" { print ($1 ~ /^0+$/) ? "yes" : "no"; exit }' /proc/kallsyms)
as_service ,+bpf,+perfmon "$IRQLATD" --socket "$USOCK" --log-target stderr --interval-ms 200 >"$TMP/nosyslog.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 100); do "$IRQLAT" --socket "$USOCK" status >/dev/null 2>&1 && break; sleep 0.1; done
said=$(grep -c 'timers: /proc/kallsyms shows irqlatd only zero addresses.*CAP_SYSLOG' "$TMP/nosyslog.log")
wk=$("$IRQLAT" --socket "$USOCK" status --json | jq '.kinds | index("wakeup") != null')
stop_daemon
diag "CAP_BPF and CAP_PERFMON only: kallsyms hides addresses: $hidden; the line said $said times; wake-ups measured: $wk"
without_syslog() {
	is_eqn "$DAEMON_STATUS" 0 "exit status" || return 1
	if [ "$hidden" = yes ]; then
		is_eqn "$said" 1 "lines naming CAP_SYSLOG" && is_eq "$wk" true "wake-ups on"
	else
		is_eqn "$said" 0 "lines naming CAP_SYSLOG" && is_eq "$wk" true "wake-ups on"
	fi
}
check "CAP_BPF and CAP_PERFMON only: runs; if kallsyms hides addresses from it (here: $hidden), one line names CAP_SYSLOG; wake-ups measured" without_syslog
out=$(as_service ,+bpf "$IRQLATD" --socket "$USOCK" --log-target stderr 2>&1); rc=$?
check_exit "CAP_BPF alone: exit 1, 'missing capability CAP_PERFMON'" "$rc" 1 "$out" 'missing capability CAP_PERFMON'
out=$(as_service ,+perfmon "$IRQLATD" --socket "$USOCK" --log-target stderr 2>&1); rc=$?
check_exit "CAP_PERFMON alone: exit 1, 'missing capability CAP_BPF'" "$rc" 1 "$out" 'missing capability CAP_BPF'

# Who may connect under the unit (irqlatd(8), ACCESS): the socket's group is the one sysusers.d
# makes, the unit runs irqlatd in it (without CAP_CHOWN a process may give a file only to a
# group it is in) and irqlatd defaults to it. A private group stands for irqlat below: the
# machine is shared, and a group named irqlat would change every other test's daemon.
same_group() {
	is_eq "$(awk '$1 == "g" { print $2 }' "$ROOT/usr/lib/sysusers.d/irqlatd.conf")" irqlat "sysusers.d's group" &&
		is_eq "$(sed -n 's/^SupplementaryGroups=//p' "$UNIT")" irqlat "SupplementaryGroups=" &&
		has_line "$("$IRQLATD" --help)" '(default irqlat when it exists)'
}
check "sysusers.d makes the group irqlat, the unit's SupplementaryGroups= and irqlatd's default socket-group" same_group
G=irqlt$$
groupadd --system "$G" || echo "Bail out! groupadd $G failed"
trap 'groupdel "$G" 2>/dev/null; cleanup' EXIT
GSOCK=$TMP/run/group.sock
setpriv --groups "$G" setpriv --inh-caps=-all --bounding-set=-all,+bpf,+perfmon --no-new-privs \
	"$IRQLATD" --socket "$GSOCK" --socket-group "$G" --log-target stderr --no-tracepoints >"$TMP/group.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 100); do "$IRQLAT" --socket "$GSOCK" status >/dev/null 2>&1 && break; sleep 0.1; done
as_user() { setpriv --reuid=nobody --regid=nogroup "$@"; }
member=$(as_user --groups "$G" "$IRQLAT" --socket "$GSOCK" status 2>&1); mrc=$?
other=$(as_user --clear-groups "$IRQLAT" --socket "$GSOCK" status 2>&1); orc=$?
diag "socket $(stat -c '%U:%G %a' "$GSOCK"); member: exit $mrc; non-member: exit $orc, $other"
check_eq "as the unit runs it, in the group: the socket is root:GROUP 0660" "$(stat -c '%U:%G %a' "$GSOCK")" "root:$G 660" "the socket's owner, group, mode"
member_only() {
	is_eqn "$mrc" 0 "a member's exit status" || { why "its output" "$member"; return 1; }
	exit_says "$orc" 1 "$other" one-line 'no permission to connect'
}
check "... a member of the group connects, anyone else is refused in one line (exit 1)" member_only
stop_daemon
out=$(as_service ,+bpf,+perfmon timeout 10 "$IRQLATD" --socket "$GSOCK" --socket-group "$G" --log-target stderr --no-tracepoints 2>&1); rc=$?
not_in_group() {
	is_eqn "$rc" 1 "exit status" && is_eqn "$(printf '%s\n' "$out" | grep -c SupplementaryGroups=)" 1 "lines naming SupplementaryGroups=" ||
		{ why "output" "$out"; return 1; }
}
check "not in the group (no SupplementaryGroups=): exit 1, one line naming SupplementaryGroups=" not_in_group

# Another uid (DynamicUser=, as the unit was) cannot read tracefs: one line, the tracepoints
# show it, and no mount(2) is tried on a tracefs that is mounted.
as_nobody ,+bpf,+perfmon strace -E "$NO_LSAN" -f -qq -e trace=mount -o "$TMP/urun/strace" "$IRQLATD" \
	--socket "$TMP/urun/irqlatd.sock" --log-target stderr >"$TMP/nobody.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 100); do "$IRQLAT" --socket "$TMP/urun/irqlatd.sock" status >/dev/null 2>&1 && break; sleep 0.1; done
tp_state=$(tp_json "$TMP/urun/irqlatd.sock" state); tp_err=$(tp_json "$TMP/urun/irqlatd.sock" error)
kill -TERM "$(pgrep -P "$DAEMON_PID" -x irqlatd)"; wait "$DAEMON_PID"; DAEMON_PID=
diag "as nobody: $(grep -c . "$TMP/nobody.log") log lines; silly:me_silly $tp_state: $tp_err"
unreadable() {
	is_eqn "$(grep -c 'tracefs (/sys/kernel/tracing) is not readable by uid 65534 (Permission denied)' "$TMP/nobody.log")" 1 \
		"lines saying tracefs is not readable" || { why "the log" "$(cat "$TMP/nobody.log")"; return 1; }
	is_eq "$tp_state" failed "silly:me_silly's state" &&
		{ [[ $tp_err == *"not readable by uid 65534"* ]] || { why "its error, not saying 'not readable by uid 65534'" "$tp_err"; false; }; } &&
		file_lacks 'mount(' "$TMP/urun/strace"
}
check "as another uid: one line 'tracefs ... is not readable by uid 65534', state failed, no mount(2)" unreadable
grep -q 'mount(' "$TMP/urun/strace" && diag_file "$TMP/urun/strace"

# Without tracefs mounted (a private mount namespace), mount(2) is tried and, without
# CAP_SYS_ADMIN, fails: one line.
out=$(unshare -m sh -c 'umount /sys/kernel/tracing && exec "$@"' _ \
	setpriv --inh-caps=-all --bounding-set=-all,+bpf,+perfmon --no-new-privs \
	timeout -s TERM 2 "$IRQLATD" --socket "$TMP/run/ns.sock" --log-target stderr 2>&1)
mnt=$(grep -c 'tracefs is not mounted on /sys/kernel/tracing and mounting it failed (Operation not permitted)' <<<"$out")
mount_denied() { is_eqn "$mnt" 1 "lines saying the mount failed" || { why "output" "$out"; return 1; }; }
check "tracefs not mounted, mount denied: one line saying so" mount_denied

# Every system call irqlatd makes from start to stop (and a reload) must pass the unit's
# SystemCallFilter= lines: the first allows, each later ~ line takes away.
expand() {	# expand NAME: a system call, or a @group with its nested groups, one per line
	local i
	if [ "${1:0:1}" != "@" ]; then echo "$1"; return; fi
	for i in $(systemd-analyze syscall-filter --no-pager "$1" | awk 'NR > 1 && $1 !~ /^#/ && NF == 1 { print $1 }'); do
		expand "$i"
	done
}
allowed() {
	local line spec deny s
	declare -A ok=()
	while IFS= read -r line; do
		spec=${line#SystemCallFilter=}; deny=0
		[ "${spec:0:1}" = "~" ] && { deny=1; spec=${spec:1}; }
		for s in $(for item in $spec; do expand "$item"; done); do
			if [ $deny -eq 1 ]; then unset "ok[$s]"; else ok[$s]=1; fi
		done
	done < <(grep '^SystemCallFilter=' "$UNIT")
	printf '%s\n' "${!ok[@]}"
}
allowed | sort >"$TMP/allowed"
denied_calls() {	# denied_calls STRACE_FILE: the calls made that the filter does not allow
	sed -nE 's/^[0-9]+ +([a-z0-9_]+)\(.*/\1/p' "$1" | sort -u >"$1.used"
	# execve is strace starting irqlatd; systemd itself does that before the filter applies
	comm -23 "$1.used" "$TMP/allowed" | grep -vx execve | tr '\n' ' '
}
as_service ,+bpf,+perfmon strace -E "$NO_LSAN" -f -qq -o "$TMP/run/strace" "$IRQLATD" --socket "$USOCK" --log-target stderr --interval-ms 100 >"$TMP/strace-run.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 100); do "$IRQLAT" --socket "$USOCK" status >/dev/null 2>&1 && break; sleep 0.1; done
"$IRQLAT" --socket "$USOCK" --top --batch -n 2 -d 0.3 >/dev/null
child=$(pgrep -P "$DAEMON_PID" -x irqlatd)	# strace's child: irqlatd itself
kill -HUP "$child"; sleep 0.5
kill -TERM "$child"
wait "$DAEMON_PID"; DAEMON_PID=
denied=$(denied_calls "$TMP/run/strace")
diag "system calls used: $(tr '\n' ' ' <"$TMP/run/strace.used")"
check_empty "every system call irqlatd made is allowed by SystemCallFilter= (denied: ${denied:-none})" "$denied" "denied calls"
bpf_allowed() {
	file_has -x bpf "$TMP/allowed" && file_has -x perf_event_open "$TMP/allowed" && file_has -x bpf "$TMP/run/strace.used"
}
check "the filter allows bpf and perf_event_open, which @system-service lacks" bpf_allowed
# The same comparison catches a call the filter denies: without tracefs, irqlatd calls mount(2).
unshare -m sh -c 'umount /sys/kernel/tracing && exec "$@"' _ \
	setpriv --inh-caps=-all --bounding-set=-all,+bpf,+perfmon --no-new-privs \
	strace -E "$NO_LSAN" -f -qq -o "$TMP/run/strace-ns" timeout -s TERM 2 "$IRQLATD" --socket "$TMP/run/ns.sock" --log-target stderr >/dev/null 2>&1
denied=$(denied_calls "$TMP/run/strace-ns")
check_eq "... and the comparison can fail: with tracefs unmounted it finds mount (denied: ${denied:-none})" "$denied" "mount " "denied calls"
done_testing
