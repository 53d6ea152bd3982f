#!/usr/bin/env python3
# metrics-consistent.py PAGE: whether a /metrics text page is one tick's: each histogram's
# _count equal to its series' runs_total (of the kind whose prefix the histogram's name is
# followed by one word and _seconds: irqlat_handler_duration_seconds, irqlat_handler_runs_total;
# the same labels), as metrics.c writes both from one snapshot. Prints "pairs N" (how many it compared) and each pair that differs; exit 1 when
# one does or none was compared. 69-metrics-slow-reader.t reads a page slowly through it.
import sys

runs, counts = {}, {}
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    series, value = line.rstrip("\n").rsplit(" ", 1)
    name, _, labels = series.partition("{")
    if name.endswith("_runs_total"):
        runs[(name[: -len("_runs_total")], labels)] = value
    elif name.endswith("_count"):
        counts[(name, labels)] = value
pairs = bad = 0
for (name, labels), value in counts.items():
    prefixes = [p for (p, l) in runs if l == labels and name.startswith(p + "_") and
                "_" not in name[len(p) + 1 : -len("_seconds_count")] and name.endswith("_seconds_count")]
    if not prefixes:
        continue
    p = prefixes[0]
    pairs += 1
    if runs[(p, labels)] != value:
        bad += 1
        print("differ: %s_runs_total{%s %s, %s{%s %s" % (p, labels, runs[(p, labels)], name, labels, value))
print("pairs %d" % pairs)
sys.exit(1 if bad or not pairs else 0)
