#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Misbehaving clients for the host tests (80-faults.t, 81-limits.t): what an adversarial
user on the machine can do to irqlatd's socket and HTTP endpoint. Each subcommand prints one
summary line ("key=value ...") on stdout, for the test to check.

  send PATH                      send stdin's lines, print each answer line (like socat)
  hold PATH N SECONDS            open N connections, hold them idle, close them
  pipeline PATH SECONDS          send hist requests without ever reading the answers
  subscribers PATH N SECONDS     N clients subscribe and never read
  longline PATH BYTES            one request line of BYTES bytes, then a good request
  http-idle HOST PORT N SECONDS  N TCP connections that send nothing
  http-slow HOST PORT N SECONDS  N connections sending a request one byte a second
  http-partial HOST PORT         half a request, then wait for the server to close it
  fullqueue PATH SECONDS         a Unix socket listening with a full queue, never accepting
  fair PATH N SECONDS            N clients pipelining hist requests (up to 256 waiting each)
                                 and reading the answers; every 0.5 s a status request on a
                                 new connection: how many pipelined answers came while it
                                 waited, and how long it took
  hold-reasons PATH N SECONDS    as hold, counting the daemon's closing lines by reason
  endless PATH BYTES             a fake daemon: one answer line of BYTES bytes to whoever
                                 connects (what irqlat --max-answer-mb bounds)
