#!/usr/bin/env python3
"""What interrupted one CPU within each of irqlatd's explained wake-ups, by ftrace's own events
(a private tracefs instance on that CPU, trace_clock mono: CLOCK_MONOTONIC, as the daemon's
ts_ns): irq_handler_entry/exit, softirq_entry/exit, irq_vectors' *_entry/*_exit, sched_switch,
hrtimer_start and hrtimer_expire_entry.

usage: ftrace_parts.py TRACE CPU WAITS
WAITS: lines "ID PID TS_NS CLASS", irqlatd's explained waits of CLASS wakeup (PID's wake-up by
its hrtimer_wakeup timer; TS_NS its switch-in) or timer (the lateness of the hrtimer_wakeup
timer that woke PID; TS_NS its callback's start). Each is matched to ftrace's (the switch-in,
or the callback, nearest to TS_NS within MATCH_NS): the timer PID armed (hrtimer_start: its hard
expiry, in ns), its callback (hrtimer_expire_entry) and PID's switch-in after it. The window
irqlatd's interrupt parts cover is, for a wake-up, from the callback's start to the switch-in
(the timer's lateness before it is a part of its own), for a late timer from its expiry to its
callback's start. Prints a JSON object a line for each wait the trace covers:
  id, expires_ns, cb_ns, end_ns: ftrace's wait (expiry, callback start, switch-in: for a late
    timer, the callback)
  total_ns, window_ns: the wait (end - expiry) and the window
  irq_ns, vector_ns, softirq_ns: the time in hard-IRQ handlers, vector interrupts and softirqs
    in the window, each net of what nested in it, as irqlatd counts (a softirq's time less the
    handlers and vectors that interrupted it)
  irq_by, vector_by, softirq_by: the same by irqlatd's names ("IRQ 36 virtio1-req.0",
    "vector LOC", "softirq NET_RX")
  gap_ns: the longest time between two events of CPU in the wait, from its expiry to its end:
    where the host took the CPU away (no event of any kind meanwhile), or a long run of one
    context without interruption
  irq_top, softirq_top: the name of the class's largest single event, "" when none, by
    irqlatd's rule: for a wake-up the events that ended in the window, whole; for a late timer
    the events' parts in the window
  unmatched waits are printed as {"id": ID, "unmatched": true} (outside the trace, or no such
  wait in it)."""
import bisect
import json
import re
import sys

MATCH_NS = 50000  # irqlatd's and ftrace's switch-in: the same tracepoint, a few us apart at most
VECTORS = {"local_timer": "LOC", "reschedule": "RES", "call_function": "CAL", "call_function_single": "CAL",
           "irq_work": "IWI", "x86_platform_ipi": "PLT", "spurious_apic": "SPU", "error_apic": "ERR",
           "thermal_apic": "TRM", "threshold_apic": "THR", "deferred_error_apic": "DFR"}

trace, cpu, waits_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
head = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (\w+): (.*)")
kv = re.compile(r"(\w+)=(\S+)")

hard = []      # (start, end, class "irq" | "vector", name): do not nest in each other
soft = []      # (start, end, name)
timers = {}    # hrtimer address -> (pid that armed it, hard expiry)
pending = {}   # pid -> (expiry, callback start): its timer fired, not yet switched in
wakes = {}     # pid -> [(end, expiry, callback start)] in time order
fired = {}     # pid -> [(callback start, expiry)] of the timers it armed
open_hard = None
open_soft = None
first = last = None
stamps = []    # every event's time on CPU, in order
with open(trace) as f:
    for line in f:
        m = head.match(line)
        if not m or int(m.group(3)) != cpu:
            continue
        ts = int(m.group(4)) * 1000000000 + int(m.group(5).ljust(9, "0")[:9])
        ev, rest = m.group(6), m.group(7)
        if first is None:
            first = ts
        last = ts
        stamps.append(ts)
        if ev == "irq_handler_entry":
            a = dict(kv.findall(rest))
            open_hard = (ts, "irq", "IRQ %s %s" % (a["irq"], a.get("name", "")))
        elif ev == "irq_handler_exit":
            if open_hard and open_hard[1] == "irq":
                hard.append((open_hard[0], ts, "irq", open_hard[2]))
            open_hard = None
        elif ev.endswith("_entry") and ev[:-6] in VECTORS:
            open_hard = (ts, "vector", "vector " + VECTORS[ev[:-6]])
        elif ev.endswith("_exit") and ev[:-5] in VECTORS:
            if open_hard and open_hard[1] == "vector":
                hard.append((open_hard[0], ts, "vector", open_hard[2]))
            open_hard = None
        elif ev == "softirq_entry":
            open_soft = (ts, "softirq " + rest.split("action=")[-1].rstrip("]"))
        elif ev == "softirq_exit":
            if open_soft:
                soft.append((open_soft[0], ts, open_soft[1]))
            open_soft = None
        elif ev == "hrtimer_start":
            a = dict(kv.findall(rest))
            if a.get("function") == "hrtimer_wakeup":
                timers[a["hrtimer"]] = (int(m.group(2)), int(a["expires"]))
        elif ev == "hrtimer_expire_entry":
            a = dict(kv.findall(rest))
            t = timers.pop(a.get("hrtimer"), None)
            if t and a.get("function") == "hrtimer_wakeup":
                pending[t[0]] = (t[1], ts)
                fired.setdefault(t[0], []).append((ts, t[1]))
        elif ev == "sched_switch":
            a = dict(kv.findall(rest.split("==>")[1]))
            p = int(a["next_pid"])
            if p in pending:
                x, cb = pending.pop(p)
                wakes.setdefault(p, []).append((ts, x, cb))
