#!/usr/bin/env python3
"""Hostile peers against the release `boardwire` servers and clients (issue 13).

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
        sent = 0
        t0 = time.time()
        while sent < 10 * 1000 * 1000 and time.time() - t0 < 40:
            try:
                flooder.sendall(line)
            except OSError:
                break
            sent += len(line)
            if sent % (100 * len(line)) == 0:
                srv.sample()
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


def csa_fds(bw):
    print("csa-fds: ulimit -n 64, 100 connections opened and closed, then a login", flush=True)
    srv = Server([bw, "csa", "serve", "--listen", "127.0.0.1:0"], shell_prefix="ulimit -n 64;")
    try:
        socks = []
        for _ in range(100):
            s = socket.socket()
            s.settimeout(1)
            try:
                s.connect(srv.addr)
                socks.append(s)
            except OSError:
                s.close()
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
        socks = []
        for _ in range(100):
            s = socket.socket()
            s.settimeout(1)
            try:
                s.connect(srv.addr)
                socks.append(s)
            except OSError:
                s.close()
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
