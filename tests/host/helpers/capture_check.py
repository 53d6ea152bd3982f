#!/usr/bin/env python3
"""capture_check.py ENVFILE: what a shell action was given (IRQLAT_* of its environment)
against the capture the trace action saved of the same outlier, read as ftrace wrote it:
every event line is of the outlier's CPU, the lines' times bracket the outlier's, and an
irq_handler_exit of its IRQ lies within 100 us of it. One line saying what was compared;
exit 1 when something disagrees."""
import re, sys

env = dict(l.rstrip("\n").split("=", 1) for l in open(sys.argv[1]) if "=" in l)
ts, cpu, irq = int(env["IRQLAT_TS_NS"]), int(env["IRQLAT_CPU"]), int(env["IRQLAT_SUB"])
path = env.get("IRQLAT_CAPTURE_FILE")
if env.get("IRQLAT_KIND") != "hardirq" or int(env["IRQLAT_LATENCY_NS"]) < int(env["IRQLAT_THRESHOLD_NS"]) or not path:
    sys.exit(print("bad env: %s" % env) or 1)
line_re = re.compile(r"\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (\w+): (.*)")
times, cpus, exits = [], set(), []
for l in open(path):
    if l.startswith("#"):
        continue
    m = line_re.search(l)
    if not m:
        continue
    t = int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, "0"))
    times.append(t)
    cpus.add(int(m.group(1)))
    if m.group(4) == "irq_handler_exit" and re.search(r"\birq=%d\b" % irq, m.group(5)):
        exits.append(t)
near = min((abs(t - ts) for t in exits), default=None)
print("%s: %d lines on CPUs %s, %s..%s around %d, nearest exit of IRQ %d %s ns away" %
      (path, len(times), sorted(cpus), times[0] if times else "-", times[-1] if times else "-", ts, irq, near))
ok = times and cpus == {cpu} and times[0] <= ts <= times[-1] and near is not None and near <= 100000
sys.exit(0 if ok else 1)
