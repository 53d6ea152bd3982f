#!/usr/bin/env python3
"""The reference for tests/host/27-timer-idle.t: from a tracefs instance's trace (all CPUs,
trace_clock mono; timer:hrtimer_expire_entry, hrtimer_expire_exit, sched:sched_waking, and the
test's trace_marker lines), the hrtimer callbacks that ran on an idle CPU (the interrupted task,
the event's pid, is 0) and woke no task (no sched_waking on that CPU between the callback's
entry and exit).

How late each was is not taken from the trace: its timer's expiry would be the last
hrtimer_start's, and a timer re-armed where tracepoints are not called (where RCU is not
watching, the way into and out of idle) has a stale one, earlier or later than the real expiry
(on 6.18 the fair server's dl_task_timer read 138 ms late by its last hrtimer_start, 203 us by
its node.expires; the tick is re-armed so on idle exit).

usage: idle_timers.py TRACE FROM_MARK TO_MARK [--list]
prints "count from_ns to_ns": those callbacks between the two marker lines, and the markers'
times; --list adds a "cpu entry_ns exit_ns function" line for each (the timestamps are shown to
the microsecond)."""
import re
import sys

LINE = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (\w+): (.*)$')


def main():
    trace, mark_from, mark_to = sys.argv[1:4]
    running = {}	# cpu -> callbacks in progress (a hard one may nest in a soft one)
    done = []
    inside = False
    marks = {}
    with open(trace, errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            _, pid, cpu, sec, frac, ev, rest = m.groups()
            ts = int(sec) * 1000000000 + int(frac.ljust(9, '0')[:9])
            if ev == 'tracing_mark_write':
                marks[rest.strip()] = ts
                inside = {mark_from: True, mark_to: False}.get(rest.strip(), inside)
                continue
            pid, cpu = int(pid), int(cpu)
            if ev == 'hrtimer_expire_entry':
                fn = re.search(r'function=(\S+)', rest)
                running.setdefault(cpu, []).append({'cpu': cpu, 'pid': pid, 'ts': ts, 'fn': fn.group(1) if fn else '?',
                                                    'woke': False, 'inside': inside})
            elif ev == 'sched_waking':
                for c in running.get(cpu, []):
                    c['woke'] = True
            elif ev == 'hrtimer_expire_exit' and running.get(cpu):
                c = running[cpu].pop()
                c['exit'] = ts
                if c['pid'] == 0 and not c['woke'] and c['inside']:
                    done.append(c)
    print(len(done), marks.get(mark_from, 0), marks.get(mark_to, 0))
    if '--list' in sys.argv[4:]:
        for c in done:
            print(c['cpu'], c['ts'], c['exit'], c['fn'])


main()
