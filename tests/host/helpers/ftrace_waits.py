#!/usr/bin/env python3
"""The waits of a real-time task on one CPU, by ftrace's own sched_wakeup and sched_switch events
(a private tracefs instance, trace_clock mono), and the time one other task ran within them.

usage: ftrace_waits.py TRACE CPU COMM BLOCKER_PID MIN_NS
A wait runs from a sched_wakeup on CPU of a task named COMM with a real-time priority (prio
below 100) to that task's next switch-in on CPU. Prints "WAITS NS": how many waits lasted
MIN_NS or more, and for how long in all BLOCKER_PID was the CPU's current task within them."""
import re
import sys

trace, cpu, comm, blocker, min_ns = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
head = re.compile(r"\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (sched_wakeup|sched_switch): (.*)")
wake = re.compile(r"comm=(.*) pid=(\d+) prio=(\d+)")
switch = re.compile(r"prev_pid=(\d+) .*==> next_comm=.* next_pid=(\d+)")
events = []  # (ns, "w", pid) or (ns, "s", prev, next)
with open(trace) as f:
    for line in f:
        m = head.search(line)
        if not m or int(m.group(1)) != cpu:
            continue
        ns = int(m.group(2)) * 1000000000 + int(m.group(3).ljust(9, "0")[:9])
        if m.group(4) == "sched_wakeup":
            w = wake.search(m.group(5))
            if w and w.group(1) == comm and int(w.group(3)) < 100:
                events.append((ns, "w", int(w.group(2))))
        else:
            s = switch.search(m.group(5))
            if s:
                events.append((ns, "s", int(s.group(1)), int(s.group(2))))
events.sort(key=lambda e: e[0])
waits = total = 0
woken = {}  # pid -> the wakeup's ns
run_from = None  # the blocker's switch-in, while it is current
ran = []  # the blocker's intervals on the CPU
for e in events:
    if e[1] == "w":
        woken.setdefault(e[2], e[0])
        continue
    ns, prev, nxt = e[0], e[2], e[3]
    if prev == blocker and run_from is not None:
        ran.append((run_from, ns))
        run_from = None
    if nxt == blocker:
        run_from = ns
    if nxt in woken:
        a = woken.pop(nxt)
        if ns - a >= min_ns:
            waits += 1
            i = len(ran)
            while i and ran[i - 1][1] > a:  # the intervals that end after the wake-up
                i -= 1
                x, y = ran[i]
                total += max(0, min(ns, y) - max(a, x))
print(waits, total)
