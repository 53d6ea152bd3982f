#!/bin/sh
# vm-check-timeout: 90
# Hard IRQs, vector interrupts and softirqs counted against the kernel's own counts, on the
# guest's kernel: the plain 6.1 guest and Debian's PREEMPT_RT kernel (run-initramfs-rt), where
# device handlers are threaded and softirqs run in threads. tests/host/10-hardirq.t,
# 12-softirqs.t and 13-vectors.t do the same on the host's kernel. Each of irqlatd's snapshots
# is as of its tick (snapshot_begin_ns .. snapshot_end_ns, CLOCK_MONOTONIC); proc-sample
# (tests/vm/helpers/proc-sample.c) reads /proc/softirqs and /proc/interrupts every millisecond
# or so with CLOCK_MONOTONIC stamps, so the kernel's count at a snapshot lies between the last
# reading that ended before it began and the first that began after it ended. Over the first
# and the last snapshot, irqlatd's delta must lie in the kernel's bracket: the serial IRQ (its
# output here raises it) within 0.5% or 5, each vector (LOC, RES, CAL...) and softirq vector
# within 1% or 5, as on the host.
set -eu
# shellcheck source=../guest/lib.sh
. "$VMTEST_DIR/lib.sh"

if [ ! -x "$IRQLATD" ] || [ ! -x "$IRQLAT" ] || ! command -v jq >/dev/null || ! command -v proc-sample >/dev/null; then
	skip "hard IRQs and softirqs against the kernel's counts" "irqlatd, irqlat, jq or proc-sample missing in the guest"
	exit 0
