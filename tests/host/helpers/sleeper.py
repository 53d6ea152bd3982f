#!/usr/bin/env python3
"""A task woken by its hrtimer when told to, for 16-wakeup-cells.t. It prints its pid (its
only thread's id), then reads commands, a line each, from stdin:

  N      sleep 1 ms N times, then print "slept N"
  loop   sleep 1 ms until a line is readable on stdin, then read that line (whatever it
         says) and print "looped K" (the sleeps done)

time.sleep() is one clock_nanosleep(), so one hrtimer_wakeup wake-up a sleep. Between sleeps
it reads stdin, a byte at a time (no read-ahead that select() would not see), and a pipe's
data wakes no hrtimer: its own count of sleeps is what irqlatd's wake-ups are compared with.
EOF ends it."""
import os
import select
import sys
import time


def command():
    line = b""
    while not line.endswith(b"\n"):
        c = os.read(0, 1)
        if not c:
            return None
        line += c
    return line.decode().strip()


print(os.getpid(), flush=True)
while (cmd := command()) is not None:
    if cmd == "loop":
        k = 0
        while not select.select([0], [], [], 0)[0]:	# a zero timeout arms no timer
            time.sleep(0.001)
            k += 1
        command()
        print("looped", k, flush=True)
    else:
        n = int(cmd)
        for _ in range(n):
            time.sleep(0.001)
        print("slept", n, flush=True)
