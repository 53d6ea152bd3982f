# The kernel's BPF statistics (run_time_ns, run_cnt) over one-second windows, for
# bench/kinds.sh and bench/clocks.sh: bpftool -j prog show snapshots taken a second apart while
# the load runs (windows_start in bench/lib.sh), the measurement's first and last around them.
#
# Why windows: the statistics time each run with the kernel's clock, so whatever takes the CPU
# from a program in the middle of a run (the host taking a guest's vCPU) is the program's. On
# a shared virtual machine a few milliseconds of that in a 10 s measurement move a program's
# mean by 100 ns an event, which is how each row of a measurement spread 300 to 400 ns
# (2026-12-07) against a 15 ns budget. Such stalls come in bursts: the median over a
# measurement's windows leaves out the windows they fell in, where a mean over the whole
# measurement takes them in.
import json
import statistics

MIN_RUNS = 200  # a window with fewer runs of a row's event programs is too short to count


def snapshots(first, samples, last):
    """the snapshots in time order: FIRST, the SAMPLES (paths, in order), LAST"""
    out = []
    for path in [first] + list(samples) + [last]:
        try:
            out.append({p["id"]: p for p in json.load(open(path))})
        except (OSError, ValueError):
            continue    # a sample cut off by the sampler's end
    return out


def per_event(snaps, progs, event_progs):
    """ns per event in each window: the run time of PROGS (ids) over the runs of EVENT_PROGS"""
    vals = []
    for a, b in zip(snaps, snaps[1:]):
        def d(i, f):
            return b.get(i, {}).get(f, 0) - a.get(i, {}).get(f, 0)
        runs = sum(d(i, "run_cnt") for i in event_progs)
        if runs >= MIN_RUNS:
            vals.append(sum(d(i, "run_time_ns") for i in progs) / runs)
    return vals


def median_per_event(snaps, progs, event_progs):
    """the median over the windows of per_event(), or None with no window long enough"""
    vals = per_event(snaps, progs, event_progs)
    return statistics.median(vals) if vals else None
