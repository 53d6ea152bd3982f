#!/usr/bin/env python3
"""irqlatd's timelines of one CPU's waits against ftrace's own events of that CPU (a private
tracefs instance, trace_clock mono: CLOCK_MONOTONIC, as the timeline's ts_ns):
irq_handler_entry/exit, softirq_entry/exit, irq_vectors' *_entry/*_exit, sched_switch and
hrtimer_expire_entry.

usage: ftrace_timeline.py TRACE CPU WAITS [TRACE_AFTER]
WAITS: irqlatd's explained waits (`irqlat events -J`'s "why" objects, one a line) with a
"timeline". Within each wait's window (the timeline's start_ns to the wait's ts_ns, the
switch-in), both ways:
  - each of irqlatd's interference events (irq, vector, softirq: their end), switches and
    timer starts is one of ftrace's of the same name (IRQ number and name, vector label,
    softirq; both pids; a timer's callback), whose time is within TOL_NS of irqlatd's, or
    brackets irqlatd's with TRACE_AFTER's twin of it (below);
  - each of ftrace's (an exit, a switch, a callback's start) at least TOL_NS inside the window
    is one of irqlatd's, unless the timeline says it is partial (the recorder's copy did not
    reach back to the start, or the window held more than it keeps).
TOL_NS is the issue's 1 us, and ftrace's resolution on top (it prints microseconds: its time
is the true one rounded down by up to 1 us).
TRACE has the probes registered before irqlatd's programs, so its stamp of an event precedes
irqlatd's by what ftrace's probe takes after its stamp: a few hundred ns, but 1 to 2.4 us at
the switch that ends a SCHED_FIFO task's 2 ms burst (its caches cold after the burst; 21 of
753 switches in one run). TRACE_AFTER, an instance made after irqlatd's programs attached,
stamps the same tracepoint calls after irqlatd's program ran: irqlatd's stamp, the first thing
its program does, lies between the two, which is the bracket taken when TOL_NS is not met.
Prints a JSON object a wait: id, compared (irqlatd's events in the window), ftrace (ftrace's
inside it), partial, bracketed (for each of irqlatd's events met by the bracket only, its time
past TRACE's), and the misses: ours (irqlatd's with no ftrace event) and theirs (ftrace's
that irqlatd's timeline lacks), each "what name ts_ns" with the nearest of the other side's
distance."""
import bisect
import json
import re
import sys

VECTORS = {"local_timer": "LOC", "reschedule": "RES", "call_function": "CAL", "call_function_single": "CAL",
           "irq_work": "IWI", "x86_platform_ipi": "PLT", "spurious_apic": "SPU", "error_apic": "ERR",
           "thermal_apic": "TRM", "threshold_apic": "THR", "deferred_error_apic": "DFR"}
TOL = 1000
BRACKET = 50000  # the widest bracket looked for, ns: irqlatd's slowest path, with room

trace, cpu, waits_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
head = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (\w+): (.*)")
kv = re.compile(r"(\w+)=(\S+)")

def parse(trace):
    """TRACE's events of the CPU in time order, and its resolution in ns"""
    events = []    # (ts, key): key "irq IRQ 36 name", "vector vector LOC", "softirq softirq NET_RX",
                   # "switch PREV NEXT", "timer"
    res = 0
    irq_name = {}  # the handler running: its name from the entry
    with open(trace) as f:
        for line in f:
            m = head.match(line)
            if not m or int(m.group(3)) != cpu:
                continue
            frac = m.group(5)
            res = max(res, 10 ** (9 - len(frac)) if len(frac) < 9 else 0)
            ts = int(m.group(4)) * 1000000000 + int(frac.ljust(9, "0")[:9])
            ev, rest = m.group(6), m.group(7)
            a = dict(kv.findall(rest.split("==>")[0]))
            if ev == "irq_handler_entry":
                irq_name[a["irq"]] = "IRQ %s %s" % (a["irq"], a.get("name", ""))
            elif ev == "irq_handler_exit":
                events.append((ts, "irq " + irq_name.get(a["irq"], "IRQ %s" % a["irq"])))
            elif ev.endswith("_exit") and ev[:-5] in VECTORS:
                events.append((ts, "vector vector " + VECTORS[ev[:-5]]))
            elif ev == "softirq_exit":
                events.append((ts, "softirq softirq " + rest.split("action=")[-1].rstrip("]")))
            elif ev == "sched_switch":
                b = dict(kv.findall(rest.split("==>")[1]))
                events.append((ts, "switch %s %s" % (a["prev_pid"], b["next_pid"])))
            elif ev == "hrtimer_expire_entry":
                events.append((ts, "timer"))
    events.sort()
    return events, res