if first is None:
    sys.exit("no event of CPU %d in %s" % (cpu, trace))
hard.sort()
soft.sort()
hard_ends = [h[1] for h in hard]
soft_ends = [s[1] for s in soft]
# an interval that began before the trace's first event has no entry: a window must start
# well after it
covered_from = first + 10000000


def overlap(s, e, a, b):
    return max(0, min(e, b) - max(a, s))


def hard_in(a, b):
    """the hard contexts that overlap [a, b]"""
    i = bisect.bisect_right(hard_ends, a)
    while i < len(hard) and hard[i][0] < b:
        yield hard[i]
        i += 1


def gap(a, b):
    """the longest time without an event in [a, b]"""
    i = bisect.bisect_left(stamps, a)
    prev, most = a, 0
    while i < len(stamps) and stamps[i] <= b:
        most = max(most, stamps[i] - prev)
        prev = stamps[i]
        i += 1
    return max(most, b - prev)


def window(a, b, clipped):
    """the interrupts of [a, b]; clipped: the top by the events' parts in the window (a late
    timer's), else by the events that ended in it, whole (a wake-up's)"""
    by = {"irq": {}, "vector": {}, "softirq": {}}
    most = {"irq": (0, ""), "softirq": (0, "")}
    for s, e, cls, name in hard_in(a, b):
        d = overlap(s, e, a, b)
        by[cls][name] = by[cls].get(name, 0) + d
        size = d if clipped else (e - s if a < e <= b else 0)
        if cls == "irq" and size > most["irq"][0]:
            most["irq"] = (size, name)
    i = bisect.bisect_right(soft_ends, a)
    while i < len(soft) and soft[i][0] < b:
        s, e, name = soft[i]
        lo, hi = max(a, s), min(b, e)
        nested = sum(overlap(hs, he, lo, hi) for hs, he, _, _ in hard_in(lo, hi))
        whole = e - s - sum(overlap(hs, he, s, e) for hs, he, _, _ in hard_in(s, e))
        part = max(0, hi - lo - nested)
        by["softirq"][name] = by["softirq"].get(name, 0) + part
        size = part if clipped else (whole if a < e <= b else 0)
        if size > most["softirq"][0]:
            most["softirq"] = (size, name)
        i += 1
    return by, most


with open(waits_file) as f:
    for line in f:
        wid, pid, ts, cls = line.split()
        pid, ts = int(pid), int(ts)
        if cls == "timer":
            found = [(cb, x, cb) for cb, x in fired.get(pid, [])]
        else:
            found = wakes.get(pid, [])
        best = None
        for end, x, cb in found:
            if abs(end - ts) <= MATCH_NS and (best is None or abs(end - ts) < abs(best[0] - ts)):
                best = (end, x, cb)
        if not best or best[1] < covered_from or best[0] > last:
            print(json.dumps({"id": wid, "unmatched": True}))
            continue
        end, x, cb = best
        a, b = (x, cb) if cls == "timer" else (cb, end)
        by, most = window(a, b, cls == "timer")
        print(json.dumps({"id": wid, "expires_ns": x, "cb_ns": cb, "end_ns": end, "total_ns": end - x, "window_ns": b - a,
                          "irq_ns": sum(by["irq"].values()), "vector_ns": sum(by["vector"].values()),
                          "softirq_ns": sum(by["softirq"].values()),
                          "irq_by": by["irq"], "vector_by": by["vector"], "softirq_by": by["softirq"],
                          "irq_top": most["irq"][1], "softirq_top": most["softirq"][1], "gap_ns": gap(x, end)}))
