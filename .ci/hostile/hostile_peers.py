#!/usr/bin/env python3
"""Hostile peers against the release `boardwire` servers and clients (a
server must survive any client, a client any server; run in CI by .ci/checks/65-hostile-peers).

Everything runs on 127.0.0.1 and is bounded in time (about 2 minutes in all).
Each attack prints what it measured; the script exits 1 if any bound is
broken:

  csa-flood     `csa serve`: 200 x1 clients that never read, and a 10 MB
                `%%CHAT` flood from another client: server RSS < 64 MB; a
                probe client that reads keeps getting `%%VERSION` answered
                (round trip < 250 ms).
  csa-fds       `csa serve` under `ulimit -n 64`: 100 connections opened and
                closed, then a new client logs in within 1 s.
  dxp-malformed `dxp serve`: 1 M malformed frames (`X\\0`) over 100
                connections: server RSS < 32 MB, stdout bounded; a probe
                GAMEREQ is answered (GAMEACC) within 250 ms throughout.
  csa-queues    `csa serve`: 20 MB of out-of-turn 8 kB move lines while the
                opponent thinks, 20,000 `%%SETBUOY` from one user, 20 logins
                with the wrong password for a player in a game: RSS < 64 MB,
                at most one move waits, at most 16 buoys, each wrong login
                answered `LOGIN:incorrect` and closed about 3 s later, and the
                game goes on throughout.
  csa-load      `csa serve`: 1,000 x1 clients, 400 simultaneous games of 10
                plies (800 players) and 200 clients that read chat: no move
                lost or misdelivered, nobody closed by the output limits.
  dxp-fds       `dxp serve` under `ulimit -n 64`: 100 connections opened and
                closed, then a GAMEREQ is answered within 1 s; stderr stays
                small (accept errors logged once per burst); the server's CPU
                is not pegged while descriptors are out.
  clients       `csa connect` and `dxp connect` with `--timeout 5` against a
                peer that streams bytes without terminators: exit 1 within
                10 s, under 1 MB on stdout.

Usage: hostile_peers.py BOARDWIRE [--only NAME ...]
"""

import argparse
import os
import select
import socket
import subprocess
import sys
import threading
import time

FAILURES = []


def check(ok, what):
    print(("  ok    " if ok else "  FAIL  ") + what, flush=True)
    if not ok:
        FAILURES.append(what)


def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


class Server:
    """A `boardwire ... serve` child on 127.0.0.1:0; stdout counted, not kept."""

    def __init__(self, argv, shell_prefix=None):
        cmd = argv
        if shell_prefix:
            cmd = ["bash", "-c", shell_prefix + ' exec "$@"', "bash"] + argv
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.stdout_bytes = 0
        self.stderr_bytes = 0
        self.addr = None
        deadline = time.time() + 10
        line = b""
        while time.time() < deadline:
            r, _, _ = select.select([self.proc.stderr], [], [], 0.5)
            if r:
                line = self.proc.stderr.readline()
                if b"listening on" in line:
                    host, port = line.split()[-1].decode().rsplit(":", 1)
                    self.addr = (host, int(port))
                    break
        if self.addr is None:
            self.proc.kill()
            raise RuntimeError(f"server did not start: {line!r}")
        threading.Thread(target=self._drain, args=(self.proc.stdout, "stdout_bytes"), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc.stderr, "stderr_bytes"), daemon=True).start()
        self.max_rss = 0.0

    def _drain(self, pipe, attr):
        while True:
            chunk = pipe.read1(1 << 16)
            if not chunk:
                return
            setattr(self, attr, getattr(self, attr) + len(chunk))

    def sample(self):
        r = rss_mb(self.proc.pid)
        self.max_rss = max(self.max_rss, r)
        return r

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def recv_until(sock, needle, timeout):
    """Reads until `needle` is seen; returns (found, seconds)."""
    start = time.time()
    buf = b""
    sock.settimeout(0.05)
    while time.time() - start < timeout:
        try:
            chunk = sock.recv(1 << 16)
        except socket.timeout:
            continue
        except OSError:
            return False, time.time() - start
        if not chunk:
            return False, time.time() - start
        buf += chunk
        if needle in buf:
            return True, time.time() - start
        buf = buf[-len(needle) - 1 :]
    return False, time.time() - start