"""
import os
import socket
import struct
import sys
import time


def unix(path, blocking=True):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # A blocking connect() waits while the listen queue is full: for 5 s at most (the send
    # timeout bounds it), so a daemon that never accepts fails the helper, not hang the test.
    # (Python's own timeout would make connect() non-blocking: EAGAIN at once on a full queue.)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", 5, 0))
    s.connect(path)
    s.setblocking(blocking)
    return s


def cmd_send(path):
    s = unix(path)
    data = sys.stdin.buffer.read()
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    s.settimeout(10)
    out = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            out += d
    except socket.timeout:
        pass
    sys.stdout.write(out.decode(errors="replace"))


def cmd_hold(path, n, secs):
    conns, refused, failed = [], 0, 0
    for _ in range(int(n)):
        try:
            conns.append(unix(path))
        except OSError:
            failed += 1
    time.sleep(0.5)
    for s in conns:
        s.setblocking(False)
        try:
            d = s.recv(4096)
            if b"too many clients" in d:
                refused += 1
        except OSError:
            pass
    time.sleep(float(secs))
    for s in conns:
        s.close()
    print("connected=%d refused=%d failed=%d" % (len(conns), refused, failed))


def cmd_pipeline(path, secs):
    s = unix(path, blocking=False)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    req = b'{"cmd":"hist","window":"total"}\n' * 64
    end, sent, closed = time.time() + float(secs), 0, False
    while time.time() < end:
        try:
            sent += s.send(req)
        except BlockingIOError:
            time.sleep(0.01)
        except OSError:
            closed = True  # the daemon dropped us
            break
    print("sent=%d closed=%d" % (sent, int(closed)))


def cmd_subscribers(path, n, secs):
    conns, ok, refused = [], 0, 0
    for _ in range(int(n)):
        s = unix(path)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(b'{"cmd":"subscribe"}\n')
        s.settimeout(5)
        line = b""
        while not line.endswith(b"\n"):
            line += s.recv(1)
        if b'"ok":true' in line:
            ok += 1
        elif b"too many subscribers" in line:
            refused += 1
        conns.append(s)
    time.sleep(float(secs))
    for s in conns:
        s.close()
    print("subscribed=%d refused=%d" % (ok, refused))


def cmd_longline(path, nbytes):
    s = unix(path)
    s.settimeout(10)
    chunk = b"x" * 65536
    left, sent = int(nbytes), 0
    s.sendall(b'{"cmd":"status","pad":"')
    while left > 0:
        k = min(left, len(chunk))
        s.sendall(chunk[:k])
        left -= k
        sent += k
    # what follows on the same line must not be read as a request
    s.sendall(b'"}{"cmd":"hist","irq":0}\n{"cmd":"status"}\n')
    answers = b""
    while answers.count(b"\n") < 2:
        d = s.recv(65536)
        if not d:
            break
        answers += d
    lines = answers.split(b"\n")
    first, second = lines[0], lines[1] if len(lines) > 1 else b""
    print("too_long=%d next_ok=%d answers=%d" % (int(b"request line longer than" in first),
                                                 int(b'"ok":true' in second and b'"pid"' in second),
                                                 answers.count(b"\n")))


def tcp(host, port):
    return socket.create_connection((host, int(port)), timeout=5)


def cmd_http_idle(host, port, n, secs):
    conns = [tcp(host, port) for _ in range(int(n))]
    time.sleep(float(secs))
    for s in conns:
        s.close()
    print("held=%d" % len(conns))


def cmd_http_slow(host, port, n, secs):
    req = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 4096 + b"\r\n\r\n"
    conns, end, pos, reconnects = [], time.time() + float(secs), [], 0
    for _ in range(int(n)):
        conns.append(tcp(host, port))
        pos.append(0)
    while time.time() < end:
        for i, s in enumerate(conns):
            try:
                s.send(req[pos[i]:pos[i] + 1])
                pos[i] += 1
            except OSError:
                # shut down by the server: come back, as an attacker would
                try:
                    conns[i] = tcp(host, port)
                except OSError:
                    pass
                pos[i] = 0
                reconnects += 1
        time.sleep(1)
    for s in conns:
        s.close()
    print("slow=%d reconnects=%d" % (len(conns), reconnects))


def cmd_http_partial(host, port):
    s = tcp(host, port)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    t0 = time.time()
    s.settimeout(60)
    try:
        while s.recv(4096):
            pass
    except OSError:
        pass
    print("closed_after_s=%.1f" % (time.time() - t0))


def cmd_fullqueue(path, secs):
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(0)
    fillers = []
    while True:
        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        c.setblocking(False)
        try:
            c.connect(path)
            fillers.append(c)
        except BlockingIOError:
            c.close()
            break
    print("queued=%d" % len(fillers), flush=True)
    time.sleep(float(secs))


def cmd_fair(path, n, secs):
    import select
    depth, req = 256, b'{"cmd":"hist","window":"total"}\n'
    pipes = [unix(path, blocking=False) for _ in range(int(n))]
    waiting = {s: 0 for s in pipes}  # requests sent, not answered
    unsent = {s: b"" for s in pipes}
    answers, between, waits, dropped, unanswered = 0, [], [], 0, 0
    status, st_t0, st_ans0, st_buf = None, 0.0, 0, b""
    next_status, end = time.time() + 0.5, time.time() + float(secs)
    while time.time() < end or status:
        now = time.time()
        if status and now - st_t0 > 10:  # not answered: given up on, counted
            status.close()
            status, next_status, unanswered = None, now + 0.5, unanswered + 1
        if not status and now >= next_status and now < end:
            status = unix(path, blocking=False)
            status.send(b'{"cmd":"status"}\n')
            st_t0, st_ans0, st_buf = now, answers, b""
        for s in pipes:
            if waiting[s] < depth // 2 and not unsent.get(s):
                unsent[s] = req * (depth - waiting[s])
                waiting[s] = depth
        rd = ([status] if status else []) + pipes
        wr = [s for s in pipes if unsent.get(s)]
        r, w, _ = select.select(rd, wr, [], 0.1)
        if status in r:  # first: what came before it counts, what came after does not
            try:
                d = status.recv(1 << 20)
            except OSError:
                d = b""
            st_buf += d
            if b"\n" in st_buf or not d:
                waits.append(time.time() - st_t0)
                between.append(answers - st_ans0)
                status.close()
                status, next_status = None, time.time() + 0.5
        for s in r:
            if s is status or s not in waiting:
                continue
            try:
                d = s.recv(1 << 20)
            except OSError:
                d = b""
            if not d:  # closed by the daemon (main dropped clients it found slow)
                pipes.remove(s)
                del waiting[s]
                dropped += 1
                continue
            k = d.count(b"\n")
            answers += k
            waiting[s] -= k
        for s in w:
            try:
                k = s.send(unsent[s])
                unsent[s] = unsent[s][k:]
            except BlockingIOError:
                pass
            except OSError:
                unsent[s] = b""
    med = lambda v: sorted(v)[len(v) // 2] if v else -1
    print("answers=%d statuses=%d unanswered=%d between_median=%d between_max=%d wait_ms_median=%.1f wait_ms_max=%.1f "
          "dropped=%d" % (answers, len(waits), unanswered, med(between), max(between or [-1]), 1000 * med(waits),
                          1000 * max(waits or [-1]), dropped))


def cmd_hold_reasons(path, n, secs):
    import json
    conns, reasons, failed = [], {}, 0
    for _ in range(int(n)):
        try:
            conns.append(unix(path))
        except OSError:
            failed += 1
    time.sleep(float(secs))
    for s in conns:
        s.setblocking(False)
        try:
            d = s.recv(4096)
            if d:
                why = json.loads(d.split(b"\n")[0]).get("closed", "answer")
                reasons[why] = reasons.get(why, 0) + 1
        except (OSError, ValueError):
            pass
        s.close()
    print("connected=%d failed=%d %s" % (len(conns), failed,
                                         " ".join("%s=%d" % (k, reasons.get(k, 0)) for k in ("evicted", "full", "idle"))))


def cmd_endless(path, nbytes):
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    print("listening", flush=True)
    c, _ = srv.accept()
    c.recv(4096)
    chunk, left = b'{"ok":true,"pad":"' + b"x" * 65536, int(nbytes)
    try:
        while left > 0:
            c.sendall(chunk[:min(left, len(chunk))])
            left -= len(chunk)
        c.sendall(b'"}\n')
    except OSError:
        pass  # irqlat stopped reading
    print("sent")


def main():
    cmds = {"send": cmd_send, "hold": cmd_hold, "pipeline": cmd_pipeline, "subscribers": cmd_subscribers,
            "longline": cmd_longline, "http-idle": cmd_http_idle, "http-slow": cmd_http_slow,
            "http-partial": cmd_http_partial, "fullqueue": cmd_fullqueue, "fair": cmd_fair,
            "hold-reasons": cmd_hold_reasons, "endless": cmd_endless}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])


if __name__ == "__main__":
    main()
