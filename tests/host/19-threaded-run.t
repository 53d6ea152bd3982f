#!/bin/bash
# threaded-run: where threaded IRQs' run time comes from, said at start-up, in status (text and
# JSON) and refused in one line when forced to what the kernel will not give. The host need
# not have threaded IRQs: what is checked is which programs load and what is said; the
# numbers are checked against ftrace in the threadirqs guest (tests/vm/initramfs/60-threaded.sh,
# 61-threaded-oncpu.sh). On a kernel that refuses fentry (this project's development host)
# auto falls back to on-cpu and a forced handler exits 1; on one that allows it, auto is
# handler and a forced handler starts.
. "$(dirname "$0")/../lib.sh"
plan 6

start_daemon --no-tracepoints
st=$(irqlat status --json)
auto=$(jq -r '.threaded_run // "none"' <<<"$st")
diag "auto: threaded_run $auto; $(grep 'threaded IRQs' "$TMP/daemon.log" | tr '\n' ' ')"
auto_said() {
	case $auto in handler | on-cpu) ;; *) why "status's threaded_run" "$auto (expected handler or on-cpu)"; return 1 ;; esac
	jq -e '.kinds | index("threaded_run")' <<<"$st" >/dev/null || { why "no threaded_run in status's kinds" "$(jq -c .kinds <<<"$st")"; return 1; }
	file_has "threaded IRQs: run time from .* (threaded-run = $auto)" "$TMP/daemon.log"
}
check "auto: status's threaded_run ($auto) is handler or on-cpu, as the start line says, kind threaded_run on" auto_said
stop_daemon

for attach in tp_btf raw_tp; do	# the sched_switch program's two twins, both through the verifier with oncpu_run
	start_daemon --no-tracepoints --attach "$attach" --threaded-run on-cpu
	oncpu_said() {
		is_eq "$(irqlat status --json | jq -r '.threaded_run')" on-cpu "status's threaded_run" &&
			has_line "$(irqlat status)" "^threaded: *run time from the thread's on-CPU time" &&
			file_has "threaded IRQs: run time from the thread's on-CPU time.*(threaded-run = on-cpu)" "$TMP/daemon.log"
	}
	check "--attach $attach --threaded-run on-cpu: loads; status (JSON and text) and the start line say on-cpu" oncpu_said
	stop_daemon
done

if [ "$auto" = on-cpu ]; then
	"$IRQLATD" --socket "$SOCK" --log-target stderr --no-tracepoints --threaded-run handler >"$TMP/handler.log" 2>&1
	rc=$?
	diag "handler: exit $rc: $(cat "$TMP/handler.log")"
	refused() {
		is_eqn "$rc" 1 "exit status" && is_eqn "$(grep -c 'error:' "$TMP/handler.log")" 1 "error lines" &&
			file_has "error: threaded IRQs: threaded-run = handler, but " "$TMP/handler.log" &&
			file_lacks "threaded-run = on-cpu)" "$TMP/handler.log"	# no silent fallback
	}
	check "--threaded-run handler where the kernel refuses it: exit 1, one error line, no fallback" refused
else
	start_daemon --no-tracepoints --threaded-run handler
	check_eq "--threaded-run handler where the kernel allows it: status says handler" \
		"$(irqlat status --json | jq -r '.threaded_run')" handler "status's threaded_run"
	stop_daemon
fi

start_daemon --no-tracepoints --no-threaded
check_jq "--no-threaded: no threaded_run in status, no kind threaded_run" "$(irqlat status --json)" \
	'(has("threaded_run") | not) and (.kinds | index("threaded_run") == null)'
stop_daemon

# a reload cannot change it: the programs loaded keep theirs, said in one warning
printf 'threaded-run = on-cpu\n' >"$TMP/irqlatd.conf"
start_daemon --no-tracepoints --config "$TMP/irqlatd.conf"
printf 'threaded-run = handler\n' >"$TMP/irqlatd.conf"
kill -HUP "$DAEMON_PID"
reload_warns() { file_has "threaded-run changed from on-cpu to handler: that takes effect only after a restart" "$TMP/daemon.log"; }
retry_for 5 reload_warns
kept() { reload_warns && is_eq "$(irqlat status --json | jq -r .threaded_run)" on-cpu "status's threaded_run"; }
check "a reload that changes threaded-run warns that it takes a restart, and keeps on-cpu" kept
stop_daemon
done_testing
