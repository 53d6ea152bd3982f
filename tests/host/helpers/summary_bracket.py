#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""irqlatd's count of one IRQ from one summary, between two readings of /proc/interrupts
(58-top-batch.t).

  summary_bracket.py IRQLAT SOCKET IRQ

prints "LO COUNT HI". Every figure of an answer is as of the daemon's last tick, which says
when it read the cells (snapshot_begin_ns .. snapshot_end_ns, CLOCK_MONOTONIC). A thread
reads /proc/interrupts all along, stamping each read; the daemon's COUNT lies between LO, the
last read that ended before the snapshot began, and HI, the first that started after it
ended. Other load may share the disk IRQ: both sides see it.
"""
import json
import subprocess
import sys
import threading
import time

irqlat, sock, irq = sys.argv[1], sys.argv[2], int(sys.argv[3])


def proc():
    for l in open("/proc/interrupts"):
        f = l.split()
        if f and f[0] == "%d:" % irq:
            n = 0
            for x in f[1:]:
                if not x.isdigit():
                    break
                n += int(x)
            return n


samples, stop = [], threading.Event()


def sampler():
    while not stop.is_set():
        t0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        n = proc()
        samples.append((t0, time.clock_gettime_ns(time.CLOCK_MONOTONIC), n))
        time.sleep(0.002)


threading.Thread(target=sampler, daemon=True).start()
while not samples:
    time.sleep(0.001)
deadline = time.monotonic() + 10
while True:	# an answer from a tick after the sampling began
    s = json.loads(subprocess.run([irqlat, "--socket", sock, "--top", "-b", "-n", "1", "-J"],
                                  capture_output=True, text=True).stdout)
    if s["snapshot_begin_ns"] > samples[0][1] or time.monotonic() > deadline:
        break
    time.sleep(0.05)
j = sum(h["count"] for h in s["irqs"] if h["irq"] == irq)
while samples[-1][0] < s["snapshot_end_ns"] and time.monotonic() < deadline:
    time.sleep(0.002)
stop.set()
lo = max((n for t0, t1, n in samples if t1 <= s["snapshot_begin_ns"]), default=-1)
hi = min((n for t0, t1, n in samples if t0 >= s["snapshot_end_ns"]), default=-1)
print(lo, j, hi)
