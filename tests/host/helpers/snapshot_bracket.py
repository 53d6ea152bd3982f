#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""irqlatd's counts per softirq vector or per vector label against the kernel's own, each
daemon snapshot bracketed by readings of the kernel's file.

  snapshot_bracket.py SOCKET softirqs|vectors SECONDS

reads /proc/softirqs (or /proc/interrupts) all along, every millisecond or so, each reading
stamped with CLOCK_MONOTONIC before and after it, and asks irqlatd for a summary every 50 ms.
Every answer is as of its snapshot (the tick that read the cells, snapshot_begin_ns ..
snapshot_end_ns, CLOCK_MONOTONIC), so the kernel's count at that snapshot lies between the
last reading that ended before the snapshot began and the first that began after it ended.
Over the first and the last snapshot seen, one line per name the kernel lists:

  NAME DAEMON_DELTA LO HI

where the kernel's delta lies in [LO, HI]. A name irqlatd has no series for counts 0.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bracket import Daemon  # noqa: E402  (one client of the socket for both helpers)

MONO = time.CLOCK_MONOTONIC


def read_softirqs():
    counts = {}
    with open("/proc/softirqs") as f:
        next(f)  # the CPU header
        for line in f:
            parts = line.split()
            counts[parts[0].rstrip(":")] = sum(int(p) for p in parts[1:])
    return counts


def read_vectors():
    """The rows of /proc/interrupts named by letters (LOC, CAL, ...): per-CPU counts only."""
    counts = {}
    with open("/proc/interrupts") as f:
        ncpu = len(next(f).split())
        for line in f:
            parts = line.split()
            name = parts[0].rstrip(":")
            if not name.isalpha():
                continue
            nums = [int(p) for p in parts[1:1 + ncpu] if p.isdigit()]
            counts[name] = sum(nums)
    return counts


def main():
    if len(sys.argv) != 4 or sys.argv[2] not in ("softirqs", "vectors"):
        sys.exit(__doc__)
    path, what, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
    read = read_softirqs if what == "softirqs" else read_vectors
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
            a = d.ask({"cmd": "summary", "window": "total"})
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
        dd = last[2].get(name, 0) - first[2].get(name, 0)
        print("%s %d %d %d" % (name, dd, lo1[name] - hi0[name], hi1[name] - lo0[name]))


if __name__ == "__main__":
    main()