def twins(events, after):
    """for each of events (TRACE's), the time of the same tracepoint call in after (TRACE_AFTER's),
    or None: per key, each event's twin is the first of after's at or past it and before the
    key's next event (both instances see the same calls in the same order)"""
    by_key = {}
    for i, (ts, k) in enumerate(events):
        by_key.setdefault(k, []).append(i)
    theirs = {}
    for ts, k in after:
        theirs.setdefault(k, []).append(ts)
    out = [None] * len(events)
    for k, idx in by_key.items():
        b, j = theirs.get(k, []), 0
        for n, i in enumerate(idx):
            while j < len(b) and b[j] < events[i][0]:
                j += 1
            nxt = events[idx[n + 1]][0] if n + 1 < len(idx) else None
            if j < len(b) and (nxt is None or b[j] < nxt + res):
                out[i] = b[j]
                j += 1
    return out


events, res = parse(trace)
stamps = [e[0] for e in events]
tol = TOL + res
after = twins(events, parse(sys.argv[4])[0]) if len(sys.argv) > 4 else [None] * len(events)


def matches(i, ts):
    """irqlatd's time ts is that of TRACE's event i: within tol of it, or between its stamp and its
    twin's (both printed rounded down by up to res)"""
    d = ts - events[i][0]
    return abs(d) <= tol or (d >= 0 and after[i] is not None and ts <= after[i] + res)


def key_of(e):
    """irqlatd's timeline event as ftrace's key; None: nothing ftrace has (a wake-up stamp, an
    NMI: no tracepoint of ftrace's here)"""
    w = e["what"]
    if w in ("irq", "vector", "softirq"):
        return w + " " + e.get("name", "")
    if w == "switch":
        return "switch %d %d" % (e["prev_pid"], e["next_pid"])
    if w == "timer":
        return "timer"
    return None


def same(ours, theirs):
    # irqlatd names an IRQ by its handler's name, ftrace's entry by the irqaction's: both;
    # an event whose cell irqlatd could not name is of its class
    if ours == theirs:
        return True
    cls = ours.split(" ")[0]
    return ours == cls + " " and theirs.startswith(cls + " ")


def nearest(ts, pred):
    i = bisect.bisect_left(stamps, ts)
    best = None
    for j in range(max(0, i - 50), min(len(events), i + 50)):
        if pred(events[j][1]):
            d = events[j][0] - ts
            if best is None or abs(d) < abs(best):
                best = d
    return best


with open(waits_file) as f:
    for line in f:
        w = json.loads(line)
        tl = w["timeline"]
        start, end = tl["start_ns"], w["ts_ns"]
        out = {"id": "%s-%d" % (w["class"], end), "compared": 0, "ftrace": 0, "partial": tl["partial"],
               "ours": [], "theirs": [], "bracketed": []}
        if not events or start < events[0][0] + 10000000 or end > events[-1][0]:
            out["outside"] = True  # the trace does not cover it
            print(json.dumps(out))
            continue
        used = set()
        mine = []
        for e in tl["events"]:
            k = key_of(e)
            if k is None or e["ts_ns"] < start or e["ts_ns"] > end:
                continue
            mine.append((e["ts_ns"], k))
            out["compared"] += 1
            hit = None
            for lo, brk in ((e["ts_ns"] - tol, False), (e["ts_ns"] - BRACKET, True)):
                i = bisect.bisect_left(stamps, lo)
                while hit is None and i < len(events) and events[i][0] <= e["ts_ns"] + tol:
                    if i not in used and same(k, events[i][1]) and \
                            (matches(i, e["ts_ns"]) if brk else abs(e["ts_ns"] - events[i][0]) <= tol):
                        hit = i
                    i += 1
                if hit is not None:
                    if brk:
                        out["bracketed"].append(e["ts_ns"] - events[hit][0])
                    break
            if hit is None:
                d = nearest(e["ts_ns"], lambda x, k=k: same(k, x))
                out["ours"].append("%s %d (ftrace's nearest %s ns away)" % (k, e["ts_ns"], d))
            else:
                used.add(hit)
        mine.sort()  # bisected below: in time order, whatever order the timeline has
        mine_ts = [m[0] for m in mine]
        i = bisect.bisect_left(stamps, start + tol)
        while i < len(events) and events[i][0] <= end - tol:
            ts, k = events[i]
            i += 1
            out["ftrace"] += 1
            j = bisect.bisect_left(mine_ts, ts - tol)
            found = False
            while j < len(mine) and mine[j][0] <= ts + max(tol, BRACKET):
                if same(mine[j][1], k) and matches(i - 1, mine[j][0]):
                    found = True
                    break
                j += 1
            if not found and not tl["partial"]:
                out["theirs"].append("%s %d" % (k, ts))
        print(json.dumps(out))
