#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What Prometheus made of irqlatd's native histogram over a window, against irqlatd's own
buckets and the kernel's count at the very ticks Prometheus scraped (tests/host/63-native-histograms.t).

  native_window.py record SOCKET IRQ SECONDS
      irqlatd's cumulative histogram of IRQ (window total: its buckets [lower_ns, upper_ns,
      count]) as of each of its ticks for SECONDS, each between the last reading of
      /proc/interrupts that ended before the tick's read began and the first that started
      after it ended (as bracket.py ticks): one JSON object per tick and line, written as soon
      as that second reading is made,
      {"count": D, "lo": P1, "hi": P2, "buckets": [[lower_ns, upper_ns, n], ...]}.

  native_window.py compare TICKS SAMPLES QUANTILE
      SAMPLES is Prometheus' answer to irqlat_handler_duration_seconds{irq=...}[30s] (its raw
      native samples over the window), QUANTILE its answer to histogram_quantile(0.99,
      rate(...[30s])) at the same time. Each of the window's first and last sample is matched,
      by its count, to the tick whose totals it holds; then, on one line:
        prom_p99=.. irqlat_p99=.. prom_bucket=J irqlat_bucket=J ratio=..
        count0=D0 lo0=.. hi0=.. count1=D1 lo1=.. hi1=..
      where irqlat_p99 is the 0.99 quantile of irqlatd's own bucket deltas between those two
      ticks (its bucket J by the rank Prometheus uses, rank = 0.99 x count, the value as
      irqlat interpolates it), and prom_bucket the schema-3 bucket Prometheus' value lies in.
      Exits 1 with a reason when a sample matches no tick.
"""
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bracket import Daemon, irq_counts, proc_stamped  # noqa: E402


def cmd_record(path, irq, secs):
    d = Daemon(path)
    samples, pending, seen = [], [], set()
    t0 = time.monotonic()
    samples.append(proc_stamped(irq))
    while time.monotonic() - t0 < float(secs):
        a = d.ask({"cmd": "hist", "window": "total", "irq": int(irq)})
        key = (a["snapshot_begin_ns"], a["snapshot_end_ns"])
        if key not in seen:
            seen.add(key)
            buckets = {}
            for h in a["irqs"]:
                if h["irq"] != int(irq):
                    continue
                for lo, hi, n in h["buckets"]:
                    buckets[(lo, hi)] = buckets.get((lo, hi), 0) + n
            pending.append((key, irq_counts(a, irq)[0], sorted([lo, hi, n] for (lo, hi), n in buckets.items())))
        samples.append(proc_stamped(irq))
        # each tick as soon as a reading has started after it: the caller can wait for the first
        for (begin, end), count, buckets in pending:
            lo = [n for s0, s1, n in samples if s1 <= begin]
            if lo:  # a tick from before the first reading has no bracket
                hi = next(n for s0, s1, n in samples if s0 >= end)
                print(json.dumps({"count": count, "lo": lo[-1], "hi": hi, "buckets": buckets}), flush=True)
        pending = []
        time.sleep(0.01)


def schema3_index(lower_ns):
    """the schema-3 bucket i, (2^((i-1)/8) s, 2^(i/8) s], of irqlatd's bucket whose smallest
    whole ns is lower_ns (0: the zero bucket, None)"""
    if lower_ns == 0:
        return None
    return math.ceil(8 * math.log2(lower_ns / 1e9) - 1e-9)


def quantile(delta, q):
    """irqlatd's bucket of the q quantile (the first whose cumulative count reaches q x total,
    as Prometheus ranks) and the value inside it as irqlat interpolates (hist.c)"""
    total = sum(n for _, _, n in delta)
    rank = q * total
    seen = 0
    for lo, hi, n in delta:
        if n and seen + n >= rank:
            frac = max(0.0, (max(rank, 1) - seen - 0.5) / n)
            top = hi if hi else lo + 1
            return lo, lo + frac * (top - lo)
        seen += n
    raise SystemExit("no bucket reaches the rank")


def cmd_compare(ticks_file, samples_file, quantile_file):
    ticks = [json.loads(line) for line in open(ticks_file)]
    res = json.load(open(samples_file))["data"]["result"]
    per_ts = {}
    for series in res:
        if "histograms" not in series:
            raise SystemExit("Prometheus holds no native histogram for the IRQ: %s" % list(series))
        for ts, h in series["histograms"]:
            per_ts[ts] = per_ts.get(ts, 0) + int(float(h["count"]))
    if len(per_ts) < 20:
        raise SystemExit("only %d samples in the window" % len(per_ts))
    first, last = min(per_ts), max(per_ts)
    matched = []
    for ts in (first, last):
        m = [t for t in ticks if t["count"] == per_ts[ts]]
        if not m:
            raise SystemExit("sample count %d at %s is no total the daemon had at a tick" % (per_ts[ts], ts))
        matched.append(m[0])
    t0, t1 = matched
    before = {(lo, hi): n for lo, hi, n in t0["buckets"]}
    delta = sorted([lo, hi, n - before.get((lo, hi), 0)] for lo, hi, n in t1["buckets"])
    if any(n < 0 for _, _, n in delta):
        raise SystemExit("a bucket went down between the two ticks")
    lower, p99 = quantile(delta, 0.99)
    qres = json.load(open(quantile_file))["data"]["result"]
    if len(qres) != 1:
        raise SystemExit("histogram_quantile gave %d series" % len(qres))
    prom = float(qres[0]["value"][1])
    print("prom_p99=%.9g irqlat_p99=%.9g prom_bucket=%s irqlat_bucket=%s ratio=%.5f "
          "count0=%d lo0=%d hi0=%d count1=%d lo1=%d hi1=%d" %
          (prom, p99 / 1e9, math.ceil(8 * math.log2(prom) - 1e-9) if prom > 0 else None,
           schema3_index(lower), prom / (p99 / 1e9),
           t0["count"], t0["lo"], t0["hi"], t1["count"], t1["lo"], t1["hi"]))


def main():
    cmds = {"record": cmd_record, "compare": cmd_compare}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])


if __name__ == "__main__":
    main()