def x1_login(addr, name, timeout=5.0, rcvbuf=None):
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(timeout)
    s.connect(addr)
    s.sendall(f"LOGIN {name} pw x1\n".encode())
    return s


class Probe(threading.Thread):
    """An x1 client that reads everything and asks `%%VERSION` every 100 ms."""

    def __init__(self, addr):
        super().__init__(daemon=True)
        self.sock = x1_login(addr, "probe")
        ok, _ = recv_until(self.sock, b"##[LOGIN] +OK x1", 5)
        if not ok:
            raise RuntimeError("probe could not log in")
        self.rtts = []
        self.lost = 0
        self.stop_flag = False

    def run(self):
        while not self.stop_flag:
            t0 = time.time()
            try:
                self.sock.sendall(b"%%VERSION\n")
            except OSError:
                self.lost += 1
                return
            ok, _ = recv_until(self.sock, b"##[VERSION]", 5)
            if ok:
                self.rtts.append(time.time() - t0)
            else:
                self.lost += 1
            time.sleep(0.1)


def flood(sock, line, max_bytes, max_seconds, srv):
    """Sends `line` on `sock` again and again until `max_bytes` are sent,
    `max_seconds` have passed or the send fails, sampling the server's
    memory every 100 lines. Returns the bytes sent and the start time."""
    sent = 0
    t0 = time.time()
    while sent < max_bytes and time.time() - t0 < max_seconds:
        try:
            sock.sendall(line)
        except OSError:
            break
        sent += len(line)
        if sent % (100 * len(line)) == 0:
            srv.sample()
    return sent, t0


def csa_flood(bw):
    print("csa-flood: 200 non-reading x1 clients + 10 MB of %%CHAT", flush=True)
    srv = Server([bw, "csa", "serve", "--listen", "127.0.0.1:0"])
    try:
        probe = Probe(srv.addr)
        probe.start()
        idle = []
        for i in range(200):
            try:
                idle.append(x1_login(srv.addr, f"idle{i}", rcvbuf=4096))
            except OSError:
                pass
        time.sleep(0.5)
        flooder = x1_login(srv.addr, "flooder")
        recv_until(flooder, b"##[LOGIN] +OK x1", 5)
        drain_stop = []

        def drain():
            flooder.settimeout(0.2)
            while not drain_stop:
                try:
                    if not flooder.recv(1 << 16):
                        return
                except socket.timeout:
                    continue
                except OSError:
                    return

        threading.Thread(target=drain, daemon=True).start()
        line = b"%%CHAT " + b"x" * 8000 + b"\n"
        sent, t0 = flood(flooder, line, 10 * 1000 * 1000, 40, srv)
        for _ in range(20):
            srv.sample()
            time.sleep(0.1)
        drain_stop.append(1)
        probe.stop_flag = True
        probe.join(6)
        worst = max(probe.rtts) if probe.rtts else float("inf")
        print(f"  sent {sent / 1e6:.1f} MB of chat in {time.time() - t0:.1f} s; "
              f"RSS max {srv.max_rss:.1f} MB; probe {len(probe.rtts)} answers, "
              f"{probe.lost} lost, worst round trip {worst * 1000:.0f} ms", flush=True)
        check(srv.alive(), "csa serve survives the flood")
        check(srv.max_rss < 64, f"csa serve RSS {srv.max_rss:.1f} MB < 64 MB")
        check(probe.lost == 0 and worst < 0.25, f"probe answered throughout, worst {worst * 1000:.0f} ms < 250 ms")
        for s in idle:
            s.close()
    finally:
        srv.stop()


class Reader(threading.Thread):
    """Reads a socket into a bounded tail and counts needles."""

    def __init__(self, sock, needles):
        super().__init__(daemon=True)
        self.sock = sock
        self.counts = {n: 0 for n in needles}
        self.tail = b""
        self.bytes = 0
        self.stop_flag = False

    def run(self):
        self.sock.settimeout(0.2)
        while not self.stop_flag:
            try:
                chunk = self.sock.recv(1 << 16)
            except socket.timeout:
                continue
            except OSError:
                return
            if not chunk:
                return
            self.bytes += len(chunk)
            data = self.tail + chunk
            for n in self.counts:
                # Needles end with a newline: none is counted twice.
                self.counts[n] += data.count(n) - self.tail.count(n)
            self.tail = data[-9000:]


