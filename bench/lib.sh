# Shared by bench/kinds.sh and bench/clocks.sh (sourced; they set TOP, BUILD, LOADER, IPI and
# TMP first): loaders of bench objects, their attachments, and the load both measure under.

declare -A PID=()
die() { echo "bench ${BENCH_NAME:-}: $*" >&2; exit 1; }
stop_all() {
	local n
	for n in "${!PID[@]}"; do kill -TERM "${PID[$n]}" 2>/dev/null; wait "${PID[$n]}" 2>/dev/null; done
	PID=()
}
# "PID PROG_ID TRACEPOINT" of every raw tracepoint attachment, whoever holds it
attachments() { bpftool -j perf show 2>/dev/null | jq -r '.[] | select(.tracepoint) | "\(.pid) \(.prog_id) \(.tracepoint)"'; }
wait_for() {
	local n=$(($1 * 10)); shift
	while [ "$n" -gt 0 ]; do "$@" && return 0; sleep 0.1; n=$((n - 1)); done
	return 1
}
loader() {	# loader NAME OBJECT: $BUILD/bench/OBJECT.bpf.o, once every program of it is attached (it says so)
	"$LOADER" --pool 1024 "$1" "$BUILD/bench/$2.bpf.o" >"$TMP/$1.out" 2>"$TMP/$1.err" &
	PID[$1]=$!
	wait_for 30 test -s "$TMP/$1.out" || die "$1 did not attach: $(cat "$TMP/$1.err")"
}
# load SECONDS: fio, the IPI load and a cyclictest thread together; with BENCH_LOAD=pipe, two
# threads passing a byte back and forth through pipes instead (every wake-up a task's own, none
# from a timer's callback: sched_waking's early exit alone, issue 29's row of its own)
load() {
	if [ "${BENCH_LOAD:-}" = pipe ]; then
		timeout "$1" python3 -c '
import os, threading
r1, w1 = os.pipe(); r2, w2 = os.pipe()
def pong():
    while True:
        os.read(r1, 1); os.write(w2, b"y")
threading.Thread(target=pong, daemon=True).start()
while True:
    os.write(w1, b"x"); os.read(r2, 1)'
		return 0
	fi
	fio --name=kinds --filename="$TMP/fio.dat" --size=64M --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--runtime="$1" --time_based >>"$TMP/fio.log" 2>&1 &
	local f=$!
	cyclictest -m -q -t1 -p 90 -i 500 -D "$1" >/dev/null 2>&1 &
	local c=$!
	"$IPI" 0 1 "$1" >/dev/null
	wait "$c"
	wait "$f" || die "fio failed: $(tail -3 "$TMP/fio.log")"
}
# rounds_args ARGS...: --seconds N and --rounds N into RUN_SECONDS and ROUNDS; exit 2 on others
rounds_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--seconds) RUN_SECONDS=${2:-}; shift 2 ;;
		--rounds) ROUNDS=${2:-}; shift 2 ;;
		*) echo "usage: bench/$BENCH_NAME.sh [--seconds N] [--rounds N]" >&2; exit 2 ;;
		esac
	done
	[[ $RUN_SECONDS =~ ^[1-9][0-9]*$ && $ROUNDS =~ ^[1-9][0-9]*$ ]] ||
		{ echo "bench $BENCH_NAME: --seconds and --rounds take positive integers" >&2; exit 2; }
}
# windows_start DIR: bpftool -j prog show into DIR/N.json once a second till windows_stop, for
# bench/windows.py (why: there); each snapshot is renamed into place once whole
windows_start() {
	mkdir -p "$1" && rm -f "$1"/*.json
	(
		i=0
		while :; do
			sleep 1
			bpftool -j prog show >"$1/$i.part" && mv "$1/$i.part" "$1/$i.json"
			i=$((i + 1))
		done
	) &
	WINDOWS_PID=$!
}
windows_stop() { kill "$WINDOWS_PID" 2>/dev/null; wait "$WINDOWS_PID" 2>/dev/null; }
# the snapshots of DIR in the order they were taken
windows_list() { find "$1" -maxdepth 1 -name '*.json' -printf '%f\n' | sort -n | sed "s|^|$1/|"; }
# the tools both benchmarks run
need_tools() {
	local t
	for t in bpftool fio jq python3 cyclictest; do
		command -v "$t" >/dev/null || die "$t is missing: run 'scripts/install-deps test'"
	done
}
# TMP, and the traps that stop every loader and remove it
make_tmp() {
	TMP=$(mktemp -d "/tmp/irqlat-bench-$BENCH_NAME.XXXXXX")
	trap 'stop_all; rm -rf "$TMP"' EXIT
	trap 'exit 1' INT TERM
}
