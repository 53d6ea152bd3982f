#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A count read between two readings of the kernel's own count, so that interrupts arriving
while it is read (from anyone's load on the machine) cannot make two references disagree.
Every figure irqlatd answers is as of its last tick, whose read of the cells its answer
brackets (snapshot_begin_ns, snapshot_end_ns; CLOCK_MONOTONIC, as time.monotonic_ns here):
a reading of /proc/interrupts that ended before the snapshot began and one that started
after it ended bracket the kernel's count at that tick.

  bracket.py daemon SOCKET IRQ
      /proc/interrupts' count for IRQ, then irqlatd's count as of its first tick after that
      reading, then /proc/interrupts again: "lo=P1 count=D hi=P2 spurious=S". D must lie in
      [P1, P2] (less what the kernel counted and no handler ran for: docs/architecture.md,
      "What irqlatd counts and the kernel's count").
  bracket.py watch SOCKET IRQ SECONDS
      such a bracket about every tick for SECONDS: one line "t=.. gap=.." per sample where
      the gap (/proc/interrupts' delta since the first sample less irqlatd's, outside the
      bracket) changed; for finding when counts part (bench/count-gap.sh --watch).
  bracket.py proc IRQ
      /proc/interrupts' count for IRQ alone: "count=P".
  bracket.py ticks SOCKET IRQ SECONDS
      irqlatd's counts as of each of its ticks for SECONDS (what /metrics serves: the totals
      the last tick read), each between the last reading of /proc/interrupts that ended
      before the tick's read began and the first that started after it ended. One line per
      tick: "count=D lo=P1 hi=P2", written as soon as that second reading is made (the
      first line says the recording has begun).
"""
import json
import socket
import sys
import time


def proc_count(irq):
    with open("/proc/interrupts") as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] == "%s:" % irq:
                n = 0
                for p in parts[1:]:
                    if not p.isdigit():
                        break
                    n += int(p)
                return n
    raise SystemExit("no IRQ %s in /proc/interrupts" % irq)


class Daemon:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(10)
        self.s.connect(path)
        self.buf = b""

    def ask(self, req):
        self.s.sendall(json.dumps(req).encode() + b"\n")
        while b"\n" not in self.buf:
            d = self.s.recv(1 << 20)
            if not d:
                raise SystemExit("irqlatd closed the connection")
            self.buf += d
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)


def proc_stamped(irq):
    """(start, end, count): a reading of /proc/interrupts and when it was taken"""
    t0 = time.monotonic_ns()
    n = proc_count(irq)
    return t0, time.monotonic_ns(), n


def irq_counts(answer, irq):
    mine = [h for h in answer["irqs"] if h["irq"] == int(irq)]
    return sum(h["count"] for h in mine), sum(h["spurious"] for h in mine)


def bracketed(d, irq):
    """lo, irqlatd's count and spurious as of its first tick after lo was read, hi"""
    _, lo_end, lo = proc_stamped(irq)
    deadline = time.monotonic() + 10
    a = d.ask({"cmd": "summary", "window": "total"})
    while a["snapshot_begin_ns"] < lo_end:
        if time.monotonic() > deadline:
            raise SystemExit("irqlatd made no tick in 10 s")
        time.sleep(0.005)
        a = d.ask({"cmd": "summary", "window": "total"})
    hi = proc_count(irq)  # read after the answer, so after its snapshot
    return (lo,) + irq_counts(a, irq) + (hi,)


def cmd_daemon(path, irq):
    d = Daemon(path)
    d.ask({"cmd": "status"})  # connected and answering before the bracket opens
    lo, count, spurious, hi = bracketed(d, irq)
    print("lo=%d count=%d hi=%d spurious=%d" % (lo, count, hi, spurious))


def cmd_watch(path, irq, secs):
    d = Daemon(path)
    d.ask({"cmd": "status"})
    lo0, c0, _, hi0 = bracketed(d, irq)
    t0, last = time.time(), 0
    while time.time() - t0 < float(secs):
        lo, c, _, hi = bracketed(d, irq)
        dc = c - c0
        # the kernel's delta lies in [lo - hi0, hi - lo0]; the gap is how far irqlatd's is below
        gap = max(0, (lo - hi0) - dc) - max(0, dc - (hi - lo0))
        if gap != last:
            print("t=%.2f gap=%d proc=%d..%d irqlatd=%d" % (time.time() - t0, gap, lo - hi0, hi - lo0, dc), flush=True)
            last = gap


def cmd_proc(irq):
    print("count=%d" % proc_count(irq))


def cmd_ticks(path, irq, secs):
    d = Daemon(path)
    samples, pending, seen = [], [], set()
    t0 = time.monotonic()
    samples.append(proc_stamped(irq))
    while time.monotonic() - t0 < float(secs):
        a = d.ask({"cmd": "summary", "window": "total"})
        key = (a["snapshot_begin_ns"], a["snapshot_end_ns"])
        if key not in seen:
            seen.add(key)
            pending.append((key, irq_counts(a, irq)[0]))
        samples.append(proc_stamped(irq))
        # each tick as soon as a reading started after it (the last one did), so that a caller
        # can wait for the first line: recording has begun
        for (begin, end), count in pending:
            lo = [n for s0, s1, n in samples if s1 <= begin]
            if lo:  # a tick from before the first reading has no bracket
                hi = next(n for s0, s1, n in samples if s0 >= end)
                print("count=%d lo=%d hi=%d" % (count, lo[-1], hi), flush=True)
        pending = []
        time.sleep(0.002)


def main():
    cmds = {"daemon": cmd_daemon, "watch": cmd_watch, "proc": cmd_proc, "ticks": cmd_ticks}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])


if __name__ == "__main__":
    main()
