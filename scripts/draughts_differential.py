#!/usr/bin/env python3
"""Differential test of boardwire's draughts move generator against two
independent implementations: dame-rs (PyPI `dame-rs`, import `dame`) and
pydraughts (PyPI `pydraughts`, import `draughts`).

Positions: the perft vectors' positions, seeded random playouts from the
start position (played with dame, so the walk is independent of us), and
seeded random set-ups (kings, men of both colours). Our moves come from one
`boardwire moves draughts - --json` process (batch mode, FENs on stdin).
Moves are compared as sets of (from, to, captured set).

Peer quirks normalised here:
- pydraughts 0.6.7 reads the first colour section of a FEN as White's, so it
  is given dame's canonical FEN (White's section first);
- pydraughts lists every capture path (a king's windmill twice), so its list
  is turned into a set of triples;
- dame-rs 0.2.0 applies draw rules (its `legal_moves` is empty once the game
  is drawn) and its move list holds 256 moves (it panics beyond): positions
  where it reports a finished game while the rules give moves, or panics, are
  skipped and counted.

Exit status 0 when every compared position agrees, 1 otherwise.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

import dame
import draughts

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "..", "board-core", "tests", "data", "perft-draughts.txt")


def vector_fens():
    fens = []
    with open(VECTORS) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                fens.append(line.split(";")[0].strip())
    return fens


def playout_fens(rng, count, deadline):
    """FENs along seeded random games played with dame."""
    fens = []
    while len(fens) < count and time.monotonic() < deadline:
        board = dame.Board()
        plies = rng.randrange(0, 120)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            # Sample a few positions per game, more often later on.
            if rng.random() < 0.08:
                fens.append(board.fen())
        fens.append(board.fen())
    return fens[:count]


def setup_fens(rng, count):
    """Random set-ups: a few to a few dozen pieces, many kings."""
    fens = []
    for _ in range(count):
        n = rng.randrange(2, 30)
        squares = rng.sample(range(1, 51), n)
        white, black = [], []
        for s in squares:
            is_white = rng.random() < 0.5
            king = rng.random() < 0.35 or (is_white and s <= 5) or (not is_white and s >= 46)
            (white if is_white else black).append(("K" if king else "") + str(s))
        side = rng.choice("WB")
        fens.append("%s:W%s:B%s" % (side, ",".join(white), ",".join(black)))
    return fens


def ours(boardwire, fens):
    proc = subprocess.run(
        [boardwire, "moves", "draughts", "-", "--json"],
        input="\n".join(fens) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    lines = proc.stdout.splitlines()
    if len(lines) != len(fens):
        sys.exit("boardwire answered %d lines for %d positions: %s" % (len(lines), len(fens), proc.stderr.strip()))
    result = {}
    for fen, line in zip(fens, lines):
        obj = json.loads(line)
        if obj["fen"] != fen:
            sys.exit("boardwire answered out of order: %r for %r" % (obj["fen"], fen))
        if "error" in obj:
            result[fen] = ("error", obj["error"])
        else:
            result[fen] = frozenset((m["from"], m["to"], frozenset(m["captures"])) for m in obj["moves"])
    return result


def dame_moves(fen):
    board = dame.Board(fen)
    return board, frozenset((m.from_square, m.to_square, frozenset(m.captured)) for m in board.legal_moves)


def pydraughts_moves(fen):
    board = draughts.Board(variant="standard", fen=fen)
    return frozenset((m.steps_move[0], m.steps_move[-1], frozenset(m.captures)) for m in board.legal_moves())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boardwire", default=os.environ.get("BOARDWIRE", "target/release/boardwire"))
    ap.add_argument("--playouts", type=int, default=3000, help="positions from random games")
    ap.add_argument("--setups", type=int, default=1000, help="random set-up positions")
    ap.add_argument("--pydraughts", type=int, default=600, help="how many positions pydraughts checks too (slow)")
    ap.add_argument("--seed", type=int, default=20240531)
    ap.add_argument("--max-seconds", type=float, default=90.0, help="time budget for generating and comparing")
    args = ap.parse_args()

    start = time.monotonic()
    deadline = start + args.max_seconds
    rng = random.Random(args.seed)
    fens = vector_fens() + playout_fens(rng, args.playouts, start + args.max_seconds * 0.3) + setup_fens(rng, args.setups)
    # Unique, order kept.
    fens = list(dict.fromkeys(fens))
    mine = ours(args.boardwire, fens)

    stats = {"dame": [0, 0, 0], "pydraughts": [0, 0, 0]}  # agreed, disagreed, skipped
    failures = []
    for i, fen in enumerate(fens):
        if time.monotonic() > deadline:
            print("time budget reached after %d of %d positions" % (i, len(fens)))
            break
        ours_set = mine[fen]
        try:
            board, theirs = dame_moves(fen)
            canonical = board.fen()
            drawn = board.is_game_over() and not theirs
        except BaseException as e:  # dame raises pyo3 PanicException (a BaseException) on >256 moves
            if isinstance(e, KeyboardInterrupt):
                raise
            board, theirs, canonical, drawn = None, ("error", str(e)), None, False
        if isinstance(ours_set, tuple) or isinstance(theirs, tuple):
            # Both must reject, or the position is a peer limitation.
            if isinstance(ours_set, tuple) and isinstance(theirs, tuple):
                stats["dame"][0] += 1
            elif isinstance(theirs, tuple):
                stats["dame"][2] += 1
            else:
                stats["dame"][1] += 1
                failures.append(("dame", fen, ours_set, theirs))
            continue
        if drawn and ours_set:
            stats["dame"][2] += 1
        elif theirs == ours_set:
            stats["dame"][0] += 1
        else:
            stats["dame"][1] += 1
            failures.append(("dame", fen, ours_set, theirs))
        if i < args.pydraughts and canonical is not None:
            theirs = pydraughts_moves(canonical)
            if theirs == ours_set:
                stats["pydraughts"][0] += 1
            else:
                stats["pydraughts"][1] += 1
                failures.append(("pydraughts", fen, ours_set, theirs))

    for peer, (ok, bad, skipped) in stats.items():
        print("%-10s agreed %5d  disagreed %3d  skipped %3d" % (peer, ok, bad, skipped))
    print("positions: %d (vectors %d), %.1f s" % (len(fens), len(vector_fens()), time.monotonic() - start))
    for peer, fen, a, b in failures[:10]:
        print("DISAGREE with %s on %s" % (peer, fen))
        if not isinstance(a, tuple) and not isinstance(b, tuple):
            print("  only ours:   %s" % sorted((f, t, sorted(c)) for f, t, c in a - b))
            print("  only theirs: %s" % sorted((f, t, sorted(c)) for f, t, c in b - a))
        else:
            print("  ours: %s\n  theirs: %s" % (a if isinstance(a, tuple) else len(a), b if isinstance(b, tuple) else len(b)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
