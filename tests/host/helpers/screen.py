#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""irqlat --top's screen as the host tests read it (tests/host/5*-top-*.t), from the text of a
tmux capture-pane, independently of irqlat's code.

The table: the header gives the columns (the sort column carries an arrow); every column but
NAME is one word and FLAGS (last, left-aligned, maybe empty) starts where its header does, so
a row is IRQ, then NAME, then the other cells from the right. Values in units (2.5us, 129.0k)
become numbers; "-" (no run in the window) becomes None, and a '*' (a percentile of too few
runs) is kept apart in "few".

  screen.py json FILE
      the table as JSON: {"cols", "sort": [COLUMN, "up"|"down"], "rows": [{"IRQ", "NAME",
      a number (or None) per column, "few": [columns with '*'], "raw": {column: text},
      "FLAGS"}], "cpus": {row index: [CPUs of its per-CPU lines]}, "scope": the line over
      the header}
  screen.py sorted FILE COLUMN DIRECTION
      exit 0 when the arrow is on COLUMN pointing DIRECTION (up, down) and the rows, two at
      least, follow it; prints the column's cells as a "#" line either way
  screen.py scope FILE
      exit 0 when the line over the header puts COUNT under "since start" (or "from start")
      and RATE/s, P99 and %TIME under "last 10s"; prints both lines as a "#" line
  screen.py hist FILE
      exit 0 when the histogram view has bars over three buckets at least, their lower
      bounds increasing, and markers for p50, p99 and p99.9
"""
import re
import sys
import json

MARKS = {"v": "down", "^": "up", "\u25bc": "down", "\u25b2": "up"}
KNOWN = {"IRQ", "NAME", "CPUS", "COUNT", "RATE/s", "AVG", "P50", "P90", "P99", "P99.9", "MAX", "%TIME", "SPURIOUS", "FLAGS"}
TIME = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
SCALE = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}


def number(col, s):
    if col in ("NAME", "CPUS", "FLAGS"):
        return s
    if col == "IRQ":
        return int(s)
    if s == "-":
        return None
    if col == "%TIME" and s == "<.001":
        return 0.0005
    m = re.fullmatch(r"([0-9.]+)(ns|us|ms|s)\*?", s)
    if m:
        return float(m.group(1)) * TIME[m.group(2)]
    m = re.fullmatch(r"([0-9.]+)([kMG]?)", s)
    if m:
        return float(m.group(1)) * SCALE[m.group(2)]
    raise ValueError("cannot read %r in column %s" % (s, col))


def parse(text):
    lines = text.split("\n")
    for i, l in enumerate(lines):
        toks = l.split()
        if len(toks) >= 3 and toks[0].lstrip("v^\u25bc\u25b2") == "IRQ" and "NAME" in "".join(toks[1:2]):
            break
    else:
        return None
    cols, sort = [], None
    for t in lines[i].split():
        if t[:1] in MARKS and t[1:] in KNOWN:
            sort = (t[1:], MARKS[t[:1]])
            t = t[1:]
        cols.append(t)
    flags_at = lines[i].find("FLAGS") if "FLAGS" in cols else -1
    after = [c for c in cols[cols.index("NAME") + 1:] if c != "FLAGS"]
    rows, cpu_lines = [], {}
    for l in lines[i + 1:]:
        flags = l[flags_at:].strip() if flags_at >= 0 else None
        body = l[:flags_at] if flags_at >= 0 else l
        toks = body.split()
        if len(toks) >= len(after) + 2 and re.fullmatch(r"\d+", toks[0]):
            r = {"IRQ": int(toks[0]), "NAME": " ".join(toks[1:len(toks) - len(after)]), "few": [], "raw": {}}
            for c, v in zip(after, toks[len(toks) - len(after):]):
                r[c] = number(c, v)
                r["raw"][c] = v
                if v.endswith("*"):
                    r["few"].append(c)
            if flags is not None:
                r["FLAGS"] = flags
            rows.append(r)
        elif re.match(r"^ {6}(affinity|cpu) ", l) and rows:
            cpu_lines[len(rows) - 1] = [int(x) for x in re.findall(r"cpu (\d+)", l)]
    return {"cols": cols, "sort": sort, "rows": rows, "cpus": cpu_lines, "scope": lines[i - 1] if i else ""}


def order_key(r, col):
    # P99's order: real p99s, then those of too few runs, then idle rows, each by value
    v = r[col]
    if col == "P99":
        return (0 if v is None else 1 if "P99" in r["few"] else 2, v or 0)
    return v if v is not None else 0


def sorted_as(path, col, direction):
    s = parse(open(path, encoding="utf-8", errors="replace").read())
    if not s or s["sort"] != (col, direction):
        print("# sort marker: %s" % (s and s["sort"],))
        return False
    rows = s["rows"]
    print("# %s %s: %s" % (col, direction, [r["raw"].get(col, r[col]) for r in rows]))
    # rows idle in the window ("-") come last in an order of the window's values, reversed or
    # not (src/client/table.c); COUNT, IRQ and NAME are not the window's
    if col not in ("COUNT", "IRQ", "NAME"):
        idle = [r[col] is None for r in rows]
        if idle != sorted(idle):
            return False
        n = len(rows)
        rows = [r for r in rows if r[col] is not None]
        if len(rows) < 2:
            return n >= 2 and len(rows) >= 1
    keys = [order_key(r, col) for r in rows]
    want = sorted(keys, reverse=(direction == "down"))
    return len(keys) >= 2 and keys == want


def scope_line(path):
    # the line over the header: COUNT under "since start", P99 and %TIME under "last 10s"
    lines = open(path, encoding="utf-8").read().split("\n")
    i = next(i for i, l in enumerate(lines) if re.match(r"^ +\S*IRQ +NAME", l))
    scope, head = lines[i - 1], lines[i]
    spans = {m.group(1): (m.start(), m.end()) for m in re.finditer(r"-* ?(since start|from start|last 10s) ?-*", scope)}
    end = lambda h: head.index(h) + len(h)
    start, win = spans.get("since start") or spans.get("from start"), spans.get("last 10s")
    ok = start and win and start[0] <= end("COUNT") <= start[1] and all(win[0] <= end(h) <= win[1] for h in ("RATE/s", "P99", "%TIME"))
    print("# %r / %r" % (scope, head))
    return ok


def hist_bars(path):
    lines = [l for l in open(path) if re.match(r"^ *[0-9.]+(ns|us|ms|s) - ", l)]
    lows = [float(m.group(1)) * TIME[m.group(2)] for m in (re.match(r"^ *([0-9.]+)(ns|us|ms|s)", l) for l in lines)]
    text = "".join(lines)
    return len(lines) >= 3 and lows == sorted(lows) and all("|#" in l for l in lines) and \
        all(re.search(r"<- .*" + re.escape(q) + r"\b", text) for q in ("p50", "p99", "p99.9"))


cmd, path = sys.argv[1], sys.argv[2]
if cmd == "json":
    print(json.dumps(parse(open(path, encoding="utf-8", errors="replace").read())))
elif cmd == "sorted":
    sys.exit(0 if sorted_as(path, sys.argv[3], sys.argv[4]) else 1)
elif cmd == "scope":
    sys.exit(0 if scope_line(path) else 1)
elif cmd == "hist":
    sys.exit(0 if hist_bars(path) else 1)
else:
    sys.exit("screen.py: unknown command %r (json, sorted, scope, hist)" % cmd)
