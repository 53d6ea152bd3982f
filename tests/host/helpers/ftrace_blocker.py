#!/usr/bin/env python3
"""The time one task ran on one CPU within each of a list of windows, by ftrace's own
sched_switch events (a private tracefs instance, trace_clock mono: CLOCK_MONOTONIC, as the
daemon's ts_ns).

usage: ftrace_blocker.py TRACE CPU PID WINDOWS
TRACE: the instance's trace file; WINDOWS: lines "START_NS END_NS ID". Prints "ID NS" for each
window that the trace covers (a switch on CPU before START and after END)."""
import re
import sys

trace, cpu, pid, windows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
line_re = re.compile(r"\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): sched_switch: .*prev_pid=(\d+) .*==> .*next_pid=(\d+)")
switches = []  # (ns, prev_pid, next_pid) on cpu, in time order
with open(trace) as f:
    for line in f:
        m = line_re.search(line)
        if not m or int(m.group(1)) != cpu:
            continue
        ns = int(m.group(2)) * 1000000000 + int(m.group(3).ljust(9, "0")[:9])
        switches.append((ns, int(m.group(4)), int(m.group(5))))
switches.sort()
if not switches:
    sys.exit("no sched_switch on CPU %d in %s" % (cpu, trace))
# the intervals the task was current on the CPU
runs = []
start = None
for ns, prev, nxt in switches:
    if prev == pid and start is not None:
        runs.append((start, ns))
        start = None
    if nxt == pid:
        start = ns
if start is not None:
    runs.append((start, switches[-1][0]))
first, last = switches[0][0], switches[-1][0]
with open(windows) as f:
    for line in f:
        a, b, wid = line.split()
        a, b = int(a), int(b)
        if a < first or b > last:
            continue
        t = sum(max(0, min(b, e) - max(a, s)) for s, e in runs)
        print(wid, t)
