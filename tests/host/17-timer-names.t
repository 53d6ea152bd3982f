#!/bin/bash
# Timer functions are named without a scan of /proc/kallsyms on the daemon's loop (a scan held
# it about 70 ms here): the vmlinux functions that can be an hrtimer's function are named in the
# one scan at start-up, and the file is opened again only for a function outside that set (a
# module's). The stacks of explained waits are named by the kernel (bpf/ksym.bpf.c), not from
# the file. References: strace's record of every openat() of /proc/kallsyms, bpftool's dump of
# the kernel's BTF (the functions whose prototype returns enum hrtimer_restart), and
# /proc/kallsyms itself for the names shown.
. "$(dirname "$0")/../lib.sh"
plan 3

mount_fs
# --no-tracepoints: a module tracepoint's lookup reads /proc/kallsyms too (tp_resolve.c)
strace -E "$NO_LSAN" -f -qq -e trace=openat -o "$TMP/strace" "$IRQLATD" --socket "$SOCK" \
	--log-target stderr --no-tracepoints --interval-ms 200 >"$TMP/daemon.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 100); do irqlat status >/dev/null 2>&1 && break; sleep 0.1; done
# timers that fire: the tick, and sleepers woken by hrtimer_wakeup; 10 ticks of the daemon
for _ in $(seq 50); do sleep 0.02; done
sleep 2
irqlat --top --batch --iterations 1 --json --window total >"$TMP/summary" 2>&1
jq -r '.timers.classes[].function' "$TMP/summary" >"$TMP/named" 2>/dev/null
kill -TERM "$(pgrep -P "$DAEMON_PID" -x irqlatd)" 2>/dev/null
wait "$DAEMON_PID"
DAEMON_PID=

# every FUNC whose FUNC_PROTO returns the ENUM hrtimer_restart, resolved at the end (a type may
# refer to one dumped after it)
bpftool btf dump file /sys/kernel/btf/vmlinux format raw | awk -v q="'" '
	$2 == "ENUM" && $3 == q "hrtimer_restart" q { e[$1] = 1 }
	$2 == "FUNC_PROTO" || $2 == "FUNC" { for (i = 3; i <= NF; i++) if ($i ~ /^(ret_)?type_id=/) { split($i, a, "="); ref[$1] = "[" a[2] "]" } }
	$2 == "FUNC" { fn[$1] = $3 }
	END { for (id in fn) if (e[ref[ref[id]]]) { n = fn[id]; gsub(q, "", n); print n } }' | sort -u >"$TMP/callbacks"
opens=$(grep -c 'openat(.*"/proc/kallsyms"' "$TMP/strace")
outside=$(sed 's/+0x.*//' "$TMP/named" | sort -u | comm -23 - "$TMP/callbacks" | wc -l)
diag "$(wc -l <"$TMP/callbacks") vmlinux hrtimer callbacks in BTF; named: $(tr '\n' ' ' <"$TMP/named"); $outside outside them; /proc/kallsyms opened $opens times"

check_grep "timer functions named, the scheduler tick's among them" \
	-xE 'tick_nohz_handler|tick_sched_timer' "$TMP/named"
opened_once() {
	is_nonempty "$TMP/callbacks" &&
		is_between "$opens" 1 $((1 + outside)) "openat() of /proc/kallsyms" "1 (the start-up's scan) + the functions outside BTF's callbacks"
}
check "/proc/kallsyms opened once at start-up, again at most once per function outside BTF's hrtimer callbacks" opened_once
[ "$opens" -le $((1 + outside)) ] || grep '/proc/kallsyms' "$TMP/strace" | sed 's/^/# /'
names_are_functions() {
	local f
	while read -r f; do
		grep -qE "^[0-9a-f]+ [tTwW] ${f%%+0x*}( |\$)" /proc/kallsyms || { diag "$f: no such text symbol"; return 1; }
	done <"$TMP/named"
	[ -s "$TMP/named" ]
}
check "every name shown is a text symbol of /proc/kallsyms" names_are_functions