def csa_queues(bw):
    print("csa-queues: out-of-turn move flood, %%SETBUOY flood, wrong logins on a player in a game", flush=True)
    srv = Server([bw, "csa", "serve", "--listen", "127.0.0.1:0"])
    try:
        a = x1_login(srv.addr, "qa")
        b = x1_login(srv.addr, "qb")
        recv_until(a, b"##[LOGIN] +OK x1", 5)
        recv_until(b, b"##[LOGIN] +OK x1", 5)
        a.sendall(b"%%GAME q-300-10 +\n")
        b.sendall(b"%%GAME q-300-10 -\n")
        recv_until(a, b"END Game_Summary", 5)
        recv_until(b, b"END Game_Summary", 5)
        a.sendall(b"AGREE\n")
        b.sendall(b"AGREE\n")
        ok_a, _ = recv_until(a, b"START:", 5)
        ok_b, _ = recv_until(b, b"START:", 5)
        check(ok_a and ok_b, "the game starts")
        rb = Reader(b, [b"already waiting for its turn", b"+7776FU,T", b"+2726FU,T"])
        rb.start()
        line = b"-3334FU,'" + b"x" * 8000 + b"\n"  # a move with a Floodgate comment
        sent, t0 = flood(b, line, 20 * 1000 * 1000, 30, srv)
        time.sleep(0.5)
        srv.sample()
        errors = rb.counts[b"already waiting for its turn"]
        print(f"  out of turn: sent {sent / 1e6:.1f} MB in {time.time() - t0:.1f} s; "
              f"{errors} error replies; RSS max {srv.max_rss:.1f} MB", flush=True)
        check(sent >= 20 * 1000 * 1000, "the out-of-turn flood is read to the end")
        # Black moves: the game goes on (the one held line is played and is
        # illegal, or it is not: either way Black's move reaches White).
        a.sendall(b"+7776FU\n")
        time.sleep(0.5)
        check(rb.counts[b"+7776FU,T"] == 1, "the game goes on after the flood (White sees Black's move)")
        # Buoys from one user.
        c = x1_login(srv.addr, "qc")
        recv_until(c, b"##[LOGIN] +OK x1", 5)
        rc = Reader(c, [b"##[SETBUOY] +OK\n", b"too many buoy games"])
        rc.start()
        for i in range(0, 20000, 500):
            c.sendall(b"".join(b"%%%%SETBUOY buoy_q%d-900-0 +7776FU\n" % j for j in range(i, i + 500)))
        time.sleep(1.0)
        srv.sample()
        oks = rc.counts[b"##[SETBUOY] +OK\n"]
        print(f"  buoys: {oks} accepted, {rc.counts[b'too many buoy games']} refused; "
              f"RSS max {srv.max_rss:.1f} MB", flush=True)
        check(oks <= 16, f"{oks} buoys accepted from one user <= 16")
        # Wrong passwords (and the right one) for a player in a game.
        closes = []
        for i in range(20):
            s = socket.create_connection(srv.addr, timeout=6)
            pw = "pw" if i == 0 else "wrong"
            s.sendall(f"LOGIN qa {pw} x1\n".encode())
            closes.append((s, time.time()))
        answered = 0
        delays = []
        for s, t in closes:
            buf = b""
            try:
                while True:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    buf += chunk
            except OSError:
                pass
            delays.append(time.time() - t)
            answered += buf.startswith(b"LOGIN:incorrect")
            s.close()
        print(f"  wrong logins: {answered}/20 answered LOGIN:incorrect; closed after "
              f"{min(delays):.1f}-{max(delays):.1f} s", flush=True)
        check(answered == 20, "every login on a player in a game is refused")
        check(min(delays) >= 2.5, "a refused login is closed about 3 s later, not at once")
        a.sendall(b"+2726FU\n")
        time.sleep(0.5)
        check(rb.counts[b"+2726FU,T"] == 1, "the victim's game goes on (its next move reaches White)")
        check(srv.alive(), "csa serve survives")
        check(srv.max_rss < 64, f"csa serve RSS {srv.max_rss:.1f} MB < 64 MB")
        rb.stop_flag = rc.stop_flag = True
    finally:
        srv.stop()


