#!/usr/bin/env python3
"""Speed comparison of draughts perft: dame-rs's `dame.perft` (Rust core,
PyPI `dame-rs`) against `boardwire perft draughts` (release build), each with
its own perft function, single thread, on the start position (depth 9) and
the Woldouby position of the perft vectors (depth 12).

Runs are interleaved (ours, dame, ours, dame, ...) so that both see the same
machine load. Both wall-clock and CPU time are reported: on a shared machine
the CPU time (our process's user+sys time from rusage, dame's
`time.process_time()` around the call) is the steadier figure. For ours, the
wall time is the one boardwire prints to stderr (perft only, no process
start-up); the CPU time includes the process start-up and exit (1 to 2 ms
here, a sizeable share of a 15 ms run). An extra line gives the CPU ratio
with our start-up subtracted: the least CPU time of `perft ... 0` runs
(same binary, same position, interleaved with the others), since dame's
figure does not include starting Python or importing the module either.

Usage: draughts_speed.py [--boardwire PATH] [--rounds N]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

import dame

CASES = [
    ("start position", "W:W31-50:B1-20", 9, 41022423),
    ("Woldouby", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", 12, 1910989),
]


def run_ours(boardwire, fen, depth):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([boardwire, "perft", "draughts", fen, str(depth)], capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    nodes = int(proc.stdout.split()[0])
    # stderr: "nodes N time S s speed X nodes/s"
    wall = float(proc.stderr.split()[3])
    return nodes, wall, cpu


def run_dame(fen, depth):
    board = dame.Board(fen)
    c0, w0 = time.process_time(), time.perf_counter()
    nodes = dame.perft(board, depth)
    return nodes, time.perf_counter() - w0, time.process_time() - c0


def main():
    ap = argparse.ArgumentParser()
    default_bin = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "boardwire")
    ap.add_argument("--boardwire", default=os.environ.get("BOARDWIRE", default_bin))
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()

    print("machine: %d cores, load average %.2f %.2f %.2f (shared machine: figures are noisy)" % ((os.cpu_count() or 0,) + os.getloadavg()))
    ok = True
    for name, fen, depth, expected in CASES:
        times = {"ours": [], "dame": []}
        startup = []
        for _ in range(args.rounds):
            startup.append(run_ours(args.boardwire, fen, 0)[2])
            for who in ("ours", "dame"):
                nodes, wall, cpu = run_ours(args.boardwire, fen, depth) if who == "ours" else run_dame(fen, depth)
                if nodes != expected:
                    print("%s: %s perft(%d) = %d, expected %d" % (name, who, depth, nodes, expected))
                    ok = False
                times[who].append((wall, cpu))
        print("\n%s, depth %d, %d nodes, %d interleaved rounds" % (name, depth, expected, args.rounds))
        summary = {}
        for who in ("ours", "dame"):
            walls = [w for w, _ in times[who]]
            cpus = [c for _, c in times[who]]
            summary[who] = (min(walls), statistics.median(walls), min(cpus), statistics.median(cpus))
            print(
                "  %-5s wall best %7.3f s (%6.1f M nodes/s) median %7.3f s | cpu best %7.3f s (%6.1f M nodes/s) median %7.3f s"
                % (who, summary[who][0], expected / summary[who][0] / 1e6, summary[who][1],
                   summary[who][2], expected / summary[who][2] / 1e6, summary[who][3])
            )
        o, d = summary["ours"], summary["dame"]
        print("  ratio ours/dame speed: wall best %.1fx, wall median %.1fx, cpu best %.1fx, cpu median %.1fx"
              % (d[0] / o[0], d[1] / o[1], d[2] / o[2], d[3] / o[3]))
        s = min(startup)
        print("  our start-up cpu %.4f s; ratio with it subtracted: cpu best %.1fx, cpu median %.1fx"
              % (s, d[2] / (o[2] - s), d[3] / (o[3] - s)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
