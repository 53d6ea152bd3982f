#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""irqlatd's counts of hrtimer expiries per timer function against a private ftrace instance
counting the same tracepoint, timer:hrtimer_expire_entry, over the same snapshots.

  timer_bracket.py SOCKET SECONDS

An ftrace instance of its own (instances/irqlat-timers-PID, trace_clock mono, so that its
timestamps are CLOCK_MONOTONIC like the daemon's snapshot_begin_ns/snapshot_end_ns) records
every expiry; irqlatd is asked for a summary after the recording began and SECONDS later.
The events between the two snapshots' reads of the cells are those with a timestamp after the
first read ended and before the second began (LO), at most those after the first began and
before the second ended (HI). One line per function ftrace saw, and ALL:

  NAME DAEMON_DELTA LO HI

The instance is removed at the end; a buffer that overflowed (overrun) is an error.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bracket import Daemon  # noqa: E402

TRACING = "/sys/kernel/tracing"
MONO = time.CLOCK_MONOTONIC


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def daemon_counts(d):
    """(begin_ns, end_ns, {function: count since start}) of a fresh snapshot"""
    a = d.ask({"cmd": "summary", "window": "total"})
    counts = {}
    for c in a["timers"]["classes"]:
        counts[c["function"]] = counts.get(c["function"], 0) + c["count"]
    return a["snapshot_begin_ns"], a["snapshot_end_ns"], counts


def next_snapshot(d, after_ns):
    """the first snapshot whose read of the cells began after after_ns"""
    for _ in range(500):
        s = daemon_counts(d)
        if s[0] > after_ns:
            return s
        time.sleep(0.02)
    sys.exit("irqlatd took no snapshot in 10 s: is it ticking?")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    d = Daemon(sys.argv[1])
    secs = float(sys.argv[2])
    inst = os.path.join(TRACING, "instances", "irqlat-timers-%d" % os.getpid())
    os.mkdir(inst)
    try:
        write(os.path.join(inst, "trace_clock"), "mono")
        write(os.path.join(inst, "buffer_size_kb"), "16384")
        write(os.path.join(inst, "events/timer/hrtimer_expire_entry/enable"), "1")
        write(os.path.join(inst, "tracing_on"), "1")
        a = next_snapshot(d, time.clock_gettime_ns(MONO))
        time.sleep(secs)
        b = next_snapshot(d, time.clock_gettime_ns(MONO))
        write(os.path.join(inst, "tracing_on"), "0")
        overrun = 0
        for cpu in os.listdir(os.path.join(inst, "per_cpu")):
            with open(os.path.join(inst, "per_cpu", cpu, "stats")) as f:
                for line in f:
                    if line.startswith("overrun:"):
                        overrun += int(line.split()[1])
        if overrun:
            sys.exit("the ftrace buffer overflowed (%d events lost): a longer buffer or a shorter window" % overrun)
        lo, hi = {}, {}
        with open(os.path.join(inst, "trace")) as f:
            for line in f:
                if line.startswith("#") or "hrtimer_expire_entry:" not in line:
                    continue
                head, _, rest = line.partition(": hrtimer_expire_entry:")
                ts = round(float(head.split()[-1]) * 1e9)	# us resolution: +-1000 ns below
                fn = rest.split("function=")[1].split()[0]
                for name in (fn, "ALL"):
                    if a[1] + 1000 <= ts <= b[0] - 1000:
                        lo[name] = lo.get(name, 0) + 1
                    if a[0] - 1000 <= ts <= b[1] + 1000:
                        hi[name] = hi.get(name, 0) + 1
    finally:
        try:
            write(os.path.join(inst, "events/timer/hrtimer_expire_entry/enable"), "0")
        finally:
            os.rmdir(inst)
    da, db = a[2], b[2]
    print("# snapshots %.3f s apart" % ((b[1] - a[1]) / 1e9))
    for name in sorted(hi):
        if name == "ALL":
            dd = sum(db.values()) - sum(da.values())
        else:
            dd = db.get(name, 0) - da.get(name, 0)
        print("%s %d %d %d" % (name, dd, lo.get(name, 0), hi[name]))


if __name__ == "__main__":
    main()
