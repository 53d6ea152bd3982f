#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The late waits' counts irqlatd shows (status' "why", /metrics' irqlat_late_wait_seconds_total)
against the kernel's own why_counts map, read with bpftool before and after them: each figure
irqlatd shows of a CPU and class of wait (waits, total, each part) must lie between the two
readings of the same element. Each field only grows and the kernel copies an 8-byte field
whole, so the check needs no whole reading of an element (its seq): a field read before the
daemon's reading cannot be above it, one read after cannot be below it, whatever the program
was adding meanwhile. And status' figures of one element, read whole by the daemon (a
seqcount), have parts that add up to their total exactly.

  why_bracket.py BEFORE AFTER STATUS_JSON METRICS

BEFORE, AFTER: "cpu class waits total part0 ... part10 [seq]" a line per element (18-why.t's
dump). Prints one line per element that had a late wait ("cpu 1 wakeup waits 10 <= 12 <= 13
...") and one line per figure out of its bracket ("OUT ..."); exits 1 when there is any, or
when no element had a late wait.
"""
import json
import re
import sys
from decimal import Decimal

CLASSES = ["wakeup", "threaded", "timer"]
PARTS = ["late_idle", "late_busy", "irq", "vector", "softirq", "nmi", "idle", "blocking", "others", "remainder",
         "unsplit"]
FIELDS = ["waits", "total_ns"] + [p + "_ns" for p in PARTS]


def dump(path):
    out = {}
    with open(path) as f:
        for line in f:
            v = [int(x) for x in line.split()]
            if len(v) >= 15:
                out[(v[0], CLASSES[v[1]])] = v[2:15]
    return out


def status(path):
    with open(path) as f:
        why = json.load(f)["why"]
    out = {}
    for c in why["cpus"]:
        for cls in CLASSES:
            e = c.get(cls)
            if e:
                out[(c["cpu"], cls)] = [e["waits"], e["total_ns"]] + [e["parts"][p + "_ns"] for p in PARTS]
    return out


def metrics(path):
    """(cpu, class) -> {part_ns: value}: the page's seconds have 9 decimals, read exactly"""
    out = {}
    line_re = re.compile(r'^(irqlat_late_wait_seconds_total)\{([^}]*)\} (\S+)$')
    with open(path) as f:
        for line in f:
            m = line_re.match(line.strip())
            if not m:
                continue
            labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
            key = (int(labels["cpu"]), labels["wait"])
            out.setdefault(key, {})[labels["cause"] + "_ns"] = int(Decimal(m.group(3)) * 1000000000)
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    before, after = dump(sys.argv[1]), dump(sys.argv[2])
    st, mt = status(sys.argv[3]), metrics(sys.argv[4])
    bad = moved = shown = 0
    for key in sorted(set(before) | set(after) | set(st) | set(mt)):
        lo = before.get(key, [0] * len(FIELDS))
        hi = after.get(key, [0] * len(FIELDS))
        s = st.get(key, [0] * len(FIELDS))
        m = mt.get(key, {})
        if not hi[0] and not s[0] and not m:
            continue
        shown += 1
        moved += lo != hi
        print(f"cpu {key[0]} {key[1]}: waits {lo[0]} <= {s[0]} <= {hi[0]}, total {lo[1]} <= {s[1]} <= {hi[1]} (status), "
              f"parts' sum {sum(lo[2:])} <= {sum(m.values())} <= {sum(hi[2:])} (/metrics)")
        for i, name in enumerate(FIELDS):
            for src, v in (("status", s[i]), ("/metrics", m.get(name, 0) if i >= 2 else None)):
                if v is None:
                    continue
                if not lo[i] <= v <= hi[i]:
                    bad += 1
                    print(f"OUT cpu {key[0]} {key[1]} {name}: {src} {v} not in [{lo[i]}, {hi[i]}]")
        if sum(s[2:]) != s[1]:
            bad += 1
            print(f"OUT cpu {key[0]} {key[1]}: status' parts add up to {sum(s[2:])}, its total is {s[1]}")
    print(f"{shown} elements with late waits, {moved} of them counted more between the two readings, "
          f"{bad} figures out")
    sys.exit(1 if bad or not shown else 0)


main()
