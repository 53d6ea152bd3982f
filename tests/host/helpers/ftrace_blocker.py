#!/usr/bin/env python3
"""The time one task ran on one CPU within each of a list of windows, by ftrace's own
sched_switch events (a private tracefs instance, trace_clock mono: CLOCK_MONOTONIC, as the
daemon's ts_ns).

usage: ftrace_blocker.py [--net] [--runs] TRACE CPU PID WINDOWS
TRACE: the instance's trace file; WINDOWS: lines "START_NS END_NS ID". Prints "ID NS" for each
window that the trace covers (a switch on CPU before START and after END, and none lost in it):
the time of the task's runs in the window (irqlatd's blocking part: every run in the wait of
the task switched out for the waiter). --runs: and a third column, how many runs of it.
--net: less the time of the interrupts (hard-IRQ handlers, vectors: their *_entry and *_exit
events, outermost ones) on CPU within it, which irqlatd counts as theirs, not the task's."""
import re
import sys

args = sys.argv[1:]
net = count = False
while args and args[0] in ("--net", "--runs"):
    net |= args[0] == "--net"
    count |= args[0] == "--runs"
    args = args[1:]
trace, cpu, pid, windows = args[0], int(args[1]), int(args[2]), args[3]
line_re = re.compile(r"\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): sched_switch: .*prev_pid=(\d+) .*==> .*next_pid=(\d+)")
irq_re = re.compile(r"\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): [a-z_]+_(entry|exit): ")
switches = []  # (ns, prev_pid, next_pid) on cpu, in time order
irqs = []  # the outermost interrupts on cpu, (start, end)
depth, irq_start = 0, None
with open(trace) as f:
    for line in f:
        m = line_re.search(line)
        if m and int(m.group(1)) == cpu:
            ns = int(m.group(2)) * 1000000000 + int(m.group(3).ljust(9, "0")[:9])
            switches.append((ns, int(m.group(4)), int(m.group(5))))
            depth = 0  # (never inside an interrupt: an entry whose exit was lost ends here)
            continue
        m = irq_re.search(line)
        if not net or not m or int(m.group(1)) != cpu:
            continue
        ns = int(m.group(2)) * 1000000000 + int(m.group(3).ljust(9, "0")[:9])
        if m.group(4) == "entry":
            if not depth:
                irq_start = ns
            depth += 1
        elif depth:
            depth -= 1
            if not depth:
                irqs.append((irq_start, ns))
switches.sort()
if not switches:
    sys.exit("no sched_switch on CPU %d in %s" % (cpu, trace))
# the intervals the task was current on the CPU; and where the trace lost a switch (one whose
# prev is not the task the last one switched in, seen beside CPU hogs with no LOST marker or
# drop counted): what ran there is unknown, and a window over it is not covered
runs = []
gaps = []
start = None
current = None
last_ns = None
for ns, prev, nxt in switches:
    if current is not None and prev != current:
        gaps.append((last_ns, ns))
        if prev == pid and start is None:
            start = last_ns  # it ran at the end of the gap: at least from there, unknown before
    if prev == pid and start is not None:
        runs.append((start, ns))
        start = None
    if nxt == pid:
        start = ns
    current, last_ns = nxt, ns
if start is not None:
    runs.append((start, switches[-1][0]))
first, last = switches[0][0], switches[-1][0]
with open(windows) as f:
    for line in f:
        a, b, wid = line.split()
        a, b = int(a), int(b)
        if a < first or b > last or any(s < b and e > a for s, e in gaps):
            continue
        def net_of(s, e):
            lo, hi = max(a, s), min(b, e)
            return hi - lo - sum(max(0, min(hi, y) - max(lo, x)) for x, y in irqs if x < hi and y > lo)
        inside = [(s, e) for s, e in runs if min(b, e) > max(a, s)]
        print(wid, sum(net_of(s, e) for s, e in inside), *([len(inside)] if count else []))