fi
work=/tmp/irqlatd-counts
sock=$work/irqlatd.sock
mkdir -p "$work"
irqlat() { "$IRQLAT" --socket "$sock" "$@"; }
serial=$(awk '/ttyS0/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
diag "kernel $(uname -r) ($(uname -v | grep -o 'PREEMPT[_A-Z]*' | head -1)), serial IRQ ${serial:-none}"
"$IRQLATD" --socket "$sock" --log-target stderr --no-tracepoints --no-timers --interval-ms 200 \
	>"$work/daemon.log" 2>&1 &
daemon=$!
up() { irqlat status >/dev/null 2>&1; }
if ! retry 30 up; then
	not_ok "irqlatd starts"; diag_file "$work/daemon.log"; exit 0
fi
sleep 0.5	# its cells made and read once

# one line per snapshot: "BEGIN END S:NAME=N ... I:IRQ=N ... I:LABEL=N ...", the names as
# proc-sample writes them (a handler's IRQ summed over its handlers, as /proc/interrupts counts
# the line once per arrival only when the line has one handler: the serial line has)
snapshot() {
	irqlat --top --batch --iterations 1 --json --window total | jq -r '
		[(.snapshot_begin_ns | tostring), (.snapshot_end_ns | tostring)] +
		[.softirqs[] | "S:\(.vector)=\(.count)"] +
		[.irqs | group_by(.irq)[] | "I:\(.[0].irq)=\(map(.count) | add)"] +
		[.vectors[] | "I:\(.name)=\(.count)"] | join(" ")'
}
# a long line: the UART takes 16 bytes per transmit interrupt, so some 60 serial IRQs a line
pad=$(printf '%0960d' 0)
# The sampler runs until the snapshots are taken: 20 of them (some 5 s here), or at least 4
# once 15 s have gone by. A fixed span of the sampler's left a slow guest 2 snapshots in 5 s
# (ci40 of 2026-12-07), too few to bracket two.
proc-sample 60 >"$work/samples" 2>"$work/sample.err" &
sampler=$!
sleep 0.3
: >"$work/snaps"
i=0
end=$(($(date +%s) + 15))
while kill -0 "$sampler" 2>/dev/null && [ $i -lt 20 ] && { [ $i -lt 4 ] || [ "$(date +%s)" -lt $end ]; }; do
	snapshot >>"$work/snaps"
	printf '# serial output %s, to raise its IRQ: %s\n' "$i" "$pad"
	i=$((i + 1))
	sleep 0.2
done
sleep 0.3	# readings after the last snapshot, to bracket it
kill -TERM "$sampler" 2>/dev/null || true
wait "$sampler" || { not_ok "proc-sample ran"; diag_file "$work/sample.err"; exit 0; }
diag "$(wc -l <"$work/samples") readings of the kernel's counts, $(wc -l <"$work/snaps") snapshots"

# NAME DELTA LO HI for every name of the first bracketed snapshot, over it and the last one
awk '
	function load(line, arr,   n, f, k, kv) {
		n = split(line, f, " ")
		for (k = 3; k <= n; k++) { split(f[k], kv, "="); arr[kv[1]] = kv[2] }
	}
	FNR == NR { t0[NR] = $1; t1[NR] = $2; s[NR] = $0; ns = NR; next }
	{ b[FNR] = $1; e[FNR] = $2; snap[FNR] = $0; nn = FNR }
	END {
		# the first snapshot that began after the first reading ended, the last that ended
		# before the last reading began
		for (f = 1; f <= nn && b[f] < t1[1]; f++) ;
		for (l = nn; l >= 1 && e[l] > t0[ns]; l--) ;
		if (f >= l) { print "# no two bracketed snapshots"; exit 1 }
		for (i = 1; i <= ns && t1[i] <= b[f]; i++) lo0 = i
		for (i = ns; i >= 1 && t0[i] >= e[f]; i--) hi0 = i
		for (i = 1; i <= ns && t1[i] <= b[l]; i++) lo1 = i
		for (i = ns; i >= 1 && t0[i] >= e[l]; i--) hi1 = i
		load(snap[f], d0); load(snap[l], d1)
		load(s[lo0], a0); load(s[hi0], c0); load(s[lo1], a1); load(s[hi1], c1)
		printf "# snapshots %.3f s apart\n", (e[l] - e[f]) / 1e9
		# every softirq the kernel lists and the serial IRQ (what irqlatd has no series for
		# counts 0), and the IRQs and vector labels irqlatd has
		for (k in a0)
			if (k ~ /^S:/ || k in d0 || k == "I:" serial)
				print k, d1[k] - d0[k], a1[k] - c0[k], c1[k] - a0[k]
	}' serial="$serial" "$work/samples" "$work/snaps" >"$work/bracket" || true
sed -n 's/^# /# /p' "$work/bracket"
diag "first snapshot: $(head -n 1 "$work/snaps" | cut -c1-300)"
diag "first reading: $(head -n 1 "$work/samples" | cut -c1-300)"
row() { awk -v k="$1" '$1 == k' "$work/bracket"; }
# within: NAME PERMILLE: DELTA in [LO - max(LO*PERMILLE/1000, 5), HI + max(HI*PERMILLE/1000, 5)]
within() {
	set -- "$1" "$2" $(row "$1")
	[ $# -eq 6 ] || { diag "$1: no figures"; return 1; }
	_slack_lo=$(( $5 * $2 / 1000 > 5 ? $5 * $2 / 1000 : 5 ))
	_slack_hi=$(( $6 * $2 / 1000 > 5 ? $6 * $2 / 1000 : 5 ))
	diag "$1: irqlatd $4, the kernel [$5, $6]"
	[ "$4" -ge $(( $5 - _slack_lo )) ] && [ "$4" -le $(( $6 + _slack_hi )) ]
}
serial_ran() { [ "$(row "I:$serial" | awk '{ print $3 }')" -gt 0 ] 2>/dev/null; }
check "the serial IRQ ($serial) ran in the window (this check's output raises it)" serial_ran
check "irqlatd's count of the serial IRQ lies in /proc/interrupts' bracket (0.5% or 5)" within "I:$serial" 5
vec_ok=0 vec_bad=
for k in $(awk '$1 ~ /^I:[A-Z]/ && $4 > 0 { print $1 }' "$work/bracket"); do
	if within "$k" 10; then vec_ok=$((vec_ok + 1)); else vec_bad="$vec_bad ${k#I:}"; fi
done
check "every vector interrupt that ran ($vec_ok agree) lies in /proc/interrupts' bracket (1% or 5)${vec_bad:+: not$vec_bad}" \
	[ -z "$vec_bad" ] && [ "$vec_ok" -gt 0 ]
soft_ok=0 soft_bad=
for k in $(awk '$1 ~ /^S:/ { print $1 }' "$work/bracket"); do
	if within "$k" 10; then soft_ok=$((soft_ok + 1)); else soft_bad="$soft_bad ${k#S:}"; fi
done
check "every softirq vector ($soft_ok agree, TIMER among them) lies in /proc/softirqs' bracket (1% or 5)${soft_bad:+: not$soft_bad}" \
	[ -z "$soft_bad" ] && [ -n "$(row S:TIMER)" ]

kill "$daemon" 2>/dev/null || true
wait "$daemon" 2>/dev/null || true