def csa_load(bw):
    print("csa-load: 1,000 clients, 400 simultaneous games, 200 chat readers", flush=True)
    srv = Server([bw, "csa", "serve", "--listen", "127.0.0.1:0"])
    # Kings stepping back and forth: 10 plies stay short of a 4-fold
    # repetition (the 4th occurrence would be at ply 12).
    plies = ["+5958OU", "-5152OU", "+5859OU", "-5251OU"] * 3
    plies = plies[:10]
    try:
        conns = {}
        bufs = {}
        t0 = time.time()

        def open_login(name):
            s = socket.create_connection(srv.addr, timeout=10)
            s.sendall(f"LOGIN {name} pw x1\n".encode())
            conns[name] = s
            bufs[name] = b""

        for g in range(400):
            open_login(f"b{g}")
            open_login(f"w{g}")
        for i in range(200):
            open_login(f"c{i}")
        for name, s in conns.items():
            s.setblocking(False)

        def pump(timeout=0.05):
            """Reads what is there; returns the names with new complete lines."""
            r, _, _ = select.select(list(conns.values()), [], [], timeout)
            by_sock = {s: n for n, s in conns.items()}
            got = []
            for s in r:
                try:
                    chunk = s.recv(1 << 16)
                except (BlockingIOError, socket.timeout):
                    continue
                except OSError:
                    chunk = b""
                n = by_sock[s]
                if not chunk:
                    bufs[n] += b"<EOF>\n"
                bufs[n] += chunk
                got.append(n)
            return got

        def lines(name):
            *done, rest = bufs[name].split(b"\n")
            bufs[name] = rest
            return [l.decode(errors="replace") for l in done]

        def wait_for(names, needle, secs=30):
            pending = set(names)
            seen = {n: [] for n in names}
            end = time.time() + secs
            while pending and time.time() < end:
                for n in pump():
                    if n in seen:
                        ls = lines(n)
                        seen[n] += ls
                        if any(needle in l for l in ls):
                            pending.discard(n)
                    else:
                        lines(n)
            return pending, seen

        def send(name, data):
            s = conns[name]
            s.setblocking(True)
            s.sendall(data)
            s.setblocking(False)

        pending, _ = wait_for(list(conns), "##[LOGIN] +OK x1")
        check(not pending, f"1,000 logins answered ({len(pending)} missing)")
        for g in range(400):
            send(f"b{g}", f"%%GAME load{g}-600-10 +\n".encode())
            send(f"w{g}", f"%%GAME load{g}-600-10 -\n".encode())
        players = [f"{c}{g}" for g in range(400) for c in "bw"]
        pending, _ = wait_for(players, "END Game_Summary")
        check(not pending, f"400 games offered ({len(pending)} missing)")
        for p in players:
            send(p, b"AGREE\n")
        pending, _ = wait_for(players, "START:")
        check(not pending, f"400 games started ({len(pending)} missing)")
        lost = 0
        misdelivered = 0
        moves = 0
        t1 = time.time()
        for k, mv in enumerate(plies):
            movers = [f"{'b' if k % 2 == 0 else 'w'}{g}" for g in range(400)]
            for m in movers:
                send(m, (mv + "\n").encode())
            # Chat now and then, for the readers.
            if k % 3 == 0:
                send("c0", b"%%CHAT " + b"y" * 200 + b"\n")
            pending, seen = wait_for(players, mv + ",T")
            lost += len(pending)
            for p, ls in seen.items():
                for l in ls:
                    if l.startswith(("+", "-")) and ",T" in l and not l.startswith(mv):
                        misdelivered += 1
            moves += 400
        elapsed = time.time() - t1
        for g in range(400):
            send(f"b{g}", b"%TORYO\n")
        pending, _ = wait_for(players, "#WIN")
        pending_w = {p for p in pending if p.startswith("w")}
        time.sleep(0.5)
        for _ in range(3):
            pump()
        readers = [f"c{i}" for i in range(200)]
        closed = [n for n in conns if b"<EOF>" in bufs[n]]
        print(f"  {moves} moves in {elapsed:.1f} s ({moves / max(elapsed, 1e-9):.0f} moves/s); "
              f"{lost} lost, {misdelivered} misdelivered; {len(closed)} closed; "
              f"RSS {srv.sample():.1f} MB; {time.time() - t0:.1f} s in all", flush=True)
        check(lost == 0 and misdelivered == 0, "no move lost or misdelivered")
        check(not pending_w, f"every game ended #WIN for White ({len(pending_w)} missing)")
        check(not closed, f"no client closed by the server ({len(closed)})")
        check(srv.max_rss < 64, f"csa serve RSS {srv.max_rss:.1f} MB < 64 MB")
        for s in conns.values():
            s.close()
    finally:
        srv.stop()


