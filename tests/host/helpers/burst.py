# A SCHED_FIFO busy task's body for the why tests (11, 18, 23, 25): busy BUSY_US out of every
# PERIOD_US (by default 2 ms out of every 10 ms), forever (the test runs it with chrt -f and
# taskset -c 1 and kills it). A wake-up on its CPU during a burst waits for the burst's end.
# usage: burst.py [READY_FILE [BUSY_US PERIOD_US]]: READY_FILE is created once the loop runs.
# Before that the process may be something else at the same priority: where python3 is a
# shell shim (pyenv), its scripts and their children run at the task's priority for a tenth
# of a second first, in many short runs of other pids, and a test's waits then are not the
# burst's.
import sys
import time

busy, period = 0.002, 0.010
if len(sys.argv) > 3:
    busy, period = int(sys.argv[2]) / 1e6, int(sys.argv[3]) / 1e6
if len(sys.argv) > 1:
    open(sys.argv[1], "w").close()
while True:
    t = time.monotonic()
    while time.monotonic() - t < busy:
        pass
    time.sleep(period - busy)
