#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""irqlatd's counts per softirq vector or per vector label against the kernel's own, each
daemon snapshot bracketed by readings of the kernel's file.

  snapshot_bracket.py SOCKET softirqs|vectors SECONDS [REF OBJECT]
  snapshot_bracket.py SOCKET softirqs|vectors SECONDS CPU [summary|hist]

reads /proc/softirqs (or /proc/interrupts) all along, every millisecond or so, each reading
stamped with CLOCK_MONOTONIC before and after it, and asks irqlatd for a summary every 50 ms.
Every answer is as of its snapshot (the tick that read the cells, snapshot_begin_ns ..
snapshot_end_ns, CLOCK_MONOTONIC), so the kernel's count at that snapshot lies between the
last reading that ended before the snapshot began and the first that began after it ended.
Over the first and the last snapshot seen, one line per name the kernel lists:

  NAME DAEMON_DELTA LO HI

where the kernel's delta lies in [LO, HI]. A name irqlatd has no series for counts 0.
With REF OBJECT (bench/count-ref.c and its counter-only programs, count-ref.bpf.c) every reading
also asks REF for its counts, and each line gets RLO RHI: the delta of a program that only
counts the same tracepoints' calls. BPF programs run fewer times than /proc counts under load
(docs/architecture.md, section 11), all of them equally: that is the exact reference.
With CPU, the daemon is asked for that CPU alone ("cpus", irqlat -C) and the kernel's count
is that CPU's column; the question is a summary, or a hist of every series.
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bracket import Daemon  # noqa: E402  (one client of the socket for both helpers)

MONO = time.CLOCK_MONOTONIC


def column(header, cpu):
    """The index among a row's counts of CPU cpu's column (None: every column)."""
    return None if cpu is None else header.split().index("CPU%d" % cpu)


def read_softirqs(cpu=None):
    counts = {}
    with open("/proc/softirqs") as f:
        col = column(next(f), cpu)  # the CPU header
        for line in f:
            parts = line.split()
            nums = [int(p) for p in parts[1:]]
            counts[parts[0].rstrip(":")] = sum(nums) if col is None else nums[col]
    return counts


def read_vectors(cpu=None):
    """The rows of /proc/interrupts named by letters (LOC, CAL, ...): per-CPU counts only."""
    counts = {}
    with open("/proc/interrupts") as f:
        header = next(f)
        ncpu = len(header.split())
        col = column(header, cpu)
        for line in f:
            parts = line.split()
            name = parts[0].rstrip(":")
            if not name.isalpha():
                continue
            nums = [int(p) for p in parts[1:1 + ncpu] if p.isdigit()]
            counts[name] = sum(nums) if col is None else (nums[col] if col < len(nums) else 0)
    return counts


def main():
    args = sys.argv[4:]
    # REF OBJECT (a path first) or CPU [summary|hist] (a number first)
    ref_mode = len(args) == 2 and not args[0].isdigit()
    if len(sys.argv) < 4 or len(args) > 2 or sys.argv[2] not in ("softirqs", "vectors") or \
            (not ref_mode and args and not args[0].isdigit()) or \
            (not ref_mode and len(args) == 2 and args[1] not in ("summary", "hist")):
        sys.exit(__doc__)
    path, what, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
    cpu = int(args[0]) if args and not ref_mode else None
    cmd = args[1] if len(args) == 2 and not ref_mode else "summary"
    kread = read_softirqs if what == "softirqs" else read_vectors
    ref = None
    if ref_mode:
        ref = subprocess.Popen([args[0], args[1], "serve"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
        if ref.stdout.readline().strip() != "ready":
            sys.exit("the reference counter did not start")

    def read():
        c = kread(cpu)
        if ref:
            ref.stdin.write("\n")
            ref.stdin.flush()
            for kv in ref.stdout.readline().split():
                k, v = kv.split("=")
                c["ref:" + k] = int(v)
        return c
    question = {"cmd": cmd, "window": "total"}
    if cpu is not None:
        question["cpus"] = str(cpu)
    key = "vector" if what == "softirqs" else "name"
    d = Daemon(path)
    samples = []  # (t_before, t_after, counts)
    snaps = []  # (begin, end, {name: count})
    end = time.clock_gettime_ns(MONO) + int(secs * 1e9)
    next_ask = 0
    while True:
        t0 = time.clock_gettime_ns(MONO)
        c = read()
        t1 = time.clock_gettime_ns(MONO)
        samples.append((t0, t1, c))
        if t1 >= end and len(snaps) >= 2 and samples[-1][0] > snaps[-1][1]:
            break
        if t1 >= next_ask and t1 < end:
            a = d.ask(question)
            b, e = a["snapshot_begin_ns"], a["snapshot_end_ns"]
            if not snaps or snaps[-1][1] != e:
                snaps.append((b, e, {s[key]: s["count"] for s in a[what]}))
            next_ask = t1 + 50_000_000
        if t1 >= end + 5_000_000_000:
            sys.exit("no two snapshots in %.0f s: is irqlatd ticking?" % secs)
        time.sleep(0.001)

    def bracket(snap):
        b, e, _ = snap
        lo = max((s for s in samples if s[1] <= b), key=lambda s: s[1], default=None)
        hi = min((s for s in samples if s[0] >= e), key=lambda s: s[0], default=None)
        if lo is None or hi is None:
            sys.exit("a snapshot outside the readings of the kernel's file")
        return lo[2], hi[2]

    # the first snapshot that began after the first reading, so that it is bracketed
    first = next(s for s in snaps if s[0] >= samples[0][1])
    last = snaps[-1]
    lo0, hi0 = bracket(first)
    lo1, hi1 = bracket(last)
    print("# snapshots %.3f s apart, %d readings" % ((last[1] - first[1]) / 1e9, len(samples)))
    for name in lo1:
        if name.startswith("ref:"):
            continue
        dd = last[2].get(name, 0) - first[2].get(name, 0)
        line = "%s %d %d %d" % (name, dd, lo1[name] - hi0[name], hi1[name] - lo0[name])
        r = "ref:" + name
        if r in lo1:
            line += " %d %d" % (lo1[r] - hi0[r], hi1[r] - lo0[r])
        print(line)


if __name__ == "__main__":
    main()