def open_connections(addr, n):
    """Up to `n` connections to `addr` (1 s timeout each), left open; those
    that fail (the server is out of descriptors) are dropped."""
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.settimeout(1)
        try:
            s.connect(addr)
            socks.append(s)
        except OSError:
            s.close()
    return socks


def csa_fds(bw):
    print("csa-fds: ulimit -n 64, 100 connections opened and closed, then a login", flush=True)
    srv = Server([bw, "csa", "serve", "--listen", "127.0.0.1:0"], shell_prefix="ulimit -n 64;")
    try:
        socks = open_connections(srv.addr, 100)
        time.sleep(1.0)
        for s in socks:
            s.close()
        time.sleep(0.5)
        t0 = time.time()
        ok = False
        try:
            s = x1_login(srv.addr, "late", timeout=2)
            ok, secs = recv_until(s, b"LOGIN:late OK", 1.0)
            s.close()
        except OSError:
            secs = time.time() - t0
        print(f"  {len(socks)} connections; late login {'answered' if ok else 'not answered'} "
              f"after {secs:.2f} s; stderr {srv.stderr_bytes} bytes", flush=True)
        check(srv.alive(), "csa serve survives running out of descriptors")
        check(ok, "a new client logs in within 1 s after descriptors ran out")
        check(srv.stderr_bytes < 100_000, f"stderr {srv.stderr_bytes} bytes < 100 kB (accept errors logged once per burst)")
    finally:
        srv.stop()


def dxp_probe(addr):
    """GAMEREQ -> GAMEACC round trip in seconds (inf when unanswered)."""
    req = b"R01" + b"boardwire-probe".ljust(32) + b"W010050A\0"
    try:
        s = socket.create_connection(addr, timeout=2)
        t0 = time.time()
        s.sendall(req)
        ok, _ = recv_until(s, b"Aboardwire", 2)
        dt = time.time() - t0
        s.close()
        return dt if ok else float("inf")
    except OSError:
        return float("inf")


def dxp_malformed(bw):
    print("dxp-malformed: 1 M frames `X\\0` over 100 connections", flush=True)
    srv = Server([bw, "dxp", "serve", "--listen", "127.0.0.1:0"])
    try:
        worst = 0.0
        burst = b"X\0" * 10_000
        t0 = time.time()
        for i in range(100):
            try:
                s = socket.create_connection(srv.addr, timeout=2)
                s.sendall(burst)
                s.close()
            except OSError:
                pass
            if i % 10 == 0:
                srv.sample()
                worst = max(worst, dxp_probe(srv.addr))
        for _ in range(10):
            srv.sample()
            time.sleep(0.1)
        worst = max(worst, dxp_probe(srv.addr))
        print(f"  sent in {time.time() - t0:.1f} s; RSS max {srv.max_rss:.1f} MB; stdout "
              f"{srv.stdout_bytes / 1e6:.1f} MB; worst probe {worst * 1000:.0f} ms", flush=True)
        check(srv.alive(), "dxp serve survives malformed frames")
        check(srv.max_rss < 32, f"dxp serve RSS {srv.max_rss:.1f} MB < 32 MB")
        check(srv.stdout_bytes < 8_000_000, f"dxp serve stdout {srv.stdout_bytes / 1e6:.1f} MB < 8 MB for 2 MB of frames")
        check(worst < 0.25, f"probe GAMEREQ answered, worst {worst * 1000:.0f} ms < 250 ms")
    finally:
        srv.stop()


