#!/bin/bash
# Do BPF programs on softirq_entry and the irq_vectors entries run once per count of
# /proc/softirqs and /proc/interrupts? A measurement, not a test (docs/architecture.md,
# "What irqlatd counts and the kernel's count"): counter-only programs (count-ref.bpf.c) for
# SECONDS under fio, per CPU against /proc, with run_cnt of every program on those
# tracepoints. Start irqlatd beside it to see its programs run exactly as often.
# Usage: flock /tmp/irqlat-host.lock bench/count-ref.sh [SECONDS]   (as root; default 6)
set -eu
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
SECS=${1:-6}
mkdir -p "$BUILD/bench"
clang -target bpf -D__TARGET_ARCH_x86 -g -O2 -mcpu=v3 -Wall -I"$TOP/vmlinux" -I"$TOP/bpf" -I"$BUILD" \
	-c "$TOP/bench/count-ref.bpf.c" -o "$BUILD/bench/count-ref.bpf.o"
cc -O2 -Wall "$TOP/bench/count-ref.c" -o "$BUILD/bench/count-ref" -lbpf
TMP=$(mktemp -d /tmp/irqlat-ref.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
"$BUILD/bench/count-ref" "$BUILD/bench/count-ref.bpf.o" "$SECS" >"$TMP/out" &
REF=$!
sleep 1.5
fio --name=irqload --filename="$TMP/fio.dat" --size=32M --rw=randread --bs=4k --direct=1 --ioengine=psync \
	--runtime=$((SECS - 1)) --time_based >/dev/null 2>&1
wait "$REF"
grep -v 'kernel 0\.\.0 \|run_cnt +0 ' "$TMP/out"
