#!/usr/bin/env python3
"""Writes a make bench run's figures (build/bench/summary.tsv, from bench/run.sh, bench/kinds.sh
and bench/workload.sh) into docs/bench.md, between its two markers, replacing what the last
run left there. Usage: bench/docs.py SUMMARY.tsv docs/bench.md"""
import sys

BEGIN = "<!-- make bench writes from here to the end marker (bench/docs.py): edits here are lost -->"
END = "<!-- make bench's section ends -->"


def kind_table(out, kinds):
    """bench/kinds.sh's rows (kind or kind_quiet lines): each program against its twin"""
    out.append("| program | irqlatd ns/event | twin ns/event | ratio min | ratio median | ratio max | budget | verdict | events/s |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for k in kinds:
        name, ins, tns, lo, md, hi, budget, verdict, ev = (k + [""] * 9)[:9]
        out.append("| %s | %s | %s | %s | %s | %s | <= %s | %s | %s |" % (name, ins, tns, lo, md, hi, budget, verdict, ev))


def section(lines):
    rows = [l.rstrip("\n").split("\t") for l in lines if l.strip()]
    by = {}
    for r in rows:
        by.setdefault(r[0], []).append(r[1:])
    out = []
    run = by.get("run", [["?"] * 7])[0] + [""] * 7
    date, kernel, cpus, model, rounds, tree, args = run[:7]
    out.append("`sudo make bench%s` on %s, tree %s: Linux %s, %s CPUs (%s), %s round(s). Load average "
               "(1, 5, 15 min) %s before the run and %s after it (hackbench itself loads the machine);"
               % (' BENCH_ARGS="%s"' % args if args else "", date, tree, kernel, cpus, model, rounds,
                  by.get("load_before", [["?"]])[0][0], by.get("load_after", [["?"]])[0][0]))
    others = by.get("others")
    out.append("other BPF programs on the IRQ tracepoints during the hard-IRQ rounds: %s." %
               (others[0][0] if others and others[0] and others[0][0] else "none"))
    out.append("")
    out.append("Every program's cost per event against its clock-only twin on the same tracepoints "
               "(`bench/kinds.sh`, rows from `bench/kinds.list`; statistics on, fio + IPI + cyclictest load):")
    out.append("")
    kind_table(out, by.get("kind", []))
    if by.get("kind_quiet"):
        out.append("")
        out.append("The same with every kind's outliers off (every threshold 0, one measurement a round): the hot "
                   "paths without the outliers' explanations and records. The defaults' table above is the budgets' verdict:")
        out.append("")
        kind_table(out, by["kind_quiet"])
    for part, what, opt in (("clocks", "keeping the CPU's clocks", ""), ("flight", "the flight recorder", " --without flight")):
        if not by.get(part):
            continue
        out.append("")
        out.append("What %s adds to each kind's programs (`bench/clocks.sh%s`: the shipped "
                   "object less the same one built without it, in the same measurement; same load):" % (what, opt))
        out.append("")
        out.append("| program | shipped ns/event | without %s | %s ns min | median | max | budget | verdict | events/s |" % (part, part))
        out.append("|---|---|---|---|---|---|---|---|---|")
        for k in by[part]:
            name, sh, nc, lo, md, hi, budget, verdict, ev = (k + [""] * 9)[:9]
            out.append("| %s | %s | %s | %s | %s | %s | <= %s | %s | %s |" % (name, sh, nc, lo, md, hi, budget, verdict, ev))
    if by.get("hardirq"):
        out.append("")
        out.append("The hard-IRQ pair beside its peers (`bench/run.sh`: fio load, ratios to the clock-only pair):")
        out.append("")
        out.append("| contender | ns per IRQ (median) | ratio min | ratio median | ratio max |")
        out.append("|---|---|---|---|---|")
        for n, ns, lo, md, hi in by["hardirq"]:
            out.append("| %s | %s | %s | %s | %s |" % (n, ns, lo, md, hi))
    if by.get("workload"):
        out.append("")
        out.append("The workload's view (`bench/workload.sh`: slowdown = run time beside the programs / alone, "
                   "the same round; fio: IOPS alone / beside; statistics off):")
        out.append("")
        out.append("| workload | beside | slowdown min | median | max | rounds |")
        out.append("|---|---|---|---|---|---|")
        for w in by["workload"]:
            out.append("| %s | %s | %.3f | %.3f | %.3f | %s |" % (w[0], w[1], float(w[2]), float(w[3]), float(w[4]), w[5]))
    if by.get("scale"):
        out.append("")
        out.append("The daemon at scale (`bench/scale.c`: every kind's cells, 300 timer functions, 512 woken tasks):")
        out.append("")
        out.append("| handlers | CPUs | peak RSS MiB | tick ms | 60 s answer ms |")
        out.append("|---|---|---|---|---|")
        for r in by["scale"]:
            out.append("| %s |" % " | ".join(r[:5]))
    if by.get("workload_rest"):
        r, st = by["workload_rest"][0][:2]
        out.append("")
        out.append("During hackbench, the rest of the machine (every process but hackbench, the interrupts) used "
                   "these CPU-seconds a run (median): %s; the hypervisor stole %s s in all." % (r, st))
    if by.get("target"):
        out.append("")
        out.append("| target | measured | verdict |")
        out.append("|---|---|---|")
        for t in by["target"]:
            out.append("| %s | %s | %s |" % tuple(t[:3]))
    for who, label in (("daemon_cpu_ms_per_s", "irqlatd's own CPU time under the kinds' load"),
                       ("daemon_cpu_quiet_ms_per_s", "irqlatd's own CPU time under the kinds' load, outliers off"),
                       ("total_bpf_ms_per_s", "irqlatd's BPF run time under the kinds' load (statistics on)")):
        if by.get(who):
            md, lo, hi = by[who][0][:3]
            out.append("")
            out.append("%s: %s ms per second median (min %s, max %s)." % (label, md, lo, hi))
    if by.get("daemon_outliers_per_s") and by.get("daemon_cpu_us_per_outlier"):
        n, c = by["daemon_outliers_per_s"][0][:3], by["daemon_cpu_us_per_outlier"][0][:3]
        out.append("")
        out.append("The outliers it handled meanwhile (logged, held back or not logged): %s a second median (min %s, "
                   "max %s); its whole CPU time over them, at most what one costs: %s us median (min %s, max %s)."
                   % tuple(n + c))
    if by.get("daemon_cpu_us_per_outlier_net"):
        out.append("")
        out.append("What one outlier costs the daemon (its CPU with outliers less without, medians, over the outliers): "
                   "%s us." % by["daemon_cpu_us_per_outlier_net"][0][0])
    if by.get("rest"):
        c, o, w = by["rest"][0][:3]
        out.append("")
        out.append("irqlatd at rest: %s ms of CPU a second, %s outliers logged a second, %s wake-ups in 10 s." % (c, o, w))
    if by.get("rss_parts"):
        a, f, b = by["rss_parts"][0][:3]
        out.append("")
        out.append("irqlatd's steady RSS at rest: %s MiB anonymous, %s MiB file-backed, of which %s MiB are the "
                   "BPF maps it maps (cells, ring buffer: the kernel's memory) and the rest its binary and libraries."
                   % (a, f, b))
    return out


def main():
    summary, doc = sys.argv[1], sys.argv[2]
    text = open(doc).read()
    if BEGIN not in text or END not in text:
        sys.exit("bench/docs.py: %s has no generated section (its markers are missing)" % doc)
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    body = "\n".join(section(open(summary).readlines()))
    open(doc + ".tmp", "w").write(head + BEGIN + "\n" + body + "\n" + END + tail)
    import os
    os.replace(doc + ".tmp", doc)


main()
