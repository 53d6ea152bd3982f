#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""irqlat's text and JSON outputs of the same counts against each other (58-top-batch.t).

  batch_json.py BATCH JSON1 JSON2

BATCH is `irqlat --top -b -n 1 -w total -o irq,count,name`, taken between JSON1 and JSON2,
each `[[irq, name, count], ...]` sorted from `irqlat --top -b -n 1 -J -w total`. Exit 0 when
the batch lists the handlers of JSON1, and those of JSON2 but ones that first ran meanwhile,
each with a count between its two JSON counts (the batch's rounded to 0.1k); the three are
printed as "#" lines otherwise.
"""
import json
import re
import sys

S = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}
rows = []
for l in open(sys.argv[1]).read().split("\n")[2:]:
    m = re.match(r"^ *(\d+) +([0-9.]+)([kMG]?) (.*?) *$", l)
    if m:
        rows.append([int(m.group(1)), m.group(4), float(m.group(2)) * S[m.group(3)], S[m.group(3)]])
rows.sort(key=lambda r: (r[0], r[1]))
j1, j2 = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
c1, c2 = {(j[0], j[1]): j[2] for j in j1}, {(j[0], j[1]): j[2] for j in j2}
names = {(r[0], r[1]) for r in rows}
# a handler that first ran meanwhile (a series with its first cell) may be in the later
# answers only: the handlers only grow, from the first JSON to the batch to the second
same = rows and set(c1) <= names <= set(c2)
# a rounded value v with unit u stands for [v - u/20, v + u/20)
close = same and all(c1.get((r[0], r[1]), 0) - r[3] * 0.05 <= r[2] <= c2[(r[0], r[1])] + r[3] * 0.05 for r in rows)
if not close:
    print("# batch %s\n# json %s\n# json %s" % (rows, j1, j2))
sys.exit(0 if close else 1)