def cpu_seconds(pid):
    """User + system CPU time of `pid`, seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def dxp_fds(bw):
    print("dxp-fds: ulimit -n 64, 100 connections opened and closed, then a GAMEREQ", flush=True)
    srv = Server([bw, "dxp", "serve", "--listen", "127.0.0.1:0"], shell_prefix="ulimit -n 64;")
    try:
        socks = open_connections(srv.addr, 100)
        # Descriptors are out now: the server must wait, not spin.
        cpu0, t0 = cpu_seconds(srv.proc.pid), time.time()
        time.sleep(2.0)
        cpu = (cpu_seconds(srv.proc.pid) - cpu0) / (time.time() - t0)
        for s in socks:
            s.close()
        time.sleep(0.5)
        secs = dxp_probe(srv.addr)
        ok = secs < 1.0
        print(f"  {len(socks)} connections; CPU {cpu * 100:.0f}% while out of descriptors; "
              f"GAMEREQ {'answered after %.2f s' % secs if ok else 'not answered'}; "
              f"stderr {srv.stderr_bytes} bytes", flush=True)
        check(srv.alive(), "dxp serve survives running out of descriptors")
        check(ok, "a GAMEREQ is answered within 1 s after descriptors ran out")
        check(cpu < 0.5, f"CPU {cpu * 100:.0f}% < 50% while out of descriptors (back-off, no busy loop)")
        check(srv.stderr_bytes < 100_000, f"stderr {srv.stderr_bytes} bytes < 100 kB (accept errors logged once per burst)")
    finally:
        srv.stop()


def streaming_peer():
    """A listener that streams `A` bytes forever to whoever connects."""
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(4)
    stop = []

    def serve():
        ls.settimeout(0.2)
        while not stop:
            try:
                c, _ = ls.accept()
            except socket.timeout:
                continue
            except OSError:
                return

            def stream(c=c):
                chunk = b"A" * 65536
                try:
                    while not stop:
                        c.sendall(chunk)
                except OSError:
                    pass
                c.close()

            threading.Thread(target=stream, daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return ls, stop


def clients(bw):
    print("clients: --timeout 5 against a peer streaming bytes without terminators", flush=True)
    ls, stop = streaming_peer()
    addr = "127.0.0.1:%d" % ls.getsockname()[1]
    cmds = {
        "csa connect": [bw, "csa", "connect", "--user", "u", "--password", "p", "--game", "g-300-10",
                        "--timeout", "5", addr],
        "csa connect --x1": [bw, "csa", "connect", "--x1", "--user", "u", "--password", "p", "--game",
                             "g-300-10", "--timeout", "5", addr],
        "dxp connect": [bw, "dxp", "connect", "--timeout", "5", addr],
    }
    try:
        for name, argv in cmds.items():
            t0 = time.time()
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out = 0
            err = b""
            while p.poll() is None and time.time() - t0 < 15:
                r, _, _ = select.select([p.stdout, p.stderr], [], [], 0.2)
                for f in r:
                    chunk = f.read1(1 << 16)
                    if f is p.stdout:
                        out += len(chunk)
                    elif len(err) < 4096:
                        err += chunk
            if p.poll() is None:
                p.kill()
            p.wait()
            secs = time.time() - t0
            print(f"  {name}: exit {p.returncode} after {secs:.1f} s, stdout {out / 1e6:.2f} MB, "
                  f"stderr {err[:200]!r}", flush=True)
            check(p.returncode == 1 and secs < 10, f"{name} exits 1 within 10 s")
            check(out < 1_000_000, f"{name} prints under 1 MB")
    finally:
        stop.append(1)
        ls.close()


ATTACKS = {
    "csa-flood": csa_flood,
    "csa-queues": csa_queues,
    "csa-load": csa_load,
    "csa-fds": csa_fds,
    "dxp-malformed": dxp_malformed,
    "dxp-fds": dxp_fds,
    "clients": clients,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("boardwire")
    ap.add_argument("--only", action="append", choices=sorted(ATTACKS))
    args = ap.parse_args()
    t0 = time.time()
    for name, fn in ATTACKS.items():
        if args.only and name not in args.only:
            continue
        try:
            fn(args.boardwire)
        except Exception as e:  # a harness failure is a failure too
            check(False, f"{name}: {e}")
    print(f"hostile peers: {len(FAILURES)} failures in {time.time() - t0:.0f} s", flush=True)
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
