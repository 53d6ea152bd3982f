#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A count read between two readings of the kernel's own count, so that interrupts arriving
while it is read (from anyone's load on the machine) cannot make two references disagree.

  bracket.py daemon SOCKET IRQ
      irqlatd's count for IRQ as of its next tick (every answer is the last tick's read of
      the cells), between a reading of /proc/interrupts taken before that tick and one taken
      after it (as for ticks below): "lo=P1 count=D hi=P2 spurious=S". D must lie in
      [P1, P2] (less what the kernel counted and no handler ran for, docs/architecture.md
      section 10).
  bracket.py watch SOCKET IRQ SECONDS
      the daemon bracket at each tick (50 ms apart or more) for SECONDS: one line "t=.. gap=.."
      per sample where the gap (/proc/interrupts' delta since the first sample less irqlatd's,
      outside the bracket) changed; for finding when counts part (bench/count-gap.sh --watch).
  bracket.py proc IRQ
      /proc/interrupts' count for IRQ alone: "count=P".
  bracket.py ticks SOCKET IRQ SECONDS
      irqlatd's counts as of each of its ticks (what /metrics serves: the totals the last
      tick read), each between two readings of /proc/interrupts: it asks for a summary every
      few milliseconds; a tick happened between two answers when the second one's window
      grew, so the kernel's count at that tick lies between the reading before the first
      answer and the reading after the second. One line per tick: "count=D lo=P1 hi=P2".
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


def next_tick(d, irq):
    """The first answer read by a tick after this call, and the kernel's count at that tick
    bracketed: (lo, answer, hi). An answer whose snapshot_end_ns differs from the one before
    it comes from a tick between the two; the reading taken before the first was asked for
    precedes that tick, the reading taken after the second follows it."""
    before = proc_count(irq)
    a = d.ask({"cmd": "summary", "window": "total"})
    deadline = time.time() + 70  # the longest interval is 60 s
    while time.time() < deadline:
        time.sleep(0.002)
        lo = proc_count(irq)
        b = d.ask({"cmd": "summary", "window": "total"})
        if b["snapshot_end_ns"] != a["snapshot_end_ns"]:
            return before, b, proc_count(irq)
        before, a = lo, b
    raise SystemExit("irqlatd did not tick within 70 s")


def cmd_daemon(path, irq):
    d = Daemon(path)
    lo, a, hi = next_tick(d, irq)
    mine = [h for h in a["irqs"] if h["irq"] == int(irq)]
    print("lo=%d count=%d hi=%d spurious=%d" % (lo, sum(h["count"] for h in mine), hi,
                                                 sum(h["spurious"] for h in mine)))


def cmd_watch(path, irq, secs):
    d = Daemon(path)

    def sample():
        lo, a, hi = next_tick(d, irq)
        return lo, sum(h["count"] for h in a["irqs"] if h["irq"] == int(irq)), hi

    lo0, c0, hi0 = sample()
    t0, last = time.time(), 0
    while time.time() - t0 < float(secs):
        time.sleep(0.05)
        lo, c, hi = sample()
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
    t0 = time.time()
    before = proc_count(irq)  # read before the previous answer was asked for
    a = d.ask({"cmd": "summary", "window": "total"})
    while time.time() - t0 < float(secs):
        time.sleep(0.002)
        lo = proc_count(irq)
        b = d.ask({"cmd": "summary", "window": "total"})
        if b["window_s"] != a["window_s"]:  # a tick (or more) between a and b
            hi = proc_count(irq)
            count = sum(h["window_count"] for h in b["irqs"] if h["irq"] == int(irq))
            print("count=%d lo=%d hi=%d" % (count, before, hi), flush=True)
        before, a = lo, b


def main():
    cmds = {"daemon": cmd_daemon, "watch": cmd_watch, "proc": cmd_proc, "ticks": cmd_ticks}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])


if __name__ == "__main__":
    main()
