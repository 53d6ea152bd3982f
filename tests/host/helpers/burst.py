# A SCHED_FIFO busy task's body for the why tests (11, 18, 23): busy 2 ms out of every 10 ms,
# forever (the test runs it with chrt -f 99 taskset -c 1 and kills it). A wake-up on its CPU
# during a burst waits for the burst's end.
import time

while True:
    t = time.monotonic()
    while time.monotonic() - t < 0.002:
        pass
    time.sleep(0.008)
